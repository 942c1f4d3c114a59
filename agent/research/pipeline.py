"""A research run: plan, discover evidence recursively, (review,) route, write, guard, judge coverage.

``ResearchRun.events()`` is an async stream of typed events (``sleuth.agent.events``); the run does no I/O of
its own beyond asking its runtime's searchers. Discovery is a priority queue of questions processed level by
level: a level's questions are encoded in one batch and searched together, their hits become evidence, the
evidence's leads become the next level's questions. A controller stops at the depth limit, when every required
section has enough evidence from two documents (where the corpus has two), when a level adds nothing new, or
at a budget (questions, evidence, wall time).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sleuth.agent.events import (
    EvidenceAdded,
    PlanReady,
    QuestionFinished,
    QuestionStarted,
    ReviewReady,
    RunComplete,
    RunEvent,
    RunFailed,
    RunStarted,
    SectionStatus,
    SynthesisDone,
)
from sleuth.agent.report import Claim, EvidenceRecord, Report, SectionReport, Source
from sleuth.agent.research.coverage import cited, section_status
from sleuth.agent.research.evidence import Evidence, Ledger, Passage, QuoteSelector, evidence_id
from sleuth.agent.research.guards import GuardCounts, guard_claims, verify_quotes
from sleuth.agent.research.leads import find_leads
from sleuth.agent.research.plan import ExtractivePlanner, Planner, Question, guard_plan
from sleuth.agent.research.routing import Embedder, aspect_match, route
from sleuth.agent.research.synthesis import ExtractiveSynthesizer, Synthesizer
from sleuth.agent.runtime import Runtime
from sleuth.agent.templates import Template
from sleuth.retrieval.encoders import SparseVector
from sleuth.retrieval.search import SearchFilters, SearchHit
from sleuth.retrieval.store.base import DEFAULT_FUSION, Fusion


@dataclass(frozen=True)
class ResearchOptions:
    depth: int = 2
    use_corpus: bool = True
    use_web: bool = False
    use_llm: bool = False
    review: bool = False
    max_questions: int = 32
    max_evidence: int = 200
    time_budget: float = 300.0
    hits_per_question: int = 8
    evidence_per_question: int = 6
    min_quote_coverage: float = 0.05
    relative_coverage: float = 0.6
    route_min_similarity: float = 0.62
    stale_days: int = 730
    fanout: int = 4
    fusion: Fusion = DEFAULT_FUSION

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class _State:
    ledger: Ledger
    questions: dict[str, Question] = field(default_factory=dict)
    asked: set[str] = field(default_factory=set)
    #: Documents the searches saw per section (what "where the corpus allows" is measured against).
    seen_documents: dict[str, set[str]] = field(default_factory=dict)
    levels: int = 0
    stop_reason: str = ""
    seconds: dict[str, float] = field(default_factory=dict)


class ResearchRun:
    def __init__(
        self,
        runtime: Runtime,
        run_id: str,
        query: str,
        template: Template,
        options: ResearchOptions,
        *,
        planner: Planner | None = None,
        synthesizer: Synthesizer | None = None,
    ) -> None:
        self.runtime = runtime
        self.run_id = run_id
        self.query = query.strip()
        self.template = template
        self.options = options
        self.planner = planner or ExtractivePlanner()
        self.synthesizer = synthesizer or ExtractiveSynthesizer()
        self.state = _State(Ledger(options.max_evidence))
        self._seq = 0
        self._selector = QuoteSelector(runtime.encoders.sparse_token_ids)
        self._started = time.monotonic()

    # -- the stream

    async def events(self) -> AsyncIterator[RunEvent]:
        """The whole run; the last event is ``complete``, ``review`` or ``failed``."""
        yield self._event(
            RunStarted, query=self.query, template=self.template.name, options=self.options.as_dict()
        )
        try:
            plan = guard_plan(
                self.planner.plan(self.query, self.template),
                self.query,
                self.template,
                limit=self.options.max_questions,
            )
            yield self._event(PlanReady, questions=[q.planned() for q in plan])
            async for event in self._discover(plan):
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

    def _event(self, kind: type[RunEvent], **fields: Any) -> Any:
        self._seq += 1
        return kind(run_id=self.run_id, seq=self._seq, at=time.time(), **fields)

    # -- discovery

    async def _discover(self, plan: list[Question]) -> AsyncIterator[RunEvent]:
        state, opts = self.state, self.options
        queue = list(plan)
        for question in plan:
            state.questions[question.id] = question
            state.asked.add(_norm(question.text))
        depth = 0
        while queue:
            level = sorted((q for q in queue if q.depth == depth), key=lambda q: -q.priority)
            queue = [q for q in queue if q.depth != depth]
            if not level:
                depth += 1
                continue
            state.levels = depth + 1
            started = time.monotonic()
            results = await self._search(level)
            state.seconds["search"] = state.seconds.get("search", 0.0) + time.monotonic() - started
            level_new: list[Evidence] = []
            for question, passages, weights in results:
                yield self._event(QuestionStarted, question=question.planned())
                t0 = time.monotonic()
                new = self._collect(question, passages, weights)
                level_new.extend(new)
                if new:
                    yield self._event(
                        EvidenceAdded,
                        question_id=question.id,
                        evidence_ids=[e.id for e in new],
                        total=len(state.ledger),
                    )
                leads = self._leads(question, new) if depth < opts.depth else []
                queue.extend(leads)
                yield self._event(
                    QuestionFinished,
                    question_id=question.id,
                    hits=len(passages),
                    new_evidence=len(new),
                    leads=len(leads),
                    seconds=time.monotonic() - t0,
                )
            reason = self._stop_reason(level_new, depth, queue)
            if reason:
                state.stop_reason = reason
                return
            depth += 1
        state.stop_reason = state.stop_reason or "no more questions"

    async def _search(
        self, questions: list[Question]
    ) -> list[tuple[Question, list[Passage], dict[int, float]]]:
        """One batch for the level: questions encoded together, corpus searched, neighbours fetched once."""
        encoders = self.runtime.encoders
        vectors = await asyncio.to_thread(encoders.embed_queries, [q.text for q in questions])
        weights = [_weights(sparse) for _, sparse in vectors]
        if not self.options.use_corpus:
            return [(q, [], w) for q, w in zip(questions, weights, strict=True)]
        hits = await asyncio.to_thread(self._corpus_hits, questions, vectors)
        return [(q, h, w) for q, h, w in zip(questions, hits, weights, strict=True)]

    def _corpus_hits(
        self, questions: list[Question], vectors: list[tuple[list[float], SparseVector]]
    ) -> list[list[Passage]]:
        searcher = self.runtime.searcher
        filters = [SearchFilters(document_ids=[q.document_id] if q.document_id else ()) for q in questions]
        found = searcher.search_vectors(
            vectors, k=self.options.hits_per_question, filters=filters, fusion=self.options.fusion
        )
        # Neighbours of each question's best hits, in one lookup: the sentence that answers is often just
        # across a chunk boundary.
        tops = [h for hits in found for h in hits[:3]]
        expanded = {h.chunk_id: h.neighbours for h in searcher.with_neighbours(tops, 1)}
        out: list[list[Passage]] = []
        for question, hits in zip(questions, found, strict=True):
            passages: list[Passage] = []
            seen: set[str] = set()
            for rank, hit in enumerate(hits):
                for item in [hit, *expanded.get(hit.chunk_id, [])]:
                    if item.chunk_id not in seen:
                        seen.add(item.chunk_id)
                        passages.append(_passage(item, rank, hit.score))
            for section in question.sections:
                self.state.seen_documents.setdefault(section, set()).update(h.document_id for h in hits)
            out.append(passages)
        return out

    def _collect(
        self, question: Question, passages: list[Passage], weights: dict[int, float]
    ) -> list[Evidence]:
        """The question's best quotes as new evidence (at most ``evidence_per_question``)."""
        if not passages or self.state.ledger.full:
            return []
        choices = self._selector.choose(weights, passages)
        best = max((c.coverage for per in choices for c in per), default=0.0)
        # On-topic passages set the bar: a quote far below the question's best is about something else
        # (the same place and the word "market", but cheese instead of batteries).
        floor = max(self.options.min_quote_coverage, self.options.relative_coverage * best)
        candidates = [
            (choice, passage)
            for per_passage, passage in zip(choices, passages, strict=True)
            for choice in per_passage
            if choice.coverage >= floor and choice.own > 0
        ]
        candidates.sort(key=lambda pair: (-pair[0].score, pair[1].rank))
        new: list[Evidence] = []
        for choice, passage in candidates[: self.options.evidence_per_question]:
            quote = passage.text[choice.start : choice.end]
            item = Evidence(
                id=evidence_id(passage, quote),
                kind=passage.kind,
                chunk_id=passage.chunk_id,
                url=passage.url,
                document_id=passage.document_id,
                title=passage.title,
                section_path=passage.section_path,
                page=passage.page,
                quote=quote,
                date=passage.date,
                source=passage.source,
                question_id=question.id,
                question=question.text,
                sections=list(question.sections),
                score=round(choice.score, 4),
            )
            if self.state.ledger.add(item):
                new.append(item)
        return new

    def _leads(self, question: Question, new: list[Evidence]) -> list[Question]:
        state = self.state
        leads = find_leads(
            new,
            asked=[q.text for q in state.questions.values()],
            known_documents={e.document_key for e in state.ledger} | {e.title or "" for e in state.ledger},
            focus=self.query,
        )
        out: list[Question] = []
        for lead in leads:
            if len(state.questions) >= self.options.max_questions:
                break
            key = _norm(lead.text)
            if key in state.asked:
                continue
            state.asked.add(key)
            child = Question(
                id=f"q{len(state.questions) + 1}",
                text=lead.text,
                sections=list(lead.sections) or list(question.sections),
                depth=question.depth + 1,
                origin="lead",
                priority=lead.priority / (question.depth + 2),
                document_id=lead.document_id,
                parent=question.id,
            )
            state.questions[child.id] = child
            question.children.append(child.id)
            out.append(child)
        return out

    def _stop_reason(self, new: list[Evidence], depth: int, queue: list[Question]) -> str:
        opts = self.options
        if self._covered():
            return "every required section has enough evidence from distinct documents"
        if not new:
            return "a level added no new evidence"
        if self.state.ledger.full:
            return "evidence budget reached"
        if time.monotonic() - self._started > opts.time_budget:
            return "time budget reached"
        if depth >= opts.depth:
            return "depth limit reached"
        if not queue:
            return "no leads to follow"
        return ""

    def _covered(self) -> bool:
        """Every required section: min_evidence pieces from two documents, or from all the corpus had."""
        live = self.state.ledger.live()
        for section in self.template.sections:
            if not section.required:
                continue
            items = [e for e in live if section.id in e.sections and aspect_match(section, e)]
            documents = {e.document_key for e in items}
            wanted = min(2, len(self.state.seen_documents.get(section.id, set())) or 1)
            if len(items) < max(section.min_evidence, 1) or len(documents) < wanted:
                return False
        return True

    # -- writing the report

    async def _write(self) -> AsyncIterator[RunEvent]:
        counts = GuardCounts()
        started = time.monotonic()
        ledger = self.state.ledger
        sources = await asyncio.to_thread(self._source_texts, ledger.live())
        verified = verify_quotes(ledger.live(), sources, counts)
        good = {e.id: e for e in verified}  # repaired quotes replace the stored ones
        ledger.replace([good.get(e.id) or e.model_copy(update={"dropped": True}) for e in ledger])
        routed = await asyncio.to_thread(self._route, verified)
        relevance = await asyncio.to_thread(self._query_relevance, verified)
        drafts = self.synthesizer.write(self.template, routed, relevance)
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
                    content=_content(claims),
                    claims=claims,
                    note=_note(spec.required, status),
                )
            )
        self.state.seconds["write"] = time.monotonic() - started
        report = self._report(sections, evidence, counts)
        report.check()
        yield self._event(RunComplete, report=report.model_dump(mode="json"))

    def _source_texts(self, items: Sequence[Evidence]) -> dict[str, str | None]:
        """The authoritative text behind each piece of evidence: the chunk as the index has it now."""
        chunks = self.runtime.searcher.chunks(sorted({e.chunk_id for e in items if e.chunk_id}))
        return {e.id: (chunks[e.chunk_id].content if e.chunk_id in chunks else None) for e in items}

    def _route(self, items: Sequence[Evidence]) -> dict[str, list[Evidence]]:
        encoders = self.runtime.encoders
        embedder = Embedder(lambda texts, query: encoders.embed_dense(texts, query=query))
        return route(
            self.template, items, self.query, embedder, min_similarity=self.options.route_min_similarity
        )

    def _query_relevance(self, items: Sequence[Evidence]) -> dict[str, float]:
        """How much of the user's query each quote covers (summary sections rank by it)."""
        if not items:
            return {}
        ((_, sparse),) = self.runtime.encoders.embed_queries([self.query])
        weights = _weights(sparse)
        total = sum(weights.values()) or 1.0
        ids = self.runtime.encoders.sparse_token_ids([e.quote for e in items])
        return {
            e.id: sum(weights.get(t, 0.0) for t in set(tok)) / total
            for e, tok in zip(items, ids, strict=True)
        }

    def _report(
        self, sections: list[SectionReport], evidence: Mapping[str, Evidence], counts: GuardCounts
    ) -> Report:
        used = list(dict.fromkeys(i for s in sections for c in s.claims for i in c.evidence_ids))
        records = [_record(evidence[i]) for i in used]
        summary = next(
            (s for s in sections if self.template.section(s.id).kind == "summary" and s.claims), None
        )
        state = self.state
        metrics = {
            "questions": len(state.questions),
            "questions_by_origin": _origins(state.questions.values()),
            "levels": state.levels,
            "stop_reason": state.stop_reason,
            "evidence_found": len(state.ledger),
            "evidence_cited": len(records),
            "documents_cited": len({evidence[i].document_key for i in used}),
            "guards": dict(counts),
            "seconds": {
                k: round(v, 3)
                for k, v in {**state.seconds, "total": time.monotonic() - self._started}.items()
            },
            "statuses": {s.id: s.status for s in sections},
            "llm": self.options.use_llm,
            "web": self.options.use_web,
        }
        return Report(
            run_id=self.run_id,
            query=self.query,
            template=self.template.name,
            created_at=datetime.now(UTC).isoformat(timespec="seconds"),
            executive_summary=" ".join(f"{c.text} {_anchors(c)}" for c in summary.claims) if summary else "",
            sections=sections,
            evidence=records,
            sources=_sources(records),
            metrics=metrics,
        )


def _weights(sparse: SparseVector) -> dict[int, float]:
    return dict(zip(sparse.indices, sparse.values, strict=True))


def _passage(hit: SearchHit, rank: int, score: float) -> Passage:
    return Passage(
        kind="corpus",
        text=hit.content,
        document_id=hit.document_id,
        title=hit.document_title,
        section_path=hit.section_path or None,
        page=hit.page_start,
        date=hit.document_date,
        source=hit.source,
        chunk_id=hit.chunk_id,
        score=score,
        rank=rank,
    )


def _norm(text: str) -> str:
    return " ".join(sorted(set(text.lower().split())))


def _anchors(claim: Claim) -> str:
    return "".join(f"[evidence:{i}]" for i in claim.evidence_ids)


def _content(claims: Sequence[Claim]) -> str:
    lines = []
    for claim in claims:
        prefix = "Sources disagree: " if claim.kind == "conflict" else ""
        lines.append(f"- {prefix}{claim.text} {_anchors(claim)}")
    return "\n".join(lines)


def _note(required: bool, status: str) -> str | None:
    if status == "not_found":
        return "No evidence for this section was found." + (" It is required." if required else "")
    if status == "stale":
        return "The evidence for this section is older than the staleness limit."
    if status == "thin_evidence":
        return "Less evidence than this section asks for."
    return None


def _record(e: Evidence) -> EvidenceRecord:
    return EvidenceRecord(
        id=e.id,
        kind=e.kind,
        chunk_id=e.chunk_id,
        url=e.url,
        document_id=e.document_id,
        title=e.title,
        section_path=e.section_path,
        page=e.page,
        quote=e.quote,
        date=e.date,
        source=e.source,
    )


def _sources(records: Sequence[EvidenceRecord]) -> list[Source]:
    by_key: dict[str, Source] = {}
    for r in records:
        key = r.document_id or r.url or r.id
        if key not in by_key:
            by_key[key] = Source(
                document_id=r.document_id,
                url=r.url,
                title=r.title,
                source=r.source,
                date=r.date,
                evidence_ids=[],
            )
        by_key[key].evidence_ids.append(r.id)
    return list(by_key.values())


def _origins(questions: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for q in questions:
        out[q.origin] = out.get(q.origin, 0) + 1
    return out
