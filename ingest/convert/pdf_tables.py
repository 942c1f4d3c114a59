"""Tables in a PDF's text layer: rows and columns recovered from rules and cell alignment.

Two signals, strongest first. Ruled tables (booktabs, spreadsheets exported to PDF) have at least two
horizontal rules spanning the same columns; the lines between the top and bottom rule are the table. Unruled
tables are runs of three or more visual rows that each have several cells whose left edges line up.

A candidate is a table only where it looks like one: it is cut at headings, captions and running text, and
a part is kept when its rows have several cells, at most one column of prose, and a mostly filled grid
(labels scattered over a figure line up too); wrapped cells' continuation lines join their row.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass
from itertools import pairwise

from sleuth.ingest.convert.pdf_fonts import Fonts
from sleuth.ingest.convert.pdf_layout import SINGLE_WORD, Line, Rule, cell_lines

_CODE_CELL = re.compile(r"[\\{}]|[;\[]\s*$|\w=\S|^[\w-]+\s*=\s*\S|^\d+\s+\S*[\\{}]")
_TABLE_CAPTION = re.compile(r"^(table|tab\.)\s*[0-9IVX]+(\.[0-9]+)*\b", re.I)
SENTENCE_END = re.compile(r"[.!?:;]['\")\]]?$")


@dataclass(slots=True)
class Row:
    """Cells sharing a baseline, left to right."""

    cells: list[Line]

    @property
    def y(self) -> float:
        return max(c.y1 for c in self.cells)

    @property
    def x0(self) -> float:
        return self.cells[0].x0

    @property
    def x1(self) -> float:
        return max(c.x1 for c in self.cells)


def group_rows(lines: list[Line]) -> list[Row]:
    """Merge cells that share a baseline into visual rows, top to bottom."""
    rows: list[Row] = []
    for line in sorted(lines, key=lambda ln: (-ln.y0, ln.x0)):
        if rows:
            last = rows[-1]
            ref = last.cells[0]
            overlap = min(ref.y1, line.y1) - max(ref.y0, line.y0)
            if abs(ref.y0 - line.y0) < 2.5 or overlap > 0.6 * min(ref.height, line.height):
                last.cells.append(line)
                last.cells.sort(key=lambda c: c.x0)
                continue
        rows.append(Row([line]))
    return rows


def ruled_regions(rules: list[Rule]) -> list[tuple[float, float, float, float]]:
    """(x0, x1, top, bottom) of groups of two or more rules with the same horizontal extent."""
    regions: list[tuple[float, float, float, float]] = []
    used = [False] * len(rules)
    ordered = sorted(rules, key=lambda r: -r.y)
    for i, rule in enumerate(ordered):
        if used[i]:
            continue
        group = [rule]
        for j in range(i + 1, len(ordered)):
            other = ordered[j]
            if not used[j] and abs(other.x0 - rule.x0) < 6 and abs(other.x1 - rule.x1) < 6:
                if group[-1].y - other.y > 400:
                    break
                group.append(other)
                used[j] = True
        distinct = {round(r.y) for r in group}
        top, bottom = max(r.y for r in group), min(r.y for r in group)
        if len(distinct) >= 2 and top - bottom > 8:
            regions.append((rule.x0, rule.x1, top, bottom))
    return _side_by_side_joined(regions)


def _side_by_side_joined(
    regions: list[tuple[float, float, float, float]],
) -> list[tuple[float, float, float, float]]:
    """A grid table drawn cell by cell has one group of rules per column, each as tall as the table: the
    columns that touch, with the same top and bottom, are one table; so are pieces stacked close above one
    another with the same width."""
    joined: list[tuple[float, float, float, float]] = []
    for x0, x1, top, bottom in sorted(regions, key=lambda r: (round(r[2]), round(r[3]), r[0])):
        if joined:
            j0, j1, jtop, jbottom = joined[-1]
            if abs(jtop - top) < 3 and abs(jbottom - bottom) < 3 and -2 <= x0 - j1 <= 6:
                joined[-1] = (j0, max(j1, x1), max(jtop, top), min(jbottom, bottom))
                continue
        joined.append((x0, x1, top, bottom))
    # A table's rows drawn in groups (a row whose borders differ) leave the table in stacked pieces of the
    # same width, a row's height apart: one table.
    stacked: list[tuple[float, float, float, float]] = []
    for x0, x1, top, bottom in sorted(joined, key=lambda r: -r[2]):
        if stacked:
            s0, s1, stop, sbottom = stacked[-1]
            if abs(s0 - x0) < 3 and abs(s1 - x1) < 3 and 0 <= sbottom - top <= 30:
                stacked[-1] = (s0, s1, stop, bottom)
                continue
        stacked.append((x0, x1, top, bottom))
    return stacked


def table_from_rows(rows: list[Row]) -> list[list[str]] | None:
    """Cell texts by column, or None when the rows do not form at least two columns and two rows."""
    if len(rows) < 2:
        return None
    widest = max(len(r.cells) for r in rows)
    if widest < 2:
        return None
    # Column extents from the rows with the most cells; spanning cells join the first column they touch.
    columns: list[list[float]] = []
    for row in rows:
        if len(row.cells) != widest:
            continue
        for k, cell in enumerate(row.cells):
            if k < len(columns):
                columns[k][0] = min(columns[k][0], cell.x0)
                columns[k][1] = max(columns[k][1], cell.x1)
            else:
                columns.append([cell.x0, cell.x1])
    out: list[list[str]] = []
    for row in rows:
        texts = [""] * len(columns)
        for cell in row.cells:
            k = _column_of(cell, columns)
            texts[k] = f"{texts[k]} {cell.text}".strip()
        out.append(texts)
    return out


def _column_of(cell: Line, columns: list[list[float]]) -> int:
    best, best_overlap = 0, float("-inf")
    for k, (x0, x1) in enumerate(columns):
        overlap = min(cell.x1, x1) - max(cell.x0, x0)
        if overlap > best_overlap + 1e-6:
            best, best_overlap = k, overlap
    return best


def aligned_runs(rows: list[Row], min_rows: int = 3) -> list[tuple[int, int]]:
    """[start, end) indexes of runs of rows with two or more cells whose left edges line up."""
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(rows):
        if len(rows[i].cells) < 2 or any(c.mono for c in rows[i].cells):
            i += 1
            continue
        starts = [c.x0 for c in rows[i].cells]
        j = i + 1
        while j < len(rows) and len(rows[j].cells) >= 2 and _aligned(starts, rows[j]):
            j += 1
        if j - i >= min_rows:
            runs.append((i, j))
        i = max(j, i + 1)
    return runs


def _aligned(starts: list[float], row: Row) -> bool:
    hits = sum(1 for c in row.cells if any(abs(c.x0 - s) < 4 for s in starts))
    return hits >= min(2, len(row.cells)) and hits >= len(row.cells) - 1


def markdown_table(rows: list[list[str]]) -> str:
    """A GFM pipe table; the first row is the header."""
    width = max(len(r) for r in rows)

    def fmt(cells: list[str]) -> str:
        padded = [c.replace("|", "\\|") for c in cells] + [""] * (width - len(cells))
        return "| " + " | ".join(padded) + " |"

    lines = [fmt(rows[0]), "|" + "---|" * width]
    lines += [fmt(r) for r in rows[1:]]
    return "\n".join(lines)


# Which candidate rows are tables, and their logical rows ----------------------------------------------------


def row_text(row: Row) -> str:
    if not all(c.mono for c in row.cells):
        return " ".join(c.text for c in row.cells if not c.label)
    width = char_width(row.cells)
    out = row.cells[0].text
    for prev, cell in pairwise(row.cells):
        out += " " * max(1, round((cell.x0 - prev.x1) / width)) + cell.text
    return out


def char_width(cells: list[Line]) -> float:
    widths = [(c.x1 - c.x0) / len(c.text) for c in cells if len(c.text) >= 2]
    return statistics.median(widths) if widths else 5.0


def table_segments(rows: list[Row], members: list[int], barriers: set[int], fonts: Fonts) -> list[list[int]]:
    """The parts of a candidate table that look like tables.

    A candidate is cut at headings and contents entries and at prose lines (one cell across most of its
    width with a sentence's worth of words, as numbered lines of text have beside their numbers); a part
    is a table when at least two of its rows have two or more cells and at most one of its columns holds
    running text.
    """
    if not members:
        return []
    left = min(rows[k].x0 for k in members)
    width = max(rows[k].x1 for k in members) - left
    segments: list[list[int]] = [[]]
    for k in members:
        row = rows[k]
        widest = max(row.cells, key=lambda c: c.x1 - c.x0)
        # A line of running text: one cell over most of the width (margin line numbers beside it or not).
        prose = (
            widest.x1 - widest.x0 > 0.65 * width and len(widest.text.split()) >= 8 and not widest.mono
        ) or (
            len(row.cells) == 1
            and len(widest.text.split()) >= 8
            and widest.text.rstrip().endswith((".", ":"))
        )
        neighbours = [rows[j] for j in (k - 1, k + 1) if 0 <= j < len(rows)]
        if k in barriers or prose or _justified(row, neighbours):
            segments.append([])
        else:
            segments[-1].append(k)
    out = []
    for segment in segments:
        cells = [c for k in segment for c in rows[k].cells]
        multi = sum(1 for k in segment if len(rows[k].cells) >= 2)
        # Rules drawn with characters (----, ====) and other cells without a letter or digit.
        if multi < 2 or sum(1 for c in cells if not any(ch.isalnum() for ch in c.text)) >= 0.5 * len(cells):
            continue
        # Source code beside its typeset output, or a numbered listing, lines up in columns too: cells that
        # read as code (markup, braces, assignments) make a segment code, not a table.
        if sum(1 for c in cells if _CODE_CELL.search(c.text)) >= 0.3 * len(cells):
            continue
        # A framed terminal session or listing: every line monospaced, its columns those of the output.
        if sum(1 for c in cells if c.mono) >= 0.9 * len(cells):
            continue
        table = table_from_rows([rows[k] for k in segment])
        if table is not None and _prose_columns(table) < 2 and _filled(table) >= 0.4:
            out.append(segment)
    return out


def exploded_row(row: Row) -> Row:
    """The row with each line cut into the table cells its glyph gaps show (see ``Line.parts``)."""
    if not any(c.parts for c in row.cells):
        return row
    return Row([part for c in row.cells for part in cell_lines(c)])


def logical_rows(grid: list[list[str]], rows: list[Row], rules: list[Rule]) -> list[list[str]]:
    """The grid with each wrapped cell's continuation lines joined into the row they belong to.

    A continuation line is a visual row with an empty first cell and at most half of its cells filled (a data
    row under a spanning group label fills most of its cells). It belongs to a row whose first cell is
    filled, between the same two horizontal rules: the row above it (cells aligned at the top), or, when the
    rules put no such row above it, the one below (cells centred vertically, as DocBook's tools set them).
    """
    if len(grid) != len(rows) or not grid or len(grid[0]) < 2:
        return grid
    x0 = min(r.x0 for r in rows)
    x1 = max(r.x1 for r in rows)
    # Rules at one height, however many segments draw them (a grid draws each cell's border), that cover
    # most of the table's width.
    covered: dict[int, float] = {}
    for r in rules:
        covered[round(r.y)] = covered.get(round(r.y), 0.0) + max(0.0, min(r.x1, x1) - max(r.x0, x0))
    lines = sorted(y for y, width in covered.items() if width > 0.5 * (x1 - x0))

    def band(k: int) -> int:  # how many rules lie above this row
        middle = (rows[k].cells[0].y0 + rows[k].y) / 2
        return sum(1 for y in lines if y > middle)

    width = len(grid[0])
    keys = [bool(row[0]) for row in grid]
    owner = list(range(len(grid)))
    for k, row in enumerate(grid):
        if keys[k] or sum(1 for c in row if c) > width / 2:
            continue
        above = next((j for j in range(k - 1, -1, -1) if keys[j] and band(j) == band(k)), None)
        below = next((j for j in range(k + 1, len(grid)) if keys[j] and band(j) == band(k)), None)
        target = above if above is not None else below
        if target is not None:
            owner[k] = target
    merged: dict[int, list[str]] = {}
    order: list[int] = []
    for k in sorted(range(len(grid)), key=lambda k: (owner[k], k)):
        target = owner[k]
        if target not in merged:
            merged[target] = [""] * width
            order.append(target)
        merged[target] = [f"{a} {b}".strip() for a, b in zip(merged[target], grid[k], strict=True)]
    return [merged[k] for k in sorted(order)]


def _justified(row: Row, neighbours: list[Row]) -> bool:
    """A justified line stretched so far that the text layer cut it at every word: single words, the gaps
    between them mostly the same width, and its words not in the columns of the rows around it (a table's
    header of single words lines up with the rows below it)."""
    cells = row.cells
    if len(cells) < 4 or sum(1 for c in cells if SINGLE_WORD.fullmatch(c.text)) < 0.8 * len(cells):
        return False
    starts = [c.x0 for other in neighbours for c in other.cells[1:]]
    if sum(1 for c in cells[1:] if any(abs(c.x0 - x) < 3 for x in starts)) >= 0.5 * (len(cells) - 1):
        return False
    gaps = [b.x0 - a.x1 for a, b in pairwise(cells)]
    typical = statistics.median(gaps)
    # Most gaps, not all: a label beside the text (a note's "Note") keeps its own distance.
    return sum(1 for g in gaps if abs(g - typical) <= 0.1 * typical + 0.5) >= 0.75 * len(gaps)


def _filled(table: list[list[str]]) -> float:
    """Share of a grid's cells that hold text, counting a row with an empty first cell as part of the row
    above (a wrapped cell's continuation lines). Labels scattered over a figure (axis ticks, callouts) line
    up in columns too, but leave most of their grid empty; a table leaves far less."""
    logical: list[list[bool]] = []
    for row in table:
        filled = [bool(c) for c in row]
        if logical and not filled[0]:
            logical[-1] = [a or b for a, b in zip(logical[-1], filled, strict=False)]
        else:
            logical.append(filled)
    cells = [c for r in logical for c in r]
    return sum(cells) / len(cells) if cells else 0.0


def captioned(rows: list[Row], segment: list[int]) -> bool:
    """A ``Table N`` caption directly above or below the rows, nearer to them than to what is beyond it."""
    first, last = segment[0], segment[-1]

    def y(k: int) -> float:
        return rows[k].cells[0].y0

    def caption(k: int) -> bool:
        return 0 <= k < len(rows) and bool(_TABLE_CAPTION.match(row_text(rows[k])))

    n = len(rows)
    above = caption(first - 1) and (first < 2 or y(first - 1) - y(first) <= y(first - 2) - y(first - 1))
    below = caption(last + 1) and (last + 2 >= n or y(last) - y(last + 1) <= y(last + 1) - y(last + 2))
    return above or below


def description_list(rows: list[Row], segment: list[int]) -> bool:
    """Unruled rows of a short term and a sentence about it: a description list (an options list, a
    key-binding summary), which reads as a list, not a two-column table. A table's second column holds
    values; here it holds sentences, nearly all of them ending like one."""
    pairs = [rows[k].cells for k in segment]
    if any(len(cells) != 2 for cells in pairs):
        return False
    terms = [cells[0].text for cells in pairs]
    texts = [cells[1].text for cells in pairs]
    if any(len(t.split()) > 4 for t in terms):
        return False
    sentences = sum(1 for t in texts if len(t.split()) >= 3 and SENTENCE_END.search(t))
    return sentences >= 0.8 * len(texts)


def described_item(row: Row) -> str:
    term, *rest = (c.text for c in row.cells)
    return f"{term.rstrip(':')}: {' '.join(rest)}"


def _prose_columns(table: list[list[str]]) -> int:
    """Columns whose filled cells are mostly a sentence's worth of words. A table may have one such column
    (descriptions); two columns of running text side by side are a page's columns, not a table."""
    count = 0
    for k in range(max(len(r) for r in table)):
        cells = [r[k] for r in table if k < len(r) and r[k]]
        if cells and sum(1 for c in cells if len(c.split()) >= 7) >= 0.5 * len(cells):
            count += 1
    return count
