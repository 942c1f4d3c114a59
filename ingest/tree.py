"""The section tree of a Markdown document as data (``sleuth chunk --tree``)."""

from __future__ import annotations

from collections.abc import Callable

from sleuth.ingest.markdown_tree import (
    Element,
    ElementKind,
    ListItem,
    ParsedDocument,
    Section,
    parse_markdown,
)
from sleuth.ingest.models import ElementNode, ListItemNode, SectionNode


def document_tree(markdown: str) -> SectionNode:
    """Headings as nested sections, each with its content elements; the root holds what precedes them."""
    doc = parse_markdown(markdown)
    return _section_node(doc, doc.root)


def _section_node(doc: ParsedDocument, section: Section) -> SectionNode:
    return SectionNode(
        level=section.level,
        heading=section.heading,
        content_elements=[
            _element_node(doc, e) for e in section.elements if e.kind is not ElementKind.HEADING
        ],
        subsections=[_section_node(doc, s) for s in section.subsections],
    )


def _element_node(doc: ParsedDocument, element: Element) -> ElementNode:
    node = ElementNode(
        type=element.kind.value,
        text=element.text,
        line_start=element.line_start + 1,
        line_end=element.line_end,
        page_start=doc.pages.page_at(element.start),
        page_end=doc.pages.page_at(max(element.start, element.end - 1)),
    )
    if element.kind is ElementKind.CODE:
        node.language = element.language
    elif element.kind is ElementKind.LIST:
        node.ordered = element.ordered

        def line_text(first: int, last: int) -> str:
            start = doc.line_offsets[first]
            end = doc.line_offsets[last] - 1 if last < len(doc.line_offsets) else len(doc.text)
            return doc.text[start : max(start, end)]

        node.items = [_item_node(item, line_text) for item in element.items]
    elif element.kind is ElementKind.TABLE:
        node.header = element.table_header
        node.rows = element.table_rows
    return node


def _item_node(item: ListItem, line_text: Callable[[int, int], str]) -> ListItemNode:
    own_end = item.children[0].line_start if item.children else item.line_end
    return ListItemNode(
        text=line_text(item.line_start, own_end).strip(),
        children=[_item_node(child, line_text) for child in item.children],
    )
