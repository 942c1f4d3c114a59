"""Discovery: a priority queue of questions processed level by level.

A level's questions are encoded in one batch and every evidence source searches them together; their
passages become candidate quotes, the candidates close enough to the query become evidence, and the
evidence's leads become the next level's questions. A controller stops at the depth limit, when every
required section has enough evidence from two documents (where the corpus has two, and only when asked to),
when a level adds nothing new, or at a budget (questions, evidence, wall time).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any

from sleuth.agent.events import EvidenceAdded, QuestionFinished, QuestionStarted, RunEvent
from sleuth.agent.research.admission import OWN_SEARCHES, Admission, new_evidence, weights
from sleuth.agent.research.evidence import LEAD_ORIGINS, Evidence, Passage
from sleuth.agent.research.guards import whitespace_match
from sleuth.agent.research.judged_forms import judged
from sleuth.agent.research.leads import Lead, find_leads, find_links
from sleuth.agent.research.options import ResearchOptions
from sleuth.agent.research.plan import Question
from sleuth.agent.research.quotes import Window, headings_in, in_context
from sleuth.agent.research.request import Request
from sleuth.agent.research.sources import EvidenceSource, QueryVectors
from sleuth.agent.research.state import RunState
from sleuth.agent.research.steps import ResearchSteps
from sleuth.agent.templates import Template
from sleuth.ingest.visible import visible_text

log = logging.getLogger(__name__)

#: Plan questions whose passages the LLM reads for quotes (each one call).
LLM_SCORED_QUESTIONS = 6
#: Builds the run's next event (numbered by the run).
EventFactory = Callable[..., Any]
Level = list[tuple[Question, list[Passage], dict[int, float]]]


def question_key(text: str) -> str:
    """What makes two questions the same: their words, in any order."""
    return " ".join(sorted(set(text.lower().split())))


class Discovery:
    def __init__(
        self,
        request: Request,
        template: Template,
        options: ResearchOptions,
        state: RunState,
        *,
        sources: Sequence[EvidenceSource],
        embed_queries: Callable[[list[str]], list[QueryVectors]],
        admission: Admission,
        steps: ResearchSteps,
        event: EventFactory,
        started: float,
    ) -> None:
        self.request = request
        self.query = request.text
        self.template = template
        self.options = options
        self.state = state
        self.sources = sources
        self.embed_queries = embed_queries
        self.admission = admission
        self.steps = steps
        self.event = event
        self.started = started
        #: Questions whose passages the LLM has read (a run's budget is shared by every step).
        self._scored = 0
        #: Pages a link lead was asked in (each once per run).
        self._followed: set[str] = set()
        #: Levels of leads followed. A long request is searched by each of its asks already: leads (names
        #: in the first evidence, searched with the request's subject) added no answer and no gold document
        #: on the tuning half of the long requests, and cost 1-2 s (docs/BENCHMARKS.md, research-sets).
        self.depth = 0 if request.long else options.depth

    async def run(self, plan: list[Question]) -> AsyncIterator[RunEvent]:
        state, opts = self.state, self.options
        queue = list(plan)
        for question in plan:
            state.questions[question.id] = question
            state.asked.add(question_key(question.text))
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
            candidates = await asyncio.to_thread(self._candidates, results)
            found: list[tuple[Question, list[Evidence]]] = []
            # Is the request on the corpus's topics at all? Its own searches (as written, each ask) say so.
            own = [
                items[0].score
                for (q, _, _), items in zip(results, candidates, strict=True)
                if items and q.origin in OWN_SEARCHES
            ]
            on_topic = max(own) >= opts.topic_floor if own else None
            if self.request.long and depth == 0 and on_topic:
                # (A request off the corpus's topics is not rescued by asking its asks in other words.)
                await self._with_subject(results, candidates)
            stored = {p.chunk_id: p.text for _, passages, _ in results for p in passages if p.chunk_id}
            texts = {chunk_id: visible_text(text).text for chunk_id, text in stored.items()}
            # And does its search as written find the topic? (The closest passage's cosine: a question put in
            # other words than the page that answers it scores low with the cross-encoder, not with this.)
            closest = max(
                (
                    p.similarity
                    for q, passages, _ in results
                    if q.origin == "query"
                    for p in passages
                    if p.similarity is not None
                ),
                default=None,
            )
            found_topic = closest is not None and closest >= opts.topic_similarity
            log.debug("closest passage of the search as written: cosine %s", closest)
            for (question, passages, _), items in zip(results, candidates, strict=True):
                yield self.event(QuestionStarted, question=question.planned())
                new = self.admission.admit(
                    question, items, passages, on_topic=on_topic, found_topic=found_topic
                )
                level_new.extend(new)
                found.append((question, new))
                if new:
                    yield self.event(
                        EvidenceAdded,
                        question_id=question.id,
                        evidence_ids=[e.id for e in new],
                        total=len(state.ledger),
                    )
            leads = await asyncio.to_thread(self._leads, found, texts, stored) if depth < self.depth else {}
            elapsed = (time.monotonic() - started) / len(level)
            for (question, new), (_, passages, _) in zip(found, results, strict=True):
                children = leads.get(question.id, [])
                queue.extend(children)
                yield self.event(
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

    async def _search(self, questions: list[Question], *, remember: bool = True) -> Level:
        """One batch for the level: questions encoded together, then every source searches them.

        ``remember``: what the searches saw counts as seen (a probe that may be discarded is remembered only
        once it is kept)."""
        vectors = await asyncio.to_thread(self.embed_queries, [q.text for q in questions])
        weighted = [weights(sparse) for _, sparse in vectors]
        for question, w, vector in zip(questions, weighted, vectors, strict=True):
            if question.origin == "query":
                self.state.query_weights, self.state.query_vectors = w, vector
        hits: list[list[Passage]] = [[] for _ in questions]
        for source in self.sources:
            for passages, found in zip(hits, await source.search(questions, vectors), strict=True):
                passages.extend(found)
        if remember:
            for question, passages in zip(questions, hits, strict=True):
                self.state.remember(question, passages)
        return [(q, h, w) for q, h, w in zip(questions, hits, weighted, strict=True)]

    async def _with_subject(self, results: Level, candidates: list[list[Evidence]]) -> None:
        """An ask whose own search finds nothing that answers it (no quote reaches ``answer_floor``) leans on
        the rest of the request: it is asked again with the request's subject, and takes that form when what
        it finds answers it better. "How to make the view's writes all-or-nothing" finds Django's page on
        views alone (its best quote, the definition of a view, scores -3.8); asked about "email Django
        database transactions block", the page on transactions and its "Tying transactions to HTTP
        requests". The ask as written keeps what it found (its first hits are cited whatever they say: a
        report never knows less than a search); the ask in its new form joins the level (``results`` and
        ``candidates``, in place), and the summary answers the ask by what that found."""
        subject = self.request.subject
        failing = [
            i
            for i, ((question, _, _), items) in enumerate(zip(results, candidates, strict=True))
            if question.origin == "ask"
            and subject
            and subject.casefold() not in question.text.casefold()
            and (not items or items[0].score < self.options.answer_floor)
        ]
        if not failing:
            return
        probes = []
        for i in failing:
            asked = results[i][0]
            probes.append(
                dataclasses.replace(
                    asked, id=f"{asked.id}s", text=f"{asked.text} ({subject})", parent=asked.id, children=[]
                )
            )
        again = await self._search(probes, remember=False)
        judged = await asyncio.to_thread(self._candidates, again)
        for i, retried, items in zip(failing, again, judged, strict=True):
            asked, probe = results[i][0], retried[0]
            if items and (not candidates[i] or items[0].score > candidates[i][0].score):
                self.state.questions[probe.id] = probe
                self.state.remember(probe, retried[1])
                self.state.asked.add(question_key(probe.text))
                asked.children.append(probe.id)
                self.state.answered_as[asked.text] = probe.text
                results.append(retried)
                candidates.append(items)

    def _candidates(self, results: Level) -> list[list[Evidence]]:
        """Each question's judged quotes, with those an LLM picked (when one reads passages) among them."""
        out: list[list[Evidence]] = []
        # A long request's asks, in the order they were asked: what its search as written is judged against.
        asks = [(q.text, w) for q, _, w in results if q.origin == "ask"] if self.request.long else []
        # The asks first: their pairs are read once, and the search as written reuses them.
        order = sorted(range(len(results)), key=lambda i: results[i][0].origin == "query")
        judged: dict[int, list[Evidence]] = {}
        for i in order:
            question, passages, w = results[i]
            judged[i] = self.admission.candidates(question, passages, w, asks=asks)
        for i, (question, passages, _) in enumerate(results):
            items = judged[i]
            known = {e.id for e in items}
            items.extend(e for e in self._llm_quotes(question, passages) if e.id not in known)
            items.sort(key=lambda e: -e.score)
            out.append(items)
        return out

    def _llm_quotes(self, question: Question, passages: list[Passage]) -> list[Evidence]:
        """Quotes the LLM copied from the best passages of a plan question: kept only where they stand in the
        passage's visible text (up to white space), then judged like any other quote."""
        scorer = self.steps.scorer
        if scorer is None or question.depth > 0 or self._scored >= LLM_SCORED_QUESTIONS:
            return []
        self._scored += 1
        ranked = sorted(passages, key=lambda p: p.rank)
        readers = {id(p): r for p, r in zip(ranked, self.admission.readers(ranked), strict=True)}
        visible = [p.model_copy(update={"text": readers[id(p)].text}) for p in ranked]
        picked: list[tuple[Passage, Window]] = []
        for shown, quote in scorer.quotes(question.text, visible):
            original = ranked[visible.index(shown)]
            text = readers[id(original)].text
            exact = whitespace_match(quote, text)
            if exact is None:
                continue
            start = text.index(exact)
            window = Window(start, start + len(exact), "llm")
            if not headings_in(readers[id(original)], window):  # a quote is text, never a title
                picked.append((original, window))
        if not picked:
            return []
        contexts = [
            in_context(readers[id(p)].text[w.start : w.end], title=p.title, section_path=p.section_path)
            for p, w in picked
        ]
        scores = judged(self.admission.judge.judge, question.text, contexts)
        return [
            new_evidence(question, p, readers[id(p)], w, score)
            for (p, w), score in zip(picked, scores, strict=True)
        ]

    def _leads(
        self,
        found: list[tuple[Question, list[Evidence]]],
        texts: Mapping[str, str],
        stored: Mapping[str, str],
    ) -> dict[str, list[Question]]:
        """The level's best leads (at most ``max_leads_per_level``), as questions one level deeper.

        Leads are read in the whole passage each new piece of evidence was cut from: the names a relevant
        passage mentions are not always in the sentence that was quoted. Links are read in the quote only
        (``stored``: the passages' Markdown, where links stand): the page a quote sends its reader to.
        """
        state = self.state
        asked = [q.text for q in state.questions.values()]
        known = {e.document_key for e in state.ledger} | {e.title or "" for e in state.ledger}
        ranked: list[tuple[float, Question, Lead]] = []
        linked: list[tuple[Question, Lead]] = []
        for question, new in found:
            context = [e.model_copy(update={"quote": texts.get(e.chunk_id or "", e.quote)}) for e in new]
            for lead in find_leads(context, asked=asked, known_documents=known, focus=self.request.subject):
                ranked.append((lead.priority, question, lead))
            asked_by = {e.id: self._root(question).text for e in new}
            links = find_links(new, stored, asked_by=asked_by, floor=self.options.answer_floor)
            linked += [(question, lead) for lead in links]
        # Each page once (the most relevant quote's link), and only a page the corpus holds.
        pages: dict[str, tuple[Question, Lead]] = {}
        for question, lead in sorted(linked, key=lambda pair: -pair[1].priority):
            if lead.document_id and lead.document_id not in self._followed:
                pages.setdefault(lead.document_id, (question, lead))
        held = self._held(list(pages))
        for page, (question, lead) in pages.items():
            if page in held:
                ranked.append((lead.priority, question, lead))
        ranked.sort(key=lambda item: -item[0])
        writer = self.steps.lead_writer
        if writer is not None and found:
            # The LLM's follow-up questions, each naming something the evidence does, after the
            # extractive leads of the level.
            source = max(found, key=lambda pair: len(pair[1]))[0]
            quotes = [e.quote for _, items in found for e in items][:8]
            floor = min((p for p, _, _ in ranked), default=1.0) * 0.9
            for text in writer.questions(self.query, quotes):
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
            key = question_key(lead.text)
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
            if lead.kind == "link" and lead.document_id:
                self._followed.add(lead.document_id)  # (a page is followed once it is asked, not before)
            question.children.append(child.id)
            out.setdefault(question.id, []).append(child)
            taken += 1
        return out

    def _root(self, question: Question) -> Question:
        """The question a chain of leads started from (what a link's page is asked)."""
        while question.origin in LEAD_ORIGINS and question.parent in self.state.questions:
            question = self.state.questions[question.parent]
        return question

    def _held(self, documents: Sequence[str]) -> set[str]:
        """The documents some source holds (a link to a page that was not ingested is no lead)."""
        out: set[str] = set()
        for source in self.sources:
            out |= source.holds(documents)
        return out

    def _stop_reason(self, new: list[Evidence], depth: int, queue: list[Question]) -> str:
        opts = self.options
        if opts.stop_when_covered and self._covered():
            return "every required section has enough evidence from distinct documents"
        if not new:
            return "a level added no new evidence"
        if self.state.ledger.full:
            return "evidence budget reached"
        if time.monotonic() - self.started > opts.time_budget:
            return "time budget reached"
        if depth >= self.depth:
            return "depth limit reached" if self.depth == opts.depth else "a long request follows no leads"
        if not queue:
            return "no leads to follow"
        return ""

    def _covered(self) -> bool:
        """Every required section: min_evidence pieces from two documents, or from all the corpus had."""
        live = self.state.ledger.live()
        for section in self.template.sections:
            if not section.required:
                continue
            items = [e for e in live if section.id in e.sections]
            documents = {e.document_key for e in items}
            wanted = min(2, len(self.state.seen_documents.get(section.id, set())) or 1)
            if len(items) < max(section.min_evidence, 1) or len(documents) < wanted:
                return False
        return True
