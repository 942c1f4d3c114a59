"""Which lines of a PDF page are read, and in which order.

Running headers, footers and page numbers are dropped (lines that repeat at the same height on many pages,
lone page numbers at the top or bottom), and margin labels beside a line (Texinfo's "[Function]") are not
read; a page with a clear gutter is read column by column, band by band between full-width lines.
"""

from __future__ import annotations

import re
from collections import Counter

from sleuth.ingest.convert.pdf_layout import Line, Page
from sleuth.ingest.convert.pdf_tables import group_rows, ruled_regions

# Running headers, footers, page numbers ---------------------------------------------------------------------


_PAGE_NUMBER = re.compile(r"^(page\s+)?(\d{1,4}|[ivxlcdm]{1,7})(\s*(of|/)\s*\d+)?$", re.I)


def drop_running_lines(pages: list[Page]) -> None:
    if len(pages) >= 3:
        seen: Counter[tuple[str, int]] = Counter()
        for page in pages:
            seen.update({_running_key(line) for line in page.lines})
        threshold = max(3, int(0.2 * len(pages)))
        for page in pages:
            page.lines = [ln for ln in page.lines if seen[_running_key(ln)] < threshold]
    for page in pages:
        if len(page.lines) < 2:  # a page's only line is its content (a figure's letter), not its number
            continue
        top = max(page.lines, key=lambda ln: ln.y1)
        bottom = min(page.lines, key=lambda ln: ln.y0)
        page.lines = [
            ln for ln in page.lines if not ((ln is top or ln is bottom) and _PAGE_NUMBER.match(ln.text))
        ]


#: A label in brackets: one to three words, the first capitalised, no digits ("[Function]", "[User Option]",
#: "[Special Form]"; not a citation, "[12]").
_LABEL = re.compile(r"\[[A-Z][A-Za-z-]*(?: [A-Za-z-]+){0,2}\]")


def mark_margin_labels(pages: list[Page]) -> None:
    """Mark labels set in the right margin beside a line of text (``Line.label``): Texinfo's PDFs put the
    kind of each entry there ("int asn1_der_decoding (asn1 node * element, const void * ider," ...
    "[Function]"), and the row read it into the signature ("const void * ider, [Function] int ider_len,
    ..."). A label is in the page's right half, on the baseline of a line that ends left of it."""
    for page in pages:
        for line in page.lines:
            line.label = _margin_label(line, page)


def _margin_label(line: Line, page: Page) -> bool:
    if not _LABEL.fullmatch(line.text.strip()) or line.x0 < page.width / 2:
        return False
    return any(
        other is not line
        and other.x1 < line.x0
        and not _LABEL.fullmatch(other.text.strip())
        and min(other.y1, line.y1) - max(other.y0, line.y0) > 0.5 * min(other.height, line.height)
        for other in page.lines
    )


def _running_key(line: Line) -> tuple[str, int]:
    return re.sub(r"\d+", "#", line.text.lower()), round(line.y0 / 3)


# Reading order ----------------------------------------------------------------------------------------------


def column_groups(page: Page) -> list[list[Line]]:
    """Lines in reading order groups: full-width bands, and in a two-column band left then right.

    A band is every run of lines that cross the gutter, rows of short cells on both sides of it, or lines
    between rules drawn across it (a table as wide as the page), kept together so that its paragraphs and
    tables stay whole.
    """
    lines = page.lines
    if len(lines) < 12:
        return [lines]
    gutter = _gutter(lines, page.width)
    if gutter is None:
        return [lines]
    spanning = _spanning_rows(lines, gutter, page.width)
    # Rules drawn across the gutter frame something as wide as the page (a table, a figure): what lies
    # between them is read as one band, whichever side of the gutter each cell falls on.
    for x0, x1, top, bottom in ruled_regions(page.rules):
        if x0 < gutter - 2 and x1 > gutter + 2:
            spanning.update(
                id(ln) for ln in lines if bottom - 1 < ln.y0 < top + 1 and ln.x0 >= x0 - 8 and ln.x1 <= x1 + 8
            )
    groups: list[list[Line]] = []
    left: list[Line] = []
    right: list[Line] = []
    band: list[Line] = []
    for line in sorted(lines, key=lambda ln: -ln.y1):
        if (line.x0 < gutter - 2 and line.x1 > gutter + 2) or id(line) in spanning:
            groups += [g for g in (left, right) if g]
            left, right = [], []
            band.append(line)
            continue
        if band:
            groups.append(band)
            band = []
        if line.x1 <= gutter + 2:
            left.append(line)
        else:
            right.append(line)
    groups += [g for g in (band, left, right) if g]
    return groups


def _spanning_rows(lines: list[Line], gutter: float, width: float) -> set[int]:
    """Lines of rows that have short cells on both sides of the gutter: a wide table, not two columns."""
    column = min(gutter, width - gutter)
    out: set[int] = set()
    for row in group_rows(lines):
        cells = row.cells
        sides = {c.x1 <= gutter + 2 for c in cells}
        if len(cells) >= 3 and len(sides) == 2 and all(c.x1 - c.x0 < 0.6 * column for c in cells):
            out.update(id(c) for c in cells)
    return out


def _gutter(lines: list[Line], width: float) -> float | None:
    best: tuple[int, float] | None = None
    n = len(lines)
    for step in range(30, 71):
        g = width * step / 100
        crossing = sum(1 for ln in lines if ln.x0 < g - 2 and ln.x1 > g + 2)
        left = sum(1 for ln in lines if ln.x1 <= g + 2)
        if left < 0.25 * n or n - left - crossing < 0.25 * n:
            continue
        if best is None or crossing < best[0]:
            best = (crossing, g)
    # Lines across the gutter are full-width bands (a title, an abstract, a wide figure): they may be many,
    # as long as most lines keep to one side.
    if best is None or best[0] > 0.35 * n:
        return None
    # Columns of prose are wide; columns of a table or a form are not (those stay rows). Widths are
    # weighted by text: a block of short author and address lines above a paper's columns does not make them
    # a form.
    g = best[1]
    for side in ([ln for ln in lines if ln.x1 <= g + 2], [ln for ln in lines if ln.x0 >= g - 2]):
        if _weighted_median([(ln.x1 - ln.x0, len(ln.text)) for ln in side]) < 0.25 * width:
            return None
    return g


def _weighted_median(values: list[tuple[float, int]]) -> float:
    """The value at half of the total weight (values sorted ascending)."""
    ordered = sorted(values)
    half = sum(w for _, w in ordered) / 2
    seen = 0
    for value, weight in ordered:
        seen += weight
        if seen >= half:
            return value
    return ordered[-1][0] if ordered else 0.0
