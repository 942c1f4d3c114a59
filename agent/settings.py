"""One typed settings object for the whole application, in groups that each build their own options.

Groups: ``index`` (models, chunking, the embedded index or a Qdrant server), ``convert`` (document
conversion), ``research`` (the research run), ``llm`` (an OpenAI-compatible endpoint), ``web`` (SearXNG and
the fetcher) and ``api`` (``sleuth serve``). Each group turns itself into what its layer takes
(``settings.convert.options()``, ``settings.research.options(...)``, ``settings.llm.config()``,
``settings.web.config(...)``), so a default is written once, here, and every front end (command line, HTTP
API, MCP, evaluation) gets the same behaviour from the same settings.

Every setting keeps its one flat name, which is what users write: ``SLEUTH_<NAME>`` in the environment
(``SLEUTH_MAX_TOKENS=128``, ``SLEUTH_WEB_TIMEOUT=5``), ``name = value`` at the top of a TOML file (the
form of earlier versions, still read), or the short name inside the group's table (``[web]`` ``timeout =
5``). Precedence, highest first: explicit overrides (command-line flags), the environment, the TOML file
(``--config``, else ``$SLEUTH_CONFIG``, else ``./configs/sleuth.toml`` when present), built-in defaults. The
defaults here equal the shipped ``configs/sleuth.toml`` (a test keeps them equal). Every problem is one
``SettingsError`` line naming the setting.
"""

from __future__ import annotations

import json
import logging
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sleuth.ingest.convert import ConvertOptions
from sleuth.ingest.convert.cache import ConversionCache, default_cache_dir
from sleuth.ingest.errors import ConfigurationError
from sleuth.ingest.tokens import DENSE_MODEL_NAME, default_models_dir
from sleuth.retrieval.store.base import Fusion

if TYPE_CHECKING:
    from sleuth.agent.llm.client import LLMConfig
    from sleuth.agent.research.options import ResearchOptions
    from sleuth.retrieval.web.service import WebConfig

DEFAULT_CONFIG = Path("configs/sleuth.toml")
log = logging.getLogger(__name__)


class SettingsError(ConfigurationError):
    """Settings that cannot be used; ``str()`` is one line naming the setting and the reason."""


class _Group(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_default=True, frozen=True)


class IndexSettings(_Group):
    """The models, the chunking and the index: what decides the vectors a corpus is stored with."""

    path: Path = Field(Path(".sleuth/index"), description="Folder of the embedded index.")
    models_dir: Path = Field(default_factory=default_models_dir, description="Provisioned model folders.")
    dense_model: str = Field(DENSE_MODEL_NAME, description="Dense model folder; its tokenizer counts tokens.")
    max_tokens: int = Field(256, ge=8, le=8192, description="Token limit of a chunk.")
    overlap_tokens: int = Field(32, ge=0, le=1024, description="Overlap context per side of a chunk.")
    model_set: Literal["offline", "full"] = Field(
        "offline",
        description="offline: provisioned BGE-small + SPLADE-tiny; full: bge-base + SPLADE++ (hub).",
    )
    fusion: Fusion = Field(
        "dbsf",
        description="How hybrid search fuses dense and sparse results (dbsf ranked best: BENCHMARKS.md).",
    )
    embed_batch: int = Field(
        16,
        ge=1,
        le=1024,
        description=(
            "Texts per embedding call (the cross-encoder reads one pair at a time: a pair's score is "
            "its own)."
        ),
    )
    encoder_threads: int | None = Field(
        None,
        ge=1,
        le=256,
        description="onnxruntime threads of the embedding models, and how many cross-encoder sessions (one "
        "thread each) read pairs side by side (None: all cores, at most 8 sessions).",
    )
    qdrant_url: str | None = Field(None, description="Qdrant server or cluster; unset: the embedded index.")
    qdrant_api_key: str | None = Field(None, description="API key of the Qdrant server, if it needs one.")
    qdrant_collection: str = Field("sleuth", min_length=1, description="Collection name on the server.")
    qdrant_shards: int = Field(1, ge=1, le=1024, description="Shards of a new server collection.")
    qdrant_replicas: int = Field(1, ge=1, le=16, description="Replication factor of a new server collection.")

    @property
    def tokenizer_dir(self) -> Path:
        return self.models_dir.expanduser() / self.dense_model


class ConvertSettings(_Group):
    """Document conversion: limits, the PDF path, worker processes and the conversion cache."""

    max_file_mb: float = Field(200.0, gt=0, description="Larger input files are refused.")
    max_pages: int = Field(3000, ge=1, description="Longer PDFs are refused.")
    timeout: float = Field(600.0, ge=1, description="Seconds one file may take to convert.")
    workers: int = Field(1, ge=1, le=64, description="Conversion worker processes.")
    pdf_mode: Literal["auto", "text", "standard"] = Field("auto", description="PDF conversion path.")
    docling_artifacts: Path | None = Field(None, description="Docling layout/table models folder, if any.")
    cache_dir: Path = Field(default_factory=default_cache_dir, description="Conversion cache folder.")
    ocr: bool = Field(True, description="Read scanned pages and images by OCR (Tesseract); off: refused.")
    ocr_timeout: float = Field(600.0, ge=1, description="Seconds the OCR of one document may take in all.")

    def options(self) -> ConvertOptions:
        return ConvertOptions(
            max_bytes=int(self.max_file_mb * 1024 * 1024),
            max_pages=self.max_pages,
            pdf_mode=self.pdf_mode,
            docling_artifacts=self.docling_artifacts,
            ocr=self.ocr,
            ocr_timeout=self.ocr_timeout,
        )

    def cache(self) -> ConversionCache:
        return ConversionCache(self.cache_dir.expanduser())


class ResearchSettings(_Group):
    """The research run: templates, where runs are kept, depth, budgets and how evidence is judged."""

    templates_dir: Path | None = Field(None, description="A folder of your own report templates (*.yaml).")
    runs_dir: Path = Field(
        Path(".sleuth/runs"), description="Where research runs are stored (SQLite + files)."
    )
    depth: int = Field(2, ge=0, le=6, description="How many levels of leads research follows.")
    max_questions: int = Field(32, ge=1, le=500, description="Questions a research run may ask in all.")
    max_evidence: int = Field(200, ge=1, le=5000, description="Pieces of evidence a run may collect.")
    time_budget: float = Field(300.0, gt=0, description="Seconds a run may spend discovering evidence.")
    hits_per_question: int = Field(8, ge=1, le=100, description="Corpus hits read per question.")
    evidence_per_question: int = Field(
        6,
        ge=1,
        le=50,
        description=(
            "Passages of one question that may give evidence (besides the answers among the first "
            "hits_per_question hits of the request's search where it found the topic)."
        ),
    )
    backbone_hits: int = Field(
        20, ge=1, le=200, description="Hits read for the request's own searches (its asks, as written)."
    )
    backbone_documents: int = Field(
        10,
        ge=0,
        le=100,
        description="Top documents of the request's own searches whose best quote is always cited when it is "
        "on topic: a report never knows less than a search.",
    )
    topic_floor: float = Field(
        -4.0, ge=-20, le=20, description="Cross-encoder score of an on-topic quote (backbone evidence)."
    )
    topic_similarity: float = Field(
        0.6,
        ge=-1,
        le=1,
        description="Cosine of a short question and its search's closest passage at which the search has "
        "found its topic: the report cites its first document when no quote reaches topic_floor.",
    )
    topic_gap: float = Field(
        8.0, ge=0, le=40, description="How far below the request's best quote an on-topic quote may score."
    )
    answer_floor: float = Field(
        -1.0,
        ge=-20,
        le=20,
        description="Cross-encoder score of a quote that answers its question (a quote whose link research "
        "follows reaches it); a quote in a cue section (open questions) must reach it for the request too.",
    )
    route_floor: float = Field(
        -1.0,
        ge=-20,
        le=20,
        description="Cross-encoder score of a quote that serves a section's purpose (as answer_floor: "
        "a quote serves a section when it would be admitted as answering the section's question).",
    )
    route_lift: float = Field(
        2.0, ge=0, le=40, description="How far below its score for the request a routed quote may stay."
    )
    windows_per_passage: int = Field(
        3, ge=1, le=10, description="Quotable windows of a passage the cross-encoder reads."
    )
    windows_per_question: int = Field(
        12, ge=1, le=500, description="Quotable windows of one question the cross-encoder reads in all."
    )
    max_leads_per_level: int = Field(4, ge=0, le=200, description="Leads followed per level of research.")
    stop_when_covered: bool = Field(
        False, description="Stop following leads once every required section has evidence from two documents."
    )
    stale_days: int = Field(
        730,
        ge=1,
        description="Evidence older than this many days makes a section stale (unless its template "
        "says otherwise).",
    )
    fanout: int = Field(4, ge=1, le=64, description="Research branches running at once (web, LLM calls).")

    def options(
        self,
        *,
        fusion: Fusion,
        depth: int | None = None,
        corpus: bool = True,
        web: bool = False,
        llm: bool = False,
        review: bool = False,
    ) -> ResearchOptions:
        from sleuth.agent.research.options import ResearchOptions  # noqa: PLC0415 - settings load first

        return ResearchOptions(
            depth=self.depth if depth is None else depth,
            use_corpus=corpus,
            use_web=web,
            use_llm=llm,
            review=review,
            max_questions=self.max_questions,
            max_evidence=self.max_evidence,
            time_budget=self.time_budget,
            hits_per_question=self.hits_per_question,
            evidence_per_question=self.evidence_per_question,
            backbone_hits=self.backbone_hits,
            backbone_documents=self.backbone_documents,
            topic_floor=self.topic_floor,
            topic_similarity=self.topic_similarity,
            topic_gap=self.topic_gap,
            answer_floor=self.answer_floor,
            route_floor=self.route_floor,
            route_lift=self.route_lift,
            windows_per_passage=self.windows_per_passage,
            windows_per_question=self.windows_per_question,
            max_leads_per_level=self.max_leads_per_level,
            stop_when_covered=self.stop_when_covered,
            stale_days=self.stale_days,
            fanout=self.fanout,
            fusion=fusion,
        )


class LLMSettings(_Group):
    """An OpenAI-compatible endpoint for planning and writing; unset, research is extractive."""

    base_url: str | None = Field(
        None, description="OpenAI-compatible endpoint (…/v1) for planning and writing; unset: extractive."
    )
    model: str | None = Field(None, description="Model name sent to the LLM endpoint.")
    api_key: str | None = Field(None, description="API key of the LLM endpoint (if it needs one).")
    mode: Literal["json", "tools"] = Field(
        "tools", description="Structured output: tool calls (llama.cpp constrains them by grammar) or JSON."
    )
    timeout: float = Field(60.0, gt=0, description="Seconds one LLM call may take.")
    retries: int = Field(1, ge=0, le=5, description="Validation retries (the error is sent back).")
    max_calls: int = Field(40, ge=1, description="LLM calls per run at most.")
    refine: bool = Field(
        False, description="A second LLM pass for fluency (kept only if every anchor holds)."
    )
    max_tokens: int = Field(60_000, ge=100, description="Prompt plus completion tokens per run at most.")

    @property
    def configured(self) -> bool:
        return bool(self.base_url and self.model)

    def config(self, **overrides: Any) -> LLMConfig | None:
        """The client's configuration (None when no endpoint and model are set)."""
        from sleuth.agent.llm.client import LLMConfig  # noqa: PLC0415 - only runs with an LLM need it

        if not (self.base_url and self.model):
            return None
        values: dict[str, Any] = {
            "base_url": self.base_url,
            "model": self.model,
            "api_key": self.api_key or "none",
            "mode": self.mode,
            "timeout": self.timeout,
            "retries": self.retries,
            "max_calls": self.max_calls,
            "max_tokens": self.max_tokens,
        }
        return LLMConfig(**{**values, **overrides})


class WebSettings(_Group):
    """Web evidence: the SearXNG instance, which results are fetched, and the fetcher's limits."""

    searxng_url: str | None = Field(
        None, description="SearXNG instance (JSON format enabled) for web evidence; unset: no web search."
    )
    allow_private: bool = Field(
        False,
        description="Let result pages on loopback addresses be fetched (testing against pages on this "
        "machine); private, link-local, metadata, multicast and reserved addresses stay refused.",
    )
    pages_per_question: int = Field(3, ge=1, le=20, description="Result pages fetched per question.")
    max_pages: int = Field(24, ge=1, le=500, description="Pages fetched per run at most.")
    timeout: float = Field(10.0, gt=0, description="Seconds one page (or one SearXNG call) may take.")
    deadline: float = Field(120.0, gt=0, description="Seconds all the fetching of a run may take.")
    max_bytes: int = Field(5_000_000, ge=10_000, description="Largest page read (bytes; streamed).")
    per_domain: int = Field(2, ge=1, description="Pages from one domain per question at most.")
    allow_domains: list[str] = Field(default_factory=list, description="Only these domains (and subdomains).")
    deny_domains: list[str] = Field(default_factory=list, description="Never these domains (and subdomains).")
    domain_trust: dict[str, float] = Field(
        default_factory=dict, description="Domain -> score added when ranking results (-1 to 1)."
    )
    geo_penalty: float = Field(
        0.5, ge=0, description="Score taken from a result naming other places than the query names."
    )
    respect_robots: bool = Field(True, description="Honour robots.txt.")
    cache_ttl: float = Field(7 * 86400, ge=0, description="Seconds a fetched page is reused.")

    @property
    def configured(self) -> bool:
        return bool(self.searxng_url)

    def config(self, *, cache_path: Path, max_tokens: int, concurrency: int) -> WebConfig:
        from sleuth.retrieval.web.fetcher import FetchPolicy  # noqa: PLC0415 - only runs with the web
        from sleuth.retrieval.web.gatekeeper import GatePolicy  # noqa: PLC0415
        from sleuth.retrieval.web.service import WebConfig  # noqa: PLC0415

        return WebConfig(
            pages_per_question=self.pages_per_question,
            max_tokens=max_tokens,
            cache_path=cache_path,
            cache_ttl=self.cache_ttl,
            fetch=FetchPolicy(
                timeout=self.timeout,
                deadline=self.deadline,
                max_bytes=self.max_bytes,
                concurrency=concurrency,
                max_pages=self.max_pages,
                allow_private=self.allow_private,
                respect_robots=self.respect_robots,
            ),
            gate=GatePolicy(
                allow_domains=tuple(self.allow_domains),
                deny_domains=tuple(self.deny_domains),
                per_domain=self.per_domain,
                trust=dict(self.domain_trust),
                geo_penalty=self.geo_penalty,
            ),
        )


class ApiSettings(_Group):
    """``sleuth serve``: the key, the ingest root, limits and allowed origins."""

    key: str | None = Field(None, description="Key every API call but /healthz must send (X-API-Key).")
    root: Path = Field(Path("."), description="Folder that server-side ingest paths are confined to.")
    max_runs: int = Field(
        2, ge=1, le=64, description="Research runs the server runs at once (the rest wait)."
    )
    max_body_mb: int = Field(50, ge=1, description="Largest request body (uploads included), in MB.")
    cors_origins: list[str] = Field(default_factory=list, description="Origins allowed to call the API.")


class Settings(_Group):
    log_level: str = Field("WARNING", pattern="^(DEBUG|INFO|WARNING|ERROR)$")
    progress_interval: float = Field(
        5.0, gt=0, description="Seconds between progress lines when stderr is not a terminal."
    )
    index: IndexSettings = Field(default_factory=IndexSettings)
    convert: ConvertSettings = Field(default_factory=ConvertSettings)
    research: ResearchSettings = Field(default_factory=ResearchSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    web: WebSettings = Field(default_factory=WebSettings)
    api: ApiSettings = Field(default_factory=ApiSettings)

    def flat(self) -> dict[str, Any]:
        """Every setting under its flat name (what ``SLEUTH_<NAME>`` and a flat TOML file use)."""
        out: dict[str, Any] = {name: getattr(self, name) for name in TOP}
        for name, (group, field) in FLAT.items():
            out[name] = getattr(getattr(self, group), field)
        return out


GROUPS: dict[str, type[_Group]] = {
    "index": IndexSettings,
    "convert": ConvertSettings,
    "research": ResearchSettings,
    "llm": LLMSettings,
    "web": WebSettings,
    "api": ApiSettings,
}
TOP = ("log_level", "progress_interval")
#: Flat names of earlier versions (and of the environment) that differ from ``<group short name>``.
_RENAMED = {
    ("index", "path"): "index",
    ("convert", "timeout"): "conversion_timeout",
    ("research", "depth"): "research_depth",
    ("api", "key"): "api_key",
    ("api", "root"): "api_root",
    ("api", "max_runs"): "api_max_runs",
    ("api", "max_body_mb"): "api_max_body_mb",
    ("api", "cors_origins"): "api_cors_origins",
    ("web", "searxng_url"): "searxng_url",
}
_PREFIXED = {"llm": "llm_", "web": "web_"}


def _flat_name(group: str, field: str) -> str:
    if (group, field) in _RENAMED:
        return _RENAMED[(group, field)]
    return _PREFIXED.get(group, "") + field


#: Flat name -> (group, field).
FLAT: dict[str, tuple[str, str]] = {
    _flat_name(group, field): (group, field)
    for group, model in GROUPS.items()
    for field in model.model_fields
}
_BY_FIELD = {where: name for name, where in FLAT.items()}


#: Settings of earlier versions that no longer do anything (the research run they tuned was replaced): a
#: file or environment that still sets them works, with a warning naming them.
RETIRED = frozenset(
    {
        "min_quote_coverage",
        "relative_coverage",
        "relevance_margin",
        "lead_margin",
        "aspect_margin",
        "max_sources",
        "route_min_similarity",
    }
)


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
    """Settings from all sources (overrides by flat name); any problem becomes one ``SettingsError`` line."""
    path = config_path(config)
    values: dict[str, Any] = {group: {} for group in GROUPS}
    for name, value in _read_file(path).items():
        _place(values, name, value, f"config {path}")
    for name in [*TOP, *FLAT, *RETIRED]:
        raw = os.environ.get(f"SLEUTH_{name.upper()}")
        if raw is not None:
            _place(values, name, _env_value(name, raw), f"env SLEUTH_{name.upper()}")
    for name, value in overrides.items():
        if value is not None:
            _place(values, name, value, "overrides")
    try:
        return Settings.model_validate(values)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(str(p) for p in first["loc"])
        where = (
            _BY_FIELD.get((loc[0], loc[1]), ".".join(loc)) if len(loc) >= 2 else ".".join(loc) or "settings"
        )
        origin = f" (config {path}, env SLEUTH_*)" if path else " (env SLEUTH_*)"
        raise SettingsError(f"invalid setting {where}: {first['msg']}{origin}") from exc


def _read_file(path: Path | None) -> dict[str, Any]:
    """A TOML file as flat names: top-level keys as they are, ``[group]`` tables' keys as ``group.key``."""
    if path is None:
        return {}
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise SettingsError(f"cannot read config {path}: {exc}") from exc
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in GROUPS and isinstance(value, Mapping):
            for inner, item in value.items():
                out[f"{key}.{inner}"] = item
        else:
            out[key] = value
    return out


def _place(values: dict[str, Any], name: str, value: Any, origin: str) -> None:
    if name in TOP:
        values[name] = value
        return
    if "." in name and name.split(".", 1)[1] not in RETIRED:
        group, field = name.split(".", 1)
        model = GROUPS.get(group)
        if model is None or field not in model.model_fields:
            field = FLAT.get(field, (group, ""))[1] if FLAT.get(field, ("", ""))[0] == group else ""
        if not field:
            raise SettingsError(f"unknown setting {name!r} ({origin})")
        values[group][field] = value
        return
    bare = name.split(".", 1)[-1]
    if bare in RETIRED:
        log.warning(
            "setting %s (%s) is no longer used by this version of sleuth; it is ignored", name, origin
        )
        return
    if name not in FLAT:
        raise SettingsError(f"unknown setting {name!r} ({origin})")
    group, field = FLAT[name]
    values[group][field] = value


def _env_value(name: str, raw: str) -> Any:
    """An environment string as the setting wants it: JSON for lists and mappings, else the text."""
    if name in TOP or name in RETIRED:
        return raw
    group, field = FLAT[name]
    annotation = GROUPS[group].model_fields[field].annotation
    if get_origin(annotation) in (list, dict) or annotation in (list, dict):
        try:
            return json.loads(raw)
        except ValueError as exc:
            kind = "list" if get_origin(annotation) is list else "mapping"
            raise SettingsError(
                f"invalid setting {name}: SLEUTH_{name.upper()} must be a JSON {kind} "
                f"(e.g. {json.dumps(['a'] if kind == 'list' else {'a': 1})}): {exc}"
            ) from exc
    if type(None) in get_args(annotation) and raw == "":
        return None
    return raw
