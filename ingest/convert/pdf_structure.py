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
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from sleuth.ingest.convert import pdf_contents, pdf_headings
from sleuth.ingest.convert.pdf_fonts import Fonts, font_stats
from sleuth.ingest.convert.pdf_layout import OutlineEntry, Page, PdfReadError, read_outline, read_pages
from sleuth.ingest.convert.pdf_reading_order import column_groups, drop_running_lines, mark_margin_labels
from sleuth.ingest.convert.pdf_render import BULLET, Block, render_blocks
from sleuth.ingest.convert.pdf_tables import (
    SENTENCE_END,
    Row,
    aligned_runs,
    captioned,
    char_width,
    described_item,
    description_list,
    exploded_row,
    group_rows,
    logical_rows,
    markdown_table,
    row_text,
    ruled_regions,
    table_from_rows,
    table_segments,
)
from sleuth.ingest.pages import page_marker

#: A table's or figure's caption line: ``Table 2.1: ...``, ``Fig. 3. ...`` (a reference in running text
#: starts a sentence, ``Table 2 shows``, and has no punctuation after the number).
_CAPTION = re.compile(r"^(table|tab\.|figure|fig\.)\s*[0-9IVX]+(\.[0-9]+)*\s*[.:]\s", re.I)


@dataclass
class PdfMarkdown:
    markdown: str
    pages: int
    headings: list[tuple[int, str]]
    heading_source: str
    tables: int
    #: The first page's title in its largest type, if it has one (``pdf_headings.cover_title``).
    title: str | None = None


def pdf_to_markdown(path: Path, *, use_outline: bool = True) -> PdfMarkdown:
    """Convert one PDF's text layer to Markdown with ``<!-- page: N -->`` markers."""
    page_count, outline = read_outline(path)
    pages = read_pages(path)
    if not any(p.lines for p in pages):
        raise PdfReadError(f"no text layer in {page_count} page(s)")
    return structure_markdown(pages, outline, use_outline=use_outline)


def structure_markdown(
    pages: list[Page], outline: list[OutlineEntry], *, use_outline: bool = True
) -> PdfMarkdown:
    """Pages of lines (a text layer's, or what OCR read on scanned pages) to Markdown with page markers."""
    drop_running_lines(pages)
    mark_margin_labels(pages)
    fonts = font_stats(pages)
    source = "outline"
    if use_outline and not outline:
        outline, source = pdf_contents.contents_outline(pages), "contents"
    marks, unmatched = pdf_headings.match_outline(pages, outline) if use_outline and outline else (None, [])
    if source == "contents":
        # Printed page numbers are evidence enough to find a line, not to invent one; and contents whose
        # titles mostly do not appear as lines are not this document's headings (fonts decide then).
        if marks is not None and len(unmatched) > 0.4 * len(outline):
            marks, source = None, "fonts"
        unmatched = []
    blocks: list[Block] = []
    headings: list[tuple[int, str]] = []
    heading_levels = None if marks is not None else pdf_headings.heading_levels(pages, fonts)
    tables = 0
    for page in pages:
        page_blocks: list[Block] = []
        regions = ruled_regions(page.rules)
        # A contents page set in two columns reads column by column (not where the outline marks a heading).
        marked = marks is not None and any(id(line) in marks for line in page.lines)
        contents = None if marked else pdf_contents.two_column_page(page, len(pages))
        if contents is not None:
            page_blocks = [Block(kind, text, page=page.number) for kind, text in contents]
        for group in column_groups(page) if contents is None else []:
            rows = group_rows(group)
            page_blocks += _page_blocks(page, rows, regions, fonts, marks, heading_levels, len(pages))
        if marks is not None:
            page_blocks = pdf_headings.insert_unmatched(page, page_blocks, unmatched)
        for block in page_blocks:
            if block.kind == "heading":
                headings.append((block.level, block.text))
            elif block.kind == "table":
                tables += 1
        blocks.append(Block("page", page_marker(page.number), page=page.number))
        blocks += page_blocks
    return PdfMarkdown(
        render_blocks(blocks),
        len(pages),
        headings,
        source if marks is not None else "fonts",
        tables,
        pdf_headings.cover_title(pages, fonts),
    )


# Blocks -----------------------------------------------------------------------------------------------------


def _page_blocks(  # noqa: PLR0917 - one page's context
    page: Page,
    rows: list[Row],
    regions: list[tuple[float, float, float, float]],
    fonts: Fonts,
    marks: dict[int, tuple[int, int]] | None,
    heading_levels: dict[tuple[str, float], int] | None,
    last_page: int,
) -> list[Block]:
    body_size = fonts.body_size
    if not rows:
        return []
    body_rows = [r for r in rows if not r.cells[0].mono]
    left = min((r.x0 for r in body_rows), default=min(r.x0 for r in rows))
    right = max(r.x1 for r in rows)
    gaps = [a.cells[0].y0 - b.cells[0].y0 for a, b in pairwise(rows)]
    line_gap = statistics.median([g for g in gaps if 0 < g < 3 * body_size] or [body_size * 1.2])

    # Each row's heading level, once: tables, contents and the block loop below all need it.
    row_headings = [pdf_headings.row_heading(row, fonts, marks, heading_levels) for row in rows]
    headings = {k for k, (level, _) in enumerate(row_headings) if level}
    toc = pdf_contents.contents_rows(rows, last_page) - (headings if marks is not None else set())
    toc_runs = _runs(sorted(toc))
    # Outline headings, contents entries and captions are never table cells: they cut a candidate table.
    captions = {k for k, row in enumerate(rows) if _CAPTION.match(row_text(row))}
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
    exploded = [exploded_row(r) for r in rows] if ruled_count else rows
    for n, candidate in enumerate(candidates):
        ruled = n < ruled_count
        view = exploded if n < ruled_count else rows
        # A row is in one table at most: rules nested or overlapping would otherwise emit it twice.
        members = [k for k in candidate if k not in in_table]
        for segment in table_segments(view, members, barriers, fonts):
            for k in segment:
                in_table[k] = len(tables)
            if not ruled and not captioned(rows, segment) and description_list(rows, segment):
                described.add(len(tables))
            tables.append([rows[k] for k in segment])

    blocks: list[Block] = []
    emitted_tables: set[int] = set()
    prev: Row | None = None
    for k, row in enumerate(rows):
        if k in toc:
            if k in toc_runs:
                items = pdf_contents.entries(rows, toc_runs[k])
                blocks.append(Block("toc", pdf_contents.render(items), page=page.number, rows=[row]))
            prev = row
            continue
        if k in in_table:
            t = in_table[k]
            if t not in emitted_tables:
                emitted_tables.add(t)
                cells = table_from_rows([exploded_row(r) for r in tables[t]])
                if t in described:
                    blocks += [
                        Block("list", described_item(r), page=page.number, rows=[r]) for r in tables[t]
                    ]
                elif cells is not None:
                    cells = logical_rows(cells, tables[t], page.rules)
                    blocks.append(Block("table", markdown_table(cells), page=page.number, rows=tables[t]))
                else:
                    blocks += [Block("para", row_text(r), page=page.number, rows=[r]) for r in tables[t]]
            prev = row
            continue
        text = row_text(row)
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
                blocks.append(Block("heading", text, level=level, page=page.number, rows=[row], entry=entry))
        elif (
            row.cells[0].mono
            and all(c.mono for c in row.cells)
            and (row.x0 > left + 3 or row.x1 < right - 0.25 * (right - left))
        ):
            last = blocks[-1] if blocks else None
            if last is not None and last.kind == "code":
                last.rows.append(row)
            else:
                blocks.append(Block("code", "", page=page.number, rows=[row]))
        elif BULLET.match(text) and not (
            blocks and blocks[-1].kind == "para" and not _new_para(prev, row, left, line_gap, body_size)
        ):
            blocks.append(Block("list", text, page=page.number, rows=[row]))
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
                blocks.append(Block("para", text, page=page.number, rows=[row]))
        prev = row
    for block in blocks:
        if block.kind == "code":
            block.text = _code_text(block.rows)
        block.open_end = block.kind == "para" and not SENTENCE_END.search(block.text)
    return pdf_headings.chapter_labels_joined(blocks)


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


def _new_para(prev: Row | None, row: Row, left: float, line_gap: float, body_size: float) -> bool:
    if prev is None:
        return True
    gap = prev.cells[0].y0 - row.cells[0].y0
    if gap > 1.45 * line_gap or gap < 0:
        return True
    if abs(prev.cells[0].size - row.cells[0].size) > 1.5:
        return True
    indented = row.x0 > left + 0.6 * body_size and prev.x0 <= left + 2
    if indented and _unclosed(row_text(prev)):
        # A paragraph does not end inside a bracket: a function's parameters go on, indented, on the next
        # line (Texinfo's "int asn1_der_decoding (asn1 node * element, const void * ider," over
        # "int ider_len, char * errorDescription)").
        return False
    return indented


def _unclosed(text: str) -> bool:
    """Whether ``text`` leaves a bracket open, not as a sentence's end or code's "((" does."""
    text = text.replace("((", "").replace("))", "")
    return text.count("(") > text.count(")") and not text.rstrip().endswith((".", "!", "?", ":", ";"))


def _join(text: str, more: str) -> str:
    if re.search(r"[^\W\d_]-$", text) and more[:1].islower():
        return text[:-1] + more
    return f"{text} {more}"


def _code_text(rows: list[Row]) -> str:
    width = char_width([c for r in rows for c in r.cells])
    base = min(r.x0 for r in rows)
    lines = [" " * max(0, round((r.x0 - base) / width)) + row_text(r) for r in rows]
    fence = "~~~~" if any("```" in ln for ln in lines) else "```"
    return "\n".join([fence, *lines, fence])
