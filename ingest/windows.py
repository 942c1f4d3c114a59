"""A long Markdown text cut into windows at block boundaries, so that chunking never holds a whole file.

Parsing and token counting cost tens of bytes per character; a 50 MB text file parsed whole took 6.7 GB.
Cut into windows of a few hundred kilobytes, memory is bounded by the window, whatever the file's size, and
a document of ordinary size is a single window (its chunks are exactly those of a whole-document pass).

Where a window ends, most preferred first:
1. before a heading line (outside code fences) once the window has reached ``soft_chars``: sections never
   merge across a heading, so the chunks are the same as without the cut;
2. after a blank line outside a fence once it has reached twice that: a paragraph or list is never cut, only
   the packing of small neighbours into one chunk may differ at that point;
3. anywhere at a line end once it has reached ``hard_chars``: the next window re-opens a code fence left open
   (the same repair the chunker makes when it splits a code block); a line longer than that is cut at white
   space. This is the cap for text that has no structure to stream by, and it is logged.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

log = logging.getLogger(__name__)

SOFT_CHARS = 256_000
HARD_CHARS = 512_000
MAX_LINE_CHARS = 128_000
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")


@dataclass(frozen=True, slots=True)
class Window:
    text: str
    #: A fence line repeated at the start because the previous window ended inside that code block.
    reopened_fence: str | None = None


def bounded_lines(blocks: Iterable[str], max_line: int = MAX_LINE_CHARS) -> Iterator[str]:
    """Lines (with their newline) out of text blocks of any size; no line longer than ``max_line``."""
    rest = ""
    warned = False
    for block in blocks:
        rest += block
        start = 0
        while True:
            nl = rest.find("\n", start)
            if nl < 0:
                break
            if nl + 1 - start > max_line:
                break
            yield rest[start : nl + 1]
            start = nl + 1
        rest = rest[start:]
        while len(rest) > max_line:
            cut = _space_before(rest, max_line)
            if not warned:
                log.warning("a line of over %d characters is cut at white space to bound memory", max_line)
                warned = True
            yield rest[:cut]
            rest = rest[cut:]
    if rest:
        yield rest


def _space_before(text: str, limit: int) -> int:
    for i in range(limit, limit // 2, -1):
        if text[i - 1].isspace():
            return i
    return limit


def markdown_windows(
    lines: Iterable[str], soft_chars: int = SOFT_CHARS, hard_chars: int = HARD_CHARS
) -> Iterator[Window]:
    """Consecutive windows whose concatenation (less re-opened fences) is the input; cuts precede a line."""
    parts: list[str] = []
    size = 0
    fence: str | None = None  # the opening line of the code block the text is in
    prev_heading = False  # the last non-blank line was a heading: never leave it alone at a window's end
    reopened: str | None = None
    warned = False
    for line in lines:
        blank = not line.strip()
        is_heading = fence is None and bool(_HEADING.match(line))
        if parts and size >= soft_chars:
            soft = not prev_heading and (is_heading or (blank and fence is None and size >= 2 * soft_chars))
            if soft or size >= hard_chars:
                if not soft and not warned:
                    log.warning("text with no block boundary for %d characters is cut at a line end", size)
                    warned = True
                yield Window("".join(parts), reopened)
                reopened = fence
                parts, size = ([fence], len(fence)) if fence is not None else ([], 0)
        parts.append(line)
        size += len(line)
        fence = _fence_after(line, fence)
        if not blank:
            prev_heading = is_heading
    if parts:
        yield Window("".join(parts), reopened)


def _fence_after(line: str, fence: str | None) -> str | None:
    """The open fence after ``line``: CommonMark's rule (same character, at least as long, nothing after)."""
    m = _FENCE.match(line)
    if m is None:
        return fence
    marker = m.group(1)
    if fence is None:
        if marker[0] == "`" and "`" in line[m.end() :]:
            return None  # backticks in a backtick fence's info string: not a fence
        return line if line.endswith("\n") else line + "\n"
    opening = _FENCE.match(fence)
    assert opening is not None
    opened = opening.group(1)
    if marker[0] == opened[0] and len(marker) >= len(opened) and not line[m.end() :].strip():
        return None
    return fence
