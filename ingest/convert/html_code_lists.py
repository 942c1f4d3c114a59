"""Lists whose items hold code, read as the steps they are: each item's text opened by its number or bullet,
its code a block of its own.

Docling's HTML backend reads a list item as one line of text, and a ``<pre>`` inside an item loses its lines:
SQLAlchemy's "3. Call Engine.dispose() directly before the child process is created ...: engine =
create_engine(...) def run_in_process(): with engine.connect() as conn: ... # before process starts, ensure
engine.dispose() is called engine.dispose() p = Process(...)", where the comment swallows the code after it.
Sphinx sets numbered steps with their examples so in every manual read for the judged sets (288 items on 39
of SQLAlchemy's 129 pages, 163 on 45 of Django's 257). Such a list is therefore written out as its items'
blocks in order, the first of each opened by its number ("3. ") or set as a bulleted item of its own; a
list without code in its items stays a list.
"""

from __future__ import annotations

from lxml import etree
from lxml import html as lxml_html

from sleuth.ingest.convert.html_entries import blocks_of

__all__ = ["code_lists_as_blocks"]

#: The marker of a bulleted list's item.
_BULLET = "- "


def code_lists_as_blocks(main: lxml_html.HtmlElement) -> int:
    """Replace ``main``'s lists whose items hold code (see the module's docstring); the number of items
    written out. Innermost lists first: an item of an outer list holds the inner list's code too. A list
    that holds anything but items (text or an element between them) stays as it is: nothing of it is lost."""
    turned = 0
    for lst in reversed(list(main.iter("ol", "ul"))):
        parent = lst.getparent()
        items = [child for child in lst if isinstance(child.tag, str) and child.tag == "li"]
        if (
            parent is None
            or not any(item.find(".//pre") is not None for item in items)
            or len(items) != len(lst)
            or (lst.text or "").strip()
            or any((item.tail or "").strip() for item in items)
        ):
            continue
        blocks: list[lxml_html.HtmlElement] = []
        for item, marker in zip(items, _markers(lst, items), strict=True):
            blocks += _item_blocks(item, marker)
            turned += 1
        at = parent.index(lst)
        tail = lst.tail
        parent.remove(lst)
        for k, block in enumerate(blocks):
            parent.insert(at + k, block)
        if blocks and tail and tail.strip():
            blocks[-1].tail = (blocks[-1].tail or "") + tail
    return turned


def _markers(lst: lxml_html.HtmlElement, items: list[lxml_html.HtmlElement]) -> list[str]:
    """Each item's marker as a reader sees it: its number in an ordered list (from ``start``, counting down
    in a ``reversed`` one, an item's ``value`` setting the count), a bullet otherwise."""
    if lst.tag != "ol":
        return [_BULLET] * len(items)
    down = lst.get("reversed") is not None
    number = _integer(lst.get("start"), len(items) if down else 1)
    out = []
    for item in items:
        number = _integer(item.get("value"), number)
        out.append(f"{number}. ")
        number += -1 if down else 1
    return out


def _integer(text: str | None, default: int) -> int:
    try:
        return int((text or "").strip())
    except ValueError:
        return default


def _item_blocks(item: lxml_html.HtmlElement, marker: str) -> list[lxml_html.HtmlElement]:
    """The item's content as blocks (``html_entries.blocks_of``: its inline runs each a paragraph, its blocks
    as they are), the first opened by ``marker`` (a paragraph of the marker alone when the item opens with a
    block that is none, such as its code), or made a bulleted item of its own."""
    out = [block for block in blocks_of(item) if _has_content(block)]
    if not out:
        return []  # an empty item: nothing to number
    first = out[0]
    if marker == _BULLET:
        # A bullet's item: its first paragraph a list of one item (Docling writes a paragraph's leading
        # "- " as a bullet character, which would then open the quote).
        # An item that opens with a block (its code) is that block: no empty bullet over it.
        if first.tag == "p":
            bullet = lxml_html.Element("ul")
            entry = etree.SubElement(bullet, "li")
            entry.text = first.text
            for child in list(first):
                entry.append(child)
            out[0] = bullet
    elif first.tag == "p":
        first.text = marker + (first.text or "").lstrip()
    else:
        opener = lxml_html.Element("p")
        opener.text = marker.strip()
        out.insert(0, opener)
    return out


def _has_content(block: etree._Element) -> bool:
    """Text, or an element that shows something without text (an image, a table's cells)."""
    return bool("".join(block.itertext()).strip()) or len(block) > 0 or block.tag in ("pre", "table", "img")
