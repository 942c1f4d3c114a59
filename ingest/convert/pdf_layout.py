"""What a PDF's text layer says, page by page: text lines with boxes and fonts, rules, and the outline.

docling-parse (Docling's own PDF parser) reads the lines and vector rules; pypdfium2 (also shipped with
Docling) reads the outline and detects encryption. Only lines and shapes are materialized: character and word
cells are what make parsing slow, and structure recovery needs neither.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from itertools import accumulate, pairwise
from pathlib import Path
from typing import Any

import numpy as np

from sleuth.ingest.convert import accents, ligatures
from sleuth.ingest.convert.metadata import DocumentMeta, parse_date
from sleuth.ingest.errors import InputError

_MONO = re.compile(r"(mono|courier|consol|cmtt|sfmono|menlo|typewriter|code|lmmono|\btt\b|cmvtt)", re.I)
_BOLD = re.compile(r"(bold|black|heavy|semibold|demi|cmbx|cmb\d|\bbx\b|-bd\b|,b\b)", re.I)
log = logging.getLogger(__name__)
_SUBSET = re.compile(r"^/?[A-Z]{6}\+")


class PdfReadError(InputError):
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
    #: (text, x0, x1) of the cells of a table row that the text layer joined into this line, where the
    #: glyph gaps show more than one; empty otherwise. Tables read them; everything else reads ``text``.
    parts: tuple[tuple[str, float, float], ...] = ()
    #: A label in the margin beside another line (Texinfo's "[Function]"): its row reads without it, and is
    #: laid out with it (a signature set in code beside a roman label is no code block).
    label: bool = False

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


def cell_lines(line: Line) -> list[Line]:
    """The line as the cells its glyph gaps show (``Line.parts``), or itself."""
    if not line.parts:
        return [line]
    return [Line(text, x0, line.y0, x1, line.y1, line.font, line.page) for text, x0, x1 in line.parts]


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
            glyphs = _Glyphs(_raw_chars(document, number, with_shapes, text_only))
            for cell in segmented.textline_cells:
                r = cell.rect
                xs = (r.r_x0, r.r_x1, r.r_x2, r.r_x3)
                ys = (r.r_y0, r.r_y1, r.r_y2, r.r_y3)
                box = (min(xs), min(ys), max(xs), max(ys))
                font = font_name(getattr(cell, "font_name", "") or "")
                cells = glyphs.cells(" ".join(cell.text.split()), box)
                repair = ligatures.repair if is_mono_font(font) else _letters
                text = repair(" ".join(part for part, _, _ in cells))
                if not text:
                    continue
                parts = tuple((repair(t), x0, x1) for t, x0, x1 in cells) if len(cells) > 1 else ()
                page.lines.append(Line(text, *box, font, number, parts))
            for shape in segmented.shapes:
                points = shape.points
                for a, b in pairwise(points):
                    if abs(a.y - b.y) < 0.5 and abs(a.x - b.x) > 20:
                        page.rules.append(Rule(min(a.x, b.x), max(a.x, b.x), (a.y + b.y) / 2))
            pages.append(page)
    finally:
        document.unload()
    return pages


def _letters(text: str) -> str:
    """Ligatures and accents the text layer lost, restored (code in a monospaced font keeps its accents)."""
    return accents.repair(ligatures.repair(text))


# Word gaps ---------------------------------------------------------------------------------------------

#: A gap wider than this share of the font size between two glyphs is a word space (TeX's tightest
#: interword space is 0.22 em; kerns and italic corrections stay under 0.05 em).
_WORD_GAP_EM = 0.15
#: A gap wider than this (in font sizes) inside one docling-parse line is a gap between table cells.
_CELL_GAP_EM = 1.0
_LABEL = re.compile(r"^((\d{1,3}|[A-Z])(\.\d{1,3})*[.:)]?|[•◦▪‣∙·●○■□–—*-])$")
#: One word of running text, with the punctuation that may follow it.
SINGLE_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)?[,.;:]?")
_CLOSING = frozenset(".,;:!?)]}'\"’”")
_OPENING = frozenset("([{‘“")


def _raw_chars(document: Any, number: int, *configs: Any) -> list[tuple[float, float, float, float, str]]:
    """(x0, x1, y0, y1, text) of the page's glyphs, read from the decoder docling-parse already ran.

    Materialising glyphs as docling-parse's Pydantic cells costs nine times the parse; the decoder's own
    cells cost nothing extra. Its accessor is private, so a docling-parse without it gets no glyphs (and no
    gap repair) rather than an error."""
    ensure = getattr(document, "_ensure_page_decoder", None)
    if ensure is None:
        return []
    for config in configs:
        try:
            decoder = ensure(number, config)
            cells = decoder.get_char_cells()
            return [(c.r_x0, c.r_x1, c.r_y0, c.r_y2, c.text) for c in cells if c.left_to_right]
        except Exception as exc:  # the same shapes error as above: try the next config
            log.debug("page %d: glyphs unreadable (%s)", number, exc)
    return []


class _Glyphs:
    """A page's glyphs, to put back the word spaces that docling-parse drops.

    docling-parse joins glyphs into words when the gap between them is under a full space width, so a
    tightly set line (justified TeX, a PDF that positions words instead of printing spaces) comes out as
    ``seeSection`` or ``Systemmanagement``. The glyph gaps are the evidence: a gap wider than
    ``_WORD_GAP_EM`` of the font size is a space. Spaces are only ever added, never letters changed. Most
    lines have as many wide gaps as spaces; numpy counts them so that only the others are walked glyph by
    glyph.
    """

    def __init__(self, chars: list[tuple[float, float, float, float, str]]) -> None:
        chars.sort(key=lambda c: c[2] + c[3])
        self._texts = [c[4] for c in chars]
        box = np.array([c[:4] for c in chars], dtype=np.float64).reshape(-1, 4)
        self._x0, self._x1 = box[:, 0], box[:, 1]
        self._height = box[:, 3] - box[:, 2]
        self._mid_y = (box[:, 2] + box[:, 3]) / 2
        self._mid_x = (box[:, 0] + box[:, 1]) / 2

    def cells(self, text: str, box: tuple[float, float, float, float]) -> list[tuple[str, float, float]]:
        """(text, x0, x1) of the line's parts: its text with word spaces put back, cut where the gap between
        two glyphs is a column's (``_CELL_GAP_EM``). docling-parse joins a table row's cells into one line
        when they are close (``zip V:47 623 .zip``); the glyph gaps show where one cell ends."""
        whole = [(text, box[0], box[2])]
        if not self._texts or not text:
            return whole
        x0, y0, x1, y1 = box
        lo, hi = np.searchsorted(self._mid_y, [y0, y1])
        inside = lo + np.flatnonzero((self._mid_x[lo:hi] >= x0 - 0.5) & (self._mid_x[lo:hi] <= x1 + 0.5))
        if len(inside) < 2:
            return whole
        order = inside[np.argsort(self._x0[inside], kind="stable")]
        gaps = self._x0[order[1:]] - self._x1[order[:-1]]
        em = np.maximum(self._height[order[1:]], self._height[order[:-1]])
        texts = [self._texts[k] for k in order]
        text = self._spaced(text, texts, gaps > _WORD_GAP_EM * em)
        cuts = np.flatnonzero(gaps > _CELL_GAP_EM * em)
        if not len(cuts) or "".join(t for t in texts if not t.isspace()) != "".join(text.split()):
            return [(text, x0, x1)]
        bounds = [0]  # the glyph each part starts with
        for cut in cuts.tolist():
            head = "".join(texts[bounds[-1] : cut + 1]).strip()
            # A numbering label (``2.6``, ``C.2.1``, a bullet) that starts the line belongs to it; so do
            # leader dots.
            before, after = "".join(texts[max(cut - 2, 0) : cut + 1]), "".join(texts[cut + 1 : cut + 4])
            leaders = "..." in (before, after)
            if not ((len(bounds) == 1 and _LABEL.match(head)) or leaders):
                bounds.append(cut + 1)
        if len(bounds) < 2:
            return [(text, x0, x1)]
        # Cut the spaced text after as many letters as the glyphs before each bound hold.
        prefix = list(accumulate(len(t) if not t.isspace() else 0 for t in texts))
        targets = [prefix[b - 1] for b in bounds[1:]]
        positions = [0]
        seen = 0
        for position, char in enumerate(text):
            if not char.isspace():
                seen += 1
                if len(positions) <= len(targets) and seen == targets[len(positions) - 1]:
                    positions.append(position + 1)
        positions.append(len(text))
        ends = [*bounds[1:], len(texts)]
        out = [
            (text[a:b].strip(), float(self._x0[order[first]]), float(self._x1[order[last - 1]]))
            for a, b, first, last in zip(positions[:-1], positions[1:], bounds, ends, strict=True)
        ]
        if not all(part for part, _, _ in out):
            return [(text, x0, x1)]
        # A justified line stretched in a narrow box has wide gaps too, all the same width, between single
        # words: prose. Columns' gaps differ with the width of what is in them.
        widths = [float(gaps[b - 1]) for b in bounds[1:]]
        even = max(widths) - min(widths) <= 0.1 * (sum(widths) / len(widths)) + 0.5
        words = sum(1 for part, _, _ in out if SINGLE_WORD.fullmatch(part))
        if len(out) >= 3 and even and words >= 0.6 * len(out):
            return [(text, x0, x1)]
        return out

    @staticmethod
    def _spaced(text: str, texts: list[str], wide: np.ndarray) -> str:
        if int(wide.sum()) + sum(1 for t in texts if t.isspace()) <= text.count(" "):
            return text
        pieces = [texts[0]]
        added = pairs = 0
        for k in range(1, len(texts)):
            prev, char = texts[k - 1], texts[k]
            if not char.isspace() and not prev.isspace():
                pairs += 1
                # Before closing and after opening punctuation a gap is a kern or an italic correction.
                if wide[k - 1] and char[:1] not in _CLOSING and prev[-1:] not in _OPENING:
                    pieces.append(" ")
                    added += 1
            pieces.append(" " if char.isspace() else char)
        rebuilt = "".join(pieces)
        if not added or rebuilt.split() == text.split() or "".join(rebuilt.split()) != "".join(text.split()):
            return text
        if added > 0.3 * pairs:  # letter-spaced type (a tracked heading): every gap is wide, none a space
            return text
        return _merge_spaces(text, rebuilt)


def _merge_spaces(text: str, rebuilt: str) -> str:
    """``text`` with the spaces of ``rebuilt`` added (both have the same letters in the same order)."""
    out: list[str] = []
    i = j = 0
    while i < len(text) or j < len(rebuilt):
        if i < len(text) and text[i] == " ":
            out.append(" ")
            i += 1
            j += j < len(rebuilt) and rebuilt[j] == " "
        elif j < len(rebuilt) and rebuilt[j].isspace():
            out.append(" ")
            j += 1
        else:
            out.append(text[i])
            i += 1
            j += 1
    return " ".join("".join(out).split())
