"""What a PDF's text layer says, page by page: text lines with boxes and fonts, rules, and the outline.

docling-parse (Docling's own PDF parser) reads the lines and vector rules; pypdfium2 (also shipped with
Docling) reads the outline and detects encryption. Only lines and shapes are materialized: character and word
cells are what make parsing slow, and structure recovery needs neither.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from sleuth.ingest.convert import ligatures
from sleuth.ingest.convert.metadata import DocumentMeta, parse_date

_MONO = re.compile(r"(mono|courier|consol|cmtt|sfmono|menlo|typewriter|code|lmmono|\btt\b|cmvtt)", re.I)
_BOLD = re.compile(r"(bold|black|heavy|semibold|demi|cmbx|cmb\d|\bbx\b|-bd\b|,b\b)", re.I)
log = logging.getLogger(__name__)
_SUBSET = re.compile(r"^/?[A-Z]{6}\+")


class PdfReadError(Exception):
    """The PDF cannot be read (corrupt, encrypted, ...); the message is the reason."""


@dataclass(slots=True)
class Line:
    """One text line; coordinates have their origin at the page's bottom left, like PDF itself."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    font: str
    page: int

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def size(self) -> float:
        """Font size estimate: the line box height, to half a point."""
        return round(self.height * 2) / 2

    @property
    def mono(self) -> bool:
        return is_mono_font(self.font)

    @property
    def bold(self) -> bool:
        return bool(_BOLD.search(self.font))


@dataclass(slots=True)
class Rule:
    """A horizontal rule (a stroked line or a thin filled box), as table borders are drawn."""

    x0: float
    x1: float
    y: float


@dataclass(slots=True)
class Page:
    number: int
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)


@dataclass(slots=True)
class OutlineEntry:
    level: int
    title: str
    page: int | None
    y: float | None


def is_mono_font(name: str) -> bool:
    return bool(_MONO.search(name))


def font_name(raw: str) -> str:
    return _SUBSET.sub("", raw.lstrip("/"))


def read_outline(path: Path) -> tuple[int, list[OutlineEntry]]:
    """Page count and bookmarks; raises PdfReadError for unreadable or encrypted files."""
    import pypdfium2 as pdfium  # noqa: PLC0415 - heavy import, only in conversion workers

    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        message = str(exc)
        if "password" in message.lower():
            raise PdfReadError("encrypted PDF (a password is required)") from exc
        raise PdfReadError(f"corrupt or unreadable PDF ({message})") from exc
    try:
        entries: list[OutlineEntry] = []
        for bookmark in pdf.get_toc(max_depth=8):
            title = " ".join(bookmark.get_title().split())
            if not title:
                continue
            dest = bookmark.get_dest()
            page = y = None
            if dest is not None:
                index = dest.get_index()
                page = index + 1 if index is not None and index >= 0 else None
                _, view = dest.get_view()
                if len(view) >= 2 and view[1]:
                    y = float(view[1])
            entries.append(OutlineEntry(bookmark.level + 1, title, page, y))
        return len(pdf), entries
    finally:
        pdf.close()


def read_info(path: Path) -> DocumentMeta:
    """Title and date from the PDF's information dictionary (modification date, else creation date)."""
    import pypdfium2 as pdfium  # noqa: PLC0415

    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        raise PdfReadError(f"corrupt or unreadable PDF ({exc})") from exc
    try:
        info = pdf.get_metadata_dict(skip_empty=True)
    finally:
        pdf.close()
    title = " ".join(str(info.get("Title", "")).split()) or None
    when = parse_date(info.get("ModDate")) or parse_date(info.get("CreationDate"))
    return DocumentMeta(title, when, "pdf-info" if when else None)


def read_pages(path: Path) -> list[Page]:
    """Text lines and horizontal rules of every page."""
    from docling_parse.pdf_parser import ContentConfig, ContentLevel, DoclingPdfParser  # noqa: PLC0415

    def config(shapes: ContentLevel) -> ContentConfig:
        return ContentConfig(
            char_cells_content_level=ContentLevel.COMPUTE,
            word_cells_content_level=ContentLevel.COMPUTE,
            line_cells_content_level=ContentLevel.COMPUTE_AND_MATERIALIZE,
            shapes_content_level=shapes,
            bitmaps_content_level=ContentLevel.SKIP,
            include_bitmap_bytes=False,
        )

    with_shapes = config(ContentLevel.COMPUTE_AND_MATERIALIZE)
    text_only = config(ContentLevel.SKIP)
    parser = DoclingPdfParser(loglevel="fatal")
    try:
        document = parser.load(path_or_stream=str(path))
    except Exception as exc:  # the C++ parser raises plain RuntimeErrors
        raise PdfReadError(f"corrupt or unreadable PDF ({exc})") from exc
    pages: list[Page] = []
    try:
        for number in range(1, document.number_of_pages() + 1):
            try:
                segmented = document.get_page(number, content_config=with_shapes)
            except Exception as exc:  # docling-parse rejects some shapes (e.g. colours out of range)
                log.debug("%s page %d: shapes unreadable (%s); text only", path, number, exc)
                segmented = document.get_page(number, content_config=text_only)
            dim = segmented.dimension
            page = Page(number, float(dim.width), float(dim.height))
            for cell in segmented.textline_cells:
                text = ligatures.repair(" ".join(cell.text.split()))
                if not text:
                    continue
                r = cell.rect
                xs = (r.r_x0, r.r_x1, r.r_x2, r.r_x3)
                ys = (r.r_y0, r.r_y1, r.r_y2, r.r_y3)
                font = font_name(getattr(cell, "font_name", "") or "")
                page.lines.append(Line(text, min(xs), min(ys), max(xs), max(ys), font, number))
            for shape in segmented.shapes:
                points = shape.points
                for a, b in pairwise(points):
                    if abs(a.y - b.y) < 0.5 and abs(a.x - b.x) > 20:
                        page.rules.append(Rule(min(a.x, b.x), max(a.x, b.x), (a.y + b.y) / 2))
            pages.append(page)
    finally:
        document.unload()
    return pages
