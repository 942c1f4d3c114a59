"""Tables in a PDF's text layer: rows and columns recovered from rules and cell alignment.

Two signals, strongest first. Ruled tables (booktabs, spreadsheets exported to PDF) have at least two
horizontal rules spanning the same columns; the lines between the top and bottom rule are the table. Unruled
tables are runs of three or more visual rows that each have several cells whose left edges line up.
"""

from __future__ import annotations

from dataclasses import dataclass

from sleuth.ingest.convert.pdf_layout import Line, Rule


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


@dataclass(slots=True)
class Table:
    rows: list[list[str]]
    top: float
    bottom: float


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
