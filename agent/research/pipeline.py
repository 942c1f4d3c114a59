"""A research run, orchestrated: understand the request, plan, discover, (review,) choose what to cite, route,
write, guard, summarise, judge coverage, assemble.

``ResearchRun.events()`` is an async stream of typed events (``sleuth.agent.events``); the run does no I/O
of its own beyond asking its evidence sources. The steps live in modules of their own: the request
(``request``), the plan (``plan``), discovery (``discovery``), quotes and admission (``quotes``,
``admission``), citation (``citation``), routing (``routing``), writing (``synthesis`` or the LLM's, through
``steps``), guards (``guards``), statuses (``coverage``) and the report (``assembly``). What a run is built
from (sources, steps) is decided by the composition root, ``sleuth.agent.wiring``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Mapping, Sequence
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
from sleuth.agent.report import Claim
from sleuth.agent.research.admission import BACKBONE_HITS, Admission
from sleuth.agent.research.asked_entry import asked_entry
from sleuth.agent.research.assembly import Written, assemble, section_note
from sleuth.agent.research.citation import Citation
from sleuth.agent.research.coverage import cited, section_status
from sleuth.agent.research.discovery import Discovery
from sleuth.agent.research.evidence import Evidence, Ledger, found_only
from sleuth.agent.research.guards import GuardCounts, guard_claims, verify_quotes
from sleuth.agent.research.history import asks_about_changes
from sleuth.agent.research.names import asked_names, mentioned
from sleuth.agent.research.options import ResearchOptions
from sleuth.agent.research.plan import guard_plan
from sleuth.agent.research.query import usable_query
from sleuth.agent.research.quotes import QuoteJudge
from sleuth.agent.research.request import Request, understand
from sleuth.agent.research.routing import route
from sleuth.agent.research.section_bounds import bound_sections, left_out
from sleuth.agent.research.sources import EvidenceSource
from sleuth.agent.research.state import RunState
from sleuth.agent.research.steps import ResearchSteps, extractive_steps
from sleuth.agent.research.synthesis import summarize, unanswered
from sleuth.agent.templates import Template
from sleuth.retrieval.encoders import Encoders

#: A long request's asks are each judged against this many of the most direct pieces besides what their own
#: searches found (a short question's parts against every piece).
SUMMARY_JUDGED = 12


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
        self.query = usable_query(query)
        self.request: Request = understand(self.query)
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
        self.judge = QuoteJudge(
            encoders.sparse_token_ids, encoders.rerank, per_passage=options.windows_per_passage
        )
        self.admission = Admission(
            options,
            self.state,
            judge=self.judge,
            following=self._following,
            long=self.request.long,
        )
        self.citation = Citation(self.request, sources=self.sources, judge=self.judge.judge)

    def _following(self, chunk_ids: Sequence[str]) -> dict[str, str]:
        out: dict[str, str] = {}
        for source in self.sources:
            out.update(source.texts(chunk_ids))
        return out

    # -- the stream

    async def events(self) -> AsyncIterator[RunEvent]:
        """The whole run; the last event is ``complete``, ``review`` or ``failed``."""
        options = {**self.options.as_dict(), **({"brief": self.brief} if self.brief else {})}
        if self.request.long:
            options["asks"] = self.request.asks
            options["constraints"] = self.request.constraints
        if self.request.excluded:
            options["excluded"] = self.request.excluded
        yield self._event(RunStarted, query=self.query, template=self.template.name, options=options)
        try:
            planned = await asyncio.to_thread(self.steps.planner.plan, self.request, self.template)
            plan = guard_plan(planned, self.request, self.template, limit=self.options.max_questions)
            yield self._event(PlanReady, questions=[q.planned() for q in plan])
            discovery = Discovery(
                self.request,
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

    def _summary_asks(self) -> list[str]:
        """The questions the summary answers one by one: a long request's asks (in the form that answered
        them), or the parts of a short question that joins two ("Are foreign key constraints enforced by
        default, and how do I turn enforcement on?"): each part gets its own best answer first, where three
        quotes on whether they are enforced had crowded out how to turn them on."""
        if self.request.long:
            return [self.state.answered_as.get(a, a) for a in self.request.asks]
        return self.request.asks[1:]

    def _asked_as(self, k: int) -> str:
        """The ``k``-th of the summary's asks as the request wrote it."""
        written = self.request.asks if self.request.long else self.request.asks[1:]
        return self.request.as_written(written[k])

    def _event(self, kind: type[RunEvent], **fields: Any) -> Any:
        self._seq += 1
        return kind(run_id=self.run_id, seq=self._seq, at=time.time(), **fields)

    # -- writing the report

    async def _write(self) -> AsyncIterator[RunEvent]:
        counts = GuardCounts()
        started = time.monotonic()
        ledger = self.state.ledger
        texts = await asyncio.to_thread(self.citation.source_texts, ledger.live())
        verified = verify_quotes(ledger.live(), texts, counts)
        unnamed = self._unnamed(verified, texts)
        good = {e.id: e for e in verified}  # repaired quotes replace the stored ones
        ledger.replace([good.get(e.id) or e.model_copy(update={"dropped": True}) for e in ledger])
        ruled_out = self.citation.ruled_out(verified)
        chosen = await asyncio.to_thread(self.citation.choose, verified, ruled_out=ruled_out)
        routed = await asyncio.to_thread(
            route,
            self.template,
            chosen,
            self.request,
            self.judge.judge,
            route_floor=self.options.route_floor,
            route_lift=self.options.route_lift,
            cue_floor=self.options.answer_floor,
        )
        drafts = await asyncio.to_thread(self.steps.synthesizer.write, self.template, routed, self.request)
        evidence = {e.id: e for e in chosen}
        findings: dict[str, list[Claim]] = {}
        dropped: dict[str, int] = {}
        for spec in self.template.sections:
            if spec.kind != "summary":
                before = drafts.get(spec.id, [])
                findings[spec.id] = guard_claims(before, evidence, counts)
                dropped[spec.id] = len(before) - len(findings[spec.id])
        # The summary answers from every claim written (an ask's best answer may be a claim a section's bound
        # leaves out); the findings sections show what their bounds hold.
        written_claims = findings
        findings = bound_sections(self.template, findings, evidence)
        bounded = left_out(written_claims, findings)
        staleness = self.template.staleness(self.options.stale_days)
        now = datetime.now(UTC)
        written: list[Written] = []
        asks = self._summary_asks()
        gaps: list[str] = []  # the asks no claim answers, as the request wrote them
        # Each ask (a short question's part, a long request's ask) answered first by its best piece, judged
        # against it: a short question's parts against every piece cited, a long request's asks against the
        # most direct besides what their own searches found.
        answers = (
            await asyncio.to_thread(
                self.citation.answers_to, asks, chosen, judged=SUMMARY_JUDGED if self.request.long else None
            )
            if asks and any(spec.kind == "summary" for spec in self.template.sections)
            else None
        )
        if answers is not None and self.request.long:
            # (what the report may cite: the evidence routed to a summary, and every claim's)
            citable = [
                e
                for spec in self.template.sections
                if spec.kind == "summary"
                for e in routed.get(spec.id, [])
            ]
            citable += [evidence[i] for cs in written_claims.values() for c in cs for i in c.evidence_ids]
            answers = await asyncio.to_thread(
                self.citation.answers_in_full, asks, answers, citable, floor=self.options.topic_floor
            )
        for spec in self.template.sections:
            if spec.kind == "summary":
                before = summarize(
                    spec,
                    written_claims,
                    routed.get(spec.id, []),
                    evidence,
                    asks=asks,
                    floor=self.options.topic_floor,
                    history_last=not asks_about_changes(self.query),
                    answers=answers,
                    entry=None if self.request.long else asked_entry(self.query),
                    first_page=None if self.request.long else BACKBONE_HITS,
                )
                claims = guard_claims(before, evidence, counts)
                dropped[spec.id] = len(before) - len(claims)
                if answers is not None and not gaps:
                    # (what the report shows: the summary and the findings sections within their bounds)
                    said = [*claims, *(c for cs in findings.values() for c in cs)]
                    missed = unanswered(asks, said, evidence, answers=answers, floor=self.options.topic_floor)
                    # (a report whose quotes answer nothing says so of the whole request: ``found_only``)
                    known = bool(said) and not found_only(cited(said), evidence)
                    gaps = [self._asked_as(k) for k in missed] if known else []
            else:
                claims = findings[spec.id]
            status = section_status(
                spec,
                claims,
                evidence,
                stale_after_days=staleness,
                now=now,
                unnamed=unnamed,
                unanswered=gaps if spec.kind == "summary" else (),
            )
            yield self._event(
                SynthesisDone,
                section_id=spec.id,
                claims=len(claims),
                dropped=dropped[spec.id],
                bounded=bounded.get(spec.id, 0),
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
            note = section_note(
                spec.required,
                status,
                found_only=found_only(ids, evidence),
                unnamed=unnamed,
                unanswered=gaps if spec.kind == "summary" else (),
                asks=len(asks),
            )
            written.append(Written(spec, claims, status, note, facts))
        self.state.seconds["write"] = time.monotonic() - started
        self.state.judged_pairs = self.judge.pairs
        web = next((s.metrics() for s in self.sources if s.kind == "web"), self.options.use_web)
        report = assemble(
            run_id=self.run_id,
            query=self.query,
            template=self.template,
            written=written,
            evidence=evidence,
            state=self.state,
            guards=counts,
            seconds=time.monotonic() - self._started,
            llm=self.steps.metrics(),
            web=web,
            empty_reason=self._empty_reason(written, evidence),
            unnamed=unnamed,
            unanswered=gaps,
            asks=len(asks),
            ruled_out=ruled_out,
        )
        report.check()
        yield self._event(RunComplete, report=report)

    def _unnamed(self, evidence: Sequence[Evidence], texts: Mapping[str, str | None]) -> list[str]:
        """The names a short question is about that no evidence found mentions, in its text, the chunk it
        stands in, its document's title or its section (``names``). A long request names its writer, its
        team and its customers: it is not checked."""
        names = asked_names(self.query) if not self.request.long else []
        if not names or not evidence:
            return []
        witnesses = [t for t in texts.values() if t] + [
            f"{e.title or ''} {e.section_path or ''} {e.quote}" for e in evidence
        ]
        found = mentioned(names, witnesses)
        return [n for n in names if n not in found]

    def _empty_reason(self, written: Sequence[Written], evidence: Mapping[str, Evidence]) -> str | None:
        """Why a report with nothing cited is empty: search found nothing on the request's topic."""
        if any(w.claims for w in written):
            return None
        if not self.state.seen_documents:
            return "Nothing was found: the searches returned no passages."
        return (
            "Nothing was found on this topic: the searches returned passages, but none of them is about the "
            "request (a cross-encoder judged every candidate quote against it)."
        )
