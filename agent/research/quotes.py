"""Quotes that answer: the pieces of a passage a report may quote, and which of them answers a question.

A passage is stored Markdown; a quote is a slice of its *visible text* (``sleuth.ingest.visible``: links read
as their text, no escapes, no emphasis markers), so it reads as the document reads and is verbatim by
construction. The pieces that may be quoted (*windows*):

- a sentence of a paragraph, with the sentence before it when it opens with a pronoun whose referent is
  there, and the one after it when it is too short to stand alone;
- a sentence that introduces what follows with a colon, together with what follows: the list items, table
  rows or code lines of the next blocks, even when they stand in the next chunk (a list intro alone says
  nothing), and a short one ("For example:") with the sentence before it, which says what it is about;
  likewise a paragraph's last sentence that stops without a stop and goes on in a code block;
- a list item, a table row, a small table whole (a manual's key-value table of a directive), a quoted
  paragraph; an item or quoted paragraph too long to quote whole (a manual whose numbered sections are list
  items) is read as a paragraph, sentence by sentence, so that its last sentences (often the value: "The
  default maximum trigger recursion depth is 1000.") are quotable too.

Never quoted: headings, bare code, pointers ("For more information see Chapter 70.", "isolation levels are
described in Table 13.1."), fragments a chunk boundary cut (a sentence that starts in lower case at the
start of a split chunk, or stops without its end at the end of one), and pieces of under four words.

Which window answers a question is judged in two steps: the question's sparse term weights pick the few
windows of each passage worth reading (cheap: one tokenisation), then the cross-encoder reads the question
with each of those windows in its context (title and heading path) and scores how well it answers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sleuth.agent.research.text import (
    PLACEHOLDER_IT,
    QUOTE_MARKS,
    SENTENCE_END,
    STOPWORDS,
    sentence_bounds,
    words,
)
from sleuth.ingest.contextualize import contextualize
from sleuth.ingest.term_lines import TERM_WORDS, TYPE_WORDS, defined_name, is_term_line, signature_name
from sleuth.ingest.visible import Block, Visible, visible_text

#: Longest quote of sentences, in characters (a sentence with what it introduces may reach
#: ``MAX_EXAMPLE_CHARS``); a longer window is cut at a clause or word boundary.
MAX_QUOTE_CHARS = 600
#: A sentence with what it introduces (a list, a table, an example) is quoted whole up to this length;
#: longer, it is not quoted (cut, an example would read as another one).
MAX_EXAMPLE_CHARS = 1200
#: What a colon may bring along: at most this many characters of the blocks after it.
MAX_FOLLOW_CHARS = 420
_ABBREVIATION = re.compile(
    # ("ms" and "sec" after a number are units: "defaults to 2000 ms. It is ..." ends a sentence)
    r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|ca|no|nos|fig|figs|eq|al|inc|ltd|co|corp|dr|mr|mrs|(?<!\d\s)ms|prof|"
    r"st|jr|sr|"
    r"u\.s|u\.k|e\.u|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|(?<!\d\s)sec|ch|vol|pp|p)|\b[A-Z])\.$",
    re.I,
)
#: An answer's opening word, yes or no ("Yes, by setting DNS_RESOLVER ...", "No. It is ..."), not "No-op
#: handlers ..." nor "No. 7 is ...".
YES_OR_NO = r"(?:yes|no)(?:\s*[,;:!—–]|\.(?!\s*\d))"
#: Words that open a sentence by pointing back: a pronoun, a conjunction or "then" (which continue the
#: sentence before: "Then the parent itself exits.", "But the limit applies only to ..."), a linking adverb,
#: an example or a restatement ("For example, the CMAKE_MINIMUM_REQUIRED_VERSION variable won't be set ...",
#: "As before, we'll start with ..."); a word of their own ("So-called", not "So"), in lower case or
#: capitalised (SQL's "AND and OR combine expressions" names keywords).
_POINTING_WORDS = (
    r"(?!(?-i:[A-Z]{2,})\b)"
    r"(?:it|its|this|these|they|their|he|she|his|her|such|those|that|another|however|thus|therefore|hence|"
    r"then|but|or|and|so|yet|(?:the\s+)?(?:former|latter)|"
    r"also|moreover|furthermore|similarly|likewise|instead|otherwise|consequently|nevertheless|nonetheless|"
    r"in\s+contrast|by\s+contrast|in\s+addition|as\s+a\s+result|on\s+the\s+other\s+hand|in\s+this\s+case|"
    r"for\s+this\s+reason|in\s+that\s+case|conversely|doing\s+so|by\s+doing\s+so|besides|"
    r"for\s+example|for\s+instance|in\s+other\s+words|as\s+before|as\s+above)(?=[\s,'’])"
)
_POINTS_BACK_FIRST = rf"^{_POINTING_WORDS}"
#: ... or in its opening phrase ("In order to do this, we need ...", "After that, ...").
_POINTS_BACK_OPENING = (
    r"|^(?:[a-z]+\s+){0,4}(?:this|that|these|those|so),\s"
    # ... or in an aside after its first words: "You could, for example, use custom handlers to ...", "The
    # server, however, keeps ..." (for example of what the sentence before says)
    # (not after an opening phrase that names its own subject: "In Python, for example, lists are ...")
    r"|^(?!(?:in|on|at|for|with|by|under|when|if|after|before|during|within|from)\b)"
    r"(?:[\w'-]+\s+){0,3}[\w'-]+,\s+(?:for\s+(?:example|instance)|in\s+other\s+words|however|therefore|thus|"
    r"hence|instead|likewise|similarly|in\s+(?:contrast|addition)|by\s+contrast|as\s+a\s+result|then|"
    r"moreover|furthermore|consequently|nevertheless|nonetheless|conversely|in\s+(?:this|that)\s+case),\s"
)
#: Openings that certainly lean on the sentence before (not "When a client connects, it ...", whose "it" is
#: the client): what a quote at a chunk's head may reach into the chunk before for.
_OPENS_BY_POINTING_BACK = re.compile(
    rf"(?!{PLACEHOLDER_IT})(?:{_POINTS_BACK_FIRST}{_POINTS_BACK_OPENING}|^{YES_OR_NO})", re.I
)
#: A quote that opens on yes or no.
_OPENS_YES_OR_NO = re.compile(YES_OR_NO, re.I)
#: A sentence opening with one of these leans on the sentence before it ("In contrast, controllable sources
#: include ..."): its quote takes that sentence along so that it reads alone.
_BACK_REFERENCE = re.compile(
    _POINTS_BACK_FIRST
    + (
        # ... or names its subject by pointing back: "The default value of this limit is 100."
        # ... or names none: "The default is no-auth-recursive." (the default of what the sentence before
        # names)
        r"|^the\s+default(?:\s+(?:value|setting))?\s+is\b"
        # ... or "With this option, a zero is written instead."
        # ... or "After this macro call, m4 will exit with exit status 1." (GNU m4)
        # ... or "The answer to this question is that Click attempts ..." (a FAQ's answer, its question above)
        r"|^(?:the\s+)?(?:[a-z]+\s+){0,3}(?:of|for|in|on|with|by|using|from|under|without|after|before|during|"
        r"unlike|like|as|to)\s+(?:this|these|those|such)\s+[a-z]"
        # ... or points at what it follows: "Notice that this example is careful to use defn", "As the last
        # two lines show, ..."
        r"|^(?:note|notice|observe)\s+(?:that\s+|how\s+)?(?:this|these|those|the\s+(?:above|previous|last))\b"
        r"|^as\s+the\s+(?:last|previous|above|preceding)\b"
        # ... or does so after an opening phrase: "In most contexts, this means that ..."
        r"|^(?:in|on|at|for|with|by|under|when|if)\s+(?:[a-z]+\s+){0,3}[a-z]+,\s+(?:it|this|these|they|that)\s"
        # ... or names its subject by a pronoun after an opening phrase: "A member of the Republican Party,
        # he served as the 45th president from 2017 to 2021.", "More generally, this occurs everywhere ...",
        # "At the maximum page size of 65536 bytes, this translates into ...", "Additionally, it will not
        # enforce ..."
        # (not a placeholder "it": "Sometimes, it is desirable to inform the client ...")
        r"|^(?:[\w'-]+\s+){0,7}[\w'-]+,\s+(?:he|she|it(?!\s+(?:is|was)\s+\w+\s+(?:to|that)\b)|they|this|these)\s"
        # ... or names what it speaks of as "doing so": "Failure to do so can cause your program to hang
        # indefinitely." (Requests' timeouts)
        r"|^(?:[\w'-]+\s+){0,4}(?:to\s+do|doing|not\s+doing)\s+so\b"
        # ... or answers yes or no to what the sentence before says: Django's FAQ, "No, Django is not a CMS
        # ... Yes, Django's automatic admin site is fantastic ..." (a FAQ's first answer, under its
        # question, is named by it: ``claim_names``)
        r"|^" + YES_OR_NO
    )
    # ... or in its opening phrase: "In order to do this, we need ...", "To do so, ...", "After that, ..."
    + _POINTS_BACK_OPENING,
    re.I,
)
#: A definite description as a sentence's subject, alone or after an opening phrase: "The band comprised
#: ...", "Founded in 1994 by Jeff Bezos ..., the company started as ..." (after a condition, "If the X
#: setting is set, the referer is compared ...", it is as often the general thing).
_DEFINITE_SUBJECT = re.compile(
    r"^(?:the|(?!(?:if|when|whenever|unless|while|although|though|because|since|after|before|once|as|where)\b)"
    r"(?:[\w'.-]+,?\s+){1,10}?[\w'.-]+,\s+the)\s+([a-z]{3,})\b",
    re.I,
)


#: Words after "The" that point forward or count, not back ("The following ...", "The first step ...").
_NOT_ANAPHORIC = frozenset(
    "following first second third next last same other rest remaining above below".split()
)
#: A closing bracket, not an enumeration's ("1) ... 2) ...", "a) ...").
_CLOSING = re.compile(r"(?<!(?<![\w(])\w)\)")
_CONDITION = re.compile(r"\b(?:if|when|whenever|unless|while|although|though|because|since|once)\b", re.I)


def _leans_back(sentence: str, before: str, *, first_step: bool = True) -> bool:
    """Whether ``sentence`` names what it is about only through the sentence ``before`` it: it opens by
    pointing back (``_BACK_REFERENCE``), or its subject is a definite description whose noun that sentence
    just used ("Led Zeppelin were an English rock band ... The band comprised ...": read alone, "the band"
    is no band in particular)."""
    if _BACK_REFERENCE.match(sentence) or len(_CLOSING.findall(sentence)) > sentence.count("("):
        return True  # (a sentence that closes a bracket it did not open is the end of an aside)
    if len(words(sentence)) <= ALSO_WORDS and _ALSO.search(sentence):
        return True  # "Currently, m4wrap and sysval also have problems.": as what the sentence before names
    if _AN_ASIDE.match(sentence.strip()):
        return True  # an aside comments on what it follows ("(Quoting the attribute value would fix it.)")
    subject = _DEFINITE_SUBJECT.match(sentence)
    if subject is None or not first_step or _CONDITION.search(sentence[: subject.start(1)]):
        return False  # a definite subject leans on the one sentence before it, never a chain of them
    noun = subject.group(1).casefold()
    return noun not in STOPWORDS | _NOT_ANAPHORIC and noun in {w.casefold() for w in words(before)}


#: A sentence that ends announcing its example as a colon does: "..., e.g.,", "..., for example,".
_INTRO_COMMA = re.compile(r"(?:\be\.g\.|\bi\.e\.|\bfor\s+(?:example|instance)|\bsuch\s+as),\s*$", re.I)
#: A short sentence that says "also" or "too" says it of something the sentence before names (not "too
#: large", not "as well as").
_ALSO = re.compile(r"\balso\b|\btoo\s*[.,;!?]|\bas\s+well\b(?!\s+as\b)", re.I)
#: ... when it has at most this many words (a long one names what it adds to).
ALSO_WORDS = 12
#: A sentence that is all one aside in brackets.
_AN_ASIDE = re.compile(r"^\([^()]+\)[.!?]?$|^\([^()]+[.!?]\)$")


_POINTER = re.compile(
    r"\b(?:see(?:\s+also)?|cf\.|refer(?:s)?\s+to|consult\s+(?:the|this|that)|"
    r"(?:is|are)\s+(?:described|explained|discussed|detailed|listed|shown|given|documented|covered)\s+(?:in|under)|for\s+(?:more|further)\s+(?:information|details|"
    r"discussion)|more\s+(?:information|details)\s+(?:can\s+be\s+found|is\s+available)|described\s+below|"
    r"described\s+above|as\s+follows|following\s+(?:section|chapter|table))\b",
    re.I,
)
_REFERENCE_WORDS = frozenset(
    "see also section sections chapter chapters table tables figure figures appendix part page pages more "
    "information details further discussion described explained discussed detailed listed shown given refer "
    "documented covered below above following manual reference documentation consult next topic topics "
    "guide".split()
)


@dataclass(frozen=True, slots=True)
class Window:
    """``text[start:end]`` of a passage's visible text (``text`` may run into the next chunk's)."""

    start: int
    end: int
    kind: str
    #: The window runs on into the next chunk of the document (its list or table stands there).
    continues: bool = False


@dataclass
class Readable:
    """A passage as it can be quoted: its visible text (and the next chunk's, for what a colon introduces or
    the code a last paragraph's example is)."""

    visible: Visible
    #: Visible text of the next chunk of the same document, when the passage may go on there (``goes_on``).
    following: Visible | None = None

    @property
    def text(self) -> str:
        if self.following is None:
            return self.visible.text
        return f"{self.visible.text}\n\n{self.following.text}"

    def unlinked_words(self, start: int, end: int) -> int:
        """Words of ``text[start:end]`` (of letters) outside any link's text (in the passage's own chunk)."""
        own = self.visible
        return sum(
            1
            for m in re.finditer(r"[^\W\d_]+", own.text[start : min(end, len(own.text))])
            if not (own.linked[start + m.start()] if start + m.start() < len(own.linked) else False)
        )

    def linked_share(self, start: int, end: int) -> float:
        """Share of ``text[start:end]``'s letters that are a link's text (in either chunk)."""
        own = len(self.visible.text)
        if self.following is None or end <= own:
            return self.visible.linked_share(start, end)
        shift = own + 2
        spans = [(self.visible, start, min(end, own)), (self.following, max(start - shift, 0), end - shift)]
        letters = [
            (visible.linked[i] if i < len(visible.linked) else False)
            for visible, a, b in spans
            for i in range(a, b)
            if visible.text[i].isalnum()
        ]
        return sum(letters) / len(letters) if letters else 0.0


def readable(markdown: str, following: str | None = None) -> Readable:
    return Readable(visible_text(markdown), visible_text(following) if following else None)


def headings_in(passage: Readable, window: Window) -> bool:
    """Whether ``window`` takes in a heading (a quote is text, never a title)."""
    blocks = passage.visible.blocks
    return any(b.kind == "heading" and b.start < window.end and window.start < b.end for b in blocks)


#: A sentence that sends the reader elsewhere says something itself from this many distinct content words on,
#: besides the words of the reference (stop words and repeats do not count: "For more information on how to
#: use the built in generic views, consult the next topic on generic class-based views" says six).
POINTER_WORDS = 7


#: A sentence whose subject is a discussion of something and whose predicate is where it stands: "A discussion
#: on prefetch limits, and configuration settings for a worker that only reserves one task at a time is
#: found here: Prefetch Limits." names its topic, however many words that takes, and says nothing of it.
_FOUND_ELSEWHERE = re.compile(
    r"^(?:an?|the|more|further)?\s*(?:discussion|explanation|description|overview|introduction|details?|"
    r"information|examples?|list|tutorial|guide)\s+(?:on|of|about|for)\b.*\b(?:is|are|can\s+be)\s+"
    r"(?:found|available|given)\s+(?:here|in|at|under|below|above)\b",
    re.I,
)


#: A sentence that opens by sending the reader elsewhere ("See URL Encoding and Decoding for the full picture
#: of how Apache encodes and decodes URIs during rewriting.", "For more information about REDIRECT_ variables
#: in the context of error documents, see Custom Error Responses."): however much it names, what it names is
#: said there, not here. ("See the PRAGMA foreign_keys command to enable foreign key constraints" names what
#: to use: no pointer.)
_SENDS_ELSEWHERE = re.compile(
    # (what it sends to named in at most eight words)
    r"^(?:see(?:\s+also)?|refer\s+to|consult)\s+(?!(?:that|whether|if|how|to)\b)(?:[^\s.;]+\s+){0,7}?(?:for|on\s+how|about\s+how)\b|"
    r"^for\s+(?:more\s+|further\s+|additional\s+)?(?:information|details|background|discussion|"
    r"an?\s+(?:explanation|discussion|description|overview))\b[^.;]*,\s*(?:see|refer\s+to|consult)\b",
    re.I,
)
#: ... unless it goes on to say something of its own ("Refer to the error log for the reason; mod_security
#: records ...", "..., because many providers block port 25").
_SAYS_MORE = re.compile(r";|,\s+(?:because|since|but|although|though|unless|so|whereas|while)\b", re.I)
#: ... or whose predicate is only where it is said ("The internal protocol used to serialize access to the
#: shared-cache ... is described in the remainder of this section."): a place in a document at the sentence's
#: end ("The interior is covered in dense rainforest" is no place in a document).
_SAID_ELSEWHERE = re.compile(
    r"\b(?:is|are)\s+(?:described|explained|discussed|detailed|documented)\s+(?:below|above|(?:in|under)\s+"
    r"(?:(?:the|this|that|a|its|their|our)\s+)?(?:(?:remainder|rest)\s+of|next|following|previous|preceding|"
    r"separate|section|sections|chapter|chapters|appendix|table|figure|part|document|documentation|manual|"
    r"guide|rfc|[A-Z][\w-]*\s+\d))\b(?:\s+[^\s.;]+){0,6}\s*[.]?$",
    re.I,
)


def is_pointer(sentence: str) -> bool:
    """A sentence that sends the reader elsewhere and says little itself."""
    plain = sentence.strip()
    if _FOUND_ELSEWHERE.search(plain) or _SAID_ELSEWHERE.search(plain):
        return True
    if _SENDS_ELSEWHERE.search(plain) and not _SAYS_MORE.search(plain):
        return True
    if not _POINTER.search(sentence):
        return False
    own = {w.lower() for w in words(sentence) if len(w) > 2}
    substantive = [w for w in own if w not in _REFERENCE_WORDS and w not in STOPWORDS and not w.isdigit()]
    return len(substantive) < POINTER_WORDS


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    return sentence_bounds(text, start, end, abbreviation=_ABBREVIATION)


def _blocks(passage: Readable) -> list[Block]:
    """The passage's blocks, the next chunk's after its own (where it is read on), at their places in
    ``passage.text``."""
    blocks = list(passage.visible.blocks)
    if passage.following is not None:
        shift = len(passage.visible.text) + 2
        blocks += [Block(b.start + shift, b.end + shift, b.kind, b.depth) for b in passage.following.blocks]
    return blocks


def trailing_code(passage: Readable, window: Window) -> int | None:
    """Where, in the quote ``window`` cuts from ``passage`` (from its start), the code it ends with begins:
    the example a sentence introduces, as the chunk's Markdown fenced it. A claim keeps those lines as lines;
    told from the quote's text alone, a program's output ("Reading a token", "Entering state 22", ...,
    "Reducing stack by rule 2 (line 35):") read as sentences, one of its own lines as the introduction."""
    inside = [b for b in _blocks(passage) if b.start >= window.start and b.start < window.end]
    first: int | None = None
    for block in reversed(inside):
        if block.kind != "code":
            break
        first = block.start
    if first is None or first == window.start:
        return None
    return first - window.start


def windows(passage: Readable, *, split_start: bool = False, split_end: bool = False) -> list[Window]:
    """The pieces of ``passage`` a report may quote (see the module's docstring).

    ``split_start``/``split_end``: the chunk starts or ends inside a paragraph the chunker split, so its
    first or last sentence may be a fragment.
    """
    text = passage.text
    blocks = _blocks(passage)
    own_end = len(passage.visible.text)
    out: list[Window] = []
    described_until = -1  # the end of a list quoted whole with the definition's line above it
    for k, block in enumerate(blocks):
        if block.start >= own_end:
            break  # the next chunk only lends what a colon introduces
        if block.kind in ("heading", "code") or block.start < described_until:
            continue
        if block.kind == "paragraph" and defined_name(text[block.start : block.end]) is not None:
            # A definition's line (Texinfo's "Directive: %define lr.type type") says nothing alone; over a
            # list, the list describes it ("Language(s): all", ..., "Default Value: lalr": whose default?),
            # and both are one quote where they fit. (Over a paragraph, the paragraph's quotes take it
            # along: ``_leant_on``.)
            if k + 1 < len(blocks) and blocks[k + 1].kind == "item":
                listed = list_end(blocks, k + 1)
                if listed - block.start <= MAX_QUOTE_CHARS:
                    out.append(Window(block.start, listed, "item", continues=listed > own_end))
                    described_until = listed
                else:
                    # A list too long to quote with its line: each item from the line on while that fits
                    # ("... Purpose: ...; Accepted Values: ..."), the items further down alone.
                    for item in blocks[k + 1 :]:
                        if item.start > listed or item.end - block.start > MAX_QUOTE_CHARS:
                            break
                        if item.kind == "item":
                            out.append(Window(block.start, item.end, "item", continues=item.end > own_end))
                            described_until = item.end
            continue
        # The term this block describes, if any: a description that fits in a quote only without its term
        # is read sentence by sentence, each from the term on while that fits.
        term = _term_start(text, blocks, k)
        if block.kind in ("item", "row", "quote") and not (
            block.kind != "row"
            and (
                block.end - block.start > MAX_QUOTE_CHARS
                or (term is not None and block.end - term > MAX_QUOTE_CHARS)
            )
        ):
            # A table's first row is quotable too: in the key-value tables of manuals ("Default: |
            # KeepAliveTimeout 5") it is data; a header row that says nothing scores low anyway.
            described = _described_by(text, blocks, k)
            if described is not None:
                # A term and its description indented under it (a definition list: "mod_ratelimit" /
                # "Bandwidth Rate Limiting for Clients") are one quote: the description alone names nothing.
                # Several terms over one description ("-u" / "--include-untracked" / "--no-include-untracked")
                # are quoted from the first.
                if k == 0 or _described_by(text, blocks, k - 1) != described:
                    out.append(Window(block.start, blocks[described].end, "item"))
                continue
            if k > 0 and _described_by(text, blocks, k - 1) == k:
                continue
            if _described_by(text, blocks, k, fits=False) is not None:
                continue  # a term alone names what its description, quoted sentence by sentence, says
            follow_end = (
                _follow(blocks, k)
                if block.kind == "item" and text[block.start : block.end].rstrip().endswith(":")
                else None
            )
            if follow_end is not None and k + 1 < len(blocks) and blocks[k + 1].kind == "code":
                # A step that introduces its code ("2. Call Engine.dispose() directly before the child process
                # is created:" over the example) is quoted with it, as a paragraph's colon is; alone it says
                # nothing.
                out.append(Window(block.start, follow_end, "intro", continues=follow_end > own_end))
                continue
            step_end = _step_code(text, blocks, k)
            if step_end is not None:
                # ... and so is a step that says what its code does and ends with a stop ("2. Extract
                # translatable messages into pot files." over "$ make gettext"): alone, it says what to do and
                # not how.
                out.append(Window(block.start, step_end, "intro", continues=step_end > own_end))
                continue
            if (
                block.kind == "item"
                and _finishes_a_lead_in(text, blocks, k)
                and any(w.start <= block.start and block.end <= w.end for w in out)
            ):
                continue  # the rest of the sentence above the list: quoted with it (that sentence's window)
            if block.kind == "item" and _RUNS_ON_ITEM.search(text[block.start : block.end]):
                # An item that runs on into the next ("~/.config/scrapy.cfg ... for global (user-wide)
                # settings, and" over "scrapy.cfg inside a Scrapy project's root"): half a sentence alone.
                # Quoted through the item that ends the sentence, unless a lead-in's window holds it (one that
                # will be quoted: an intro longer than an example's length is not).
                if any(w.start <= block.start and block.end <= w.end and _kept(w) for w in out):
                    continue
                through = _sentence_through_items(text, blocks, k)
                if through is not None:
                    out.append(Window(block.start, through, "item", continues=through > own_end))
                    continue
            out.append(Window(block.start, block.end, block.kind))
            if block.kind == "row" and (k == 0 or blocks[k - 1].kind != "row"):
                table_end = _rows_end(blocks, k)
                if table_end > block.end and table_end - block.start <= MAX_QUOTE_CHARS:
                    out.append(Window(block.start, table_end, "table"))  # a small table whole
            continue
        spans = _sentences(text, block.start, block.end)
        last_block = all(b.start >= own_end for b in blocks[k + 1 :])
        # A description under its term, a name, may open in lower case (rsyslog's "date-rfc3339" over
        # "format as RFC 3339 date"): no fragment, the term is its subject.
        above = text[blocks[k - 1].start : blocks[k - 1].end].strip() if k > 0 else ""
        described = (
            k > 0
            and blocks[k - 1].kind == "paragraph"
            and is_term_line(above)
            and (len(above.split()) == 1 or bool(_NAME_LIKE.search(above)))
        )
        cut = [
            (
                i == 0
                and block.kind != "item"
                and (
                    (split_start and k == 0)
                    or (_opens_lower(text[s:e]) and not described and not _opens_on_a_name(text[s:e]))
                    # a relative clause after the code above it: "Which results in the following output:"
                    or (k > 0 and blocks[k - 1].kind == "code" and _RELATIVE.match(text[s:e]) is not None)
                )
            )
            or (
                i == len(spans) - 1
                and last_block
                and split_end
                and not text[s:e].rstrip().endswith((".", "!", "?", ")", '"', "”", ":"))
            )
            for i, (s, e) in enumerate(spans)
        ]
        for i, (s, e) in enumerate(spans):
            sentence = text[s:e]
            if cut[i]:
                continue  # a fragment the chunk boundary cut off
            if (
                (sentence.rstrip().endswith(":") or _INTRO_COMMA.search(sentence) is not None)
                or (i == len(spans) - 1 and _runs_into_code(sentence, blocks, k))
                # a sentence that runs on into the list under it ("If, after scanning the directory,")
                or (
                    i == len(spans) - 1
                    and runs_on(sentence)
                    and k + 1 < len(blocks)
                    and blocks[k + 1].kind == "item"
                )
                or (_announces(sentence, spans, text) and _fits_with_follow(s, blocks, k))
            ):
                follow_end = _follow(blocks, k)
                if follow_end is not None:
                    follow_end = _sentence_goes_on(text, blocks, s, follow_end)
                    start = s
                    if (
                        i > 0
                        and (
                            len(words(sentence)) < INTRO_WORDS
                            or _leans_back(sentence, text[spans[i - 1][0] : spans[i - 1][1]])
                        )
                        and not cut[i - 1]
                        # (the sentence before and what the intro introduces: as long as an example may be;
                        # "You can use the FormRequest.from_response() method for this job. Here's an example
                        # spider which uses it:" and its spider, where the intro had stood alone)
                        and follow_end - spans[i - 1][0] <= MAX_EXAMPLE_CHARS
                        # (a pointer says nothing of it: "See the ENGINE setting below on how to specify other
                        # database types. This example is for PostgreSQL:")
                        and not is_pointer(text[spans[i - 1][0] : spans[i - 1][1]])
                    ):
                        # "For example:" says what it exemplifies only with the sentence before it ("...,
                        # using the PRAGMA foreign_keys command. For example: PRAGMA foreign_keys = ON;"), and
                        # an intro that points back what it is about ("The easiest way to enable SSL is to
                        # start the server in adhoc-mode. In that case Werkzeug will generate an SSL
                        # certificate for you:").
                        start = spans[i - 1][0]
                        j = i - 1
                        while (
                            j > 0
                            and not cut[j - 1]
                            and _OPENS_BY_POINTING_BACK.match(text[spans[j][0] : spans[j][1]])
                            and follow_end - spans[j - 1][0] <= MAX_EXAMPLE_CHARS
                            and not is_pointer(text[spans[j - 1][0] : spans[j - 1][1]])
                            and not _VERSION_NOTE.match(text[spans[j - 1][0] : spans[j - 1][1]].strip())
                        ):
                            # ... and that sentence's own, where it points back too ("Control whether to
                            # display URL addresses. This is very useful for printed copies of the manual.
                            # The setting can have the following values:": quoted from "This is", the claim
                            # never said what latex_show_urls does)
                            j -= 1
                            start = spans[j][0]
                    elif (
                        i == 0
                        and len(words(sentence)) < INTRO_WORDS
                        and len(spans) == 1
                        and (names_nothing(sentence) or _BACK_REFERENCE.match(sentence))
                    ):
                        # ... and so does a short intro that is a paragraph of its own ("For BSD/GNU make,
                        # run:" under "You need a language parameter in conf.py or you may also specify the
                        # parameter on the command line."): the sentence before it, across the break.
                        before = _last_sentence_before(
                            text, blocks, k, cut_end=follow_end, room=MAX_EXAMPLE_CHARS
                        )
                        start = s if before is None else before
                    out.append(Window(start, follow_end, "intro", continues=follow_end > own_end))
                continue  # an intro alone says nothing
            if is_pointer(sentence) or _VERSION_NOTE.match(sentence.strip()):
                # nor with the sentence after it: a quote opens on what it says, not on "See ..." nor on "New
                # in version 1.0." (a version note alone had been a claim: "bool default is False — New in
                # version 3.7.")
                continue
            first, stop = s, e
            j = i  # back to the sentence that names what "it ... it ..." is about, while the quote fits
            while (
                j > 0
                and not cut[j - 1]
                and not _VERSION_NOTE.match(text[spans[j - 1][0] : spans[j - 1][1]].strip())
                and stop - spans[j - 1][0] <= MAX_QUOTE_CHARS
                and _leans_back(
                    text[spans[j][0] : spans[j][1]],
                    text[spans[j - 1][0] : spans[j - 1][1]],
                    first_step=j == i,
                )
            ):
                j -= 1
                if is_pointer(text[spans[j][0] : spans[j][1]]):
                    # A pointer says nothing of what a sentence after it leans on ("See Suppressing Conflict
                    # Warnings. However, we don't recommend the use of %expect ..."): the quote takes it along
                    # from the sentence before it, or opens after it.
                    if j > 0 and not cut[j - 1] and stop - spans[j - 1][0] <= MAX_QUOTE_CHARS:
                        j -= 1
                    else:
                        j += 1
                        break
            if (
                j > 0
                and not cut[j - 1]
                and stop - spans[j - 1][0] > MAX_QUOTE_CHARS
                and _leans_back(text[slice(*spans[j])], text[slice(*spans[j - 1])], first_step=j == i)
            ):
                # What the quote would open on leans on a sentence there is no room for: it says nothing alone
                # (GNU m4's "In part, this means that using the same template twice ... Hence, POSIX has
                # recommended ...", whose "this" is the sentence before it). The sentences it leans on are
                # quoted by the windows of the sentences before.
                continue
            first = spans[j][0]
            if len(words(text[first:stop])) < 8 and i + 1 < len(spans) and not cut[i + 1]:
                stop = _short_stop(text, spans, i, first=first, blocks=blocks, k=k)
            leant_on = (
                _reached_back(text, blocks, k, spans[0], stop, split_start=split_start)
                if j == 0 and k > 0
                else None
            )
            # (a later sentence of a record's description too: "If the spider remains open for more than that
            # number of seconds, it will be automatically closed ..." is CLOSESPIDER_TIMEOUT's, whose default
            # is 0, only from the heading on)
            record = _record_heading(text, blocks, k)
            if j == 0 and k > 0 and _names_its_section(text, blocks[k - 1], text[first:stop]):
                first = blocks[k - 1].start  # "Default: 2621440" says whose default only with its heading
            elif (
                record is not None
                and stop - blocks[record].start <= MAX_QUOTE_CHARS
                and _names_its_section(text, blocks[record], text[first:stop])
            ):
                # A record's description opens under its fields: "The maximum size (in bytes) that an upload
                # will be before it gets streamed to the file system." is Django's FILE_UPLOAD_MAX_MEMORY_SIZE
                # only with its heading, and its default ("Default: 2621440 (i.e. 2.5 MB).") is what the
                # question asks as often as what it does: the quote is the record, heading to description.
                first = blocks[record].start
            elif leant_on is not None and stop - leant_on <= MAX_QUOTE_CHARS:
                first = leant_on
            elif (
                term is not None
                and stop - term <= MAX_QUOTE_CHARS
                and (
                    block.kind != "paragraph"
                    or not _names_term(text[first : spans[j][1]], text[term : block.start])
                )
            ):
                # A sentence of a description too long to quote whole, under the term it describes:
                # "Defaults to zero." says what defaults to zero only from "gc.bigPackThreshold" on (a
                # paragraph's sentence that names its term says so itself: 'The "inter" parameter sets ...').
                first = term
            if _OPENS_YES_OR_NO.match(text[first:stop]) and not (
                first == spans[0][0] and k > 0 and blocks[k - 1].kind == "heading"
            ):
                # "Yes, ..." answers the sentence before it, which did not fit: alone it says the opposite of
                # the answer as often as not (Django's FAQ: "Is Django a CMS?" "No, ... Yes, Django's
                # automatic admin site is fantastic ..."). Only the first answer under its question opens so.
                continue
            out.append(Window(first, stop, "sentence", continues=stop > own_end))
            if i == len(spans) - 1 and stop == e and k + 1 < len(blocks) and blocks[k + 1].kind == "code":
                # A paragraph's last sentence over the code after it, its example, ends with a stop as
                # often as with a colon (Flask's "It can also be a function call (with any arguments) if
                # you're using the app factory pattern." over "$ gunicorn -w 4 'hello:create_app()'"): it is
                # quotable alone and with the example, whole, whichever answers better.
                follow_end = _follow(blocks, k)
                if follow_end is not None and follow_end - first <= MAX_EXAMPLE_CHARS:
                    out.append(Window(first, follow_end, "example", continues=follow_end > own_end))
    # A sentence taken in twice is one window; an example cut off is none (a configuration that stops at
    # 'view "external" {' reads as a different configuration).
    bounded = dict.fromkeys(_bounded(text, w) for w in out if _kept(w))
    return [w for w in bounded if _worth_quoting(text[w.start : w.end], w.kind) and not _an_entry(passage, w)]


def _an_entry(passage: Readable, window: Window) -> bool:
    """An entry of an index or a table of contents: mostly a link's text, with few words of its own (a
    Wikipedia sentence that links five names still says something in its other words)."""
    if passage.linked_share(window.start, window.end) < LINKED_SHARE:
        return False
    return passage.unlinked_words(window.start, window.end) <= ENTRY_WORDS


#: A piece whose text is at least this share of links' text is an entry of an index or a table of contents
#: ("for address testing — The Exim command line [Command line options]", "37. The dovecot authenticator"):
#: it points at where the answer stands, and says nothing itself.
LINKED_SHARE = 0.6
#: ... and has at most this many words of its own ("for address testing").
ENTRY_WORDS = 4


#: A name in code: ``snake_case``, a call ``f()``, ``camelCase``/``CamelCase`` (not "Apple Inc.").
_CODE_NAME = re.compile(r"\w_\w|\w\(\)|[a-z][A-Z]")
#: A term in the form of an option or a name in code: "-u", "--mainline", "gc.auto", "branch.<name>.rebase".
_NAME_LIKE = re.compile(rf"^-|\w\.\w|<\w|{_CODE_NAME.pattern}")


#: A list item that runs on into the next: it ends on a comma, a semicolon or a conjunction.
_RUNS_ON_ITEM = re.compile(r"(?:[,;]|\b(?:and|or|but|nor))\s*$")


def _sentence_through_items(text: str, blocks: Sequence[Block], k: int) -> int | None:
    """Where the sentence that the item ``blocks[k]`` runs on into ends: the end of the first item after it,
    in its list, that ends with a stop, when the quote from the item fits ``MAX_QUOTE_CHARS``."""
    start, depth = blocks[k].start, blocks[k].depth
    for block in blocks[k + 1 :]:
        if block.kind != "item" or block.depth < depth or block.end - start > MAX_QUOTE_CHARS:
            return None
        if block.depth == depth and text[block.start : block.end].rstrip().endswith((".", "!", "?")):
            return block.end
    return None


def runs_on(sentence: str) -> bool:
    """Whether a lead-in's last sentence runs on into the list under it: it ends on a comma or on a word, with
    no stop and no colon (mod_speling's "If, after scanning the directory," over "no matching document was
    found, Apache will proceed as usual and return an error (404 - document not found).")."""
    end = sentence.rstrip()
    return end.endswith(",") or (end[-1:].islower() and len(end.split()) >= 3)


def goes_on_from_above(item: str) -> bool:
    """Whether a list item is the rest of a sentence above its list: it opens in lower case, on no name."""
    return item[:1].islower() and not _opens_on_a_name(item)


def leads_into_list(previous: Visible) -> bool:
    """Whether a chunk (its visible text) ends on a lead-in whose sentence the next chunk's list goes on."""
    last = previous.blocks[-1] if previous.blocks else None
    return (
        last is not None and not previous.text[last.end :].strip() and _ends_running_on(previous.text, last)
    )


def _finishes_a_lead_in(text: str, blocks: Sequence[Block], k: int) -> bool:
    """Whether the item ``blocks[k]`` is the rest of the sentence its list's lead-in opens (in this chunk)."""
    if not goes_on_from_above(text[blocks[k].start : blocks[k].end]):
        return False
    j = k
    while j > 0 and blocks[j - 1].kind == "item":
        j -= 1
    return j > 0 and _ends_running_on(text, blocks[j - 1])


def _ends_running_on(text: str, block: Block) -> bool:
    """Whether ``block`` is a paragraph whose last sentence runs on into what follows it (``runs_on``)."""
    if block.kind != "paragraph":
        return False
    spans = _sentences(text, block.start, block.end)
    return bool(spans) and runs_on(text[slice(*spans[-1])])


def _opens_on_a_name(sentence: str) -> bool:
    """Whether a sentence in lower case opens on a name in code form, its subject ("pytest.mark.xfail with
    strict=False can be used to mark a test ...", "sqlite3_open() opens ..."), not on the rest of a sentence
    a chunk's edge cut off."""
    first = sentence.split(maxsplit=1)[0] if sentence.strip() else ""
    return not _LATIN.match(first) and bool(_NAME_LIKE.search(first.rstrip(".,;:")))


#: "e.g.", "i.e.": the middle of a sentence, never a name (not ``_ABBREVIATION``, the sentence splitter's).
_LATIN = re.compile(r"^(?:e\.g|i\.e|a\.k\.a|a\.m|p\.m|cf|vs|etc)\.", re.I)


def _names_its_section(text: str, heading: Block, sentence: str) -> bool:
    """Whether the sentence that opens a section needs the section's heading to be understood, which it
    does not name: the heading is the name of a thing (a setting, a function, a directive:
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``, ``alter_db_table()``), short; or the opening is a phrase, not a
    sentence, under a title (an article's short description: "Capital and largest city of South Korea"
    under "Seoul" says whose capital it is only with the title)."""
    if heading.kind != "heading":
        return False
    name = " ".join(text[heading.start : heading.end].split())
    size = len(name.split())
    if not 0 < size <= TITLE_WORDS or name.casefold() in " ".join(sentence.split()).casefold():
        return False
    return (
        (size <= 4 and bool(_CODE_NAME.search(name)))
        or _an_upper_case_name(name)
        or _SPELLINGS.fullmatch(name) is not None
        or not _ends_a_sentence(sentence)
    )


def _ends_a_sentence(text: str) -> bool:
    """Whether ``text`` ends as a sentence does: a stop, then perhaps closing brackets or quotes ("... (see
    below.)"). A phrase that ends on a bracket it opened itself says no more than one without it: Donald
    Trump's short description, "President of the United States (2017–2021; since 2025)", says whose
    presidency only with its title."""
    return text.rstrip().rstrip(")]\"”’'").endswith(_SENTENCE_STOPS)


#: What ends a sentence (before any closing bracket or quote).
_SENTENCE_STOPS = (".", "!", "?", ":", ";")


#: A record's field line: a label of up to three words, a colon, a value ("Default: `2621440` (i.e. 2.5 MB).",
#: "Type: int", "Introduced: 5.0").
_FIELD_LINE = re.compile(r"^[A-Z][A-Za-z]*(?: [A-Za-z()]+){0,2}:\s+\S")


#: A version note and nothing else ("New in version 1.0.", "Changed in version 2.3."): it says when, not what
#: ("Deprecated since version 3.2." says what: the thing is on its way out).
_VERSION_NOTE = re.compile(r"^(?:New|Added|Changed) in version [\w.]+\.?$", re.I)


def _field_of_record(line: str) -> bool:
    """Whether a paragraph is one field line of a record ("Default: True", "Type: int"), no term line."""
    line = line.strip()
    return (
        "\n" not in line
        and len(line.split()) <= TERM_WORDS
        and _FIELD_LINE.match(line) is not None
        and not is_term_line(line)
    )


def _record_heading(text: str, blocks: Sequence[Block], k: int) -> int | None:
    """The heading over the record whose description opens at block ``k``: the blocks between are one-line
    fields each ("Default: 2621440 (i.e. 2.5 MB)."), at least one; None when there is no such record."""
    h = k - 1
    while h >= 0 and blocks[h].kind == "paragraph":
        line = text[blocks[h].start : blocks[h].end].strip()
        if "\n" in line or len(line.split()) > TERM_WORDS or not _FIELD_LINE.match(line):
            return None
        h -= 1
    return h if 0 <= h < k - 1 and blocks[h].kind == "heading" else None


#: A heading that gives a name's spellings, short and long (Apache's RewriteRule flags "L|last", "NC|nocase";
#: a manual page's "-v|--verbose").
_SPELLINGS = re.compile(r"[\w.-]+(?:\|[\w.-]+)+")


def _an_upper_case_name(name: str) -> bool:
    """A heading that is one name in capitals, a variable's or a constant's (GNU Awk's "FIELDWIDTHS" over "A
    space-separated list of columns that tells gawk how to split input ..."), not a manual page's section
    ("DESCRIPTION", "SEE ALSO")."""
    bare = name.strip("`*_ ")
    return re.fullmatch(r"[A-Z][A-Z0-9_]+", bare) is not None and bare.casefold() not in _SECTION_NAMES


#: What manual pages and READMEs call their sections, in capitals.
_SECTION_NAMES = frozenset(
    "name synopsis description options examples example notes note bugs author authors files environment "
    "history copyright diagnostics caveats warnings warning errors overview introduction summary usage "
    "configuration license licence faq todo tip important caution danger requirements install "
    "installation contents index glossary appendix references thanks credits changes news readme".split()
)


#: A heading of at most this many words is a title a phrase under it may need; a paragraph of at most this
#: many words without a stop reads as a title.
TITLE_WORDS = 8


def code_run_end(blocks: Sequence[Block], k: int) -> int:
    """The end of the code that ``blocks[k]`` opens (code blocks one after another, as one example)."""
    return _run_end(blocks, k, gap=LIST_GAP)


def list_end(blocks: Sequence[Block], k: int) -> int:
    """The end of the list whose item ``blocks[k]`` is, from there on (its items, nested ones too, with no
    other block between them)."""
    return _run_end(blocks, k, gap=LIST_GAP)


#: Characters between two items of one list at most (a line break and a marker: "\n• ", "\n12. ").
LIST_GAP = 6


def _rows_end(blocks: Sequence[Block], k: int) -> int:
    """The end of the table whose first row is ``blocks[k]``."""
    return _run_end(blocks, k, gap=2)


def _run_end(blocks: Sequence[Block], k: int, *, gap: int) -> int:
    """The end of the run of blocks of ``blocks[k]``'s kind from there on, each at most ``gap`` characters
    after the one before."""
    end = blocks[k].end
    for block in blocks[k + 1 :]:
        if block.kind != blocks[k].kind or block.start - end > gap:
            break
        end = block.end
    return end


def _alias(text: str, before: Block, block: Block) -> bool:
    """``block`` is one more name of the option ``before`` names: both short items in the form of names, at
    one depth, with no blank line between them."""
    return (
        block.depth == before.depth
        and text.count("\n", before.end, block.start) <= 1
        and all(
            _is_term_like(text, b)
            and _NAME_LIKE.search(text[b.start : b.end].strip().strip(QUOTE_MARKS)) is not None
            for b in (before, block)
        )
    )


def _is_term_like(text: str, block: Block) -> bool:
    """An item that names a term: a few words with no stop, a signature that names something in code, or a
    list of the forms of one option in any number of words (Texinfo's "-i, --case-insensitive, %option
    case-insensitive")."""
    term = text[block.start : block.end]
    if block.kind != "item" or term.rstrip()[-1:] in ".!?:;,":
        return False
    if len(words(term)) <= 4:
        return True
    if len(words(term)) <= SIGNATURE_WORDS and _CODE_NAME.search(term):
        return True  # a signature: "Function: YY_BUFFER_STATE yy_scan_string ( const char *str )"
    forms = [f.strip(" " + QUOTE_MARKS) for f in term.split(",")]
    return len(forms) > 1 and all(_NAME_LIKE.search(f) or f.startswith("%") for f in forms)


#: A term that names something in code (a function's signature) runs to this many words.
SIGNATURE_WORDS = 12


def _described_by(text: str, blocks: Sequence[Block], k: int, *, fits: bool = True) -> int | None:
    """The index of the description when ``blocks[k]`` is a defined term: an item of a few words with no
    stop, followed (after any more such names of one option, in tight items at its depth: "-u" /
    "--include-untracked") by an item indented under them; with ``fits``, only when term and description
    fit in one quote. Short items that are not names ("numpy" / "scipy" / "pandas" over a note on pandas)
    are no aliases: only the last is the term."""
    block = blocks[k]
    if not _is_term_like(text, block):
        return None
    j = k + 1
    while j < len(blocks) and _alias(text, blocks[j - 1], blocks[j]):
        j += 1
    if j >= len(blocks):
        return None
    nested = blocks[j]
    if (
        nested.kind == "item"
        and nested.depth > block.depth
        and (not fits or nested.end - block.start <= MAX_QUOTE_CHARS)
    ):
        return j
    return None


def _names_term(sentence: str, terms: str) -> bool:
    """Whether ``sentence`` names one of the ``terms`` (term lines) by its first word ("inter" of "inter
    <delay>", "jinja2.PackageLoader" of its signature, as the name's last part: "PackageLoader")."""
    for line in terms.splitlines():
        name = signature_name(line) or (line.split() or [""])[0]
        name = re.split(r"[.:]", name.strip("<>[]()\"'`*"))[-1]
        if name and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", sentence):
            return True
    return False


def _term_start(text: str, blocks: Sequence[Block], k: int) -> int | None:
    """Where the term (or the terms) that ``blocks[k]`` describes start, when it is a description indented
    under them (see ``_described_by``; this one at any length)."""
    block = blocks[k]
    if k == 0:
        return None
    above = blocks[k - 1]
    if (
        block.kind == above.kind == "paragraph"
        and is_term_line(text[above.start : above.end])
        and not is_term_line(text[block.start : block.end])
    ):
        # A paragraph under its term lines (HAProxy's "leastconn" over "The server with the lowest number of
        # connections receives the connection. Round-robin is performed within groups of servers ... Use of
        # this algorithm is recommended where very long sessions are expected"): its later sentences are the
        # term's too.
        return blocks[_first_term(text, blocks, k - 1)].start
    if block.kind != "item":
        return None
    if not (above.depth < block.depth and _is_term_like(text, above)):
        return None
    i = k - 1
    while i > 0 and _alias(text, blocks[i - 1], blocks[i]):
        i -= 1
    return blocks[i].start


_ANNOUNCES = re.compile(r"\b(?:the\s+following|as\s+follows)\b", re.I)


#: A sentence about the code just above it: "The above example ...", "In the previous example, ...", "The code
#: above ...".
_ABOUT_THE_CODE_ABOVE = re.compile(
    r"^(?:(?:in|with|for)\s+)?(?:the|this|that)\s+(?:(?:above|previous|preceding)\s+"
    r"(?:example|code|snippet|configuration|command|listing)|(?:example|code|snippet|configuration|command|"
    r"listing)\s+above)\b",
    re.I,
)
#: A quote that ends by announcing what follows it.
_ANNOUNCED_AT_END = re.compile(rf"{_ANNOUNCES.pattern}\W*$", re.I)
#: A sentence that says there are some things that do something and names none, then stops: "There are a
#: few settings which control Django's file upload behavior." (what they are stands after it; "There are
#: several ways ...: ..." or "..., including dictConfig" names them; "There are some cases where VACUUM
#: cannot run ..." says when). A count is a fact ("There are 206 bones in the adult human body"): not this.
_VAGUELY_MANY = re.compile(
    r"^there\s+(?:are|is|exist)\s+(?:also\s+)?(?:a\s+few|a\s+number\s+of|several|some|many|various|numerous|"
    r"multiple)\s+(?:\w+\s+){1,3}(?:which|that)\s+(?:(?!such\s+as|including|e\.g|namely)[^:;.!?])*\.$",
    re.I,
)


def _announces(sentence: str, spans: Sequence[tuple[int, int]], text: str) -> bool:
    """A sentence that announces what follows its paragraph without a colon ("The following options are
    available." over a list of options): quoted with the list, as a colon's sentence is; unless its
    paragraph ends on a colon of its own (that sentence introduces the list)."""
    return bool(_ANNOUNCES.search(sentence)) and not text[spans[-1][0] : spans[-1][1]].rstrip().endswith(":")


def goes_on(visible: Visible) -> bool:
    """Whether what a passage's end says may go on in the next chunk: it introduces more
    (``introduces_more``), or it ends on a paragraph, whose example the chunker may have set at the head of
    the next chunk (Flask's "It can also be a function call (with any arguments) if you're using the app
    factory pattern." and its "$ gunicorn -w 4 'hello:create_app()'"; one chunk in twelve of Flask's manual
    ends on a paragraph whose next chunk opens with code)."""
    last = visible.blocks[-1] if visible.blocks else None
    return introduces_more(visible) or (last is not None and last.kind == "paragraph")


#: A sentence that names its page's subject by pointing ("This module relies on libnghttp2", "This directive
#: sets ...") leans on the page's title, not on the sentence before it.
_THE_PAGES_SUBJECT = re.compile(
    r"^(?:this|these|that|those|such)\s+(?:[\w.()]+\s+)?(?:modules?|directives?|options?|settings?|functions?|"
    r"methods?|commands?|pages?|documents?|sections?|chapters?|interfaces?|routines?|apis?|class(?:es)?|"
    r"variables?|parameters?|flags?|tools?|programs?|library|libraries|extensions?|features?|files?|"
    r"guides?|tutorials?|manuals?|articles?|books?|reports?|papers?|packages?)\b",
    re.I,
)


def ends_on_term(previous: Visible) -> bool:
    """Whether the chunk before (its visible text) ends on a term line, whose description the next chunk
    opens on."""
    last = previous.blocks[-1] if previous.blocks else None
    return (
        last is not None
        and last.kind == "paragraph"
        and not previous.text[last.end :].strip()
        and is_term_line(previous.text[last.start : last.end])
    )


def antecedent(previous: Visible, opening: str, *, room: int, example: bool = False) -> int | None:
    """Where, in ``previous`` (the visible text of the chunk before), the sentence starts that ``opening``
    (the sentence a chunk opens on) leans on: the last sentence of its last paragraph (and back from it while
    each points back in turn), when that is a whole sentence, no pointer, and from it to the chunk's end fits
    in ``room`` characters; or the term line that ends it, whatever the opening says. A chunk may open on
    "Then the parent itself exits." or "Or, in other words, these routines are constructors ...", and alone
    it says nothing of what it continues; the chunker set the sentence before it in the chunk before. Only
    an opening that points back in its first words (``_OPENS_BY_POINTING_BACK``) does: a definite subject
    ("The boolean identifiers TRUE and FALSE are ...") names its thing, "When a client uses Keep-Alive, it
    ..." names its own, and "This module ..." is the page's.
    ``example``: the chunk opens on code, which leans on the paragraph before it whatever it says (and on a
    sentence that introduces it with a colon).
    None: no paragraph ends that chunk, or the opening does not lean on it."""
    last = previous.blocks[-1] if previous.blocks else None
    if last is None or last.kind != "paragraph" or previous.text[last.end :].strip():
        return None
    if is_term_line(previous.text[last.start : last.end]):
        # The chunk before ends on the term this chunk's opening describes (GNU Awk's "strftime([format [,
        # timestamp [, utc-flag] ] ])" over "Format the time specified by timestamp ..."): the description
        # names nothing without it, pointing back or not (nor without the terms above it that it describes
        # too, when they fit).
        first = previous.blocks[_first_term(previous.text, previous.blocks, len(previous.blocks) - 1)].start
        return next((s for s in (first, last.start) if len(previous.text) - s <= room), None)
    spans = _sentences(previous.text, last.start, last.end)
    if not spans:
        return None
    start, end = spans[-1]
    before = previous.text[start:end]
    if runs_on(before) and goes_on_from_above(opening):
        # The chunk before ends on a lead-in whose sentence this chunk's list goes on ("If, after scanning the
        # directory," over "no matching document was found, ..."): the item alone is half a sentence.
        return start if len(previous.text) - start <= room else None
    if (
        not before.rstrip().endswith((".", "!", "?", ")", '"', "”", *((":",) if example else ())))
        or len(previous.text) - start > room
        or is_pointer(before)  # "See the checkpointing documentation." is not what "This interface" is
        or (not example and (not _OPENS_BY_POINTING_BACK.match(opening) or _THE_PAGES_SUBJECT.match(opening)))
    ):
        return None
    if (
        example
        and len(words(before)) < INTRO_WORDS
        and (names_nothing(before) or _BACK_REFERENCE.match(before))
    ):
        # A short intro that names nothing ("Example usage:", "For example:") takes the sentence before it
        # along, in its paragraph or the one above, as in one chunk (Django's "Includes fuzzy translations
        # into compiled files." over "Example usage:" over the next chunk's commands).
        if len(spans) > 1:
            # (never a pointer: "See the ENGINE setting below on how to ... This example is for PostgreSQL:")
            earlier: int | None = None if is_pointer(previous.text[slice(*spans[-2])]) else spans[-2][0]
        else:
            earlier = _last_sentence_before(
                previous.text, previous.blocks, len(previous.blocks) - 1, cut_end=len(previous.text)
            )
        return earlier if earlier is not None and len(previous.text) - earlier <= room else start
    # ... and back to the sentence that names what "it ... it ..." is about, while the quote fits.
    j = len(spans) - 1
    while (
        j > 0
        and _OPENS_BY_POINTING_BACK.match(previous.text[spans[j][0] : spans[j][1]])
        and len(previous.text) - spans[j - 1][0] <= room
    ):
        j -= 1
    return spans[j][0]


def introduces_more(visible: Visible) -> bool:
    """Whether a passage ends on what introduces the blocks after it (a colon, or a last paragraph that
    announces "the following"): what it introduces may stand in the next chunk."""
    text = visible.text.rstrip()
    if text.endswith(":"):
        return True
    last = visible.blocks[-1] if visible.blocks else None
    if last is None or last.kind != "paragraph":
        return False
    return _ANNOUNCES.search(text, last.start, last.end) is not None


def _fits_with_follow(start: int, blocks: Sequence[Block], k: int) -> bool:
    """What follows paragraph ``k`` (its list, table rows or code) fits in one quote from ``start`` on."""
    end = _follow(blocks, k)
    return end is not None and end - start <= MAX_QUOTE_CHARS


def _runs_into_code(sentence: str, blocks: Sequence[Block], k: int) -> bool:
    """A paragraph whose last sentence stops without a stop and goes on in the code block after it ("the
    second directive you need to add to your server configuration is" + ``Protocols h2 http/1.1``): the code
    is the end of the sentence."""
    return sentence.rstrip()[-1:].isalnum() and k + 1 < len(blocks) and blocks[k + 1].kind == "code"


def _short_stop(
    text: str, spans: Sequence[tuple[int, int]], i: int, *, first: int, blocks: Sequence[Block], k: int
) -> int:
    """Where a quote of a short sentence ends: with the sentence after it, and where that one introduces
    what follows its paragraph ("By default, inspectdb creates unmanaged models. That is, managed = False
    ... tells Django not to manage each table's creation, modification, and deletion:" over the model's
    code), with what it introduces when that fits; else up to its colon (it says something itself, unlike a
    lead-in alone, which is never quoted without what it introduces)."""
    after = spans[i + 1]
    if not text[after[0] : after[1]].rstrip().endswith(":"):
        return after[1]
    follow_end = _follow(blocks, k) if i + 1 == len(spans) - 1 else None
    if follow_end is not None and follow_end - first <= MAX_QUOTE_CHARS:
        return follow_end
    return after[1]


def _last_sentence_before(
    text: str, blocks: Sequence[Block], k: int, *, cut_end: int, room: int = MAX_QUOTE_CHARS
) -> int | None:
    """Where the last sentence of the paragraph right before block ``k`` starts, when it is a whole sentence
    (no term line, no intro of its own) and a quote from there to ``cut_end`` fits ``room``."""
    if k == 0 or blocks[k - 1].kind != "paragraph":
        return None
    above = text[blocks[k - 1].start : blocks[k - 1].end].strip()
    if is_term_line(above) or not above.endswith((".", "!", "?")) or not above[:1].isupper():
        return None  # (no term, no intro, no clause that goes on from the code above it)
    spans = _sentences(text, blocks[k - 1].start, blocks[k - 1].end)
    if not spans or cut_end - spans[-1][0] > room or is_pointer(text[slice(*spans[-1])]):
        return None
    return spans[-1][0]


#: A short intro that names nothing it is about: where to run its code or what kind of example it is ("For
#: BSD/GNU make, run:", "For example:", "On Windows:", "Then run:"), not "Associative arrays are created
#: using".
_NAMES_NOTHING = re.compile(
    r"^(?:(?:for|on|in|with|under|then|or|and|run|use|type|examples?|using|so|now|next|also)\b|e\.g\.)", re.I
)


#: Words of an intro that say only that an example follows ("Usage examples:", "See the following example:",
#: "Here's the output:").
_EXAMPLE_WORDS = frozenset(
    """a an the here here's is are see following below example examples usage sample samples output snippet
    code like this as follows shown""".split()
)


def names_nothing(intro: str) -> bool:
    """Whether a short intro names nothing it is about: it opens on where to run its code or on a linking
    word (``_NAMES_NOTHING``), or says only that an example follows."""
    said = {w.casefold().replace("’", "'") for w in words(intro)}
    return bool(_NAMES_NOTHING.match(intro)) or (bool(said) and said <= _EXAMPLE_WORDS)


#: An intro of fewer words than this that names nothing ("For example:") is quoted with the sentence before.
INTRO_WORDS = 8
#: A step quoted with its code has at most this many words.
STEP_WORDS = 20


def _step_code(text: str, blocks: Sequence[Block], k: int) -> int | None:
    """Where the code right after the list item ``blocks[k]`` ends, when the item is a short step of a list
    of steps (the next step, an item at its depth, follows the code) and that code fits in an example's
    length: the step's command. None otherwise."""
    block = blocks[k]
    if (
        block.kind != "item"
        or k + 1 >= len(blocks)
        or blocks[k + 1].kind != "code"
        or len(words(text[block.start : block.end])) > STEP_WORDS
    ):
        return None
    end = k + 1
    while end + 1 < len(blocks) and blocks[end + 1].kind == "code":
        end += 1
    # (the next step after the code: the last item of a list is no step of the code after the list)
    if not any(b.kind == "item" and b.depth == block.depth for b in blocks[end + 1 : end + 3]):
        return None
    stop = blocks[end].end
    return stop if stop - block.start <= MAX_EXAMPLE_CHARS else None


def _follow(blocks: Sequence[Block], k: int) -> int | None:
    """Where what a colon-ended sentence introduces ends: the item, row or code blocks right after it (an
    example's code whole, or nothing: cut, it reads as another example; a list whole, or cut after two items
    at least, which may take an example's length: CMake's policy pages list what "the OLD behavior" and "the
    NEW behavior" do, and the first alone says the opposite of what the policy does now)."""
    end: int | None = None
    taken = 0
    for block in blocks[k + 1 :]:
        if block.kind not in ("item", "row", "code"):
            break
        # (a list's marker stands between two items: "\n2. " had ended a numbered list after its first)
        if end is not None and block.start - end > (LIST_GAP if block.kind == "item" else 3):
            break
        code = block.kind == "code"
        # (a list's first items are taken while they fit in an example's length, a longer list's further
        # items while the whole fits in MAX_FOLLOW_CHARS)
        listed = blocks[k + 1].kind == "item"  # (a table's first rows, or code, are cut as before)
        few = listed and taken < MIN_LISTED
        limit = MAX_EXAMPLE_CHARS if code or few else MAX_FOLLOW_CHARS
        if end is not None and block.end - blocks[k].end > limit:
            if code and blocks[k + 1].kind == "code":
                return None
            return end if taken >= MIN_LISTED or not listed else None
        end = block.end
        taken += block.kind == "item" and block.depth == blocks[k + 1].depth
    return end


#: A clause that goes on from what stands before it, not a sentence of its own.
_RELATIVE = re.compile(r"(?:which|whereby|wherein|whereupon)\b(?![^.!?]*\?\s*$)", re.I)
#: Items of a list a quote cut short holds at least.
MIN_LISTED = 2


def _opens_lower(sentence: str) -> bool:
    """Whether a sentence opens in lower case, also inside a bracket ("(where user is your login name).",
    after the output the sentence before the code introduced: a part of that sentence, no sentence of its
    own)."""
    return sentence[:1].islower() or (sentence[:1] == "(" and sentence[1:2].islower())


def _sentence_goes_on(text: str, blocks: Sequence[Block], start: int, end: int) -> int:
    """``end``, or past the first sentence of the paragraph right after it when that paragraph goes on with
    the sentence the code interrupted (CMake's "This means that using:" + ``set_property(TARGET tgt PROPERTY
    CXX_STANDARD 11)`` + "with a compiler which does not support -std=gnu++11 ... will not result in an error
    or warning, but will instead add the -std=gnu++98 flag if supported."): a lower-case opening is no
    sentence of its own, and the quote without it stops before its point."""
    after = next((b for b in blocks if b.start >= end), None)
    if after is None or after.kind != "paragraph" or not _opens_lower(text[after.start : after.end]):
        return end
    first = _sentences(text, after.start, after.end)
    # (only while the whole still fits in an example's length: the intro with its code is quoted, if
    # shorter, rather than nothing)
    return first[0][1] if first and first[0][1] - start <= MAX_EXAMPLE_CHARS else end


#: Windows quoted whole or not at all: what a sentence introduces, a paragraph's example.
_WHOLE = ("intro", "example")


def _kept(window: Window) -> bool:
    """Whether a window is quoted: one quoted whole (what an intro introduces) only within an example's
    length (cut, an example reads as another one)."""
    return not (window.kind in _WHOLE and window.end - window.start > MAX_EXAMPLE_CHARS)


def _bounded(text: str, window: Window) -> Window:
    if window.end - window.start <= (MAX_EXAMPLE_CHARS if window.kind in _WHOLE else MAX_QUOTE_CHARS):
        return window  # (what a sentence introduces is quoted whole, or not at all)
    limit = window.start + MAX_QUOTE_CHARS
    # A long window ends where a sentence, a line or a clause does, so that it never stops mid-thought.
    ends = [m.start() + len(m.group(0).rstrip()) for m in SENTENCE_END.finditer(text, window.start, limit)]
    cut = max(ends[-1] if ends else -1, text.rfind("\n", window.start, limit))
    if cut < window.start + 120:
        cut = text.rfind("; ", window.start, limit)
    if cut < window.start + 120:
        cut = text.rfind(" ", window.start, limit)
    end = cut if cut > window.start + 80 else limit
    return Window(window.start, end, window.kind, window.continues)


_ATTRIBUTION = re.compile(
    r"^(?:source|sources|credit|credits|retrieved from|adapted from|photo|image)\s*:|\bCC[- ]BY\b|"
    r"\ball rights reserved\b|^(?:copyright|©)"
    # ... or a page's footer that dates it ("This page last modified on 2011-08-15 23:00:56 UTC", SQLite's)
    r"|^this\s+(?:page|document|file)\s+(?:was\s+)?last\s+(?:modified|updated|changed|edited)\b"
    r"|^last\s+(?:modified|updated|changed|edited)\s*(?::|on\b)",
    re.I,
)


def _reached_back(
    text: str, blocks: Sequence[Block], k: int, opening: tuple[int, int], stop: int, *, split_start: bool
) -> int | None:
    """Where a quote that ends at ``stop`` starts when block ``k``'s ``opening`` leans on the paragraphs
    before it (``_leant_on``), followed back while the sentence leant on points back in turn and the quote
    fits: Celery's "So you have to increase the visibility timeout ..." leans on "This causes problems with
    ETA/countdown/retry tasks ...", a paragraph of its own, which leans on "If a task isn't acknowledged
    within the Visibility Timeout the task will be redelivered ...": quoted from "This causes", it said
    what causes the problem nowhere. A term line leant on ends the chain (it points back at nothing: an API
    reference's "Return type: str" above it belongs to the entry before); a pointer is taken along only
    with the sentence before it; the chunk's first sentence, cut by the chunker (``split_start``), never
    opens a quote."""
    first: int | None = None
    while k > 0:
        at = _leant_on(text, blocks, k, opening)
        if at is None or stop - at > MAX_QUOTE_CHARS:
            break
        above = blocks[k - 1]
        if above.kind != "paragraph" or is_term_line(text[above.start : above.end]):
            return at if not (split_start and k - 1 == 0) else first
        spans = _sentences(text, above.start, above.end)
        i = next((n for n, (a, _) in enumerate(spans) if a == at), None)
        if i is None:
            break
        # ... and back within that paragraph, while each sentence points back at the one before it (over a
        # pointer to the sentence before that)
        while (
            i > 0
            and stop - spans[i - 1][0] <= MAX_QUOTE_CHARS
            and (
                is_pointer(text[spans[i][0] : spans[i][1]])
                or _leans_back(
                    text[spans[i][0] : spans[i][1]], text[spans[i - 1][0] : spans[i - 1][1]], first_step=False
                )
            )
        ):
            i -= 1
        if is_pointer(text[spans[i][0] : spans[i][1]]) or (split_start and k - 1 == 0 and i == 0):
            break  # (no quote opens on a pointer or on a fragment: the last place reached stands)
        first = spans[i][0]
        if i > 0:
            break
        k, opening = k - 1, spans[0]
    return first


#: Term lines that one description may stand under (HAProxy's "inter <delay>", "fastinter <delay>" and
#: "downinter <delay>" over "The "inter" parameter sets the interval between two consecutive health checks").
TERM_LINES = 4


def _first_term(text: str, blocks: Sequence[Block], k: int) -> int:
    """The first of the term lines that end at block ``k`` (itself a term line): the terms one description
    stands under; read from its last term alone, "downinter <delay> — The "inter" parameter sets ..." names
    the wrong one."""
    first = k
    while (
        first > 0
        and k - first + 1 < TERM_LINES
        and blocks[first - 1].kind == "paragraph"
        and is_term_line(text[blocks[first - 1].start : blocks[first - 1].end])
    ):
        first -= 1
    return first


def _name_of(term: str) -> str:
    """What a term line names, its arguments left out: "option http-check disable-on-404" whole (not
    "option", which "When this option is set" says of any), "set server" of "set server <backend>/<server>
    state [ ready | drain | maint ]", "jinja2.PackageLoader" of its signature."""
    called = signature_name(term)
    if called is not None:
        return called.rsplit(".", 1)[-1]
    defined = defined_name(term)
    if defined is not None and ":" in term:
        # (a definition's name, its category and its types left out: "nullbody" of GNU Mailutils' "mail:
        # boolean nullbody", "login-delay" of "Pop3d Conf: login-delay duration", "malloc" of "Function:
        # void * malloc (size_t size)")
        call = re.search(r"([A-Za-z_][\w.]*)\s*\(", defined)
        if call is not None:
            return call.group(1)
        parts = defined.split()
        while len(parts) > 1 and (parts[0].casefold() in TYPE_WORDS or parts[0] == "*"):
            parts = parts[1:]
        if not parts:
            return term
        # (a directive's keyword with what it sets: "%define lr.type")
        return " ".join(parts[:2]) if parts[0][:1] in "%@." and len(parts) > 1 else parts[0].rstrip(";")
    return re.split(r"\s+[<\[{(]|\s*:\s", term, maxsplit=1)[0].strip() or term


#: A term line that opens on its name: in lower case or with a sign ("option redispatch", "<Directory>",
#: "-q"), or a name in code ("SQLITE_THREADSAFE=<0 or 1 or 2>", "ForeignKey.swappable", "class X(...)"); not
#: a label that opens on a word ("Only available in <Directory> sections", "PostgreSQL users").
_OPENS_ON_A_NAME = re.compile(r"[a-z<$%@.\-\[]|\S*[_.(<=/]")


def _describes(text: str, blocks: Sequence[Block], j: int) -> bool:
    """Whether the term line ``blocks[j]`` stands over a description: the block under it (past other term
    lines over the same description) is a paragraph that says something, a sentence of a few words; not a
    syntax diagram's boxes ("column-name" over "column-def:"), nor a paragraph that is only an intro ("The
    following values are valid:")."""
    k = j + 1
    while (
        k < len(blocks)
        and blocks[k].kind == "paragraph"
        and (
            is_term_line(text[blocks[k].start : blocks[k].end])
            # (and past the record's fields: GNU Mailutils' "mail: boolean nullbody" over "Default: True"
            # over "Controls whether mail accepts messages with an empty body.")
            or _field_of_record(text[blocks[k].start : blocks[k].end])
        )
    ):
        k += 1
    if k >= len(blocks) or blocks[k].kind != "paragraph":
        return False
    said = text[blocks[k].start : blocks[k].end].strip()
    # (a paragraph that ends by introducing its example describes, when a sentence comes before that:
    # aspell's "markdown-skip-ref-labels" over "(boolean) Controls if ref lables are skipped. For example,
    # when this option is enabled '[ref]' will be skipped over in:")
    return len(words(said)) >= 4 and (not said.endswith(":") or _A_SENTENCE_ENDS.search(said) is not None)


#: A sentence's end inside a paragraph: a stop after a word and a capital after it ("e.g. the" is none).
_A_SENTENCE_ENDS = re.compile(r"\w[)\"'”’]?[.!?]\s+[\"'“‘(]?[A-Z]")
#: An argument's name on a line of its own, under the keyword it belongs to: "<table>", "[<backend>/]".
_ARGUMENT = re.compile(r"\[?<[^<>\s]+>[/:]?\]?(?:\s*:)?")
#: How many blocks above a quote's own a description's term line may stand (its paragraphs, its "Arguments :"
#: list, its example).
TERM_SCAN = 8


def term_above(passage: Readable, window: Window) -> str | None:
    """The term line (or lines) whose description ``window`` stands in, several blocks up in its chunk, when
    the quote neither opens on it nor names it: HAProxy's keywords stand on a line of their own over
    descriptions of several paragraphs, and a later paragraph's "When this option is set, a server which
    returns an HTTP code 404 will be excluded from further load-balancing" names no option read alone (a
    quote from the term on would be too long to read). The term lines, one per line, as the chunk has them;
    None where a heading, the chunk's start or ``TERM_SCAN`` blocks come first."""
    text = passage.text
    own = passage.visible.blocks
    k = next((i for i, b in enumerate(own) if b.start <= window.start < b.end), None)
    if k is None or k == 0 or own[k].kind == "heading" or is_term_line(text[own[k].start : own[k].end]):
        return None
    fields = 0  # (fields of a record skipped, right above the description)
    for j in range(k - 1, max(-1, k - 1 - TERM_SCAN), -1):
        block = own[j]
        if block.kind == "heading":
            return None
        line = text[block.start : block.end].strip()
        if fields >= 0 and block.kind == "paragraph" and _field_of_record(line):
            fields += 1
            continue  # a field of the record between its term and its description ("Default: True")
        if fields > 0 and not (block.kind == "paragraph" and is_term_line(line)):
            return None  # (no term right over them: a title set as a paragraph, "Alternative Setup: Using X")
        fields = -1
        if (
            block.kind == "paragraph"
            and not line.endswith(_STOPS)
            and not is_term_line(line)
            and len(words(line)) <= TITLE_WORDS
        ):
            return None  # a title set as a paragraph ("Server-side Keep-Alive") opens another part
        if block.kind == "paragraph" and _ARGUMENT.fullmatch(line):
            continue  # an argument's name under its keyword ("<table>" under "http-request track-sc0 <key>")
        if block.kind == "paragraph" and is_term_line(line):
            if not (_OPENS_ON_A_NAME.match(line) or defined_name(line)) or not _describes(text, own, j):
                return None  # (a label, "Only available in <Directory> sections"; a diagram's box)
            first = _first_term(text, own, j)
            if (
                first > 0
                and own[first - 1].kind == "paragraph"
                and is_term_line(text[own[first - 1].start : own[first - 1].end])
            ):
                return None  # (more term lines above than one description's: a list of names, no term)
            lines = [" ".join(text[b.start : b.end].split()) for b in own[first : j + 1]]
            quote = " ".join(text[window.start : window.end].split())
            named = any(
                re.search(rf"(?<![\w-]){re.escape(_name_of(line))}(?![\w-])", quote) for line in lines
            )
            return None if named else "\n".join(lines)
    return None


def _leant_on(text: str, blocks: Sequence[Block], k: int, opening: tuple[int, int]) -> int | None:
    """Where the last sentence of the paragraph before block ``k`` starts, when block ``k`` opens by pointing
    back ("Another way to overcome the limitation is ..."): that sentence is what it leans on. A term line
    before it (``is_term_line``) is what it describes, pointing back or not. A table of
    one row before it is the record of what it describes (Exim's "acl_smtp_rcpt | Use: main | Type: string
    | Default: unset" over "This option defines the ACL that is run when an SMTP RCPT command is received."):
    the row is what it leans on, also when the sentence names it only further on ("When a message is
    delayed, Exim sends a warning message ... at intervals specified by this option")."""
    sentence = text[opening[0] : opening[1]]
    record = blocks[k - 1].kind == "row" and _THIS_TERM.search(sentence) is not None
    if blocks[k - 1].kind == "paragraph" and is_term_line(text[blocks[k - 1].start : blocks[k - 1].end]):
        if is_term_line(text[blocks[k].start : blocks[k].end]):
            return blocks[k - 1].start  # (a description in a term's form, "format as RFC 3339 date")
        return blocks[_first_term(text, blocks, k - 1)].start
    if not (_BACK_REFERENCE.match(sentence) or record):
        return None
    if blocks[k - 1].kind == "row":
        first = k - 1
        while first > 0 and blocks[first - 1].kind == "row":
            first -= 1
        return blocks[first].start if k - first <= RECORD_ROWS else None
    if blocks[k - 1].kind != "paragraph":
        return None
    before = _sentences(text, blocks[k - 1].start, blocks[k - 1].end)
    if not before or _VERSION_NOTE.match(text[before[-1][0] : before[-1][1]].strip()):
        return None  # ("New in version 1.0." over "This extension is meant to ...": no antecedent)
    return before[-1][0]


#: A table of at most this many rows (a header and one row) is the record of what the paragraph after it
#: describes.
RECORD_ROWS = 2
#: What a description calls the term it describes.
_THIS_TERM = re.compile(
    r"\bth(?:is|ese) (?:option|setting|parameter|variable|directive|command|function|macro|flag|modifier|"
    r"condition|operator|value|hook|field)s?\b",
    re.I,
)


def _worth_quoting(text: str, kind: str) -> bool:
    """Not too short to say anything, not a pointer elsewhere, not a header row of labels, not a credit line
    (a source's attribution or licence notice answers nothing asked of the document)."""
    if len(words(text)) < (3 if kind in ("row", "item") else 4):
        return False
    if len(text.split()) < 2:
        return False  # one name and nothing said of it ("-qqf[f][G<name>[/<time>]]]")
    if kind == "intro" and text.rstrip().endswith(":"):
        return False  # what it brings along ends on what it does not hold (a list cut off by the quote)
    if any(_ATTRIBUTION.search(part.strip()) for part in text.split("\n\n")):
        return False  # (a footer pointing back, "This page last modified ...", takes its sentence along)
    if kind == "row" and labels_only(text):
        return False
    if kind in ("sentence", "item") and _UNSAID.search(text):
        return False  # a parameter listed with nothing said of it ("enable_async (bool) -")
    if _TYPE_ONLY.match(text.strip()):
        return (
            False  # an API field's type without the name it is the type of ("Return type • Dict[str, Any]")
        )
    if kind == "sentence" and _NUMBERED_TITLE.match(text.strip()):
        return False  # a numbered heading the converter left in the text ("8.1. False corruption reports")
    if kind == "sentence" and len(words(text)) < CAPTION_WORDS and not text.rstrip().endswith(_STOPS):
        return False  # a caption or a label ("Electricity generated by hydropower"), not a statement
    if kind in ("sentence", "item") and text.rstrip().endswith("?"):
        return False  # a question (a FAQ's title: "How can I use more than 8192 rules?") answers nothing
    if kind == "sentence" and _ABOUT_THE_CODE_ABOVE.match(text.lstrip()):
        # "The above example creates 10 tasks that all start in parallel, and ... sent to the xsum task." is
        # about code its quote does not hold (Celery's chord, whose own sentence and code stand above it, in
        # the chunk before): it says nothing alone.
        return False
    if kind == "sentence" and _VAGUELY_MANY.match(" ".join(text.split())):
        return False
    if kind == "sentence" and _ANNOUNCED_AT_END.search(text):
        # What it announces is not in the quote (too long to take in, or further down than its list):
        # "... techniques to do so within specific debugging scenarios include the following." says nothing.
        return False
    return not (kind == "sentence" and is_pointer(text))


#: A line that ends on the dash between a term and its description, the description empty: an API
#: reference's parameter documented by its name and type only ("cache_size (int) -").
_UNSAID = re.compile(r"^\W*[\w.]+\s*\([^()]*\)\s+[-–—]$", re.M)
#: An API reference's type field and its value, no more: Sphinx's "Return type" over "Dict[str, Any]", a
#: configuration reference's "Type" over "string list".
_TYPE_ONLY = re.compile(
    r"^(?:return\s+type|rtype|type)\s*(?::\s*|\s*\n\W*|\s+[-–—]\s+)(?:\S+\s*){1,6}$", re.I
)
#: A paragraph of fewer words than this that ends without a stop is a caption or a label.
CAPTION_WORDS = 6
_STOPS = (".", "!", "?", ":", ";", ")", '"', "”", "’", "'")

#: A section number, then words, and no stop at the end: a heading, not a sentence.
_NUMBERED_TITLE = re.compile(r"^(?:\d+\.)+\d*\s+[^.!?:]*[^\s.!?:]$")
_IDENTIFIER = re.compile(r"[\d_./:()\[\]=<>-]|[a-z][A-Z]")


def labels_only(row: str) -> bool:
    """A table's header row ("Flag | String | Description", rsyslog's "type | default | mandatory | obsolete
    legacy directive"): every cell at most ``LABEL_WORDS`` words of plain prose, no number, no name of a
    thing (``mod_dir``, ``KeepAlive``). Alone it answers nothing."""
    cells = [c.strip() for c in row.split(" | ")]
    # A name in capitals ("REPOSITORY", "TEXT") is data; three words make a label only in a header all in
    # lower case (Apache's "Match Deny only | Request denied" is a row of data).
    most = LABEL_WORDS if row == row.lower() else LABEL_WORDS - 1
    return all(
        len(c.split()) <= most and not _IDENTIFIER.search(c) and not (c.isupper() and len(c) > 1)
        for c in cells
    )


#: A header cell has at most this many words.
LABEL_WORDS = 3


@dataclass(frozen=True, slots=True)
class Scored:
    window: Window
    #: How well the window answers the question (cross-encoder logit; higher is better).
    score: float


TokenIds = Callable[[Sequence[str]], list[list[int]]]
Rerank = Callable[[str, list[str]], list[float]]


class QuoteJudge:
    """Picks the windows of passages that answer a question: term weights shortlist, a cross-encoder decides.

    ``per_passage``: windows of each passage the cross-encoder reads (the best by term weight).
    """

    def __init__(self, token_ids: TokenIds, rerank: Rerank, *, per_passage: int = 3) -> None:
        self.token_ids = token_ids
        self.rerank = rerank
        self.per_passage = per_passage
        #: Pairs the cross-encoder read (what research spends its time on).
        self.pairs = 0
        #: Scores already read, by (question, window in context): the request's asks and its own search see
        #: many of the same passages, and a pair is never read twice in a run.
        self._seen: dict[tuple[str, str], float] = {}

    def shortlist(
        self,
        weights: dict[int, float],
        texts: Sequence[str],
        candidates: Sequence[Sequence[Window]],
        *,
        budget: int | None = None,
    ) -> list[list[Window]]:
        """The windows worth the cross-encoder's time: the best of every passage by the question's term
        weight, then the next best across passages, at most ``per_passage`` each and ``budget`` in all (every
        passage keeps its best: each document of a search gets its chance). A paragraph's last sentence with
        its example (``example``) takes no place of its own: it is read when the sentence is, beside it."""
        total = sum(weights.values()) or 1.0
        own = [[w for w in ws if w.kind != "example"] for ws in candidates]
        flat = [text[w.start : w.end] for text, ws in zip(texts, own, strict=True) for w in ws]
        ids = iter(self.token_ids(flat)) if flat else iter([])
        ranked: list[list[tuple[float, Window]]] = []
        for ws in own:
            scored = []
            for w in ws:
                tokens = set(next(ids))
                weight = sum(weights.get(t, 0.0) for t in tokens) / total
                scored.append((weight / math.log2(2 + len(tokens) / 24), w))
            scored.sort(key=lambda pair: -pair[0])
            ranked.append(scored[: self.per_passage])
        out: list[list[Window]] = [[s[0][1]] if s else [] for s in ranked]
        seconds = sorted(
            ((weight, k, w) for k, s in enumerate(ranked) for weight, w in s[1:]), key=lambda t: -t[0]
        )
        room = (budget - sum(map(len, out))) if budget is not None else len(seconds)
        for _, k, w in seconds[: max(0, room)]:
            out[k].append(w)
        return [
            [*chosen, *(e for e in ws if e.kind == "example" and any(e.start == w.start for w in chosen))]
            for chosen, ws in zip(out, candidates, strict=True)
        ]

    def judge(self, question: str, contexts: Sequence[str]) -> list[float]:
        """Cross-encoder scores of ``question`` against each window read in its context."""
        todo = list(dict.fromkeys(c for c in contexts if (question, c) not in self._seen))
        if todo:
            self.pairs += len(todo)
            for context, score in zip(todo, self.rerank(question, todo), strict=True):
                self._seen[(question, context)] = score
        return [self._seen[(question, c)] for c in contexts]

    def match(self, weights: Sequence[dict[int, float]], texts: Sequence[str]) -> list[int]:
        """For each text, which of several questions' term weights it matches best (its share of the
        question's weight): the ask of a long request a passage of the whole request's search speaks to."""
        totals = [sum(w.values()) or 1.0 for w in weights]
        out: list[int] = []
        for tokens in self.token_ids(list(texts)) if texts else []:
            present = set(tokens)
            shares = [
                sum(w.get(t, 0.0) for t in present) / total for w, total in zip(weights, totals, strict=True)
            ]
            out.append(max(range(len(shares)), key=lambda k: shares[k]))
        return out


#: Characters of a window (with its heading path) the cross-encoder reads: its cost grows faster than the
#: length (MiniLM-L-12 on two cores: 74 pairs/s at 30 tokens, 24 at 120, 9.5 at 300; docs/BENCHMARKS.md).
CONTEXT_CHARS = 600


def in_context(quote: str, *, title: str | None, section_path: str | None) -> str:
    """A window as the cross-encoder reads it: its heading path before it (and the document's title, where
    the path does not start with it), at most ``CONTEXT_CHARS``."""
    path = section_path or ""
    head = title if title and not path.startswith(title) else None
    return contextualize(quote, section_path=path or None, title=head, limit=CONTEXT_CHARS)
