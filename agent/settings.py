"""One typed settings object for the whole application.

Precedence, highest first: command-line flags, ``SLEUTH_*`` environment variables, the TOML file
(``--config``, else ``$SLEUTH_CONFIG``, else ``./configs/sleuth.toml`` when present), built-in defaults.
The defaults here equal the shipped ``configs/sleuth.toml`` (a test keeps them equal).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from sleuth.ingest.cli_options import default_cache_dir
from sleuth.ingest.tokens import DENSE_MODEL_NAME, default_models_dir

DEFAULT_CONFIG = Path("configs/sleuth.toml")


class SettingsError(Exception):
    """Settings that cannot be used; ``str()`` is one line naming the setting and the reason."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SLEUTH_", extra="forbid", validate_default=True)

    index: Path = Field(Path(".sleuth/index"), description="Folder of the embedded index.")
    models_dir: Path = Field(default_factory=default_models_dir, description="Provisioned model folders.")
    dense_model: str = Field(DENSE_MODEL_NAME, description="Dense model folder; its tokenizer counts tokens.")
    max_tokens: int = Field(256, ge=8, le=8192, description="Token limit of a chunk.")
    overlap_tokens: int = Field(32, ge=0, le=1024, description="Overlap context per side of a chunk.")
    max_file_mb: float = Field(200.0, gt=0, description="Larger input files are refused.")
    max_pages: int = Field(3000, ge=1, description="Longer PDFs are refused.")
    conversion_timeout: float = Field(600.0, ge=1, description="Seconds one file may take to convert.")
    workers: int = Field(1, ge=1, le=64, description="Conversion worker processes.")
    pdf_mode: Literal["auto", "text", "standard"] = Field("auto", description="PDF conversion path.")
    docling_artifacts: Path | None = Field(None, description="Docling layout/table models folder, if any.")
    cache_dir: Path = Field(default_factory=default_cache_dir, description="Conversion cache folder.")
    log_level: str = Field("WARNING", pattern="^(DEBUG|INFO|WARNING|ERROR)$")
    progress_interval: float = Field(
        5.0, gt=0, description="Seconds between progress lines when stderr is not a terminal."
    )
    model_set: Literal["offline", "full"] = Field(
        "offline",
        description="offline: provisioned BGE-small + SPLADE-tiny; full: bge-base + SPLADE++ (hub).",
    )
    fusion: Literal["rrf", "dbsf"] = Field(
        "dbsf",
        description="How hybrid search fuses dense and sparse results (dbsf ranked best: BENCHMARKS.md).",
    )
    embed_batch: int = Field(16, ge=1, le=1024, description="Texts per encoder call.")
    encoder_threads: int | None = Field(
        None, ge=1, le=256, description="onnxruntime threads (None: all cores)."
    )
    # -- research
    templates_dir: Path | None = Field(None, description="A folder of your own report templates (*.yaml).")
    runs_dir: Path = Field(
        Path(".sleuth/runs"), description="Where research runs are stored (SQLite + files)."
    )
    research_depth: int = Field(2, ge=0, le=6, description="How many levels of leads research follows.")
    max_questions: int = Field(32, ge=1, le=500, description="Questions a research run may ask in all.")
    max_evidence: int = Field(200, ge=1, le=5000, description="Pieces of evidence a run may collect.")
    time_budget: float = Field(300.0, gt=0, description="Seconds a run may spend discovering evidence.")
    hits_per_question: int = Field(8, ge=1, le=100, description="Corpus hits read per question.")
    evidence_per_question: int = Field(6, ge=1, le=50, description="Quotes kept per question.")
    min_quote_coverage: float = Field(
        0.05, ge=0, le=1, description="Share of a question's term weight a quote must cover to be evidence."
    )
    relative_coverage: float = Field(
        0.6, ge=0, le=1, description="A quote must cover this share of what the question's best quote covers."
    )
    relevance_margin: float = Field(
        0.06, ge=0, le=2, description="Evidence may fall this far below the best match of the query (cosine)."
    )
    lead_margin: float = Field(
        0.03, ge=0, le=2, description="The same for evidence found by following leads."
    )
    aspect_margin: float = Field(
        0.15, ge=0, le=2, description="The same for questions about one aspect (sections with keywords)."
    )
    max_leads_per_level: int = Field(8, ge=0, le=200, description="Leads followed per level of research.")
    max_sources: int = Field(
        5,
        ge=1,
        le=200,
        description="Documents a report cites at most: the most relevant, by a cross-encoder.",
    )
    stop_when_covered: bool = Field(
        False, description="Stop following leads once every required section has evidence from two documents."
    )
    route_min_similarity: float = Field(
        0.62, ge=-1, le=1, description="Backfill: least section/query similarity for evidence to be used."
    )
    stale_days: int = Field(
        730, ge=1, description="Evidence older than this many days makes a section stale."
    )
    fanout: int = Field(4, ge=1, le=64, description="Research branches running at once (web, LLM calls).")
    llm_base_url: str | None = Field(
        None, description="OpenAI-compatible endpoint (…/v1) for planning and writing; unset: extractive."
    )
    llm_model: str | None = Field(None, description="Model name sent to the LLM endpoint.")
    llm_api_key: str | None = Field(None, description="API key of the LLM endpoint (if it needs one).")
    llm_mode: Literal["json", "tools"] = Field(
        "tools", description="Structured output: tool calls (llama.cpp constrains them by grammar) or JSON."
    )
    llm_timeout: float = Field(60.0, gt=0, description="Seconds one LLM call may take.")
    llm_retries: int = Field(1, ge=0, le=5, description="Validation retries (the error is sent back).")
    llm_max_calls: int = Field(40, ge=1, description="LLM calls per run at most.")
    llm_refine: bool = Field(
        False, description="A second LLM pass for fluency (kept only if every anchor holds)."
    )
    llm_max_tokens: int = Field(60_000, ge=100, description="Prompt plus completion tokens per run at most.")
    searxng_url: str | None = Field(
        None, description="SearXNG instance (JSON format enabled) for web evidence; unset: no web search."
    )
    web_allow_private: bool = Field(
        False,
        description="Let result pages on loopback or private addresses be fetched (local testing only).",
    )
    web_pages_per_question: int = Field(3, ge=1, le=20, description="Result pages fetched per question.")
    web_max_pages: int = Field(24, ge=1, le=500, description="Pages fetched per run at most.")
    web_timeout: float = Field(10.0, gt=0, description="Seconds one page (or one SearXNG call) may take.")
    web_deadline: float = Field(120.0, gt=0, description="Seconds all the fetching of a run may take.")
    web_max_bytes: int = Field(5_000_000, ge=10_000, description="Largest page read (bytes; streamed).")
    web_per_domain: int = Field(2, ge=1, description="Pages from one domain per question at most.")
    web_allow_domains: list[str] = Field(
        default_factory=list, description="Only these domains (and subdomains)."
    )
    web_deny_domains: list[str] = Field(
        default_factory=list, description="Never these domains (and subdomains)."
    )
    web_domain_trust: dict[str, float] = Field(
        default_factory=dict, description="Domain -> score added when ranking results (-1 to 1)."
    )
    web_geo_penalty: float = Field(
        0.5, ge=0, description="Score taken from a result naming other places than the query names."
    )
    web_respect_robots: bool = Field(True, description="Honour robots.txt.")
    web_cache_ttl: float = Field(7 * 86400, ge=0, description="Seconds a fetched page is reused.")
    api_key: str | None = Field(None, description="Key every API call but /healthz must send (X-API-Key).")
    api_root: Path = Field(Path("."), description="Folder that server-side ingest paths are confined to.")
    api_max_runs: int = Field(
        2, ge=1, le=64, description="Research runs the server runs at once (the rest wait)."
    )
    api_max_body_mb: int = Field(50, ge=1, description="Largest request body (uploads included), in MB.")
    api_cors_origins: list[str] = Field(default_factory=list, description="Origins allowed to call the API.")
    qdrant_url: str | None = Field(None, description="Qdrant server or cluster; unset: the embedded index.")
    qdrant_api_key: str | None = Field(None, description="API key of the Qdrant server, if it needs one.")
    qdrant_collection: str = Field("sleuth", min_length=1, description="Collection name on the server.")
    qdrant_shards: int = Field(1, ge=1, le=1024, description="Shards of a new server collection.")
    qdrant_replicas: int = Field(1, ge=1, le=16, description="Replication factor of a new server collection.")

    @property
    def tokenizer_dir(self) -> Path:
        return self.models_dir.expanduser() / self.dense_model

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls))


def config_path(explicit: Path | None = None) -> Path | None:
    if explicit is not None:
        if not explicit.is_file():
            raise SettingsError(f"config file {explicit}: no such file")
        return explicit
    env = os.environ.get("SLEUTH_CONFIG")
    if env:
        if not Path(env).is_file():
            raise SettingsError(f"config file {env} (from SLEUTH_CONFIG): no such file")
        return Path(env)
    return DEFAULT_CONFIG if DEFAULT_CONFIG.is_file() else None


def load_settings(config: Path | None = None, **overrides: Any) -> Settings:
    """Settings from all sources; any problem becomes one ``SettingsError`` line."""
    path = config_path(config)

    class _FromFile(Settings):
        model_config = SettingsConfigDict(toml_file=path)

    try:
        return _FromFile(**{k: v for k, v in overrides.items() if v is not None})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "settings"
        origin = f" (config {path}, env SLEUTH_*)" if path else " (env SLEUTH_*)"
        raise SettingsError(f"invalid setting {where}: {first['msg']}{origin}") from exc
    except (OSError, ValueError) as exc:
        raise SettingsError(f"cannot read config {path}: {exc}") from exc
