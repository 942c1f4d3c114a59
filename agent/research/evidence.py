"""The evidence ledger: verbatim quotes cut from stored passages, with everything a citation needs.

A *passage* is a piece of stored text a search returned (a corpus chunk, a chunk of a fetched web page). A
piece of *evidence* is a quote cut out of a passage (a sentence or a few, chosen by how well they answer
the question they were found for: ``quotes.py``) plus where it stands: document, title, section path, page
or URL, date. Quotes are slices of the passage's visible text, so they are verbatim by construction; the
guards check that again against the index before a report is written.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping

from pydantic import ConfigDict, Field

from sleuth.agent.report import EvidenceRecord
from sleuth.retrieval.provenance import Provenance

_MAX_QUOTE_CHARS = 600
_PRONOUN_START = ("it ", "its ", "this ", "these ", "they ", "their ", "he ", "she ", "his ", "her ", "such ")


class Passage(Provenance):
    """Stored text a search returned, with its provenance."""

    text: str
    score: float = 0.0
    rank: int = 0
    #: A chunk next to a hit (read for context, with the hit's rank), not a hit itself.
    neighbour: bool = False
    #: Cosine of the question's dense vector and this passage's, where the source measured it (the corpus, for
    #: the hits of a dense search of the request as written; the web, for every chunk it ranked).
    similarity: float | None = None
    #: Pages that begin inside the text (offset in ``text``, page): a quote's page is where it stands.
    page_breaks: list[tuple[int, int]] = Field(default_factory=list)
    #: The next chunk of the same document (what a passage ending on a colon introduces stands there).
    next_chunk_id: str | None = None
    #: The chunk before, in the same document (what a passage's opening sentence leans on may stand there).
    prev_chunk_id: str | None = None
    #: The chunker split a paragraph at the start or end of this text: a sentence there may be cut off.
    split_start: bool = False
    split_end: bool = False

    def page_at(self, offset: int) -> int | None:
        page = self.page
        for start, number in self.page_breaks:
            if start > offset:
                break
            page = number
        return page


#: Origins of the questions discovery makes of a name the evidence mentions ("Capital of France population
#: cities"): a way to find, not a question anyone asked.
LEAD_ORIGINS = frozenset({"lead", "llm-lead"})
#: Origins whose score says nothing of the request: a lead's (``synthesis._weight``) and a constraint's (it
#: answers the constraint: ``synthesis.summarize``). Found again by another question, a quote keeps that one.
ASIDE_ORIGINS = LEAD_ORIGINS | {"constraint"}


class Evidence(EvidenceRecord):
    """One quote in the ledger (the contract's evidence record plus research bookkeeping)."""

    model_config = ConfigDict(frozen=False)

    question_id: str = ""
    question: str = ""
    #: How the question it was found for came about (``plan.Question.origin``): the request's own searches
    #: ("query", "ask", "constraint"), a template's ("plan", "guard") or discovery's ("lead", "llm-lead").
    origin: str = ""
    #: The sections that question was asked for (``sections`` is where routing puts the quote): a quote's
    #: score for a template's question speaks for it in that question's section only.
    found_for: list[str] = Field(default_factory=list)
    sections: list[str] = Field(default_factory=list)
    score: float = 0.0
    #: How well the quote (in its context) answers the request's own words, by the cross-encoder: its score
    #: for the query, ask or constraint it was found for (found for a template's or a lead's question: its
    #: best score over the request's asks, when it is chosen): what ranks summary claims.
    relevance: float = 0.0
    #: Set by a reviewer (``--review``): pinned evidence is always cited, dropped evidence never.
    pinned: bool = False
    dropped: bool = False
    #: The best quote of one of the top documents of the request's own search: a report never knows less
    #: than a search, so this evidence is always cited.
    backbone: bool = False
    #: Where the search of the request as written ranks the quote's chunk (0: its first hit), when that search
    #: found it; None otherwise. The summary answers from the search's first page as well as from the judge.
    search_rank: int | None = None
    #: Backbone that a section's bound never drops (``section_bounds``): the search as written's, and that of
    #: the documents of an ask's or constraint's first hits; the rest competes for a section's places.
    always_cited: bool = False
    #: Cited because the search as written found the request's topic, although the judge found no quote of it
    #: on topic (the best of the search's first document): it shows what the corpus has, not an answer, so a
    #: section resting on such evidence alone is ``thin_evidence``.
    found_only: bool = False
    #: The window the judge chose, where the quote took in the sentence after it (what near-duplicates are
    #: compared by); empty where the quote is that window.
    core: str = ""
    #: The term line (or lines, one per line) whose description the quote stands in, several paragraphs
    #: down in its chunk, where the quote neither opens on it nor names it (``quotes.term_above``): what its
    #: claim is named by. Checked against the source with the quote.
    term: str | None = None
    #: Where the quote starts in the visible text it was checked against (``guards.verify_quotes``), when it
    #: stands there once: two quotes of one passage are joined into one span only where their places say
    #: the span is the source's (``synthesis._spliced``). None when unchecked or ambiguous.
    start: int | None = None

    @property
    def document_key(self) -> str:
        """What counts as one document for "distinct documents": its id, the page's URL, else itself."""
        return self.document_id or self.url or self.id


def found_only(ids: Iterable[str], evidence: Mapping[str, Evidence]) -> bool:
    """Whether ``ids`` rest on nothing but what the search found where the judge found no answer (one rule
    for a section's status, its note and the summary's caveat)."""
    known = [evidence[i] for i in ids if i in evidence]
    return bool(known) and all(e.found_only for e in known)


def evidence_id(passage: Passage, quote: str) -> str:
    where = passage.chunk_id or passage.url or ""
    return "E" + hashlib.sha256(f"{passage.kind}\0{where}\0{quote}".encode()).hexdigest()[:10]


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
            # The score kept is the better one's, with the origin it speaks for; a lead's or a constraint's
            # never over what another question found (their scores say nothing of the request).
            aside = evidence.origin in ASIDE_ORIGINS
            mixed = aside != (known.origin in ASIDE_ORIGINS)
            if mixed:
                better = known if aside else evidence
            else:
                better = evidence if evidence.score > known.score else known
            # (an aside's relevance is unjudged, 0.0, until ``Citation.directness``: never over a judged one)
            relevance = better.relevance if mixed else max(known.relevance, evidence.relevance)
            self._items[evidence.id] = known.model_copy(
                update={
                    "sections": merged,
                    "found_for": sorted(set(known.found_for) | set(evidence.found_for)),
                    "origin": better.origin,
                    "score": better.score,
                    "relevance": relevance,
                    "backbone": known.backbone or evidence.backbone,
                    "found_only": known.found_only and evidence.found_only,
                    "search_rank": min(
                        (r for r in (known.search_rank, evidence.search_rank) if r is not None), default=None
                    ),
                    "always_cited": known.always_cited or evidence.always_cited,
                }
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
