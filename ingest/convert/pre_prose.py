"""Prose laid out as preformatted text, read back as paragraphs, list items and terms.

Some manuals are plain text wrapped in ``<pre>``: HAProxy's (its HTML is generated from text files), RFCs,
man pages rendered as text. Read as code, their prose is never quoted (a code block alone answers nothing)
and every chunk of such a manual is a code block, so a report over it was empty although search found the
answer ("disable server": "Mark the server DOWN for maintenance."). Here each block of a ``<pre>`` (lines
between blank lines) is read line by line:

- a run of lines at one indentation that reads as prose (words, a sentence's end, no mark of code) is a
  paragraph, its lines joined;
- lines that open with a bullet or a number ("  - adjust the file descriptor limits") and their indented
  continuations are list items, when they read as prose too;
- a short line above a more indented description ("commit acl @<ver> <acl>" over "  Commit all changes
  made to version <ver> ...", a manual page's "minimal_backoff_time (300s)" over its text) is the term
  that description defines, a paragraph of its own; a tag beside the first line of its text ("hold   Messages
  that are kept ...") is split off as one; a term in capitals ("DESCRIPTION") is a heading;

and a block becomes those elements only when every run in it does; any other block (an example, a shell
session, a table laid out in columns, a configuration) stays preformatted, as it was. A quote holds the
same words either way: line breaks become spaces, a justified line's spread words are set apart by one
space, and a word hyphenated at a line's end is whole again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

#: A word of prose: letters (an apostrophe or hyphen inside; a manual page's "cleanup(8)") or a number,
#: with quotes, brackets and punctuation around.
_WORD = re.compile(
    r"^[\"'(\[“‘]*(?:[A-Za-z][A-Za-z'’-]*(?:\(\d\w{0,3}\)|\(s\))?|\d[\d.,]*%?)[\"')\].,;:!?”’]*$"
)
#: Share of a run's words that must be words of prose.
PROSE_SHARE = 0.8
#: What code, a shell session or a configuration shows and prose does not.
#: (A name followed by a parenthesis is a call; a manual page's section number is none, "cleanup(8)", nor a
#: plural's "queue(s)".)
#: (A parameter's value "$myhostname" and a quote in the old style, "`-'", are prose's too.)
_CODE_MARK = re.compile(r"[{}=\\|]|\$\(|`[^`']*`|::|->|=>|//|&&|\w\((?!\d\w{0,3}\)|s\))|\"\"\"|\'\'\'")
_CODE_LINE = re.compile(r"^(?:#|//|--|;|/\*|\*(?!\s*\w)|>|\$|%|\.\.)|\S\s{2,}(?:#|//)\s")
#: A line that opens with a sign against its text: a diff's line, or an option ("-c config_dir") when it
#: stands over its description.
_SIGNED = re.compile(r"^[-+]{1,2}[^\s-]")
_URL = re.compile(r"\b(?:https?|ftp)://\S+")
#: A run of spaces inside a line: between a table's columns (aligned from line to line), or a justified
#: line's spread words (a manual page's "Transform  envelope  and   the   standard").
_GAP = re.compile(r"(?<=\S) {3,}(?=\S)")
_ITEM = re.compile(r"^(\s*)(?:[-*•o+]|\d{1,2}[.)]|[a-z][.)])\s+\S")
_SENTENCE_END = re.compile(r"[.!?:][\"')”’]*$")
#: Share of a run's words in capitals above which it reads as SQL or constants ("GRANT EXECUTE ON ...").
CAPITALS_SHARE = 0.25
#: A paragraph of one line, in a block of its own, reads as prose only with this share of prose words (a
#: line of code with a sentence in its string: 'Header set MyHeader "Hello Joe. It took %D ..."').
ONE_LINE_SHARE = 0.9
#: A manual page's section heading: "DESCRIPTION", "CONFIGURATION PARAMETERS".
_CAPITALS_TITLE = re.compile(r"^[A-Z][A-Z ]{2,}[A-Z]$")
#: A term line: short, and not a sentence.
PRE_TERM_WORDS = 8


@dataclass(frozen=True, slots=True)
class Piece:
    """One element a block reads as: ``kind`` is "paragraph", "item", "term" or "heading" (a term in
    capitals over its text, as a manual page's sections are: "DESCRIPTION"); ``text`` its words joined."""

    kind: Literal["paragraph", "item", "term", "heading"]
    text: str


@dataclass(frozen=True, slots=True)
class Part:
    """A stretch of the ``<pre>``: prose pieces, or preformatted ``text`` kept as it is."""

    pieces: tuple[Piece, ...] = ()
    text: str = ""


def prose_parts(text: str) -> list[Part] | None:
    """The ``<pre>`` text as parts in order, or None when none of it reads as prose (it stays as it is)."""
    blocks = re.split(r"\n[ \t]*\n", text.strip("\n"))
    base = min((_indent(line) for line in text.split("\n") if line.strip()), default=0)
    parts: list[Part] = []
    kept: list[str] = []
    found = False
    for block in blocks:
        pieces = _read(block.split("\n"), base)
        if pieces is None:
            kept.append(block)
            continue
        found = True
        if kept:
            parts.append(Part(text="\n\n".join(kept)))
            kept = []
        parts.append(Part(pieces=tuple(pieces)))
    if kept:
        parts.append(Part(text="\n\n".join(kept)))
    return parts if found else None


def _read(lines: list[str], base: int = 0) -> list[Piece] | None:
    """The block's pieces, or None unless every line of it belongs to a piece that reads as prose."""
    lines = [line.rstrip() for line in lines if line.strip()]
    if not lines or _columns(lines) or any(_CODE_LINE.search(line.lstrip()) for line in lines):
        return None
    if any(
        _SIGNED.match(line.lstrip()) and not (n + 1 < len(lines) and _indent(lines[n + 1]) > _indent(line))
        for n, line in enumerate(lines)
    ):
        return None
    pieces: list[Piece] = []
    i = 0
    while i < len(lines):
        indent = _indent(lines[i])
        item = _ITEM.match(lines[i])
        j = i + 1
        if item:  # the item's continuation lines are indented past its bullet
            while j < len(lines) and not _ITEM.match(lines[j]) and _indent(lines[j]) > indent:
                j += 1
        elif (
            j < len(lines)
            and _indent(lines[j]) > indent
            and (split := _term_beside(lines[i], _indent(lines[j]))) is not None
        ):
            # A term and the start of its description on one line, the description's lines under it
            # (a manual page's tagged paragraph: "active Messages that the queue manager has ...").
            pieces.append(Piece("term", split[0]))
            lines = [*lines[:i], " " * _indent(lines[j]) + split[1], *lines[j:]]
            continue
        else:
            while j < len(lines) and _indent(lines[j]) == indent and not _ITEM.match(lines[j]):
                j += 1
            if j < len(lines) and _indent(lines[j]) > indent and _term(term := _joined(lines[i:j])):
                # A term over its more indented description (on two lines when long: a manual page's
                # "transport_destination_concurrency_limit ($default_destination_concur-" / "rency_limit)").
                # (a manual page's section names stand at its left margin; "SIGTERM" indented is a term)
                heading = indent <= base and _CAPITALS_TITLE.match(term) is not None
                pieces.append(Piece("heading" if heading else "term", term))
                i = j
                continue
        joined = _joined(lines[i:j])
        if item:
            joined = _unbullet(joined)
        alone = len(lines) == 1
        if not _prose(joined, whole=not item, share=ONE_LINE_SHARE if alone else PROSE_SHARE):
            return None
        pieces.append(Piece("item" if item else "paragraph", joined))
        i = j
    described = all(
        p.kind not in ("term", "heading") or (n + 1 < len(pieces) and pieces[n + 1].kind in _UNDER[p.kind])
        for n, p in enumerate(pieces)
    )  # a term is the name of the paragraph under it: a path over a listing is no term
    return pieces if described and any(p.kind in ("paragraph", "item") for p in pieces) else None


#: What stands under a term (its description) and under a heading (a paragraph or the first term).
_UNDER = {"term": ("paragraph",), "heading": ("paragraph", "term")}


def _columns(lines: list[str]) -> bool:
    """A table laid out in columns: a line of one row with a gap in it, or gaps that end at one column on
    two lines (the next column starts there); a justified paragraph's gaps fall anywhere."""
    ends = [{m.end() for m in _GAP.finditer(line)} for line in lines]
    if len(lines) == 1:
        return bool(ends[0])
    seen: set[int] = set()
    for found in ends:
        if found & seen:
            return True
        seen |= found
    return False


def _term_beside(line: str, column: int) -> tuple[str, str] | None:
    """``line`` split into a term of one word and the description that starts at ``column`` beside it."""
    term, rest = line[:column], line[column:]
    if not term[-1:].isspace() or not rest[:1].strip() or len(term.split()) != 1 or len(rest.split()) < 3:
        return None
    return term.strip(), rest


def _joined(lines: list[str]) -> str:
    """A run's lines as one line of text: words set apart by one space (a justified line's spread too); in
    justified text (groff's manual pages), a word hyphenated at a line's end is joined again ("dis-" /
    "carded": "discarded"); elsewhere a hyphen at a line's end is a compound's ("ping-" / "based":
    "ping-based")."""
    justified = any(_SPREAD.search(line.strip()) for line in lines)
    out: list[str] = []
    for line in lines:
        words = " ".join(line.split())
        if out and _HYPHENATED.search(out[-1]) and _LOWER_START.match(words):
            out[-1] = (out[-1][:-1] if justified else out[-1]) + words
        else:
            out.append(words)
    return " ".join(out)


#: Words spread apart by a justifying formatter: two spaces or more, not after a sentence's end.
_SPREAD = re.compile(r"[^.!?:\s]\s{2,}\S")
_HYPHENATED = re.compile(r"[a-z]{2}-$")
_LOWER_START = re.compile(r"[a-z]{2}")


def _unbullet(text: str) -> str:
    return re.sub(r"^(?:[-*•o+]|\d{1,2}[.)]|[a-z][.)])\s+", "", text)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _term(line: str) -> bool:
    """A short line that names something (a command with its arguments), not a sentence."""
    text = line.strip()
    return len(text.split()) <= PRE_TERM_WORDS and not text.endswith((".", "!", "?", ",", ";", ":"))


def _prose(text: str, *, whole: bool, share: float = PROSE_SHARE) -> bool:
    """Words of prose with no mark of code; a paragraph (``whole``) ends as a sentence or its lead-in does."""
    tokens = text.split()
    lead_in = whole and text.endswith(":")
    if len(tokens) < (4 if whole and not lead_in else 2) or _CODE_MARK.search(_URL.sub("", text)):
        return False
    if sum(1 for t in tokens if _WORD.match(t) and not _CAMEL.search(t)) < share * len(tokens):
        return False
    if sum(1 for t in tokens if _CAPITALS.match(t)) > CAPITALS_SHARE * len(tokens):
        return False
    return not whole or _SENTENCE_END.search(text) is not None


_CAMEL = re.compile(r"[a-z][A-Z]")
_CAPITALS = re.compile(r"^\W*[A-Z]{2,}[\W\d]*$")
