"""Headings of a PDF's text layer: from the outline (bookmarks) matched to the lines they point at, or from
font statistics, with levels from numbering (``2.3.1``) or the rank of the font size.
"""

from __future__ import annotations

import re
from collections import Counter

from sleuth.ingest.convert import pdf_contents
from sleuth.ingest.convert.pdf_fonts import Fonts
from sleuth.ingest.convert.pdf_layout import Line, OutlineEntry, Page
from sleuth.ingest.convert.pdf_render import Block
from sleuth.ingest.convert.pdf_tables import Row, group_rows
from sleuth.ingest.convert.text_keys import match_key

#: A title's numbering: ``2.3``, ``A.1``, ``IV.``, ``Chapter 3:``, ``Part II``.
_LEADING_LABEL = re.compile(
    r"^\s*(?:(?:chapter|appendix|part|section)\s+)?(?:\d{1,3}|[A-Z]|[IVXLC]{1,6})(?:\.\d{1,3})*[.:]?\s+", re.I
)


#: ``CHAPTER 3``, ``Appendix A``, ``Parte II``, ``Kapitel 4``: one word (any language) and a number.
_CHAPTER_LABEL = re.compile(r"^[^\W\d_](?:[^\W\d_]|[´`¨˜ˆ]){2,15}\s+(\d{1,3}|[A-Z]|[IVXLC]{1,6})$")


_NUMBERED = re.compile(r"^((?:\d{1,2}|[A-Z])(?:\.\d{1,2}){0,5})\.?\s+\S")


_CHAPTER = re.compile(r"^(chapter|appendix|part)\s+([0-9]+|[A-Z]|[IVXLC]+)\b", re.I)


#: Paths, file names, markup and code: what a title never looks like (``SCons 4.2.0a0 ./src/stroke.os``).
_CODE_LIKE = re.compile(r"(^|\s)\.{0,2}/\S|\S/\S*\.[a-z]|[{}<>=\\;$@|]|\w\(|\w_\w|\.[a-z]{1,4}$")


_norm = match_key


def match_outline(
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


def insert_unmatched(page: Page, blocks: list[Block], unmatched: list[OutlineEntry]) -> list[Block]:
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
            position, Block("heading", entry.title, level=min(max(entry.level, 1), 6), page=page.number)
        )
    return blocks


def _heading_style(row: Row, fonts: Fonts) -> tuple[str, float] | None:
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


def heading_levels(pages: list[Page], fonts: Fonts) -> dict[tuple[str, float], int]:
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


def row_heading(
    row: Row,
    fonts: Fonts,
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


def chapter_labels_joined(blocks: list[Block]) -> list[Block]:
    """A lone ``CHAPTER 3`` (``Appendix A``, ``Parte II``) line set above a heading belongs to the heading."""
    out: list[Block] = []
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


#: A cover's or a paper's title is set at least this many times the body text's size.
TITLE_SIZE = 1.4
#: ... and says what the document is in at most this many words.
TITLE_WORDS = 20
#: The narrowest a font's average glyph is, as a share of its size (condensed faces: about 0.4).
NARROWEST_GLYPH = 0.3


def cover_title(pages: list[Page], fonts: Fonts) -> str | None:
    """The title a document's first page sets in its largest type, well above its body text ("Bash Reference
    Manual" over "Reference Documentation for Bash Edition 5.2"; a paper's title over its authors): what the
    document is called when its information dictionary names nothing. Its first heading ("1 Introduction")
    names a section of it, never the document. Lines set sideways (an archive's stamp in the margin) and
    lines of one letter (a drop cap) are no titles; the title is one block of lines, one under the other.
    None when the first page with text (of the first two) has no such line."""
    page = next((p for p in pages[:2] if p.lines), None)
    if page is None:
        return None
    upright = [
        line
        for line in page.lines
        if line.x1 - line.x0 > line.y1 - line.y0
        and sum(c.isalpha() for c in line.text) >= 2
        # (a line of body text beside a drop cap has the cap's height, but could not fit its letters at it)
        and len(line.text) * fonts.size(line) * NARROWEST_GLYPH <= line.x1 - line.x0
    ]
    if not upright:
        return None
    largest = max(fonts.size(line) for line in upright)
    if largest < TITLE_SIZE * fonts.body_size:
        return None
    # The title's lines, top down, from the first line in that type while the next stands right under it.
    title: list[Line] = []
    for line in sorted(upright, key=lambda line: (-line.y1, line.x0)):
        if fonts.size(line) >= 0.9 * largest and (not title or title[-1].y0 - line.y1 <= largest):
            title.append(line)
        elif title:
            break
    text = " ".join(" ".join(line.text for line in title).replace("\ufffd", " ").split())
    if len(text.split()) > TITLE_WORDS:
        return None
    return text
