"""From passages to evidence: the quotes of a question's passages that answer it, admitted into the ledger.

Every question's passages go through the same steps: each passage is read as visible text (and, where it
ends on a colon, with the next chunk that holds what the colon introduces); its quotable windows are cut
(``quotes.windows``); the question's term weights shortlist the windows worth reading; the cross-encoder
scores each shortlisted window against the question, in its context. What is admitted:

- for the request's own searches (the request as written, each ask and constraint): the best window of each
  of the top ``backbone_documents`` documents, whenever it is on the request's topic at all
  (``topic_floor``). This is the *backbone*: a report never knows less than a search of its own request;
- for every question: windows that answer it (``answer_floor``), at most two per passage and
  ``evidence_per_question`` passages per question.

Scores are the cross-encoder's logits (MS MARCO MiniLM): about 0 where a passage starts to answer, strongly
negative for a passage about something else. The floors were chosen on the tuning halves of three judged sets
of different styles and checked on their held-out halves (docs/BENCHMARKS.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sleuth.agent.research.evidence import Evidence, Passage, evidence_id
from sleuth.agent.research.options import ResearchOptions
from sleuth.agent.research.plan import Question
from sleuth.agent.research.quotes import QuoteJudge, Readable, Window, in_context, readable, windows
from sleuth.agent.research.state import RunState
from sleuth.retrieval.encoders import SparseVector

#: Question origins whose searches are the request's own (their top documents make the backbone).
OWN_SEARCHES = ("query", "ask", "constraint")
#: Next chunks by id (content), for passages that end on a colon.
Following = Callable[[Sequence[str]], dict[str, str]]


def weights(sparse: SparseVector) -> dict[int, float]:
    return dict(zip(sparse.indices, sparse.values, strict=True))


def new_evidence(
    question: Question, passage: Passage, reader: Readable, window: Window, score: float
) -> Evidence:
    quote = reader.text[window.start : window.end]
    raw = reader.visible.source_offset(window.start) if window.start < len(reader.visible.text) else 0
    return Evidence(
        id=evidence_id(passage, quote),
        kind=passage.kind,
        chunk_id=passage.chunk_id,
        url=passage.url,
        document_id=passage.document_id,
        title=passage.title,
        section_path=passage.section_path,
        page=passage.page_at(raw),
        quote=quote,
        date=passage.date,
        source=passage.source,
        question_id=question.id,
        question=question.text,
        sections=list(question.sections),
        score=round(score, 4),
        relevance=round(score, 4) if question.origin in OWN_SEARCHES else 0.0,
        continued_in=passage.next_chunk_id if window.continues else None,
    )


#: Windows of one passage judged at most when all are (a long table or list is many rows).
ALL_WINDOWS = 8


class Admission:
    """Quotes cut, judged against their question, admitted; the run's state records what was kept."""

    def __init__(
        self,
        options: ResearchOptions,
        state: RunState,
        *,
        judge: QuoteJudge,
        following: Following,
    ) -> None:
        self.options = options
        self.state = state
        self.judge = judge
        self.following = following

    def readers(self, passages: Sequence[Passage]) -> list[Readable]:
        """Each passage as quotable text; one that ends on a colon is read on into its next chunk."""
        first = [readable(p.text) for p in passages]
        wanted = [
            p.next_chunk_id
            for p, r in zip(passages, first, strict=True)
            if p.next_chunk_id and r.visible.text.rstrip().endswith(":")
        ]
        more = self.following(sorted(set(wanted))) if wanted else {}
        return [
            readable(p.text, more[p.next_chunk_id]) if p.next_chunk_id in more else r
            for p, r in zip(passages, first, strict=True)
        ]

    def candidates(
        self, question: Question, passages: Sequence[Passage], weights: dict[int, float]
    ) -> list[Evidence]:
        """The question's judged quotes, best first, not yet admitted (``score``: the cross-encoder's)."""
        if not passages:
            return []
        readers = self.readers(passages)
        cut = [
            windows(r, split_start=p.split_start, split_end=p.split_end)
            for p, r in zip(passages, readers, strict=True)
        ]
        # The request's own searches read deeper (their top documents make the backbone); a lead, a step
        # removed from the request, less.
        share = (
            2.0
            if question.origin in OWN_SEARCHES
            else 0.5
            if question.origin in ("lead", "llm-lead")
            else 1.0
        )
        budget = int(self.options.windows_per_question * share)
        short = self.judge.shortlist(weights, [r.text for r in readers], cut, budget=budget)
        if question.origin == "query":
            # The request's own search: every window of its top documents' passages is judged, not the
            # term weights' shortlist, so that the backbone is each top document's best answer (term weights
            # pick the sentence that repeats the question's words, not the one that answers it:
            # docs/BENCHMARKS.md, "Which sentence answers?").
            top = self.options.backbone_documents
            short = [
                cut[k][:ALL_WINDOWS] if p.rank < top else s
                for k, (p, s) in enumerate(zip(passages, short, strict=True))
            ]
        pairs = [(k, w) for k, ws in enumerate(short) for w in ws]
        contexts = [
            in_context(
                readers[k].text[w.start : w.end],
                title=passages[k].title,
                section_path=passages[k].section_path,
            )
            for k, w in pairs
        ]
        scores = self.judge.judge(question.text, contexts)
        judged = sorted(zip(pairs, scores, strict=True), key=lambda item: -item[1])
        return [new_evidence(question, passages[k], readers[k], w, score) for (k, w), score in judged]

    def admit(self, question: Question, items: list[Evidence], passages: Sequence[Passage]) -> list[Evidence]:
        """New evidence among ``items`` (best first): the backbone of the request's own searches, and the
        quotes that answer the question."""
        opts = self.options
        rank = {p.document_key: p.rank for p in passages}
        own = question.origin in OWN_SEARCHES
        backbone: set[str] = set()
        if own and items:
            top = sorted({p.document_key for p in passages}, key=lambda d: rank[d])[: opts.backbone_documents]
            # On the request's topic: not far below the best answer its own search found, and not below an
            # absolute floor (a search always returns something; the cheese market is not the battery market).
            floor = max(opts.topic_floor, items[0].score - opts.topic_gap)
            seen: set[str] = set()
            for item in items:
                key = item.document_key
                if key in top and key not in seen:
                    seen.add(key)
                    if item.score >= floor:
                        backbone.add(item.id)
        per_passage: dict[str, int] = {}
        new: list[Evidence] = []
        for item in items:
            is_backbone = item.id in backbone
            if not is_backbone and item.score < opts.answer_floor:
                self.state.off_topic += 1
                continue
            where = item.chunk_id or item.url or ""
            if not is_backbone and (
                per_passage.get(where, 0) >= 2
                or (len(per_passage) >= opts.evidence_per_question and where not in per_passage)
            ):
                continue
            per_passage[where] = per_passage.get(where, 0) + 1
            kept = item.model_copy(update={"backbone": True}) if is_backbone else item
            if self.state.ledger.add(kept):
                new.append(kept)
        return new
