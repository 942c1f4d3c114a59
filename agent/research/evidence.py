"""The evidence ledger: verbatim quotes cut from stored passages, with everything a citation needs.

A *passage* is a piece of stored text a search returned (a corpus chunk, a chunk of a fetched web page). A
piece of *evidence* is a quote cut out of a passage (a sentence or a few, chosen by relevance to the
question it was found for) plus where it stands: document, title, section path, page or URL, date. Quotes
are slices of the passage's text, so they are verbatim by construction; the guards check that again against
the index before a report is written.

Relevance without an LLM comes from the question's SPLADE vector: a sentence scores the weight of the
query terms (and learnt expansions) it contains, as a share of the query's total weight. It is the same
vector the search used, so choosing quotes costs one tokenisation.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from pydantic import ConfigDict, Field

from sleuth.agent.report import EvidenceRecord
from sleuth.agent.research.text import Span, sentence_spans, words
from sleuth.retrieval.provenance import Provenance

_MAX_QUOTE_CHARS = 600
_PRONOUN_START = ("it ", "its ", "this ", "these ", "they ", "their ", "he ", "she ", "his ", "her ", "such ")


class Passage(Provenance):
    """Stored text a search returned, with its provenance."""

    text: str
    score: float = 0.0
    rank: int = 0


class Evidence(EvidenceRecord):
    """One quote in the ledger (the contract's evidence record plus research bookkeeping)."""

    model_config = ConfigDict(frozen=False)

    question_id: str = ""
    question: str = ""
    sections: list[str] = Field(default_factory=list)
    score: float = 0.0
    #: Similarity of the quote (with its document title) to the user's query, by the dense model: what keeps
    #: a run on its topic, and what ranks summary claims.
    relevance: float = 0.0
    #: Set by a reviewer (``--review``): pinned evidence is always cited, dropped evidence never.
    pinned: bool = False
    dropped: bool = False

    @property
    def document_key(self) -> str:
        """What counts as one document for "distinct documents": its id, the page's URL, else itself."""
        return self.document_id or self.url or self.id


def evidence_id(passage: Passage, quote: str) -> str:
    where = passage.chunk_id or passage.url or ""
    return "E" + hashlib.sha256(f"{passage.kind}\0{where}\0{quote}".encode()).hexdigest()[:10]


@dataclass(frozen=True, slots=True)
class QuoteChoice:
    start: int
    end: int
    #: Share of the question's weight the quote covers, read with its document title and heading path
    #: (a sentence seldom repeats the subject its heading names).
    coverage: float
    #: Share the sentence covers on its own: a quote must bring something itself.
    own: float
    #: What picks the best quotes: both coverages, damped by length.
    score: float


class QuoteSelector:
    """Picks the best quotes of passages for a question, from the question's sparse term weights."""

    def __init__(self, token_ids: Callable[[Sequence[str]], list[list[int]]]) -> None:
        self._token_ids = token_ids

    def choose(
        self, weights: dict[int, float], passages: Sequence[Passage], per_passage: int = 2
    ) -> list[list[QuoteChoice]]:
        """The best quotes of each passage, best first, at most ``per_passage``, never overlapping."""
        total = sum(weights.values()) or 1.0
        spans_per = [sentence_spans(p.text) for p in passages]
        flat = [p.text[s.start : s.end] for p, spans in zip(passages, spans_per, strict=True) for s in spans]
        contexts = [f"{p.title or ''}\n{p.section_path or ''}" for p in passages]
        tokens = self._token_ids([*flat, *contexts])
        ids = iter(tokens[: len(flat)])
        out: list[list[QuoteChoice]] = []
        for passage, spans, context in zip(passages, spans_per, tokens[len(flat) :], strict=True):
            scores = [_score(next(ids), set(context), weights, total) for _ in spans]
            chosen: list[QuoteChoice] = []
            for k in sorted(range(len(spans)), key=lambda k: -scores[k][2]):
                if len(chosen) == per_passage:
                    break
                start, end = _extend(passage.text, spans, k)
                if any(start < c.end and c.start < end for c in chosen):
                    continue
                coverage, own, score = scores[k]
                chosen.append(QuoteChoice(start, end, coverage, own, score))
            out.append(chosen)
        return out


def _score(
    sentence: list[int], context: set[int], weights: dict[int, float], total: float
) -> tuple[float, float, float]:
    own_ids = set(sentence)
    own = sum(weights.get(t, 0.0) for t in own_ids) / total
    coverage = sum(weights.get(t, 0.0) for t in own_ids | context) / total
    # Long sentences match more by chance: damp by length, gently (a fact is often one long sentence).
    return coverage, own, (coverage + own) / 2 / math.log2(2 + len(sentence) / 12)


def _extend(text: str, spans: list[Span], best: int) -> tuple[int, int]:
    """The best span, with its neighbour sentence in the same paragraph when it cannot stand alone (too
    short, or it opens with a pronoun whose referent is in the sentence before)."""
    span = spans[best]
    start, end = span.start, span.end
    if span.kind == "sentence":
        first = best
        for _ in range(2):  # "It ... It ...": walk back to the sentence that names what "it" is
            if first == 0 or not text[spans[first].start : end].lower().startswith(_PRONOUN_START):
                break
            if not _joined(text, spans[first - 1], spans[first]):
                break
            first -= 1
        start = spans[first].start
        after = spans[best + 1] if best + 1 < len(spans) else None
        if after is not None and _joined(text, span, after) and len(words(text[start:end])) < 8:
            end = after.end
    if end - start > _MAX_QUOTE_CHARS:
        cut = text.rfind(", ", start, start + _MAX_QUOTE_CHARS)
        end = cut if cut > start + 80 else start + _MAX_QUOTE_CHARS
    return start, end


def _joined(text: str, first: Span, second: Span) -> bool:
    """Two sentences of one paragraph, next to each other."""
    return first.kind == second.kind == "sentence" and "\n\n" not in text[first.end : second.start]


class Ledger:
    """Every piece of evidence of a run, by id, in the order found; budgets apply here."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: dict[str, Evidence] = {}

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Evidence]:
        return iter(self._items.values())

    def __contains__(self, evidence_id: str) -> bool:
        return evidence_id in self._items

    def get(self, evidence_id: str) -> Evidence | None:
        return self._items.get(evidence_id)

    @property
    def full(self) -> bool:
        return len(self._items) >= self.limit

    def add(self, evidence: Evidence) -> bool:
        """True when new; evidence found again for another question joins that question's sections."""
        known = self._items.get(evidence.id)
        if known is not None:
            merged = sorted(set(known.sections) | set(evidence.sections))
            self._items[evidence.id] = known.model_copy(
                update={"sections": merged, "score": max(known.score, evidence.score)}
            )
            return False
        if self.full:
            return False
        self._items[evidence.id] = evidence
        return True

    def replace(self, items: Iterable[Evidence]) -> None:
        self._items = {e.id: e for e in items}

    def live(self) -> list[Evidence]:
        return [e for e in self._items.values() if not e.dropped]

    def documents(self, section_id: str | None = None) -> set[str]:
        return {e.document_key for e in self.live() if section_id is None or section_id in e.sections}
