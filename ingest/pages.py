"""Page provenance carried through Markdown.

Converters of paged formats (PDF) write one marker line at the start of every page. The chunker strips the
markers before parsing, so they never reach chunk content, and keeps a map from character offsets in the
cleaned text to page numbers, so every chunk knows the pages it came from. An HTML comment is used because
every Markdown renderer hides it and no real text looks like it.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

PAGE_MARKER_RE = re.compile(r"^[ \t]*<!--[ \t]*page:[ \t]*(\d+)[ \t]*-->[ \t]*$", re.MULTILINE)


def page_marker(page: int) -> str:
    """The marker line a converter writes before the content of ``page`` (1-based)."""
    return f"<!-- page: {page} -->"


@dataclass(frozen=True, slots=True)
class PageMap:
    """Pages of a marker-free text: ``starts[i]`` is the offset where page ``pages[i]`` begins."""

    starts: tuple[int, ...] = ()
    pages: tuple[int, ...] = ()
    #: The page in force before the first marker (a window of a longer document starts mid-page).
    initial: int | None = None

    def page_at(self, offset: int) -> int | None:
        """The page holding ``offset``; ``initial`` before the first marker (None for a whole document)."""
        i = bisect.bisect_right(self.starts, offset) - 1
        return self.pages[i] if i >= 0 else self.initial

    @property
    def last(self) -> int | None:
        """The page in force at the end of the text."""
        return self.pages[-1] if self.pages else self.initial


def strip_page_markers(markdown: str, initial: int | None = None) -> tuple[str, PageMap]:
    """Remove marker lines (line and newline) and remember where each page starts in what remains."""
    if "<!--" not in markdown:
        return markdown, PageMap(initial=initial)
    parts: list[str] = []
    starts: list[int] = []
    pages: list[int] = []
    kept = 0
    pos = 0
    for match in PAGE_MARKER_RE.finditer(markdown):
        parts.append(markdown[pos : match.start()])
        kept += match.start() - pos
        end = match.end()
        if end < len(markdown) and markdown[end] == "\n":
            end += 1
        pos = end
        starts.append(kept)
        pages.append(int(match.group(1)))
    parts.append(markdown[pos:])
    return "".join(parts), PageMap(tuple(starts), tuple(pages), initial)
