"""Markdown to an element tree and a section hierarchy, from markdown-it-py's token stream.

Every element keeps the exact character range of its source in the (page-marker-free) document, so chunk
content is always verbatim Markdown and words can be traced back to where they stood.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from sleuth.ingest.pages import PageMap, strip_page_markers


class ElementKind(StrEnum):
    HEADING = "heading"
    PARAGRAPH = "paragraph"
    LIST = "list"
    TABLE = "table"
    CODE = "code"
    BLOCKQUOTE = "blockquote"
    HTML = "html"
    RULE = "hr"


@dataclass(slots=True)
class ListItem:
    """One list item as a line range; ``children`` are the items of lists nested in it."""

    line_start: int
    line_end: int
    children: list[ListItem] = field(default_factory=list)


@dataclass(slots=True)
class Element:
    """One top-level block of the document: ``text`` is ``document[start:end]``, verbatim."""

    kind: ElementKind
    text: str
    start: int
    end: int
    line_start: int
    line_end: int
    heading_level: int = 0
    title: str = ""
    language: str | None = None
    fenced: bool = False
    closed_fence: bool = False
    ordered: bool = False
    items: list[ListItem] = field(default_factory=list)
    #: A list that is a table of contents (see ``is_toc_list``).
    toc: bool = False
    table_header: list[str] = field(default_factory=list)
    table_rows: list[list[str]] = field(default_factory=list)


@dataclass(eq=False, slots=True)
class Section:
    """A heading and everything under it up to the next heading of the same or a higher level.

    The root (level 0, no heading) holds what comes before the first heading.
    """

    level: int
    heading: str | None
    parent: Section | None = None
    elements: list[Element] = field(default_factory=list)
    subsections: list[Section] = field(default_factory=list)
    path: tuple[str, ...] = ()

    def contains(self, other: Section) -> bool:
        """True when ``other`` is this section or lies anywhere below it."""
        node: Section | None = other
        while node is not None:
            if node is self:
                return True
            node = node.parent
        return False


@dataclass(slots=True)
class ParsedDocument:
    """The cleaned text, its page map, elements in reading order with their sections, and the root."""

    text: str
    pages: PageMap
    root: Section
    elements: list[Element]
    sections: list[Section]
    line_offsets: list[int]
    #: The innermost section open at the end of the text (where a following window continues).
    last_section: Section

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.line_offsets, offset) - 1


@cache
def _parser() -> MarkdownIt:
    """Block structure only: inline parsing (links, emphasis) is most of markdown-it's time and chunking
    needs none of it; heading titles get it on their own in ``_plain_text``."""
    return MarkdownIt("commonmark", {"html": True}).enable("table").disable("inline")


@cache
def _inline_parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True})


def normalize_newlines(markdown: str) -> str:
    """The normalisation markdown-it applies itself, done up front so that offsets agree with its lines."""
    return markdown.replace("\r\n", "\n").replace("\r", "\n").replace("\0", "\ufffd")


def parse_markdown(
    markdown: str, *, within: Section | None = None, initial_page: int | None = None, keep_tree: bool = True
) -> ParsedDocument:
    """Parse Markdown (page markers allowed) into elements grouped under their headings.

    ``within`` continues a document parsed window by window: text before this window's first heading belongs
    to that section, and headings nest under its open ancestors. Without ``keep_tree`` no section keeps its
    subsections, so a streamed document does not accumulate its whole tree.
    """
    text, pages = strip_page_markers(normalize_newlines(markdown), initial_page)
    line_offsets = [0]
    line_offsets.extend(m.end() for m in _NEWLINE.finditer(text))
    tokens = _parser().parse(text)
    builder = _Builder(text, line_offsets)
    elements = builder.elements(tokens)
    root = Section(level=0, heading=None) if within is None else within
    stack = _ancestry(root)
    for section in stack:
        section.elements = []
    sections = [root]
    for element in elements:
        if element.kind is ElementKind.HEADING:
            while stack[-1].level >= element.heading_level:
                stack.pop()
            parent = stack[-1]
            section = Section(
                level=element.heading_level,
                heading=element.title,
                parent=parent,
                path=(*parent.path, element.title),
            )
            if keep_tree:
                parent.subsections.append(section)
            sections.append(section)
            stack.append(section)
        stack[-1].elements.append(element)
    return ParsedDocument(text, pages, stack[0], elements, sections, line_offsets, stack[-1])


_NEWLINE = re.compile("\n")


def _ancestry(section: Section) -> list[Section]:
    """The chain from the document's root down to ``section``."""
    chain: list[Section] = []
    node: Section | None = section
    while node is not None:
        chain.append(node)
        node = node.parent
    return chain[::-1]


_BLOCK_KINDS = {
    "paragraph_open": ElementKind.PARAGRAPH,
    "bullet_list_open": ElementKind.LIST,
    "ordered_list_open": ElementKind.LIST,
    "table_open": ElementKind.TABLE,
    "blockquote_open": ElementKind.BLOCKQUOTE,
    "heading_open": ElementKind.HEADING,
}
_LEAF_KINDS = {
    "fence": ElementKind.CODE,
    "code_block": ElementKind.CODE,
    "html_block": ElementKind.HTML,
    "hr": ElementKind.RULE,
}


class _Builder:
    def __init__(self, text: str, line_offsets: list[int]) -> None:
        self.text = text
        self.line_offsets = line_offsets

    def _span(self, line_start: int, line_end: int) -> tuple[int, int, int]:
        """Character range of lines ``[line_start, line_end)`` without trailing blank lines."""
        while line_end > line_start + 1 and self._line(line_end - 1).strip() == "":
            line_end -= 1
        start = self.line_offsets[line_start]
        end = self.line_offsets[line_end] - 1 if line_end < len(self.line_offsets) else len(self.text)
        return start, max(start, end), line_end

    def _line(self, i: int) -> str:
        end = self.line_offsets[i + 1] - 1 if i + 1 < len(self.line_offsets) else len(self.text)
        return self.text[self.line_offsets[i] : end]

    def elements(self, tokens: Sequence[Token]) -> list[Element]:
        out: list[Element] = []
        i = 0
        while i < len(tokens):
            token = tokens[i]
            close = _matching_close(tokens, i) if token.nesting == 1 else i
            kind = _BLOCK_KINDS.get(token.type) or _LEAF_KINDS.get(token.type)
            if kind is not None and token.map is not None:
                out.append(self._element(kind, tokens, i, close))
            i = close + 1
        return self._with_gaps(out)

    def _with_gaps(self, elements: list[Element]) -> list[Element]:
        """Keep text that produced no block token (link reference definitions): no word may be lost."""
        out: list[Element] = []
        cursor = 0
        for element in [*elements, None]:
            gap_end = element.start if element is not None else len(self.text)
            if self.text[cursor:gap_end].strip():
                first = bisect.bisect_right(self.line_offsets, cursor) - 1
                if self.line_offsets[first] < cursor:
                    first += 1
                last = bisect.bisect_right(self.line_offsets, max(cursor, gap_end - 1))
                while first < last and self._line(first).strip() == "":
                    first += 1
                start, end, line_end = self._span(first, last)
                out.append(Element(ElementKind.PARAGRAPH, self.text[start:end], start, end, first, line_end))
            if element is not None:
                out.append(element)
                cursor = element.end
        return out

    def _element(self, kind: ElementKind, tokens: Sequence[Token], i: int, close: int) -> Element:
        token = tokens[i]
        assert token.map is not None
        start, end, line_end = self._span(token.map[0], token.map[1])
        element = Element(kind, self.text[start:end], start, end, token.map[0], line_end)
        if kind is ElementKind.HEADING:
            element.heading_level = int(token.tag[1])
            element.title = _plain_text(tokens[i + 1]) if i + 1 < close else ""
        elif kind is ElementKind.CODE:
            element.fenced = token.type == "fence"
            element.language = token.info.split()[0] if token.info.strip() else None
            if element.fenced:
                last = self._line(line_end - 1).strip()
                element.closed_fence = (
                    line_end - token.map[0] >= 2
                    and last.startswith(token.markup[0] * len(token.markup))
                    and last.strip(token.markup[0]) == ""
                )
        elif kind is ElementKind.LIST:
            element.ordered = token.type == "ordered_list_open"
            element.items = _list_items(tokens, i, close)
            element.toc = is_toc_list([self._line(item.line_start) for item in element.items])
        elif kind is ElementKind.TABLE:
            element.table_header, element.table_rows = _table_cells(tokens, i, close)
        return element


def _matching_close(tokens: Sequence[Token], i: int) -> int:
    depth = 0
    for j in range(i, len(tokens)):
        depth += tokens[j].nesting
        if depth == 0:
            return j
    return len(tokens) - 1


def _plain_text(inline: Token) -> str:
    """Heading titles as a reader sees them: emphasis and link syntax dropped, code spans kept."""
    tokens = _inline_parser().parseInline(inline.content)
    children = tokens[0].children if tokens and tokens[0].children else []
    parts: list[str] = []
    for child in children:
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(child.content)
    return " ".join("".join(parts).split())


_TOC_ENTRY = re.compile(
    r"(?:(?:\.\s?){3,}|…|\s{2,}|\t)\s*(?:\d{1,4}|[ivxlc]{1,7})\s*$"  # leaders, then a page number
    # or nothing but a link to an anchor in the document, or to a page of the same site (a Texinfo manual's
    # top page lists its chapters: "[13 Macros for running shell commands](Shell-commands.html)")
    r"|^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[^\]]+\]\((?:#[^)\s]*|(?![a-z][a-z0-9+.-]*:|/)[^)\s#]*\.html?(?:#[^)\s]*)?)\)\s*)+$",
    re.I,
)


def is_toc_list(first_lines: Sequence[str]) -> bool:
    """A list of at least three items, most of which end with a page number after leaders or are nothing but a
    link to an anchor of the same document or to a page of the same site: a table of contents rather than
    content."""
    if len(first_lines) < 3:
        return False
    entries = sum(1 for line in first_lines if _TOC_ENTRY.search(line.rstrip()))
    return entries >= 0.6 * len(first_lines)


def _list_items(tokens: Sequence[Token], i_open: int, i_close: int) -> list[ListItem]:
    level = tokens[i_open].level
    items: list[ListItem] = []
    j = i_open + 1
    while j < i_close:
        token = tokens[j]
        if token.type == "list_item_open" and token.level == level + 1 and token.map is not None:
            k = _matching_close(tokens, j)
            item = ListItem(token.map[0], token.map[1])
            m = j + 1
            while m < k:
                nested = tokens[m]
                if nested.type in ("bullet_list_open", "ordered_list_open") and nested.level == level + 2:
                    end = _matching_close(tokens, m)
                    item.children.extend(_list_items(tokens, m, end))
                    m = end + 1
                else:
                    m += 1
            items.append(item)
            j = k + 1
        else:
            j += 1
    return items


def _table_cells(tokens: Sequence[Token], i_open: int, i_close: int) -> tuple[list[str], list[list[str]]]:
    header: list[str] = []
    rows: list[list[str]] = []
    row: list[str] | None = None
    in_head = False
    for token in tokens[i_open:i_close]:
        if token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open":
            row = []
        elif token.type == "tr_close" and row is not None:
            if in_head:
                header = row
            else:
                rows.append(row)
            row = None
        elif token.type == "inline" and row is not None:
            row.append(token.content.strip())
    return header, rows
