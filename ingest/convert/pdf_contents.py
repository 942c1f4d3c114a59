"""Printed tables of contents in a PDF's text layer: recognised, rendered one entry per line, and used as
heading evidence when the PDF has no outline.

A printed contents page read as text is a run-on paragraph of titles, dot leaders and page numbers that
matches almost any query; recognised, it becomes a list whose chunks are typed ``toc`` (left out of search
unless asked for). Its entries are also the best evidence of the document's headings a PDF without bookmarks
has: each entry's title and numbering find the heading line in the body (``contents_outline``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from sleuth.ingest.convert.pdf_layout import Line, OutlineEntry, Page, cell_lines
from sleuth.ingest.convert.pdf_tables import Row, group_rows
from sleuth.ingest.convert.text_keys import match_key

#: Dot (or other) leaders, then page numbers (arabic, roman; an index lists several) at the end of the line.
_LEADERS = re.compile(r"(?:[.·•_]\s?){3,}\s?(\d{1,4}(?:,\s?\d{1,4})*|[ivxlc]{1,7})$", re.I)
#: A title followed by a page number without leaders ("1 Introduction 3", as chapter lines often are).
_TRAILING_NUMBER = re.compile(r"^\D.*?\S\s+(\d{1,4})$|^\d[\d.]*\s+\D.*?\S\s+(\d{1,4})$")
_NUMBERING = re.compile(r"^((?:\d{1,2}|[A-Z]|[IVXLC]{1,6})(?:\.\d{1,2}){0,5})\.?\s+(\S.*)$")
_CHAPTER = re.compile(r"^(chapter|appendix|part)\s+([0-9]+|[A-Z]|[IVXLC]+)\b[.:]?\s*(.*)$", re.I)
_MIN_ENTRIES = 3


def row_text(row: Row) -> str:
    return " ".join(c.text for c in row.cells)


def contents_rows(rows: Sequence[Row], last_page: int | None = None) -> set[int]:
    """Indexes of the rows that form a printed table of contents on one page (empty when there is none).

    Rows with leaders and a page number are entries; a row ending in a number between or next to such rows is
    an entry too (chapter lines often have no leaders); a row with neither that is directly followed by an
    entry is the first part of a wrapped entry.
    """
    texts = [row_text(r) for r in rows]
    leaders = [bool(_LEADERS.search(t)) for t in texts]
    if sum(leaders) < _MIN_ENTRIES:
        # Without leaders, only rows that read as a title and a page number can be entries: not a table's
        # rows of figures, nor rows of four or more cells.
        plain = [
            t if len(r.cells) <= 3 and _title_like(t) and _page_number_fits(t, last_page) else ""
            for r, t in zip(rows, texts, strict=True)
        ]
        return _ascending_run(plain)
    numbered = [lead or bool(_TRAILING_NUMBER.match(t)) for lead, t in zip(leaders, texts, strict=True)]
    first = leaders.index(True)
    last = len(leaders) - 1 - leaders[::-1].index(True)
    # Extend the run to numbered rows just before the first and after the last leader row.
    while first > 0 and numbered[first - 1]:
        first -= 1
    while last + 1 < len(rows) and numbered[last + 1]:
        last += 1
    chosen = set(range(first, last + 1))
    inside = [k for k in chosen if numbered[k]]
    if len(inside) < 0.6 * len(chosen):
        return {k for k, lead in enumerate(leaders) if lead}
    return chosen


def _page_number_fits(text: str, last_page: int | None) -> bool:
    m = _TRAILING_NUMBER.match(text)
    return m is None or last_page is None or int(m.group(1) or m.group(2)) <= last_page


def _title_like(text: str) -> bool:
    """Mostly letters, and no markup: what a contents entry's title is (``Al 70 64 1,23 108`` is not)."""
    title = re.sub(r"\s*\d{1,4}$", "", text)
    letters = sum(ch.isalpha() for ch in title)
    return "\\" not in title and letters >= 3 and letters >= 0.5 * len(title.replace(" ", ""))


def _ascending_run(texts: list[str]) -> set[int]:
    """Contents without leaders (a continuation page, a plain layout): the longest run of rows ending in page
    numbers that never decrease, at least five entries, with wrapped titles inside it."""
    best: list[int] = []
    run: list[int] = []
    last_number = -1
    pending: list[int] = []
    for k, text in enumerate(texts):
        m = _TRAILING_NUMBER.match(text)
        number = int(m.group(1) or m.group(2)) if m else None
        if number is not None and number >= last_number:
            run += [*pending, k]
            pending = []
            last_number = number
        elif number is None and run and len(pending) < 2:
            pending.append(k)
        else:
            if len(run) > len(best):
                best = run
            run, pending = ([k], []) if number is not None else ([], [])
            last_number = number if number is not None else -1
    if len(run) > len(best):
        best = run
    entries = [k for k in best if _TRAILING_NUMBER.match(texts[k])]
    return set(best) if len(entries) >= 5 and len(entries) >= 0.6 * len(best) else set()


def entries(rows: Sequence[Row], indexes: set[int]) -> list[tuple[str, bool]]:
    """(entry text, has leaders) per entry, wrapped entries joined, in reading order."""
    out: list[tuple[str, bool]] = []
    pending = ""
    for k in sorted(indexes):
        text = row_text(rows[k])
        if not (_LEADERS.search(text) or _TRAILING_NUMBER.match(text)):
            if _CHAPTER.match(text):  # a part or chapter line without a page number is an entry of its own
                if pending:
                    out.append((pending, False))
                out.append((text, False))
                pending = ""
                continue
            pending = f"{pending} {text}".strip()
            continue
        out.append((f"{pending} {text}".strip(), bool(_LEADERS.search(text))))
        pending = ""
    if pending:
        out.append((pending, False))
    return out


def render(items: list[tuple[str, bool]]) -> str:
    """One Markdown list item per entry: ``- 2.1 Title … 12``."""
    lines = []
    for text, _ in items:
        title, page = split_entry(text)
        lines.append(f"- {title} … {page}" if page else f"- {title}")
    return "\n".join(lines)


def split_entry(text: str) -> tuple[str, str | None]:
    """(title, printed page) of one entry."""
    m = _LEADERS.search(text)
    if m is not None:
        return text[: m.start()].strip(), m.group(1)
    m = re.search(r"\s+(\d{1,4})$", text)
    if m is not None:
        return text[: m.start()].strip(), m.group(1)
    return text.strip(), None


def contents_outline(pages: list[Page]) -> list[OutlineEntry]:
    """Heading evidence from the printed contents of a PDF without bookmarks: one entry per contents line,
    its level from its numbering (chapter lines, without leaders, are level 1), its page the printed number
    moved by the offset between printed and physical page numbers that most entries agree on."""
    found: list[tuple[str, int, int]] = []  # title, level, printed page
    contents_pages: set[int] = set()
    for page in pages:
        page_entries = max(
            (_page_entries(side, len(pages)) for side in _contents_columns(page)), key=len, default=[]
        )
        if not page_entries:
            continue
        contents_pages.add(page.number)
        for text, has_leaders in page_entries:
            title, number = split_entry(text)
            if number is None or not number.isdigit() or not re.search(r"[^\W\d_]{2}", title):
                continue
            level = _level(title, has_leaders)
            # "Chapter 3: Title" in the contents is typeset as "3" over "Title" (or "Chapter 3" over it)
            # in the body: the title is what a heading line holds.
            label = _CHAPTER.match(title)
            if label is not None and re.search(r"[^\W\d_]{2}", label.group(3)):
                title = label.group(3)
            found.append((title, level, int(number)))
    if not found:
        return []
    # A table of contents runs in page order; a back-of-book index (leaders and numbers too) runs in
    # alphabetical order, and its entries are not headings.
    ordered = sum(1 for a, b in pairwise(found) if b[2] >= a[2])
    if len(found) > 2 and ordered < 0.8 * (len(found) - 1):
        return []
    offsets: Counter[int] = Counter()
    keys = {page.number: [_key(line.text) for line in page.lines] for page in pages}
    for title, _, printed in found:
        key = _key(title)
        for physical, lines in keys.items():
            if physical in contents_pages or not key:
                continue
            if any(text and (text.endswith(key) or key.startswith(text)) for text in lines):
                offsets[physical - printed] += 1
                break
    offset = offsets.most_common(1)[0][0] if offsets else 0
    return [OutlineEntry(level, title, printed + offset, None) for title, level, printed in found]


def two_column_page(page: Page, last_page: int) -> list[tuple[str, str]] | None:
    """A contents page set in two columns, in reading order: ("para", text) for its other lines (the title
    block above it) and ("toc", Markdown list) for its entries; None when the page is not one (read whole,
    it has as many entries)."""
    readings = _contents_columns(page)
    if len(readings) < 2:
        return None
    whole, split = (_page_entries(r, last_page) for r in readings[:2])
    if len(split) < _MIN_ENTRIES or len(split) <= len(whole) or not _in_page_order(split):
        return None
    out: list[tuple[str, str]] = []
    for lines in readings[1]:
        rows = group_rows(lines)
        indexes = contents_rows(rows, last_page)
        items = entries(rows, indexes) if indexes else []
        out += [
            ("para", row_text(r))
            for k, r in enumerate(rows)
            if k not in indexes and k < min(indexes, default=0)
        ]
        if items:
            out.append(("toc", render(items)))
        out += [
            ("para", row_text(r))
            for k, r in enumerate(rows)
            if k not in indexes and k > max(indexes, default=-1)
        ]
    return out


def _in_page_order(items: list[tuple[str, bool]]) -> bool:
    """Contents run in page order; a back-of-book index (entries and numbers too) runs alphabetically."""
    numbers = [int(n) for n in (split_entry(text)[1] for text, _ in items) if n is not None and n.isdigit()]
    ordered = sum(1 for a, b in pairwise(numbers) if b >= a)
    return len(numbers) < 3 or ordered >= 0.8 * (len(numbers) - 1)


def _page_entries(columns: list[list[Line]], last_page: int) -> list[tuple[str, bool]]:
    """The contents entries of a page read as the given columns, left column first."""
    out: list[tuple[str, bool]] = []
    for lines in columns:
        rows = group_rows(lines)
        indexes = contents_rows(rows, last_page)
        if indexes:
            out += entries(rows, indexes)
    return out


def _contents_columns(page: Page) -> list[list[list[Line]]]:
    """Ways to read a page for its contents: whole, and, when a vertical gap that no line crosses splits it
    into two sides with entries on each, as two columns (contents set in two columns, as papers do).
    The reading with more entries wins: a one-column contents page split between its titles and their
    page numbers has none."""
    readings = [[page.lines]]
    # Lines cut where their glyph gaps show cells: the text layer may join a left-column page number with
    # the right column's title.
    lines = [part for line in page.lines for part in cell_lines(line)]
    if len(lines) < 10:
        return readings
    best: tuple[int, int, float] | None = None  # the most even split, then the fewest lines across
    for step in range(30, 71):
        g = page.width * step / 100
        crossing = sum(1 for ln in lines if ln.x0 < g - 2 and ln.x1 > g + 2)
        left = sum(1 for ln in lines if ln.x1 <= g + 2)
        balance = min(left, len(lines) - left - crossing)
        # A few lines across the gap (the title block above the contents) are read on their own, first.
        if crossing <= 0.15 * len(lines) and balance >= 0.25 * len(lines):
            key = (balance, -crossing, g)
            if best is None or key[:2] > best[:2]:
                best = key
    if best is not None:
        g = best[2]
        across = [ln for ln in lines if ln.x0 < g - 2 and ln.x1 > g + 2]
        left_side = [ln for ln in lines if ln.x1 <= g + 2]
        right_side = [ln for ln in lines if ln.x0 >= g - 2 and not (ln.x0 < g - 2 and ln.x1 > g + 2)]
        readings.append([group for group in (across, left_side, right_side) if group])
    return readings


def _level(title: str, has_leaders: bool) -> int:
    if _CHAPTER.match(title):
        return 1
    m = _NUMBERING.match(title)
    if m is not None and not (m.group(1).isalpha() and not m.group(2)[:1].isupper()):
        return min(m.group(1).count(".") + 1, 6)
    return 2 if has_leaders else 1


_key = match_key


def is_entry_line(text: str) -> bool:
    """A line with leaders and a page number: a contents entry, never the heading it names."""
    return bool(_LEADERS.search(text))
