"""Model-free PDF to structured Markdown: the text layer, with structure recovered from geometry and fonts.

Docling's layout and table models are what normally give a PDF its structure; where they are not available
this path recovers it from what the text layer itself carries:

- running headers, footers and page numbers: lines that repeat at the same height on many pages, and lone
  page numbers at the top or bottom, are dropped;
- reading order: a page with a clear gutter is read column by column, band by band between full-width lines;
- headings: from the PDF outline (bookmarks) when it has one, matched to the line it points at; otherwise from
  font statistics (larger or bold short lines, never the body style) with levels from numbering (``2.3.1``)
  or, without numbering, from the rank of the font size;
- paragraphs: lines re-joined, with a new paragraph at a vertical gap or a first-line indent, and hyphenation
  at line ends undone; a paragraph broken by a page break is continued, with the page marker inside it;
- lists (bullets, numbers), code (monospaced, indented lines, indentation kept) and tables (ruled, or aligned
  cells) become Markdown lists, fenced code and pipe tables.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from sleuth.ingest.convert import pdf_contents
from sleuth.ingest.convert.pdf_layout import (
    SINGLE_WORD,
    Line,
    OutlineEntry,
    Page,
    PdfReadError,
    Rule,
    cell_lines,
    is_mono_font,
    read_outline,
    read_pages,
)
from sleuth.ingest.convert.pdf_tables import (
    Row,
    aligned_runs,
    group_rows,
    markdown_table,
    ruled_regions,
    table_from_rows,
)
from sleuth.ingest.convert.text_keys import match_key
from sleuth.ingest.pages import page_marker

_PAGE_NUMBER = re.compile(r"^(page\s+)?(\d{1,4}|[ivxlcdm]{1,7})(\s*(of|/)\s*\d+)?$", re.I)
#: A title's numbering: ``2.3``, ``A.1``, ``IV.``, ``Chapter 3:``, ``Part II``.
_LEADING_LABEL = re.compile(
    r"^\s*(?:(?:chapter|appendix|part|section)\s+)?(?:\d{1,3}|[A-Z]|[IVXLC]{1,6})(?:\.\d{1,3})*[.:]?\s+", re.I
)
#: ``CHAPTER 3``, ``Appendix A``, ``Parte II``, ``Kapitel 4``: one word (any language) and a number.
_CHAPTER_LABEL = re.compile(r"^[^\W\d_](?:[^\W\d_]|[´`¨˜ˆ]){2,15}\s+(\d{1,3}|[A-Z]|[IVXLC]{1,6})$")
_NUMBERED = re.compile(r"^((?:\d{1,2}|[A-Z])(?:\.\d{1,2}){0,5})\.?\s+\S")
_CHAPTER = re.compile(r"^(chapter|appendix|part)\s+([0-9]+|[A-Z]|[IVXLC]+)\b", re.I)
_BULLET = re.compile(r"^([•◦▪▫‣⁃∙·●○■□➢►–—*-]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+")
_SENTENCE_END = re.compile(r"[.!?:;]['\")\]]?$")
#: Paths, file names, markup and code: what a title never looks like (``SCons 4.2.0a0 ./src/stroke.os``).
_CODE_LIKE = re.compile(r"(^|\s)\.{0,2}/\S|\S/\S*\.[a-z]|[{}<>=\\;$@|]|\w\(|\w_\w|\.[a-z]{1,4}$")
_CODE_CELL = re.compile(r"[\\{}]|[;\[]\s*$|\w=\S|^[\w-]+\s*=\s*\S|^\d+\s+\S*[\\{}]")
_TABLE_CAPTION = re.compile(r"^(table|tab\.)\s*[0-9IVX]+(\.[0-9]+)*\b", re.I)
#: A table's or figure's caption line: ``Table 2.1: ...``, ``Fig. 3. ...`` (a reference in running text
#: starts a sentence, ``Table 2 shows``, and has no punctuation after the number).
_CAPTION = re.compile(r"^(table|tab\.|figure|fig\.)\s*[0-9IVX]+(\.[0-9]+)*\s*[.:]\s", re.I)
_MD_START = re.compile(r"^(#|>|[-*+]\s|\d+[.)]\s|\||```|~~~|<|=+$|-+$)")


@dataclass
class PdfMarkdown:
    markdown: str
    pages: int
    headings: list[tuple[int, str]]
    heading_source: str
    tables: int


@dataclass
class _Block:
    kind: str  # heading, para, list, code, table
    text: str
    level: int = 0
    page: int = 0
    rows: list[Row] = field(default_factory=list)
    open_end: bool = False
    #: The outline entry a heading came from (a wrapped title's rows share it).
    entry: int | None = None


def pdf_to_markdown(path: Path, *, use_outline: bool = True) -> PdfMarkdown:
    """Convert one PDF's text layer to Markdown with ``<!-- page: N -->`` markers."""
    page_count, outline = read_outline(path)
    pages = read_pages(path)
    if not any(p.lines for p in pages):
        raise PdfReadError(
            f"no text layer in {page_count} page(s): a scanned or image-only PDF needs OCR, "
            "whose models are not available offline"
        )
    _drop_running_lines(pages)
    fonts = _font_stats(pages)
    source = "outline"
    if use_outline and not outline:
        outline, source = pdf_contents.contents_outline(pages), "contents"
    marks, unmatched = _match_outline(pages, outline) if use_outline and outline else (None, [])
    if source == "contents":
        # Printed page numbers are evidence enough to find a line, not to invent one; and contents whose
        # titles mostly do not appear as lines are not this document's headings (fonts decide then).
        if marks is not None and len(unmatched) > 0.4 * len(outline):
            marks, source = None, "fonts"
        unmatched = []
    blocks: list[_Block] = []
    headings: list[tuple[int, str]] = []
    heading_levels = None if marks is not None else _heading_levels(pages, fonts)
    tables = 0
    for page in pages:
        page_blocks: list[_Block] = []
        regions = ruled_regions(page.rules)
        # A contents page set in two columns reads column by column (not where the outline marks a heading).
        marked = marks is not None and any(id(line) in marks for line in page.lines)
        contents = None if marked else pdf_contents.two_column_page(page, len(pages))
        if contents is not None:
            page_blocks = [_Block(kind, text, page=page.number) for kind, text in contents]
        for group in _column_groups(page) if contents is None else []:
            rows = group_rows(group)
            page_blocks += _page_blocks(page, rows, regions, fonts, marks, heading_levels, len(pages))
        if marks is not None:
            page_blocks = _insert_unmatched(page, page_blocks, unmatched)
        for block in page_blocks:
            if block.kind == "heading":
                headings.append((block.level, block.text))
            elif block.kind == "table":
                tables += 1
        blocks.append(_Block("page", page_marker(page.number), page=page.number))
        blocks += page_blocks
    return PdfMarkdown(
        _render(blocks), len(pages), headings, source if marks is not None else "fonts", tables
    )


# Running headers, footers, page numbers -------------------------------------------------------------


def _drop_running_lines(pages: list[Page]) -> None:
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


def _running_key(line: Line) -> tuple[str, int]:
    return re.sub(r"\d+", "#", line.text.lower()), round(line.y0 / 3)


@dataclass(frozen=True)
class _Fonts:
    """Body text style, and each font's typical size (line boxes vary with superscripts and accents)."""

    body_font: str
    body_size: float
    sizes: dict[str, float]

    def size(self, line: Line) -> float:
        typical = self.sizes.get(line.font, line.size)
        return typical if abs(typical - line.size) < 0.25 * typical else line.size


def _font_stats(pages: list[Page]) -> _Fonts:
    chars: Counter[str] = Counter()
    heights: dict[str, list[float]] = {}
    for page in pages:
        for line in page.lines:
            chars[line.font] += len(line.text)
            heights.setdefault(line.font, []).append(line.size)
    sizes = {font: statistics.median(h) for font, h in heights.items()}
    prose = [f for f, _ in chars.most_common() if not is_mono_font(f)]
    if not chars:  # every line was a running header or footer
        return _Fonts("", 10.0, sizes)
    body_font = prose[0] if prose else chars.most_common(1)[0][0]
    return _Fonts(body_font, sizes[body_font], sizes)


# Reading order -----------------------------------------------------------------------------------------


def _column_groups(page: Page) -> list[list[Line]]:
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


# Headings ----------------------------------------------------------------------------------------------


_norm = match_key


def _match_outline(
    pages: list[Page], outline: list[OutlineEntry]
) -> tuple[dict[int, tuple[int, int]], list[OutlineEntry]]:
    """Outline entries matched to the lines they point at, and the entries no line matches.

    ``marks`` maps ``id(line)`` to (level, entry number): a title wrapped over several lines marks each of
    them with the same entry, and the rows are joined into one heading. A truncated bookmark title
    ("Theorem and ...") matches the line that starts with it, whose full text becomes the heading.
    """
    marks: dict[int, tuple[int, int]] = {}
    unmatched: list[OutlineEntry] = []
    by_number = {p.number: p for p in pages}
    for number_in_outline, entry in enumerate(outline):
        raw = entry.title.rstrip()
        truncated = raw.endswith(("...", "…"))
        title = _norm(raw.rstrip(".… "))
        if not title:
            continue
        level = min(max(entry.level, 1), 6)
        # The title without its numbering, for bodies that set the number apart ("CHAPTER 1" over the title).
        core = _norm(_LEADING_LABEL.sub("", raw.rstrip(".… ")))
        found: list[Line] = []
        for number in (entry.page, (entry.page or 0) + 1):
            page = by_number.get(number or -1)
            if page is None:
                continue
            candidates = [
                ln
                for ln in page.lines
                if id(ln) not in marks
                and not pdf_contents.is_entry_line(ln.text)
                and _title_matches(ln.text, title, truncated)
            ]
            if not candidates and core != title and len(core) >= 4:
                candidates = [
                    ln
                    for ln in page.lines
                    if id(ln) not in marks
                    and not pdf_contents.is_entry_line(ln.text)
                    and _norm(ln.text) == core
                ]
                title = core if candidates else title
            if candidates:
                y = entry.y if entry.y is not None and number == entry.page else page.height
                first = min(
                    candidates, key=lambda ln: abs(y - ln.y1) + (0 if _norm(ln.text).endswith(title) else 50)
                )
                found = [first, *_continuation(page, first, title)]
                break
        if found:
            for line in found:
                marks[id(line)] = (level, number_in_outline)
        else:
            unmatched.append(entry)
    return marks, unmatched


def _title_matches(line: str, title: str, truncated: bool = False) -> bool:
    text = _norm(line)
    if len(text) < min(len(title), 3):
        return False
    if truncated and text.startswith(title):
        return True
    return text == title or text.endswith(title) or title.startswith(text)


def _continuation(page: Page, first: Line, title: str) -> list[Line]:
    """The lines under ``first`` that complete a wrapped title (each keeps the joined text a prefix of it)."""
    text = _norm(first.text)
    if text.endswith(title) or not title.startswith(text):
        return []
    below = sorted((ln for ln in page.lines if ln.y1 <= first.y0 + 1), key=lambda ln: -ln.y1)
    out: list[Line] = []
    bottom = first.y0
    for line in below:
        if bottom - line.y1 > 1.5 * first.height:
            break
        if abs(line.x0 - first.x0) > 0.5 * (first.x1 - first.x0) + 20:
            continue
        joined = text + _norm(line.text)
        if not title.startswith(joined):
            break
        out.append(line)
        text, bottom = joined, line.y0
        if text == title:
            break
    return out if text == title else []


def _insert_unmatched(page: Page, blocks: list[_Block], unmatched: list[OutlineEntry]) -> list[_Block]:
    """Outline entries with no matching line become headings where their bookmark points."""
    for entry in unmatched:
        if entry.page != page.number:
            continue
        position = 0
        if entry.y is not None:
            for k, block in enumerate(blocks):
                if block.rows and block.rows[0].y > entry.y + 1:
                    position = k + 1
        blocks.insert(
            position, _Block("heading", entry.title, level=min(max(entry.level, 1), 6), page=page.number)
        )
    return blocks


def _heading_style(row: Row, fonts: _Fonts) -> tuple[str, float] | None:
    """(font, size) when the row looks like a heading by its font, else None."""
    text = " ".join(c.text for c in row.cells)
    first = row.cells[0]
    if any(c.mono for c in row.cells) or len(text) > 150 or len(text.split()) > 18:
        return None
    if not re.search(r"[^\W\d_]", text) or _CODE_LIKE.search(text):
        return None
    if text.endswith((".", ",", ";", ":")) and not _NUMBERED.match(text):
        return None
    size = max(fonts.size(c) for c in row.cells)
    bold = all(c.bold for c in row.cells)
    body = fonts.body_size
    other_font = first.font != fonts.body_font
    if (other_font and size >= body * 1.15) or size >= body * 1.3:
        return first.font, size
    if bold and other_font and size >= body * 0.95 and len(text.split()) <= 12:
        return first.font, size
    return None


def _heading_levels(pages: list[Page], fonts: _Fonts) -> dict[tuple[str, float], int]:
    """Heading styles and their levels: numbering depth where numbered, else the rank of the size."""
    styles: Counter[tuple[str, float]] = Counter()
    depths: dict[tuple[str, float], Counter[int]] = {}
    total = 0
    for page in pages:
        for row in group_rows(page.lines):
            total += 1
            style = _heading_style(row, fonts)
            if style is None:
                continue
            styles[style] += 1
            text = " ".join(c.text for c in row.cells)
            depth = _numbering_depth(text)
            if depth:
                depths.setdefault(style, Counter())[depth] += 1
    # A style used by a large share of all rows is body text in another font, not a heading.
    styles = Counter({s: n for s, n in styles.items() if n <= max(3, 0.15 * total)})
    levels: dict[tuple[str, float], int] = {}
    sizes = sorted({round(s[1] * 4 / 3) * 0.75 for s in styles}, reverse=True)
    for style in styles:
        if style in depths:
            levels[style] = min(depths[style].most_common(1)[0][0], 6)
        else:
            levels[style] = min(sizes.index(round(style[1] * 4 / 3) * 0.75) + 1, 6)
    return levels


def _numbering_depth(text: str) -> int:
    if _CHAPTER.match(text):
        return 1
    m = _NUMBERED.match(text)
    if m is None:
        return 0
    number = m.group(1)
    if len(number) == 1 and number.isalpha() and not text[2:3].isupper():
        return 0  # "A cat sat" is a sentence, "A Appendix" is numbering
    return number.count(".") + 1


# Blocks ------------------------------------------------------------------------------------------------


def _row_text(row: Row) -> str:
    if not all(c.mono for c in row.cells):
        return " ".join(c.text for c in row.cells)
    width = _char_width(row.cells)
    out = row.cells[0].text
    for prev, cell in pairwise(row.cells):
        out += " " * max(1, round((cell.x0 - prev.x1) / width)) + cell.text
    return out


def _char_width(cells: list[Line]) -> float:
    widths = [(c.x1 - c.x0) / len(c.text) for c in cells if len(c.text) >= 2]
    return statistics.median(widths) if widths else 5.0


def _page_blocks(  # noqa: PLR0917 - one page's context
    page: Page,
    rows: list[Row],
    regions: list[tuple[float, float, float, float]],
    fonts: _Fonts,
    marks: dict[int, tuple[int, int]] | None,
    heading_levels: dict[tuple[str, float], int] | None,
    last_page: int,
) -> list[_Block]:
    body_size = fonts.body_size
    if not rows:
        return []
    body_rows = [r for r in rows if not r.cells[0].mono]
    left = min((r.x0 for r in body_rows), default=min(r.x0 for r in rows))
    right = max(r.x1 for r in rows)
    gaps = [a.cells[0].y0 - b.cells[0].y0 for a, b in pairwise(rows)]
    line_gap = statistics.median([g for g in gaps if 0 < g < 3 * body_size] or [body_size * 1.2])

    # Each row's heading level, once: tables, contents and the block loop below all need it.
    row_headings = [_row_heading(row, fonts, marks, heading_levels) for row in rows]
    headings = {k for k, (level, _) in enumerate(row_headings) if level}
    toc = pdf_contents.contents_rows(rows, last_page) - (headings if marks is not None else set())
    toc_runs = _runs(sorted(toc))
    # Outline headings, contents entries and captions are never table cells: they cut a candidate table.
    captions = {k for k, row in enumerate(rows) if _CAPTION.match(_row_text(row))}
    barriers = toc | headings | captions
    candidates: list[list[int]] = []
    claimed: set[int] = set()
    for x0, x1, top, bottom in regions:
        members = [
            k
            for k, r in enumerate(rows)
            if bottom - 1 < r.cells[0].y0 < top + 1 and r.x0 >= x0 - 8 and r.x1 <= x1 + 8
        ]
        if len(members) >= 2:
            candidates.append(members)
            claimed.update(members)
    ruled_count = len(candidates)
    for start, end in aligned_runs(rows):
        if not claimed.intersection(range(start, end)):
            candidates.append(list(range(start, end)))
    in_table: dict[int, int] = {}
    tables: list[list[Row]] = []
    described: set[int] = set()  # tables that read as description lists (term, then its sentence)
    # Inside a table's rules, the cells the text layer joined into one line count as cells.
    exploded = [_exploded(r) for r in rows] if ruled_count else rows
    for n, candidate in enumerate(candidates):
        ruled = n < ruled_count
        view = exploded if n < ruled_count else rows
        # A row is in one table at most: rules nested or overlapping would otherwise emit it twice.
        members = [k for k in candidate if k not in in_table]
        for segment in _table_segments(view, members, barriers, fonts):
            for k in segment:
                in_table[k] = len(tables)
            if not ruled and not _captioned(rows, segment) and _description_list(rows, segment):
                described.add(len(tables))
            tables.append([rows[k] for k in segment])

    blocks: list[_Block] = []
    emitted_tables: set[int] = set()
    prev: Row | None = None
    for k, row in enumerate(rows):
        if k in toc:
            if k in toc_runs:
                items = pdf_contents.entries(rows, toc_runs[k])
                blocks.append(_Block("toc", pdf_contents.render(items), page=page.number, rows=[row]))
            prev = row
            continue
        if k in in_table:
            t = in_table[k]
            if t not in emitted_tables:
                emitted_tables.add(t)
                cells = table_from_rows([_exploded(r) for r in tables[t]])
                if t in described:
                    blocks += [
                        _Block("list", _described_item(r), page=page.number, rows=[r]) for r in tables[t]
                    ]
                elif cells is not None:
                    cells = _logical_rows(cells, tables[t], page.rules)
                    blocks.append(_Block("table", markdown_table(cells), page=page.number, rows=tables[t]))
                else:
                    blocks += [_Block("para", _row_text(r), page=page.number, rows=[r]) for r in tables[t]]
            prev = row
            continue
        text = _row_text(row)
        level, entry = row_headings[k]
        if level:
            last = blocks[-1] if blocks else None
            same_entry = entry is not None and last is not None and last.entry == entry
            same_style = (
                marks is None
                and last is not None
                and last.level == level
                and prev is not None
                and prev.cells[0].y0 - row.cells[0].y0 < 2.2 * row.cells[0].height
            )
            if last is not None and last.kind == "heading" and (same_entry or same_style):
                last.text += " " + text
            else:
                blocks.append(_Block("heading", text, level=level, page=page.number, rows=[row], entry=entry))
        elif (
            row.cells[0].mono
            and all(c.mono for c in row.cells)
            and (row.x0 > left + 3 or row.x1 < right - 0.25 * (right - left))
        ):
            last = blocks[-1] if blocks else None
            if last is not None and last.kind == "code":
                last.rows.append(row)
            else:
                blocks.append(_Block("code", "", page=page.number, rows=[row]))
        elif _BULLET.match(text) and not (
            blocks and blocks[-1].kind == "para" and not _new_para(prev, row, left, line_gap, body_size)
        ):
            blocks.append(_Block("list", text, page=page.number, rows=[row]))
        else:
            last = blocks[-1] if blocks else None
            continues_item = (
                last is not None
                and last.kind == "list"
                and prev is not None
                and row.x0 > last.rows[0].x0 + 3
                and prev.cells[0].y0 - row.cells[0].y0 < 1.6 * line_gap
            )
            if (continues_item and last is not None) or (
                last is not None
                and last.kind == "para"
                and not _new_para(prev, row, left, line_gap, body_size)
            ):
                last.text = _join(last.text, text)
                last.rows.append(row)
            else:
                blocks.append(_Block("para", text, page=page.number, rows=[row]))
        prev = row
    for block in blocks:
        if block.kind == "code":
            block.text = _code_text(block.rows)
        block.open_end = block.kind == "para" and not _SENTENCE_END.search(block.text)
    return _chapter_labels_joined(blocks)


def _chapter_labels_joined(blocks: list[_Block]) -> list[_Block]:
    """A lone ``CHAPTER 3`` (``Appendix A``, ``Parte II``) line set above a heading belongs to the heading."""
    out: list[_Block] = []
    for block in blocks:
        last = out[-1] if out else None
        if (
            block.kind == "heading"
            and last is not None
            and last.kind == "para"
            and _CHAPTER_LABEL.match(last.text)
            and not block.text.lower().startswith(last.text.lower())
        ):
            block.text = f"{last.text} {block.text}"
            block.rows = last.rows + block.rows
            out[-1] = block
            continue
        out.append(block)
    return out


def _row_heading(
    row: Row,
    fonts: _Fonts,
    marks: dict[int, tuple[int, int]] | None,
    heading_levels: dict[tuple[str, float], int] | None,
) -> tuple[int, int | None]:
    """(heading level or 0, the outline entry it came from)."""
    if marks is not None:
        found = [marks[id(cell)] for cell in row.cells if id(cell) in marks]
        return max(found) if found else (0, None)
    style = _heading_style(row, fonts)
    if style is None or heading_levels is None or style not in heading_levels:
        return 0, None
    depth = _numbering_depth(" ".join(c.text for c in row.cells))
    return (min(depth, 6) if depth else heading_levels[style]), None


def _runs(indexes: list[int]) -> dict[int, set[int]]:
    """Consecutive indexes grouped: the first index of each run -> the run."""
    runs: dict[int, set[int]] = {}
    start = None
    for k in indexes:
        if start is None or k - 1 not in runs[start]:
            start = k
            runs[start] = set()
        runs[start].add(k)
    return runs


def _table_segments(
    rows: list[Row], members: list[int], barriers: set[int], fonts: _Fonts
) -> list[list[int]]:
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


def _exploded(row: Row) -> Row:
    """The row with each line cut into the table cells its glyph gaps show (see ``Line.parts``)."""
    if not any(c.parts for c in row.cells):
        return row
    return Row([part for c in row.cells for part in cell_lines(c)])


def _logical_rows(grid: list[list[str]], rows: list[Row], rules: list[Rule]) -> list[list[str]]:
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


def _captioned(rows: list[Row], segment: list[int]) -> bool:
    """A ``Table N`` caption directly above or below the rows, nearer to them than to what is beyond it."""
    first, last = segment[0], segment[-1]

    def y(k: int) -> float:
        return rows[k].cells[0].y0

    def caption(k: int) -> bool:
        return 0 <= k < len(rows) and bool(_TABLE_CAPTION.match(_row_text(rows[k])))

    n = len(rows)
    above = caption(first - 1) and (first < 2 or y(first - 1) - y(first) <= y(first - 2) - y(first - 1))
    below = caption(last + 1) and (last + 2 >= n or y(last) - y(last + 1) <= y(last + 1) - y(last + 2))
    return above or below


def _description_list(rows: list[Row], segment: list[int]) -> bool:
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
    sentences = sum(1 for t in texts if len(t.split()) >= 3 and _SENTENCE_END.search(t))
    return sentences >= 0.8 * len(texts)


def _described_item(row: Row) -> str:
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


def _new_para(prev: Row | None, row: Row, left: float, line_gap: float, body_size: float) -> bool:
    if prev is None:
        return True
    gap = prev.cells[0].y0 - row.cells[0].y0
    if gap > 1.45 * line_gap or gap < 0:
        return True
    if abs(prev.cells[0].size - row.cells[0].size) > 1.5:
        return True
    indented = row.x0 > left + 0.6 * body_size and prev.x0 <= left + 2
    return indented


def _join(text: str, more: str) -> str:
    if re.search(r"[^\W\d_]-$", text) and more[:1].islower():
        return text[:-1] + more
    return f"{text} {more}"


def _code_text(rows: list[Row]) -> str:
    width = _char_width([c for r in rows for c in r.cells])
    base = min(r.x0 for r in rows)
    lines = [" " * max(0, round((r.x0 - base) / width)) + _row_text(r) for r in rows]
    fence = "~~~~" if any("```" in ln for ln in lines) else "```"
    return "\n".join([fence, *lines, fence])


# Rendering ---------------------------------------------------------------------------------------------


def _render(blocks: list[_Block]) -> str:
    out: list[str] = []
    open_para: _Block | None = None
    for block in blocks:
        if block.kind == "page":
            if open_para is not None and out:
                out[-1] += "\n" + block.text  # the paragraph goes on across the page break
                continue
            out.append(block.text)
            continue
        if block.kind == "para":
            text = escape_text(block.text)
            if (
                open_para is not None
                and out
                and out[-1].split("\n")[-1].startswith("<!-- page:")
                and text[:1].islower()
            ):
                out[-1] += "\n" + text
            else:
                out.append(text)
            open_para = block if block.open_end else None
            continue
        open_para = None
        if block.kind == "heading":
            out.append("#" * block.level + " " + block.text)
        elif block.kind == "list":
            out.append(_list_item(block.text))
        else:
            out.append(block.text)
    return "\n\n".join(out) + "\n"


def _list_item(text: str) -> str:
    m = _BULLET.match(text)
    if m is None:
        return "- " + text
    marker = m.group(1)
    rest = text[m.end() :]
    number = re.match(r"\(?(\d{1,3})[.)]", marker)
    return f"{number.group(1)}. {rest}" if number else f"- {rest}"


def escape_text(text: str) -> str:
    """A paragraph that would read as Markdown syntax (``# ``, ``- ``, ``|``) starts with a backslash."""
    return "\\" + text if _MD_START.match(text) else text
