"""The composition root: the one place that turns settings into the parts of sleuth and connects them.

Every front end (the command line, the HTTP API, the MCP server, evaluation) builds what it needs here:
the runtime (models, index, searcher), an ingestor with the configured chunking, the run store, the template
library, and research runs with their evidence sources (corpus, web) and their steps (extractive, or an LLM
client's). Library code receives these parts and never reads the settings itself; a second implementation
of a part (another search provider, another run store) is chosen here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sleuth.agent.research.options import ResearchOptions
from sleuth.agent.research.pipeline import ResearchRun
from sleuth.agent.research.sources import CorpusSource, EvidenceSource, WebSource
from sleuth.agent.research.steps import ResearchSteps, extractive_steps
from sleuth.agent.runs import RunFolders, RunStore, SqliteRunStore
from sleuth.agent.runtime import Runtime, SetupError
from sleuth.agent.settings import Settings
from sleuth.agent.templates import Template, TemplateLibrary
from sleuth.ingest.errors import ConfigurationError
from sleuth.retrieval.encoders import Encoders
from sleuth.retrieval.ingestion import Ingestor, IngestProgress
from sleuth.retrieval.web.searxng import SearxngClient
from sleuth.retrieval.web.service import WebSearch

if TYPE_CHECKING:
    from sleuth.agent.llm.steps import Clarifier


class Wiring:
    """Builds sleuth's parts from one ``Settings``."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    # -- the runtime and the corpus

    def runtime(
        self,
        *,
        index_dir: Path | None = None,
        qdrant_url: str | None = None,
        create: bool = False,
        encoders: Encoders | None = None,
    ) -> Runtime:
        """Models plus an open index; ``SetupError`` (one line) when either cannot be had."""
        return Runtime.open(
            self.settings.index, index_dir=index_dir, qdrant_url=qdrant_url, create=create, encoders=encoders
        )

    def ingestor(
        self,
        runtime: Runtime,
        *,
        on_error: Callable[[str], None] | None = None,
        progress: IngestProgress | None = None,
    ) -> Ingestor:
        """An ingestor with the configured chunking; tokens are counted by the dense model's tokenizer."""
        try:
            counter = runtime.encoders.token_counter()
        except ConfigurationError as exc:
            raise SetupError(f"{exc} (run `make models`)") from exc
        return Ingestor(
            runtime.index,
            runtime.encoders,
            counter,
            max_tokens=self.settings.index.max_tokens,
            overlap_tokens=self.settings.index.overlap_tokens,
            on_error=on_error,
            progress=progress,
        )

    # -- research

    def templates(self) -> TemplateLibrary:
        return TemplateLibrary(self.settings.research.templates_dir)

    def run_store(self) -> RunStore:
        return SqliteRunStore(self.settings.research.runs_dir)

    def run_folders(self) -> RunFolders:
        return RunFolders(self.settings.research.runs_dir)

    def research_options(
        self,
        *,
        depth: int | None = None,
        corpus: bool = True,
        web: bool = False,
        llm: bool = False,
        review: bool = False,
    ) -> ResearchOptions:
        return self.settings.research.options(
            fusion=self.settings.index.fusion, depth=depth, corpus=corpus, web=web, llm=llm, review=review
        )

    def research_run(
        self,
        runtime: Runtime,
        run_id: str,
        query: str,
        template: Template,
        options: ResearchOptions,
        *,
        brief: str | None = None,
        resuming: bool = False,
    ) -> ResearchRun:
        """A run with the sources and steps its options ask for (a resumed run searches nothing new: it
        needs the corpus only to read quotes again)."""
        return ResearchRun(
            run_id,
            query,
            template,
            options,
            encoders=runtime.encoders,
            sources=self.evidence_sources(runtime, options, resuming=resuming),
            steps=self.research_steps(query, options, brief=brief),
            brief=brief,
        )

    def evidence_sources(
        self, runtime: Runtime, options: ResearchOptions, *, resuming: bool = False
    ) -> list[EvidenceSource]:
        sources: list[EvidenceSource] = []
        if options.use_corpus:
            sources.append(
                CorpusSource(
                    runtime.searcher,
                    hits_per_question=options.hits_per_question,
                    backbone_hits=options.backbone_hits,
                    fusion=options.fusion,
                )
            )
        if options.use_web and not resuming:
            sources.append(WebSource(self.web_search(runtime), fanout=options.fanout))
        return sources

    def web_search(self, runtime: Runtime) -> WebSearch:
        """The run's web search: the configured search provider, gatekeeper and fetcher."""
        web = self.settings.web
        if not web.searxng_url:
            raise ConfigurationError("web search needs a SearXNG instance: set SLEUTH_SEARXNG_URL")
        config = web.config(
            cache_path=self.settings.research.runs_dir.expanduser().parent / "web-cache.sqlite",
            max_tokens=self.settings.index.max_tokens,
            concurrency=self.settings.research.fanout,
        )
        provider = SearxngClient(
            web.searxng_url, timeout=config.fetch.timeout, user_agent=config.fetch.user_agent
        )
        return WebSearch(config, provider, runtime.encoders, runtime.encoders.token_counter())

    def research_steps(
        self, query: str, options: ResearchOptions, *, brief: str | None = None
    ) -> ResearchSteps:
        """Extractive steps, or with ``options.use_llm`` the LLM's (planner, writer, quotes, facts, leads)."""
        if not options.use_llm:
            return extractive_steps()
        from sleuth.agent.llm.client import LLMClient  # noqa: PLC0415 - only runs with an LLM load the SDKs
        from sleuth.agent.llm.steps import llm_steps  # noqa: PLC0415

        config = self.settings.llm.config()
        if config is None:
            raise ConfigurationError("an LLM needs SLEUTH_LLM_BASE_URL and SLEUTH_LLM_MODEL")
        return llm_steps(LLMClient(config), query, brief=brief, refine=self.settings.llm.refine)

    def clarifier(self) -> Clarifier | None:
        """``--interactive``: the LLM that asks one clarifying question and writes the research brief (at most
        two calls), or None without an LLM. The caller closes ``clarifier.client``."""
        from sleuth.agent.llm.client import LLMClient  # noqa: PLC0415
        from sleuth.agent.llm.steps import Clarifier  # noqa: PLC0415

        config = self.settings.llm.config(max_calls=2)
        return Clarifier(LLMClient(config)) if config is not None else None
