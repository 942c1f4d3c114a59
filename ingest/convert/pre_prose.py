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
- one short line above a more indented description ("commit acl @<ver> <acl>" over "  Commit all changes
  made to version <ver> ...") is the term that description defines, a paragraph of its own;

and a block becomes those elements only when every run in it does; any other block (an example, a shell
session, a table laid out in columns, a configuration) stays preformatted, as it was. What a quote holds is
the same words either way: only the line breaks of the prose become spaces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A word of prose: letters (an apostrophe or hyphen inside), with quotes, brackets and punctuation around.
_WORD = re.compile(r"^[\"'(\[“‘]*[A-Za-z][A-Za-z'’-]*[\"')\].,;:!?”’]*$")
#: Share of a run's words that must be words of prose.
PROSE_SHARE = 0.8
#: What code, a shell session or a configuration shows and prose does not.
_CODE_MARK = re.compile(r"[{}=$\\|`]|::|->|=>|//|&&|\w\(|\"\"\"|\'\'\'|\s{2}#\s")
_CODE_LINE = re.compile(r"^(?:#|//|--|;|/\*|\*(?!\s*\w)|>|\$|%|\.\.|[-+]{1,2}(?=[^\s-]))")
_URL = re.compile(r"\b(?:https?|ftp)://\S+")
#: Columns: a run of spaces inside a line lays out a table, not a sentence.
_COLUMNS = re.compile(r"\S {3,}\S")
_ITEM = re.compile(r"^(\s*)(?:[-*•o+]|\d{1,2}[.)]|[a-z][.)])\s+\S")
_SENTENCE_END = re.compile(r"[.!?:][\"')”’]*$")
#: Share of a run's words in capitals above which it reads as SQL or constants ("GRANT EXECUTE ON ...").
CAPITALS_SHARE = 0.25
#: A paragraph of one line, in a block of its own, reads as prose only with this share of prose words (a
#: line of code with a sentence in its string: 'Header set MyHeader "Hello Joe. It took %D ..."').
ONE_LINE_SHARE = 0.9
#: A term line: short, and not a sentence.
TERM_WORDS = 8


@dataclass(frozen=True, slots=True)
class Piece:
    """One element a block reads as: ``kind`` is "paragraph", "item" or "term"; ``text`` its words joined."""

    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class Part:
    """A stretch of the ``<pre>``: prose pieces, or preformatted ``text`` kept as it is."""

    pieces: tuple[Piece, ...] = ()
    text: str = ""


def prose_parts(text: str) -> list[Part] | None:
    """The ``<pre>`` text as parts in order, or None when none of it reads as prose (it stays as it is)."""
    blocks = re.split(r"\n[ \t]*\n", text.strip("\n"))
    parts: list[Part] = []
    kept: list[str] = []
    found = False
    for block in blocks:
        pieces = _read(block.split("\n"))
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


def _read(lines: list[str]) -> list[Piece] | None:
    """The block's pieces, or None unless every line of it belongs to a piece that reads as prose."""
    lines = [line.rstrip() for line in lines if line.strip()]
    if not lines or any(_COLUMNS.search(line.strip()) or _CODE_LINE.match(line.lstrip()) for line in lines):
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
        elif j < len(lines) and _indent(lines[j]) > indent and _term(lines[i]):
            pieces.append(Piece("term", lines[i].strip()))
            i = j
            continue
        else:
            while j < len(lines) and _indent(lines[j]) == indent and not _ITEM.match(lines[j]):
                j += 1
        joined = " ".join(line.strip() for line in lines[i:j])
        if item:
            joined = _unbullet(joined)
        alone = len(lines) == 1
        if not _prose(joined, whole=not item, share=ONE_LINE_SHARE if alone else PROSE_SHARE):
            return None
        pieces.append(Piece("item" if item else "paragraph", joined))
        i = j
    described = all(
        p.kind != "term" or (n + 1 < len(pieces) and pieces[n + 1].kind == "paragraph")
        for n, p in enumerate(pieces)
    )  # a term is the name of the paragraph under it: a path over a listing is no term
    return pieces if described and any(p.kind != "term" for p in pieces) else None


def _unbullet(text: str) -> str:
    return re.sub(r"^(?:[-*•o+]|\d{1,2}[.)]|[a-z][.)])\s+", "", text)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _term(line: str) -> bool:
    """A short line that names something (a command with its arguments), not a sentence."""
    text = line.strip()
    return len(text.split()) <= TERM_WORDS and not text.endswith((".", "!", "?", ",", ";"))


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
