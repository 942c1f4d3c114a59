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

import numpy as np

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
from sleuth.agent.llm.client import LLMClient, config_from
from sleuth.agent.llm.steps import EvidenceScorer, FactExtractor, LeadWriter, LLMPlanner, LLMSynthesizer
from sleuth.agent.report import Claim, EvidenceRecord, Report, SectionReport, Source
from sleuth.agent.research.coverage import cited, section_status
from sleuth.agent.research.evidence import Evidence, Ledger, Passage, QuoteChoice, QuoteSelector, evidence_id
from sleuth.agent.research.guards import GuardCounts, guard_claims, verify_quotes
from sleuth.agent.research.leads import Lead, find_leads
from sleuth.agent.research.plan import ExtractivePlanner, Planner, Question, guard_plan
from sleuth.agent.research.routing import Embedder, aspect_match, route
from sleuth.agent.research.synthesis import ExtractiveSynthesizer, Synthesizer
from sleuth.agent.runtime import Runtime
from sleuth.agent.templates import Template
from sleuth.retrieval.encoders import SparseVector
from sleuth.retrieval.search import SearchFilters, SearchHit
from sleuth.retrieval.store.base import DEFAULT_FUSION, Fusion
from sleuth.retrieval.web.fetcher import FetchPolicy
from sleuth.retrieval.web.gatekeeper import GatePolicy
from sleuth.retrieval.web.service import WebChunk, WebConfig, WebSearch


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
    #: Evidence is kept when its similarity to the user's query is within this of the best quote the
    #: verbatim search found (the dense model's cosine scale).
    relevance_margin: float = 0.06
    #: The same for the evidence of leads (a step removed from the question: held closer).
    lead_margin: float = 0.03
    #: The same for questions about one aspect of the topic (a section with its own vocabulary).
    aspect_margin: float = 0.15
    #: Documents a report cites at most (the most relevant to the query, by the reranker).
    max_sources: int = 5
    #: Leads followed per level (the most relevant first).
    max_leads_per_level: int = 8
    #: Stop descending once every required section has enough evidence from distinct documents.
    stop_when_covered: bool = False

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
    #: Candidate quotes left out for being far from the user's query.
    off_topic: int = 0
    #: Documents with evidence that ranked below the citation cap.
    uncited_documents: int = 0
    #: The best-ranked passage of every document any question retrieved: what citations are chosen from.
    pool: dict[str, Passage] = field(default_factory=dict)
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
        web: WebSearch | None = None,
        brief: str | None = None,
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
        self._query_vector: np.ndarray | None = None
        #: The passage each piece of evidence was cut from (title, heading path, text), for the reranker.
        self._passages: dict[str, str] = {}
        self._query_weights: dict[int, float] = {}
        self._section_ids = {s.id for s in template.sections}
        self._query_vectors: tuple[list[float], SparseVector] | None = None
        #: Relevance of the best quote the verbatim search found: the run's measure of "on topic".
        self._anchor: float | None = None
        #: Web evidence for this run (built from the runtime's settings when the run uses the web).
        self.web = web
        #: The research brief of an interactive run (steers the LLM planner; never a claim).
        self.brief = brief
        #: The LLM steps of this run (built from the runtime's settings when the run uses an LLM).
        self.llm: LLMClient | None = None
        self.facts: FactExtractor | None = None
        self.scorer: EvidenceScorer | None = None
        self.lead_writer: LeadWriter | None = None
        #: Questions whose passages the LLM has read (a run's budget is shared by every step).
        self._scored = 0

    # -- the stream

    async def events(self) -> AsyncIterator[RunEvent]:
        """The whole run; the last event is ``complete``, ``review`` or ``failed``."""
        options = {**self.options.as_dict(), **({"brief": self.brief} if self.brief else {})}
        yield self._event(RunStarted, query=self.query, template=self.template.name, options=options)
        if self.options.use_web and self.web is None:
            self.web = open_web(self.runtime)
        if self.options.use_llm and self.llm is None:
            self._open_llm()
        try:
            planned = await asyncio.to_thread(self.planner.plan, self.query, self.template)
            plan = guard_plan(
                planned,
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
        finally:
            if self.web is not None:
                await self.web.aclose()
            if self.llm is not None:
                self.llm.close()

    def _open_llm(self) -> None:
        config = config_from(self.runtime.settings)
        if config is None:
            raise ValueError("an LLM needs SLEUTH_LLM_BASE_URL and SLEUTH_LLM_MODEL")
        self.llm = LLMClient(config)
        self.planner = LLMPlanner(self.llm)
        self.planner.brief = self.brief
        self.synthesizer = LLMSynthesizer(self.llm, self.query, refine=self.runtime.settings.llm_refine)
        self.facts = FactExtractor(self.llm)
        self.scorer = EvidenceScorer(self.llm)
        self.lead_writer = LeadWriter(self.llm)

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
            candidates = [(q, self._candidates(q, passages, w)) for q, passages, w in results]
            if self.scorer is not None:
                extra = await asyncio.to_thread(self._llm_candidates, results)
                for (_, items), more in zip(candidates, extra, strict=True):
                    ids = {e.id for e in items}
                    items.extend(e for e in more if e.id not in ids)
            texts = {p.chunk_id: p.text for _, passages, _ in results for p in passages if p.chunk_id}
            await self._score_relevance(candidates, texts)
            found: list[tuple[Question, list[Evidence]]] = []
            for question, items in candidates:
                yield self._event(QuestionStarted, question=question.planned())
                new = self._admit(items, margin=self._margin(question))
                level_new.extend(new)
                found.append((question, new))
                if new:
                    yield self._event(
                        EvidenceAdded,
                        question_id=question.id,
                        evidence_ids=[e.id for e in new],
                        total=len(state.ledger),
                    )
            leads = await asyncio.to_thread(self._leads, found, texts) if depth < opts.depth else {}
            elapsed = (time.monotonic() - started) / len(level)
            for (question, new), (_, passages, _) in zip(found, results, strict=True):
                children = leads.get(question.id, [])
                queue.extend(children)
                yield self._event(
                    QuestionFinished,
                    question_id=question.id,
                    hits=len(passages),
                    new_evidence=len(new),
                    leads=len(children),
                    seconds=elapsed,
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
        for question, w, vector in zip(questions, weights, vectors, strict=True):
            if question.text == self.query:
                self._query_weights, self._query_vectors = w, vector
        if self.options.use_corpus:
            hits = await asyncio.to_thread(self._corpus_hits, questions, vectors)
        else:
            hits = [[] for _ in questions]
        if self.web is not None:
            for passages, found in zip(hits, await self._web_hits(questions, vectors), strict=True):
                passages.extend(found)
        return [(q, h, w) for q, h, w in zip(questions, hits, weights, strict=True)]

    async def _web_hits(
        self, questions: list[Question], vectors: list[tuple[list[float], SparseVector]]
    ) -> list[list[Passage]]:
        """Web passages per question, ``fanout`` questions at a time (the page budget is the run's)."""
        web = self.web
        assert web is not None
        limit = asyncio.Semaphore(self.options.fanout)

        async def one(question: Question, dense: list[float]) -> list[Passage]:
            async with limit:
                chunks = await web.gather(question.text, dense)
            passages = [_web_passage(chunk, rank) for rank, chunk in enumerate(chunks)]
            for section in question.sections:
                self.state.seen_documents.setdefault(section, set()).update(c.url for c in chunks)
            for passage in passages:
                known = self.state.pool.get(passage.url or "")
                if passage.url and (known is None or passage.rank < known.rank):
                    self.state.pool[passage.url] = passage
            return passages

        return list(await asyncio.gather(*(one(q, v[0]) for q, v in zip(questions, vectors, strict=True))))

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
            for passage in passages:
                known = self.state.pool.get(passage.document_id or "")
                if passage.document_id and (known is None or passage.rank < known.rank):
                    self.state.pool[passage.document_id] = passage
            out.append(passages)
        return out

    def _candidates(
        self, question: Question, passages: list[Passage], weights: dict[int, float]
    ) -> list[Evidence]:
        """The question's best quotes (at most ``evidence_per_question``), not yet admitted."""
        if not passages:
            return []
        choices = self._selector.choose(weights, passages)
        best = max((c.coverage for per in choices for c in per), default=0.0)
        # On-topic passages set the bar: a quote far below the question's best is about something else
        # (the same place and the word "market", but cheese instead of batteries).
        floor = max(self.options.min_quote_coverage, self.options.relative_coverage * best)
        pairs = [
            (choice, passage)
            for per_passage, passage in zip(choices, passages, strict=True)
            for choice in per_passage
            if choice.coverage >= floor and choice.own > 0
        ]
        # The search's ranking decides which passages matter (hybrid retrieval is the stronger judge of a
        # passage); the quote score only picks what to cut from each (at most two quotes a passage).
        pairs.sort(key=lambda pair: (pair[1].rank, -pair[0].score))
        taken: list[int] = []
        kept: list[tuple[QuoteChoice, Passage]] = []
        for pair in pairs:
            if id(pair[1]) not in taken:
                if len(taken) == self.options.evidence_per_question:
                    continue
                taken.append(id(pair[1]))
            kept.append(pair)
        pairs = kept
        return [
            _evidence(question, passage, passage.text[choice.start : choice.end], choice.score)
            for choice, passage in pairs
        ]

    def _llm_candidates(
        self, results: list[tuple[Question, list[Passage], dict[int, float]]]
    ) -> list[list[Evidence]]:
        """Quotes the LLM chose from the best passages of the plan's questions (verbatim, or dropped)."""
        out: list[list[Evidence]] = []
        for question, passages, _ in results:
            if self.scorer is None or question.depth > 0 or self._scored >= LLM_SCORED_QUESTIONS:
                out.append([])
                continue
            self._scored += 1
            ranked = sorted(passages, key=lambda p: p.rank)
            picked = self.scorer.quotes(question.text, ranked)
            out.append([_evidence(question, passage, quote, 1.0) for passage, quote in picked])
        return out

    async def _score_relevance(
        self, candidates: list[tuple[Question, list[Evidence]]], texts: Mapping[str, str]
    ) -> None:
        await asyncio.to_thread(self._score_relevance_now, candidates, texts)

    def _score_relevance_now(
        self, candidates: list[tuple[Question, list[Evidence]]], texts: Mapping[str, str]
    ) -> None:
        """Every candidate's similarity to the user's query (dense model, one batch per level): cheap enough
        to steer discovery. The verbatim search sets the anchor, what "on topic" means for this run."""
        items = [e for _, group in candidates for e in group]
        if not items:
            return
        encoders = self.runtime.encoders
        if self._query_vector is None:
            self._query_vector = encoders.embed_dense([self.query], query=True)[0]
        vectors = encoders.embed_dense([_passage_text(e, texts) for e in items])
        scored = iter(float(s) for s in vectors @ self._query_vector)
        for question, group in candidates:
            group[:] = [e.model_copy(update={"relevance": round(next(scored), 4)}) for e in group]
            if question.text == self.query and group:
                best = max(e.relevance for e in group)
                self._anchor = best if self._anchor is None else max(self._anchor, best)
        self._passages.update({e.id: _passage_text(e, texts) for e in items})

    def _margin(self, question: Question) -> float | None:
        """How far below the anchor a question's evidence may fall: the user's own question is trusted by
        rank, as a search is; a lead, a step removed from it, must stay closest to it."""
        if question.text == self.query:
            return None
        if question.origin in ("lead", "llm-lead"):
            return self.options.lead_margin
        aspects = [self.template.section(s).keywords for s in question.sections if s in self._section_ids]
        if aspects and all(aspects):
            # A question about an aspect (risks, funding) finds passages less like the query as a whole;
            # the aspect's own words guard those sections, so the margin is wider.
            return self.options.aspect_margin
        return self.options.relevance_margin

    def _admit(self, items: list[Evidence], *, margin: float | None) -> list[Evidence]:
        """New evidence among ``items``: close enough to the query, within the budget, not seen before."""
        floor = self._anchor - margin if self._anchor is not None and margin is not None else None
        new: list[Evidence] = []
        for item in items:
            if floor is not None and item.relevance < floor:
                self.state.off_topic += 1
                continue
            if self.state.ledger.add(item):
                new.append(item)
        return new

    def _leads(
        self, found: list[tuple[Question, list[Evidence]]], texts: Mapping[str, str]
    ) -> dict[str, list[Question]]:
        """The level's best leads (at most ``max_leads_per_level``), as questions one level deeper.

        Leads are read in the whole passage each new piece of evidence was cut from: the names a relevant
        passage mentions are not always in the sentence that was quoted.
        """
        state = self.state
        asked = [q.text for q in state.questions.values()]
        known = {e.document_key for e in state.ledger} | {e.title or "" for e in state.ledger}
        ranked: list[tuple[float, Question, Lead]] = []
        for question, new in found:
            context = [e.model_copy(update={"quote": texts.get(e.chunk_id or "", e.quote)}) for e in new]
            for lead in find_leads(context, asked=asked, known_documents=known, focus=self.query):
                ranked.append((lead.priority, question, lead))
        ranked.sort(key=lambda item: -item[0])
        if self.lead_writer is not None and found:
            # The LLM's follow-up questions, each naming something the evidence does, after the
            # extractive leads of the level.
            source = max(found, key=lambda pair: len(pair[1]))[0]
            quotes = [e.quote for _, items in found for e in items][:8]
            floor = min((p for p, _, _ in ranked), default=1.0) * 0.9
            for text in self.lead_writer.questions(self.query, quotes):
                lead = Lead(text=text, document_id=None, sections=(), priority=floor, kind="llm")
                ranked.append((floor, source, lead))
        out: dict[str, list[Question]] = {}
        taken = 0
        for priority, question, lead in ranked:
            if (
                taken >= self.options.max_leads_per_level
                or len(state.questions) >= self.options.max_questions
            ):
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
                origin="llm-lead" if lead.kind == "llm" else "lead",
                priority=priority,
                document_id=lead.document_id,
                parent=question.id,
            )
            state.questions[child.id] = child
            question.children.append(child.id)
            out.setdefault(question.id, []).append(child)
            taken += 1
        return out

    def _stop_reason(self, new: list[Evidence], depth: int, queue: list[Question]) -> str:
        opts = self.options
        if opts.stop_when_covered and self._covered():
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
        ranking = await asyncio.to_thread(self._choose_sources)
        sources = await asyncio.to_thread(self._source_texts, ledger.live())
        verified = verify_quotes(ledger.live(), sources, counts)
        good = {e.id: e for e in verified}  # repaired quotes replace the stored ones
        ledger.replace([good.get(e.id) or e.model_copy(update={"dropped": True}) for e in ledger])
        verified = await asyncio.to_thread(self._cited_only, verified, sources, ranking)
        routed = await asyncio.to_thread(self._route, verified)
        drafts = await asyncio.to_thread(
            self.synthesizer.write, self.template, routed, {e.id: e.relevance for e in verified}
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
            if self.facts is not None and spec.fields and ids:
                facts = await asyncio.to_thread(self.facts.extract, spec, [evidence[i] for i in ids])
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
                    fields=facts,
                    note=_note(spec.required, status),
                )
            )
        self.state.seconds["write"] = time.monotonic() - started
        report = self._report(sections, evidence, counts)
        report.check()
        yield self._event(RunComplete, report=report.model_dump(mode="json"))

    def _choose_sources(self) -> dict[str, float]:
        """The documents a report may cite, each with its relevance to the user's query.

        A cross-encoder reads the query with the best passage of every document any question retrieved (it
        judges relevance better than comparing two vectors can, and a run's few dozen documents cost a
        fraction of a second); the ``max_sources`` best are cited. A chosen document that has no evidence
        yet gets a quote cut from that passage for the query itself. Without a pool (a resumed run) the
        documents of the ledger are ranked the same way. Measured on FanOutQA in docs/BENCHMARKS.md.
        """
        ledger = self.state.ledger
        pool = dict(self.state.pool)
        for e in ledger.live():  # documents known only from the ledger (resumed runs, pins)
            if e.document_key not in pool:
                pool[e.document_key] = Passage(
                    kind=e.kind,
                    text=self._passages.get(e.id, e.quote),
                    document_id=e.document_id,
                    title=e.title,
                    section_path=e.section_path,
                    page=e.page,
                    date=e.date,
                    source=e.source,
                    chunk_id=e.chunk_id,
                    url=e.url,
                )
        if not pool:
            return {}
        pool.update(self._best_for_query(list(pool)))
        keys = list(pool)
        read = ["\n".join(x for x in (p.title, p.section_path, p.text) if x)[:2000] for p in pool.values()]
        scores = dict(zip(keys, self.runtime.encoders.rerank(self.query, read), strict=True))
        chosen = sorted(keys, key=lambda k: -scores[k])[: self.options.max_sources]
        have = {e.document_key for e in ledger.live()}
        missing = [pool[k] for k in chosen if k not in have]
        if missing and self._query_weights:
            # A chosen document found only by a search gets a quote cut for the query itself; it must still
            # be on the run's topic, as every piece of evidence must.
            query = Question("q0", self.query, [s.id for s in self.template.sections], origin="plan")
            items = self._candidates(query, missing, self._query_weights)
            self._score_relevance_now([(query, items)], {p.chunk_id: p.text for p in missing if p.chunk_id})
            ledger.limit = max(ledger.limit, len(ledger) + len(items))  # the citation step is not discovery
            self._admit(items, margin=self.options.relevance_margin)
            cited = {e.document_key for e in ledger.live()}
            chosen = [k for k in chosen if k in cited]
        self.state.uncited_documents = max(0, len(pool) - len(chosen))
        return {k: scores[k] for k in chosen}

    def _best_for_query(self, documents: list[str]) -> dict[str, Passage]:
        """Each corpus document's chunk that best matches the user's query (one filtered search each, the
        query encoded once): a document is judged by what it says about the question, not by the passage
        some lead happened to find."""
        if self._query_vectors is None or not self.options.use_corpus:
            return {}
        corpus = [
            d for d in documents if self.state.pool.get(d) is not None and self.state.pool[d].kind == "corpus"
        ]
        found = self.runtime.searcher.search_vectors(
            [self._query_vectors] * len(corpus),
            k=1,
            filters=[SearchFilters(document_ids=[d]) for d in corpus],
            fusion=self.options.fusion,
        )
        return {d: _passage(hits[0], 0, hits[0].score) for d, hits in zip(corpus, found, strict=True) if hits}

    def _cited_only(
        self, items: list[Evidence], sources: Mapping[str, str | None], ranking: Mapping[str, float]
    ) -> list[Evidence]:
        """Evidence of the chosen documents (and a reviewer's pins), weighted by its document's relevance.

        The chosen documents are the run's most relevant: their evidence also goes to the summary sections
        (key findings), so that a chosen document is cited even when its quote fits no findings section.
        """
        summary = [s.id for s in self.template.sections if s.kind == "summary"]
        return [
            e.model_copy(
                update={
                    "relevance": round(ranking.get(e.document_key, e.relevance), 4),
                    "sections": sorted({*e.sections, *summary}),
                }
            )
            for e in items
            if e.document_key in ranking or e.pinned
        ]

    def _source_texts(self, items: Sequence[Evidence]) -> dict[str, str | None]:
        """The authoritative text behind each piece of evidence: the chunk as the index has it now, or for
        web evidence the chunk of the page as this run fetched and converted it."""
        corpus = [e for e in items if e.kind == "corpus"]
        chunks = self.runtime.searcher.chunks(sorted({e.chunk_id for e in corpus if e.chunk_id}))
        web = self.web.chunks if self.web is not None else {}
        out: dict[str, str | None] = {}
        for e in items:
            if e.kind == "web":
                found = web.get(e.chunk_id or "")
                out[e.id] = found.text if found is not None else None
            else:
                out[e.id] = chunks[e.chunk_id].content if e.chunk_id in chunks else None
        return out

    def _route(self, items: Sequence[Evidence]) -> dict[str, list[Evidence]]:
        encoders = self.runtime.encoders
        embedder = Embedder(lambda texts, query: encoders.embed_dense(texts, query=query))
        return route(
            self.template, items, self.query, embedder, min_similarity=self.options.route_min_similarity
        )

    def _llm_metrics(self) -> dict[str, Any] | bool:
        if self.llm is None:
            return False
        planner = self.planner if isinstance(self.planner, LLMPlanner) else None
        writer = self.synthesizer if isinstance(self.synthesizer, LLMSynthesizer) else None
        return {
            **self.llm.usage.as_dict(),
            "planner_rejected": planner.rejected if planner is not None else 0,
            "sections_written_extractively": writer.fallbacks if writer is not None else 0,
            "invented_evidence_ids": writer.invented_ids if writer is not None else 0,
            "refined_sections": writer.refined if writer is not None else 0,
            "refinements_rejected": writer.refinements_rejected if writer is not None else 0,
            "facts_dropped": self.facts.dropped if self.facts is not None else 0,
            "quotes_chosen": self.scorer.accepted if self.scorer is not None else 0,
            "quotes_not_verbatim": self.scorer.not_verbatim if self.scorer is not None else 0,
            "leads_rejected": self.lead_writer.rejected if self.lead_writer is not None else 0,
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
            "evidence_off_topic": state.off_topic,
            "documents_below_cap": state.uncited_documents,
            "evidence_cited": len(records),
            "documents_cited": len({evidence[i].document_key for i in used}),
            "guards": dict(counts),
            "seconds": {
                k: round(v, 3)
                for k, v in {**state.seconds, "total": time.monotonic() - self._started}.items()
            },
            "statuses": {s.id: s.status for s in sections},
            "llm": self._llm_metrics(),
            "web": self.web.metrics() if self.web is not None else self.options.use_web,
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


def _passage_text(evidence: Evidence, texts: Mapping[str, str]) -> str:
    parts = (evidence.title, evidence.section_path, texts.get(evidence.chunk_id or "", evidence.quote))
    return "\n".join(p for p in parts if p)[:2000]


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


#: Plan questions whose passages the LLM reads for quotes (each one call).
LLM_SCORED_QUESTIONS = 6


def _evidence(question: Question, passage: Passage, quote: str, score: float) -> Evidence:
    return Evidence(
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
        score=round(score, 4),
    )


def _web_passage(chunk: WebChunk, rank: int) -> Passage:
    return Passage(
        kind="web",
        text=chunk.text,
        document_id=None,
        title=chunk.title,
        section_path=chunk.section_path,
        page=None,
        date=chunk.date,
        source=chunk.url,
        chunk_id=chunk.chunk_id,
        url=chunk.url,
        score=chunk.score,
        rank=rank,
    )


def open_web(runtime: Runtime) -> WebSearch:
    """The run's web search, configured from the runtime's settings."""
    s = runtime.settings
    if not s.searxng_url:
        raise ValueError("web search needs a SearXNG instance: set SLEUTH_SEARXNG_URL")
    config = WebConfig(
        searxng_url=s.searxng_url,
        pages_per_question=s.web_pages_per_question,
        max_tokens=s.max_tokens,
        cache_path=s.runs_dir.expanduser().parent / "web-cache.sqlite",
        cache_ttl=s.web_cache_ttl,
        fetch=FetchPolicy(
            timeout=s.web_timeout,
            deadline=s.web_deadline,
            max_bytes=s.web_max_bytes,
            concurrency=s.fanout,
            max_pages=s.web_max_pages,
            allow_private=s.web_allow_private,
            respect_robots=s.web_respect_robots,
        ),
        gate=GatePolicy(
            allow_domains=tuple(s.web_allow_domains),
            deny_domains=tuple(s.web_deny_domains),
            per_domain=s.web_per_domain,
            trust=dict(s.web_domain_trust),
            geo_penalty=s.web_geo_penalty,
        ),
    )
    return WebSearch(config, runtime.encoders, runtime.encoders.token_counter())


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
