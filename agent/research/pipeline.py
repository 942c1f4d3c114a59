"""A research run, orchestrated: plan, discover, (review,) cite, route, write, guard, judge coverage,
assemble.

``ResearchRun.events()`` is an async stream of typed events (``sleuth.agent.events``); the run does no I/O
of its own beyond asking its evidence sources. The steps live in modules of their own: discovery
(``discovery``), quotes and admission (``admission``), citation (``citation``), routing (``routing``),
writing (``synthesis`` or the LLM's, through ``steps``), guards (``guards``), statuses (``coverage``) and
the report (``assembly``). What a run is built from (sources, steps) is decided by the composition root,
``sleuth.agent.wiring``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from typing import Any

from sleuth.agent.events import (
    PlanReady,
    ReviewReady,
    RunComplete,
    RunEvent,
    RunFailed,
    RunStarted,
    SectionStatus,
    SynthesisDone,
)
from sleuth.agent.report import SectionReport
from sleuth.agent.research.admission import Admission
from sleuth.agent.research.assembly import assemble, section_content, section_note
from sleuth.agent.research.citation import Citation
from sleuth.agent.research.coverage import cited, section_status
from sleuth.agent.research.discovery import Discovery
from sleuth.agent.research.evidence import Evidence, Ledger, QuoteSelector
from sleuth.agent.research.guards import GuardCounts, guard_claims, verify_quotes
from sleuth.agent.research.options import ResearchOptions
from sleuth.agent.research.plan import guard_plan
from sleuth.agent.research.routing import Embedder, route
from sleuth.agent.research.sources import EvidenceSource
from sleuth.agent.research.state import RunState
from sleuth.agent.research.steps import ResearchSteps, extractive_steps
from sleuth.agent.templates import Template
from sleuth.retrieval.encoders import Encoders


class ResearchRun:
    def __init__(
        self,
        run_id: str,
        query: str,
        template: Template,
        options: ResearchOptions,
        *,
        encoders: Encoders,
        sources: Sequence[EvidenceSource],
        steps: ResearchSteps | None = None,
        brief: str | None = None,
    ) -> None:
        self.run_id = run_id
        self.query = query.strip()
        self.template = template
        self.options = options
        self.encoders = encoders
        self.sources = list(sources)
        self.steps = steps or extractive_steps()
        #: The research brief of an interactive run (steers the LLM planner; never a claim).
        self.brief = brief
        self.state = RunState(Ledger(options.max_evidence))
        self._seq = 0
        self._started = time.monotonic()
        self.admission = Admission(
            self.query,
            template,
            options,
            self.state,
            selector=QuoteSelector(encoders.sparse_token_ids),
            embed_dense=encoders.embed_dense,
        )
        self.citation = Citation(
            self.query,
            template,
            options,
            self.state,
            sources=self.sources,
            admission=self.admission,
            rerank=encoders.rerank,
        )

    # -- the stream

    async def events(self) -> AsyncIterator[RunEvent]:
        """The whole run; the last event is ``complete``, ``review`` or ``failed``."""
        options = {**self.options.as_dict(), **({"brief": self.brief} if self.brief else {})}
        yield self._event(RunStarted, query=self.query, template=self.template.name, options=options)
        try:
            planned = await asyncio.to_thread(self.steps.planner.plan, self.query, self.template)
            plan = guard_plan(planned, self.query, self.template, limit=self.options.max_questions)
            yield self._event(PlanReady, questions=[q.planned() for q in plan])
            discovery = Discovery(
                self.query,
                self.template,
                self.options,
                self.state,
                sources=self.sources,
                embed_queries=self.encoders.embed_queries,
                admission=self.admission,
                steps=self.steps,
                event=self._event,
                started=self._started,
            )
            async for event in discovery.run(plan):
                yield event
            if self.options.review:
                yield self._event(
                    ReviewReady,
                    evidence=len(self.state.ledger),
                    message="evidence collected; pin or drop pieces, then resume the run to write the report",
                )
                return
            async for event in self._write():
                yield event
        except Exception as exc:  # the stream must end with a terminal event, whatever happened
            yield self._event(RunFailed, error=f"{type(exc).__name__}: {exc}")
            raise
        finally:
            await self.aclose()

    async def resume(self, ledger: Sequence[Evidence]) -> AsyncIterator[RunEvent]:
        """Write the report from a reviewed ledger (pinned pieces always cited, dropped ones never)."""
        yield self._event(
            RunStarted,
            query=self.query,
            template=self.template.name,
            options={**self.options.as_dict(), "resumed": True},
        )
        self.state.ledger.limit = max(self.state.ledger.limit, len(ledger))
        self.state.ledger.replace(ledger)
        self.state.stop_reason = "resumed from review"
        try:
            async for event in self._write():
                yield event
        except Exception as exc:
            yield self._event(RunFailed, error=f"{type(exc).__name__}: {exc}")
            raise
        finally:
            await self.aclose()

    async def aclose(self) -> None:
        """Release the sources (web clients) and the steps (an LLM client); safe to call twice."""
        sources, self.sources = self.sources, []
        for source in sources:
            await source.aclose()
        self.steps.close()

    def _event(self, kind: type[RunEvent], **fields: Any) -> Any:
        self._seq += 1
        return kind(run_id=self.run_id, seq=self._seq, at=time.time(), **fields)

    # -- writing the report

    async def _write(self) -> AsyncIterator[RunEvent]:
        counts = GuardCounts()
        started = time.monotonic()
        ledger = self.state.ledger
        ranking = await asyncio.to_thread(self.citation.choose_sources)
        sources = await asyncio.to_thread(self.citation.source_texts, ledger.live())
        verified = verify_quotes(ledger.live(), sources, counts)
        good = {e.id: e for e in verified}  # repaired quotes replace the stored ones
        ledger.replace([good.get(e.id) or e.model_copy(update={"dropped": True}) for e in ledger])
        verified = await asyncio.to_thread(self.citation.cited_only, verified, ranking)
        routed = await asyncio.to_thread(self._route, verified)
        drafts = await asyncio.to_thread(
            self.steps.synthesizer.write, self.template, routed, {e.id: e.relevance for e in verified}
        )
        evidence = {e.id: e for e in verified}
        now = datetime.now(UTC)
        sections: list[SectionReport] = []
        for spec in self.template.sections:
            before = drafts.get(spec.id, [])
            claims = guard_claims(before, evidence, counts)
            status = section_status(spec, claims, evidence, stale_after_days=self.options.stale_days, now=now)
            yield self._event(
                SynthesisDone, section_id=spec.id, claims=len(claims), dropped=len(before) - len(claims)
            )
            ids = cited(claims)
            facts = None
            if self.steps.facts is not None and spec.fields and ids:
                facts = await asyncio.to_thread(self.steps.facts.extract, spec, [evidence[i] for i in ids])
            yield self._event(
                SectionStatus,
                section_id=spec.id,
                status=status,
                evidence=len(ids),
                documents=len({evidence[i].document_key for i in ids}),
            )
            sections.append(
                SectionReport(
                    id=spec.id,
                    title=spec.title,
                    required=spec.required,
                    min_evidence=spec.min_evidence,
                    status=status,
                    content=section_content(claims),
                    claims=claims,
                    fields=facts,
                    note=section_note(spec.required, status),
                )
            )
        self.state.seconds["write"] = time.monotonic() - started
        web = next((s.metrics() for s in self.sources if s.kind == "web"), self.options.use_web)
        report = assemble(
            run_id=self.run_id,
            query=self.query,
            template=self.template,
            sections=sections,
            evidence=evidence,
            state=self.state,
            guards=counts,
            seconds=time.monotonic() - self._started,
            llm=self.steps.metrics(),
            web=web,
        )
        report.check()
        yield self._event(RunComplete, report=report)

    def _route(self, items: Sequence[Evidence]) -> dict[str, list[Evidence]]:
        encoders = self.encoders
        embedder = Embedder(lambda texts, query: encoders.embed_dense(texts, query=query))
        return route(
            self.template, items, self.query, embedder, min_similarity=self.options.route_min_similarity
        )
