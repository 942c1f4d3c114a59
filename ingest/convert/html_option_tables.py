"""Tables of options set in groups, read as the lists of entries they are.

Sphinx's and argparse's option references (borg's, for one) set a command's options as one table without a
header: a row of one cell across the table names a group ("positional arguments", "options", "Exclusion
options"), and each row under it holds an empty spacer cell, the option and its description. Docling takes
the first row for the header, repeats a spanning cell in every column and, once the table is split into
chunks, repeats "positional arguments" over every piece: "positional arguments — --save-space | work
slower ...; -c SECONDS, --checkpoint-interval SECONDS | ... (Default: 1800); Common options; Archive
filters - ..." quoted a group's name as if it were an option's.

Such a table is therefore read as what it is: each group's name a paragraph of its own, each row the
option in bold on a line of its own over its description (a term line: quotes take it along with its
description, "--stdin-name NAME — use NAME in archive for stdin data (default: 'stdin')"), columns empty in
every row dropped. Only a table that opens with a group row, has two of them or more and more other rows
than groups, two cells of content in each, is changed; any other table stays a table.
"""

from __future__ import annotations

from lxml import etree
from lxml import html as lxml_html

__all__ = ["option_tables_as_lists"]

#: A table needs at least this many group rows (cells across the table) to be read as groups of entries.
MIN_GROUPS = 2


def option_tables_as_lists(main: lxml_html.HtmlElement) -> int:
    """Replace ``main``'s grouped option tables (see the module's docstring); the number replaced."""
    turned = 0
    for table in list(main.iter("table")):
        parent = table.getparent()
        if parent is None or table.find(".//th") is not None or table.find(".//table") is not None:
            continue
        rows = [r for r in table.iter("tr")]
        width = max((_width(r) for r in rows), default=0)
        groups = [r for r in rows if _is_group(r, width)]
        # Groups head the table and hold rows (Apache's index sets each entry's description in a row across
        # the table after it: no group, and it stays a table).
        if width < 2 or len(groups) < MIN_GROUPS or rows[0] not in groups or len(rows) <= 2 * len(groups):
            continue
        entries = [r for r in rows if r not in groups]
        kept = _content_columns(entries, width)
        if len(kept) != 2 or not entries:
            continue
        flow: list[lxml_html.HtmlElement] = []
        caption = table.find("caption")
        if caption is not None and _text(caption):
            flow.append(_moved(caption, "p"))
        for row in rows:
            cells = _cells(row)
            if row in groups:
                flow.append(_paragraph_of(cells[0]))
                continue
            term, definition = (cells[k] for k in kept)
            line = lxml_html.Element("p")
            etree.SubElement(line, "strong").text = _text(term)
            flow.extend([line, _moved(definition, "p")])
        at = parent.index(table)
        tail = table.tail
        parent.remove(table)
        for offset, element in enumerate(flow):
            parent.insert(at + offset, element)
        flow[-1].tail = (flow[-1].tail or "") + (tail or "")
        turned += 1
    return turned


def _cells(row: lxml_html.HtmlElement) -> list[lxml_html.HtmlElement]:
    return [c for c in row if isinstance(c.tag, str) and c.tag in ("td", "th")]


def _span(cell: lxml_html.HtmlElement) -> int:
    try:
        return max(1, int(cell.get("colspan", "1")))
    except ValueError:
        return 1


def _width(row: lxml_html.HtmlElement) -> int:
    return sum(_span(c) for c in _cells(row))


def _is_group(row: lxml_html.HtmlElement, width: int) -> bool:
    """A row of one cell across the whole table, with text."""
    cells = _cells(row)
    return len(cells) == 1 and width >= 2 and _span(cells[0]) >= width and bool(_text(cells[0]))


def _content_columns(rows: list[lxml_html.HtmlElement], width: int) -> list[int]:
    """The columns that hold text in some row (each row read cell by cell; a row that spans is no entry)."""
    if any(len(_cells(r)) != width for r in rows):
        return []
    return [k for k in range(width) if any(_text(_cells(r)[k]) for r in rows)]


def _text(element: lxml_html.HtmlElement) -> str:
    return " ".join("".join(element.itertext()).split())


def _paragraph_of(cell: lxml_html.HtmlElement) -> lxml_html.HtmlElement:
    """The group's name as a paragraph (the cell's own paragraph when it holds one)."""
    blocks = [c for c in cell if isinstance(c.tag, str)]
    if (
        len(blocks) == 1
        and blocks[0].tag == "p"
        and not (cell.text or "").strip()
        and not (blocks[0].tail or "").strip()
    ):
        paragraph: lxml_html.HtmlElement = blocks[0]
        paragraph.tail = None
        return paragraph
    return _moved(cell, "p")


def _moved(cell: lxml_html.HtmlElement, tag: str) -> lxml_html.HtmlElement:
    """A new ``tag`` element holding the cell's content (a lone paragraph's content, unwrapped)."""
    out = lxml_html.Element(tag)
    blocks = [c for c in cell if isinstance(c.tag, str)]
    source = cell
    if (
        len(blocks) == 1
        and blocks[0].tag == "p"
        and not (cell.text or "").strip()
        and not (blocks[0].tail or "").strip()
    ):
        source = blocks[0]
    out.text = source.text
    for child in list(source):
        out.append(child)  # (an element carries its tail along)
    return out
