"""From passages to evidence: the quotes of a question's passages that answer it, admitted into the ledger.

Every question's passages go through the same steps: each passage is read as visible text (and, where it
ends on a colon, with the next chunk that holds what the colon introduces); its quotable windows are cut
(``quotes.windows``); the question's term weights shortlist the windows worth reading; the cross-encoder
scores each shortlisted window against the question, in its context. What is admitted:

- for the request's own searches (the request as written, each ask and constraint): the best window of each
  of the top ``backbone_documents`` documents, whenever it is on the request's topic at all
  (``topic_floor``, however far above it the best one scores); of a short question on the corpus's topics,
  the documents of its search's first hits whatever the judge says; of a long request's ask, the documents
  of its search's first hits whenever their best quote comes within ``topic_gap`` of the ask's best,
  whatever that floor says (``ASK_HITS``). This is the *backbone*: a report never knows less than a search
  of its own request;
- for every question: windows that answer it (``answer_floor``), at most two per passage and
  ``evidence_per_question`` passages per question, besides those of the first hits of the search as
  written where that search found the topic (their cosine reaches ``topic_similarity``): what the first page
  of that search shows and the judge says answers is never left out for want of a place.

Scores are the cross-encoder's logits (MS MARCO MiniLM): about 0 where a passage starts to answer, strongly
negative for a passage about something else. The floors were chosen on the tuning halves of three judged sets
of different styles and checked on their held-out halves (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from sleuth.agent.research.claim_text import OVERLAP_WORDS, SENTENCE_BREAK
from sleuth.agent.research.evidence import Evidence, Passage, evidence_id
from sleuth.agent.research.judged_forms import judged
from sleuth.agent.research.options import ResearchOptions
from sleuth.agent.research.plan import Question
from sleuth.agent.research.quote_spans import joined
from sleuth.agent.research.quotes import (
    MAX_EXAMPLE_CHARS,
    MAX_FOLLOW_CHARS,
    MAX_QUOTE_CHARS,
    QuoteJudge,
    Readable,
    Window,
    antecedent,
    code_run_end,
    ends_on_term,
    goes_on,
    in_context,
    is_pointer,
    leads_into_list,
    list_end,
    readable,
    term_above,
    trailing_code,
    windows,
)
from sleuth.agent.research.state import RunState
from sleuth.agent.research.text import NAMES_CODE
from sleuth.ingest.visible import Visible, visible_text
from sleuth.retrieval.encoders import SparseVector

#: Question origins whose searches are the request's own (their top documents make the backbone).
OWN_SEARCHES = ("query", "ask", "constraint")
#: ... and those whose question is the request or one of its asks: their score is a quote's relevance to the
#: request. A constraint's quote answers the background ("Our manual is maintained in Sphinx, Alabaster
#: theme"); scored so, the reST primer and the Alabaster theme had led the key findings on PDF output: it is
#: judged against the asks like any other (``Citation.directness``).
ASKED_SEARCHES = ("query", "ask")
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
        origin=question.origin,
        sections=list(question.sections),
        found_for=list(question.sections),
        score=round(score, 4),
        relevance=round(score, 4) if question.origin in ASKED_SEARCHES else 0.0,
        continued_in=passage.next_chunk_id if window.continues else None,
        code_at=trailing_code(reader, window),
        term=term_above(reader, window),
        search_rank=passage.rank if question.origin == "query" and not passage.neighbour else None,
    )


#: Windows of one passage judged at most when all are: a chunk of the judged manuals has 4 windows at the
#: median and 8 at the 90th percentile (up to 14); a long table or list is many more rows. At 8, the last
#: paragraph of a long chunk was never read whole ("Associative arrays are created using declare -A name",
#: the tenth window of Bash's Arrays chunk).
ALL_WINDOWS = 16
#: The blocks a chunk may open on that may lean on the chunk before, with the kind of their windows.
OPENINGS = {"paragraph": "sentence", "item": "item"}
#: Hits of each top document of the request's search as written that are read.
HITS_PER_DOCUMENT = 2


#: Hits of the request's search as written whose best quote is backbone evidence (besides each top
#: document's).
BACKBONE_HITS = 5

#: First hits of an ask's own search (a long request's question, with the chunks around each): every window
#: of theirs is judged, and their documents are cited by their best quotes whenever the request is on topic.
ASK_HITS = 2


#: A quote takes in the sentences after it, in its paragraph, while all fit in one quote.
EXTENDED_CHARS = MAX_QUOTE_CHARS


def extended(text: str, window: Window, cut: Sequence[Window]) -> Window:
    """``window`` with the sentences after it in its paragraph, while all fit in ``EXTENDED_CHARS``: the
    sentence a judge finds best is often the one that names the thing, and the value, the default or the
    exception is in the sentences after it (a paragraph is its author's unit of one thought). Verbatim
    still: one span of the passage's text."""
    if window.kind != "sentence" or window.continues:
        return window
    end = window.end
    while True:
        following = next((w for w in cut if w.start >= end), None)
        # (a sentence that leans on this one has its window open where this one does, or before: "The pop3d
        # utility keeps each user's last login time in a special DBM file ... By default, the login statistics
        # database is called /var/run/pop3-login.db." was never taken in, and the path never quoted)
        leaning = min(
            (
                w
                for w in cut
                if w.start < end < w.end
                and w.start <= window.start
                and w.kind == "sentence"
                and not w.continues
                and "\n" not in text[end : w.end]
            ),
            key=lambda w: w.end,
            default=None,
        )
        if leaning is not None and (following is None or leaning.end <= following.end):
            following = leaning
        if (
            following is None
            or following.kind != "sentence"
            or following.continues
            or "\n" in text[end : following.start]
            or following.end - window.start > EXTENDED_CHARS
        ):
            break
        end = following.end
    end = _with_named_pointer(text, window.start, end)
    return window if end == window.end else Window(window.start, end, "sentence")


def _with_named_pointer(text: str, start: int, end: int) -> int:
    """``end`` moved past the sentence that closes the paragraph when that sentence only sends the reader to
    a name in code ("As long as your tests are properly isolated, you can run them in parallel ... See test
    --parallel.") or in quotes (HAProxy's "This option enforces use of TLSv1.2 only ... See also
    "ssl-min-ver" and "ssl-max-ver"."): a pointer is never a quote of its own, but the name it gives is what
    to use, and the quote says what it does."""
    stop = text.find("\n", end)
    rest = text[end : len(text) if stop < 0 else stop]
    sentence = rest.strip()
    if (
        not sentence
        or sentence.endswith(":")  # "Then the split() function is called as follows:" introduces its code
        or len(sentence.split()) > POINTER_TAIL_WORDS
        or not is_pointer(sentence)
        or not (NAMES_CODE.search(sentence) or _QUOTED_NAME.search(sentence))
        or re.search(r"[.!?]\s+\S", sentence)  # one sentence, the paragraph's last
        or end + len(rest.rstrip()) - start > EXTENDED_CHARS
    ):
        return end
    return end + len(rest.rstrip())


#: A name in quotes: one word in lower case or with a name's joints between quotation marks ("ssl-min-ver",
#: "maxconn", "Foo.bar"), not a title ('See "Tuning".').
_QUOTED_NAME = re.compile(r"[\"“‘'](?:[a-z][\w.:/-]*|[A-Za-z]\w*[_.:/-][\w.:/-]*)[\"”’']")
#: A closing pointer taken into a quote has at most this many words.
POINTER_TAIL_WORDS = 8


def _one_thought(a: str, b: str) -> bool:
    """Two quotes of one passage that share a sentence of a few words at least: two windows of one thought,
    which the report gives as one claim (``synthesis`` joins them)."""
    first = {" ".join(t.split()) for t in SENTENCE_BREAK.split(a)}
    return any(
        len(t.split()) >= OVERLAP_WORDS and t in first
        for t in (" ".join(t.split()) for t in SENTENCE_BREAK.split(b))
    )


def _union(first: Sequence[Window], more: Sequence[Window]) -> list[Window]:
    return [*first, *(w for w in more if w not in first)]


def _before_of(passage: Passage, text: str) -> Passage:
    """The chunk before ``passage`` (its stored ``text``) as a passage read on into ``passage``: where a quote
    of ``passage`` that leans on it starts."""
    return passage.model_copy(
        update={
            "chunk_id": passage.prev_chunk_id,
            "text": text,
            "next_chunk_id": passage.chunk_id,
            "prev_chunk_id": None,
            # the quote ends on the passage's first page and starts at most a page before
            "page_breaks": [],
            "split_start": False,
            "split_end": False,
        }
    )


def cut_windows(passages: Sequence[Passage], readers: Sequence[Readable]) -> list[list[Window]]:
    """Each passage's quotable windows (a sentence at a chunk split is no window)."""
    return [
        windows(r, split_start=p.split_start, split_end=p.split_end)
        for p, r in zip(passages, readers, strict=True)
    ]


class Admission:
    """Quotes cut, judged against their question, admitted; the run's state records what was kept."""

    def __init__(
        self,
        options: ResearchOptions,
        state: RunState,
        *,
        judge: QuoteJudge,
        following: Following,
        long: bool = False,
    ) -> None:
        #: The request is long (its asks, not its text, are what quotes are judged against).
        self.long = long
        #: Each candidate's quote with the sentence after it (what a backbone piece quotes), by candidate id.
        self.extended: dict[str, Evidence] = {}
        self.options = options
        self.state = state
        self.judge = judge
        self.following = following
        #: Each passage read once a run (the questions of a run find the same chunks again and again), and
        #: with the next chunk when it may go on there: one store read for all of them.
        self._read: dict[tuple[str | None, str], Readable] = {}
        #: Chunks before passages that open on a sentence leaning back, by id (stored text, visible text),
        #: read once a run; None where the source no longer has one.
        self._before: dict[str, tuple[str, Visible] | None] = {}
        #: Evidence quoted from the chunk before a hit (``with_antecedents``): it counts as the hit's.
        self._reowned: set[str] = set()

    def readers(self, passages: Sequence[Passage]) -> list[Readable]:
        """Each passage as quotable text; one that ends on what introduces more (a colon, "the following
        routines are available ...") or on a paragraph (its example may open the next chunk) is read on into
        its next chunk."""
        todo = {(p.chunk_id, p.text): p for p in passages if (p.chunk_id, p.text) not in self._read}
        first = {key: readable(p.text) for key, p in todo.items()}
        wanted = sorted(
            {p.next_chunk_id for key, p in todo.items() if p.next_chunk_id and goes_on(first[key].visible)}
        )
        more = self.following(wanted) if wanted else {}
        for key, p in todo.items():
            nxt = p.next_chunk_id
            self._read[key] = readable(p.text, more[nxt]) if nxt in more else first[key]
        return [self._read[(p.chunk_id, p.text)] for p in passages]

    def with_antecedents(
        self,
        passages: Sequence[Passage],
        readers: Sequence[Readable],
        cut: Sequence[Sequence[Window]],
        short: Sequence[Sequence[Window]],
    ) -> tuple[list[Passage], list[Readable], list[list[Window]], list[list[Window]]]:
        """The passages, readers, windows and shortlists with each opening sentence that leans on the chunk
        before ("Then the parent itself exits.", "Or, in other words, these routines are constructors")
        quoted from the sentence it leans on: a passage of the chunk before, read on into this one, whose one
        shortlisted window runs from that sentence to the end of the opening one (verbatim: a span of the
        two chunks' text, checked against both, as a quote that runs on into a list is). The opening alone
        is no window any more: it says nothing of what it continues. So too a list that finishes the
        sentence the chunk before ends on, and code that opens a chunk (with the paragraph above it)."""
        out = (list(passages), list(readers), [list(c) for c in cut], [list(s) for s in short])
        openings: dict[int, Window] = {}
        for k, p in enumerate(passages):
            blocks = readers[k].visible.blocks
            if p.prev_chunk_id is None or p.split_start or not blocks:
                continue
            if blocks[0].kind == "code":
                # A chunk that opens on an example has nothing to quote alone, and the paragraph the chunker
                # set in the chunk before says what it exemplifies (Apache's custom error page: its search's
                # fourth hit is "ErrorDocument 404 /errors/not_found.html" and four lines like it, under
                # "Custom error documents are configured using the ErrorDocument directive ..." a chunk up):
                # the two are one quote, as in one chunk.
                code_end = code_run_end(blocks, 0)
                if code_end - blocks[0].start <= MAX_FOLLOW_CHARS:
                    openings[k] = Window(blocks[0].start, code_end, "example")
                continue
            if blocks[0].kind not in OPENINGS:
                continue
            # The opening sentence alone (the shortest window from the chunk's start), when one of the
            # passage's shortlisted windows starts there; one that runs on into the next chunk stays as it is.
            # A list that opens the chunk: the whole list where it fits (the description of a term the chunk
            # before ends on: Bison's "Directive: %define lr.type type" over "Language(s): all", "Purpose:
            # ...", "Default Value: lalr").
            kind = OPENINGS[blocks[0].kind]
            starting = [w for w in short[k] if w.kind == kind and w.start == blocks[0].start]
            alone = [w for w in cut[k] if w.kind == kind and w.start == blocks[0].start]
            if starting and alone and not any(w.continues for w in starting):
                openings[k] = min(alone, key=lambda w: w.end)
                listed = list_end(blocks, 0) if kind == "item" else 0
                if listed > openings[k].end and listed - blocks[0].start <= MAX_QUOTE_CHARS // 2:
                    openings[k] = Window(blocks[0].start, listed, "item")
        # The later sentences of a chunk's first paragraph, shortlisted, where the chunk before may end on the
        # term that paragraph describes: quoted from the term on, as in one chunk (``quotes._term_start``).
        # HAProxy's "By default an HTTP 403 error is returned." under "http-request deny [ { status |
        # deny_status } <code>] ..." (the chunk before's last line) says nothing alone of which rule.
        later: dict[int, list[Window]] = {}
        for k, p in enumerate(passages):
            blocks = readers[k].visible.blocks
            if p.prev_chunk_id is None or p.split_start or not blocks or blocks[0].kind != "paragraph":
                continue
            inside = [
                w
                for w in short[k]
                if w.kind == "sentence"
                and not w.continues
                and blocks[0].start < w.start
                and w.end <= blocks[0].end
                and w.end - blocks[0].start < MAX_QUOTE_CHARS
            ]
            if inside:
                later[k] = inside
        wanted = sorted({passages[k].prev_chunk_id or "" for k in [*openings, *later]} - self._before.keys())
        if wanted:
            fetched = self.following(wanted)
            for chunk_id in wanted:
                text = fetched.get(chunk_id)
                self._before[chunk_id] = (text, visible_text(text)) if text else None
        for k, inside in later.items():
            p = passages[k]
            before = self._before.get(p.prev_chunk_id or "")
            if before is None or not ends_on_term(before[1]):
                continue
            text, visible = before
            own = readers[k].visible
            shift = len(visible.text) + 2
            leaning: list[Window] = []
            moved: list[Window] = []
            for w in inside:
                said = own.text[own.blocks[0].start : w.end]
                start = antecedent(visible, said, room=MAX_QUOTE_CHARS - len(said) - 2)
                if start is not None:
                    leaning.append(Window(start, shift + w.end, "sentence", continues=True))
                    moved.append(w)
            if not leaning:
                continue
            out[0].append(_before_of(p, text))
            out[1].append(Readable(visible, own))
            out[2].append(leaning)
            out[3].append(leaning)
            out[3][k] = [w for w in out[3][k] if w not in moved]  # (one too far from its term stays)
        for k, first in openings.items():
            opening = first
            p = passages[k]
            before = self._before.get(p.prev_chunk_id or "")
            if before is None:
                continue
            own = readers[k].visible
            said = own.text[opening.start : opening.end]
            example = opening.kind == "example"
            room = (
                min(MAX_QUOTE_CHARS, MAX_EXAMPLE_CHARS - len(said) - 2)
                if example
                else MAX_QUOTE_CHARS - len(said) - 2
            )
            start = antecedent(before[1], said, room=room, example=example)
            if start is None or (
                opening.kind == "item" and not ends_on_term(before[1]) and not leads_into_list(before[1])
            ):
                # (a list leans on the chunk before only as the description of the term it ends on, or as the
                # rest of the sentence it ends on)
                continue
            text, visible = before
            shift = len(visible.text) + 2
            if opening.kind == "item" and leads_into_list(visible):
                # The rest of the lead-in's sentence: as many of the list's items as fit with it (an item
                # left out is quoted alone, half a sentence, rather than not at all).
                listed = list_end(own.blocks, 0)
                fits = MAX_QUOTE_CHARS - (len(visible.text) - start) - 2
                ends = [
                    b.end
                    for b in own.blocks
                    if b.kind == "item" and b.end <= listed and b.end - opening.start <= fits
                ]
                opening = Window(opening.start, max([opening.end, *ends]), "item")
            window = Window(start, shift + opening.end, "example" if example else "sentence", continues=True)
            out[0].append(_before_of(p, text))
            out[1].append(Readable(visible, own))
            out[2].append([window])
            out[3].append([window])
            # every window of this passage that opens on that sentence leans on the chunk before too (and
            # every item of a list that describes the term it ends on)
            out[3][k] = [
                w
                for w in out[3][k]
                if not (w.kind == "sentence" and w.start == opening.start)
                and not (opening.kind == "item" and w.kind == "item" and w.start < opening.end)
            ]
        return out

    def candidates(
        self,
        question: Question,
        passages: Sequence[Passage],
        weights: dict[int, float],
        *,
        asks: Sequence[tuple[str, dict[int, float]]] = (),
    ) -> list[Evidence]:
        """The question's judged quotes, best first, not yet admitted (``score``: the cross-encoder's).

        ``asks``: the asks of a long request (text, term weights), for its search as written: each of
        its passages is judged against the ask it speaks to, never against the whole request (the
        cross-encoder, trained on short queries, reads only the start of a long one, at a third of the speed).
        """
        if not passages:
            return []
        if question.origin == "query":
            if asks:
                return self._by_ask(question, self.top_documents(passages), asks)
            # A question: its first hits, as any own search reads them (the cross-encoder judges a question
            # well, and the documents further down that it finds on topic are few and displace answers).
            passages = [p for p in passages if p.rank < self.options.backbone_hits]
        readers = self.readers(passages)
        cut = cut_windows(passages, readers)
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
            # The request's own search is read as its user reads its first page: every hit whole (its first
            # ``ALL_WINDOWS`` windows, and the term weights' picks further down a long passage), so that the
            # backbone is each top document's best answer and a hit's answer is never left for a sentence
            # that only repeats the question's words (term weights pick that one: docs/BENCHMARKS.md,
            # "Which sentence answers?"; SQLite's FTS5 overview holds "CREATE VIRTUAL TABLE ... USING fts5"
            # in its fourth paragraph).
            short = [_union(cut[k][:ALL_WINDOWS], s) for k, s in enumerate(short)]
        elif question.origin == "ask":
            # An ask's first hits are read whole, as a reader of its search would: the term weights pick the
            # sentence that repeats the ask's words ("If the command terminates due to the SIGINT, Bash
            # concludes that the user meant to end the entire script"), not the option that answers it.
            short = [
                _union(cut[k][:ALL_WINDOWS], s) if p.rank < ASK_HITS else s
                for k, (p, s) in enumerate(zip(passages, short, strict=True))
            ]
        own = len(passages)
        passages, readers, cut, short = self.with_antecedents(passages, readers, cut, short)
        pairs = [(k, w) for k, ws in enumerate(short) for w in ws]
        scores = self._judged(question.text, pairs, passages, readers)
        judged = joined(list(zip(pairs, scores, strict=True)), readers, self.options.answer_floor)
        return [
            self._evidence(question, passages[k], readers[k], w, score, cut=cut[k], reowned=k >= own)
            for (k, w), score in judged
        ]

    def top_documents(self, passages: Sequence[Passage]) -> list[Passage]:
        """The passages of the search's top ``backbone_documents`` documents, their best ``HITS_PER_DOCUMENT``
        hits each (with the chunks around them): what the search shows a user on its first page."""
        ranks: dict[str, list[int]] = {}
        for p in sorted(passages, key=lambda p: p.rank):
            seen = ranks.setdefault(p.document_key, [])
            if p.rank not in seen:
                seen.append(p.rank)
        top = sorted(ranks, key=lambda d: ranks[d][0])[: self.options.backbone_documents]
        kept = {(d, r) for d in top for r in ranks[d][:HITS_PER_DOCUMENT]}
        # ... and its first ``BACKBONE_HITS`` hits whatever their documents (a page that fills the first
        # five hits holds the answer in its third: Django's transactions page and ``on_commit``).
        return [p for p in passages if (p.document_key, p.rank) in kept or p.rank < BACKBONE_HITS]

    def _by_ask(
        self, question: Question, passages: Sequence[Passage], asks: Sequence[tuple[str, dict[int, float]]]
    ) -> list[Evidence]:
        """A long request's own search, each passage judged against the ask it matches best (term weights),
        on the windows that ask's term weights shortlist (the asks' own searches read more of them)."""
        readers = self.readers(passages)
        cut = cut_windows(passages, readers)
        owner = self.judge.match([w for _, w in asks], [r.text for r in readers])
        out: list[Evidence] = []
        for m, (ask, ask_weights) in enumerate(asks):
            mine = [k for k, o in enumerate(owner) if o == m]
            if not mine:
                continue
            short = self.judge.shortlist(
                ask_weights, [readers[k].text for k in mine], [cut[k] for k in mine], budget=3 * len(mine)
            )
            # The search's first hits are read whole (each is cited by its best quote, whatever the term
            # weights would have shortlisted).
            short = [
                _union(cut[k][:ALL_WINDOWS], s) if passages[k].rank < BACKBONE_HITS else s
                for k, s in zip(mine, short, strict=True)
            ]
            found, read, cuts, short = self.with_antecedents(
                [passages[k] for k in mine], [readers[k] for k in mine], [cut[k] for k in mine], short
            )
            pairs = [(k, w) for k, ws in enumerate(short) for w in ws]
            # Each piece says which ask it answers (the summary answers every ask).
            asked = replace(question, text=ask)
            scored = list(zip(pairs, self._judged(ask, pairs, found, read), strict=True))
            for (k, w), score in joined(scored, read, self.options.answer_floor):
                out.append(
                    self._evidence(asked, found[k], read[k], w, score, cut=cuts[k], reowned=k >= len(mine))
                )
        return sorted(out, key=lambda e: -e.score)

    def _judged(
        self,
        question: str,
        pairs: Sequence[tuple[int, Window]],
        passages: Sequence[Passage],
        readers: Sequence[Readable],
    ) -> list[float]:
        """The cross-encoder's score of each (passage index, window) against ``question``, read in context,
        as asked and by the part of it that asks, the better (``judged_forms``: "Our plain-text e-mails are
        full of stray blank lines where the tags sit on their own lines. Which settings remove those
        lines?": the cross-encoder ranks the answer, "With both trim_blocks and lstrip_blocks enabled, ...
        the entire block line will be removed", second of eight under the whole text and first under its
        question)."""
        contexts = [
            in_context(
                readers[k].text[w.start : w.end],
                title=passages[k].title,
                section_path=passages[k].section_path,
            )
            for k, w in pairs
        ]
        return judged(self.judge.judge, question, contexts)

    def _evidence(
        self,
        question: Question,
        passage: Passage,
        reader: Readable,
        window: Window,
        score: float,
        *,
        cut: Sequence[Window],
        reowned: bool = False,
    ) -> Evidence:
        item = new_evidence(question, passage, reader, window, score)
        if reowned:
            self._reowned.add(item.id)
        longer = extended(reader.text, window, cut)
        if longer != window:
            wider = new_evidence(question, passage, reader, longer, score)
            self.extended[item.id] = wider.model_copy(update={"core": item.quote})
        return item

    def _best_of_first_hits(
        self, items: Sequence[Evidence], passages: Sequence[Passage], floor: float, *, hits: int
    ) -> set[str]:
        """The best quote of each of the search's first ``hits`` hits, when on topic: a search's first page
        shows a document's second hit too, and the answer is often there (the page's other section that
        holds the default, the example, the exception). The hit's own chunk, as the search shows it: a chunk
        next to it (read for context) would otherwise take its place with a sentence that scores higher
        ("A quality-of-life feature adds colored output" for Django's Windows pitfalls)."""
        rank: dict[str, int] = {}
        for p in passages:
            if p.neighbour:
                continue
            where = p.chunk_id or p.url or ""
            rank[where] = min(p.rank, rank.get(where, p.rank))
        out: set[str] = set()
        done: set[int] = set()
        for item in items:  # best first
            at = rank.get(item.chunk_id or item.url or "")
            if at is None and item.id in self._reowned and item.continued_in:
                at = rank.get(item.continued_in)  # a hit's opening quoted from the chunk before
            if at is None or at >= hits or at in done:
                continue
            done.add(at)
            if item.score >= floor:
                out.add(item.id)
        return out

    def admit(
        self,
        question: Question,
        items: list[Evidence],
        passages: Sequence[Passage],
        *,
        on_topic: bool | None = None,
        found_topic: bool = False,
    ) -> list[Evidence]:
        """New evidence among ``items`` (best first): the backbone of the request's own searches, and the
        quotes that answer the question.

        ``on_topic``: whether the request as a whole is on the corpus's topics (some quote of its own searches
        reaches ``topic_floor``). When a long request is, the top documents of its search as written are
        cited, each by its best quote: that search is what a user would have run, and a report never knows
        less than it. A long request's asks and constraints cite a top document when its best quote is on
        topic: within ``topic_gap`` of its search's best and above ``topic_floor``.

        ``found_topic``: whether the search as written found the request's topic by its own measure (the
        closest passage's cosine reaches ``topic_similarity``). A request whose search found its topic
        (``on_topic`` or ``found_topic``; a long one by ``found_topic`` when the judge scores all its asks
        low) cites that search's top documents by their best quotes within
        ``topic_gap`` of the best, whatever the judge's absolute floor says (evidence marked ``found_only``
        when no quote reaches it): a report is empty only when search itself finds nothing on the topic, and
        never knows less than its first page.
        """
        opts = self.options
        rank: dict[str, int] = {}
        for p in passages:  # a document ranks where its best hit does
            rank[p.document_key] = min(p.rank, rank.get(p.document_key, p.rank))
        own = question.origin in OWN_SEARCHES
        backbone: set[str] = set()
        found_only = False
        if own and items:
            top = sorted({p.document_key for p in passages}, key=lambda d: rank[d])[: opts.backbone_documents]
            # On the request's topic: not far below the best answer its own search found, and not below an
            # absolute floor (a search always returns something; the cheese market is not the battery market).
            relative = items[0].score - opts.topic_gap
            if question.origin == "query" and on_topic and self.long:
                # A long request's own words are no query for a cross-encoder (its asks are judged, and a
                # statement of need scores low even on the page that meets it): its search's top documents
                # are cited as the search ranked them, the judge choosing only each one's best quote.
                floor = float("-inf")
            elif question.origin == "query" and (on_topic or found_topic):
                # A short question whose search found its topic (by the judge or by the dense measure), or a
                # long request whose asks the judge scores low everywhere but whose search as written comes
                # close to its topic (the co-op's "Which energy sources could replace it?"): the
                # search's top documents are cited as far as their best quotes come near the best one; the
                # judge's absolute floor does not apply (a multi-hop question, "the symptoms of the top 5
                # mortality cancers", scores every page that holds one hop of its answer low). When no quote
                # reaches that floor, the report says no passage answers the request, and shows what the
                # search found.
                floor = relative
                found_only = not on_topic
            elif question.origin == "query" and on_topic is False:
                floor = float("inf")
            else:
                floor = max(opts.topic_floor, relative)
            # An ask of a request on the corpus's topics: its search's first hits are what a reader of that
            # search sees first, and the cross-encoder, trained on web questions, scores a manual's answer to
            # a question put in other words low ("-e: Exit immediately if a pipeline ... returns a non-zero
            # status" scores -9 for "How do I make a script stop as soon as a command fails?"). Their
            # documents are cited by their best quotes within topic_gap of the ask's best, whatever the
            # absolute floor: the report never knows less than the first hits of each ask's search.
            # Per document, how low its best quote may score and still be cited.
            floors: dict[str, float] = {}
            if question.origin == "ask" and on_topic and self.long:
                floors = dict.fromkeys((p.document_key for p in passages if p.rank < ASK_HITS), relative)
            elif question.origin == "query" and on_topic and not self.long:
                # A question on the corpus's topics, in a top document where its search found the topic by
                # its own measure (the hit's cosine reaches ``topic_similarity``): cited whenever its best
                # quote is on the topic at all (``topic_floor``), however far the best one scores above it
                # (one page that answers word for word, "the Seven Wonders of the Ancient World" at 6.1,
                # must not push out the pages of the other hops, Petra's "one of the New 7 Wonders of the
                # World" at -2.7), and whatever the judge says when it is one of the first hits (John F.
                # Kennedy's page, the second hit for the ages of the leaders in the Cuban Missile Crisis, at
                # -7.6). The cheese festival's "The Freedonian cheese market was worth 90 million florins"
                # is judged -0.7 for the graphene battery market, but its cosine, 0.58, says that search
                # found no battery market there.
                for p in passages:
                    if p.similarity is not None and p.similarity >= opts.topic_similarity:
                        low = float("-inf") if p.rank < ASK_HITS else min(relative, opts.topic_floor)
                        floors[p.document_key] = min(low, floors.get(p.document_key, low))
            seen: set[str] = set()
            for item in items:
                key = item.document_key
                if key in top and key not in seen:
                    seen.add(key)
                    if item.score >= floors.get(key, floor):
                        backbone.add(item.id)
            if not self.long or question.origin == "query":
                backbone |= self._best_of_first_hits(items, passages, floor, hits=BACKBONE_HITS)
            elif floors:
                # ... and each of those first hits by its own best quote, when it comes as near (the
                # answer to an ask is as often in its page's second hit as in its first).
                backbone |= self._best_of_first_hits(items, passages, relative, hits=ASK_HITS)
        # An ask's quote that answers better than one of its first hits cited anyway is cited too: the floor
        # is no higher than the lowest of them (an ask's first hit was cited at -3.4 for "You can run the
        # full test suite ..."; "If this hook exits with a non-zero status, git push will abort" at -1.06,
        # the fourth hit, had been dropped).
        answers = opts.answer_floor
        if question.origin == "ask" and not found_only:
            answers = min([answers, *(item.score for item in items if item.id in backbone)])
        # The first hits of the search as written where the search found the topic by its own measure (the
        # hit's cosine reaches ``topic_similarity``): an answer there is what a reader of that search sees
        # on its first page, and it is admitted however many places better-scored passages have taken.
        # Apache's "MaxKeepAliveRequests 100" (the search's eighth hit, judged 0.82) had been left out for
        # the question's six places, four of them the backbone's. An answer in a hit under that measure waits
        # for a place as before: the cheese market (cosine 0.58) in a brief on the battery market.
        first = (
            {
                p.chunk_id or p.url or ""
                for p in passages
                if not p.neighbour
                and p.rank < opts.hits_per_question
                and p.similarity is not None
                and p.similarity >= opts.topic_similarity
            }
            if question.origin == "query"
            else set()
        )
        per_passage: dict[str, int] = {}
        quoted: dict[str, list[str]] = {}
        new: list[Evidence] = []
        for item in items:
            is_backbone = item.id in backbone
            if not is_backbone and item.score < answers:
                self.state.off_topic += 1
                continue
            where = item.chunk_id or item.url or ""
            wider = self.extended.get(item.id, item)
            # A window of a thought already quoted from this passage (one sentence of it at least) is the
            # same claim said worse (items come best first): it is left out, and the passage's second slot
            # is left for what it says besides (SQLite's FTS5 overview spent both on its opening paragraph,
            # read twice, and never quoted "To use FTS5, the user creates an FTS5 virtual table ... CREATE
            # VIRTUAL TABLE email USING fts5(...)").
            # (... unless it shows code the kept quote lacks: an example is no worse window of its sentence)
            code = wider.quote[wider.code_at :] if wider.code_at is not None else ""
            if not is_backbone and any(
                _one_thought(wider.quote, q) and code in q for q in quoted.get(where, ())
            ):
                continue
            if not is_backbone and (
                per_passage.get(where, 0) >= 2
                or (
                    len(per_passage) >= opts.evidence_per_question
                    and where not in per_passage
                    and where not in first
                )
            ):
                continue
            per_passage[where] = per_passage.get(where, 0) + 1
            quoted.setdefault(where, []).append(wider.quote)
            if is_backbone:
                # Cited whatever a section's bound: the search as written's, and that of the documents of an
                # ask's or constraint's first hits.
                always = question.origin == "query" or rank[item.document_key] < ASK_HITS
                wider = wider.model_copy(
                    update={"backbone": True, "found_only": found_only, "always_cited": always}
                )
            if self.state.ledger.add(wider):
                new.append(wider)
        return new
