"""Lists whose items hold code, read as the steps they are: each item a paragraph opened by its number or
bullet, its code a block of its own.

Docling's HTML backend reads a list item as one line of text, and a ``<pre>`` inside an item loses its lines:
SQLAlchemy's "3. Call Engine.dispose() directly before the child process is created ...: engine =
create_engine(...) def run_in_process(): with engine.connect() as conn: ... # before process starts, ensure
engine.dispose() is called engine.dispose() p = Process(...)", where the comment swallows the code after it.
Sphinx sets numbered steps with their examples so in every manual read for the judged sets (288 items on 39
of SQLAlchemy's 129 pages, 163 on 45 of Django's 257). Such a list is therefore written out as its items'
blocks in order, the first of each opened by its marker ("3. ", "• "); a list without code in its items stays
a list.
"""

from __future__ import annotations

from lxml import etree
from lxml import html as lxml_html

__all__ = ["code_lists_as_blocks"]

_BLOCKS = frozenset("p div ul ol dl pre table blockquote figure section aside h1 h2 h3 h4 h5 h6".split())


def code_lists_as_blocks(main: lxml_html.HtmlElement) -> int:
    """Replace ``main``'s lists whose items hold code (see the module's docstring); the number of items
    written out. Innermost lists first: an item of an outer list holds the inner list's code too."""
    turned = 0
    for lst in reversed(list(main.iter("ol", "ul"))):
        parent = lst.getparent()
        items = [child for child in lst if isinstance(child.tag, str) and child.tag == "li"]
        if parent is None or not any(item.find(".//pre") is not None for item in items):
            continue
        number = _start(lst)
        blocks: list[lxml_html.HtmlElement] = []
        for item in items:
            marker = f"{number}. " if lst.tag == "ol" else "• "
            if item.get("value", "").isdigit() and lst.tag == "ol":
                marker = f"{item.get('value')}. "
            blocks += _item_blocks(item, marker)
            number += 1
            turned += 1
        at = parent.index(lst)
        tail = lst.tail
        parent.remove(lst)
        for k, block in enumerate(blocks):
            parent.insert(at + k, block)
        if tail and tail.strip():
            blocks[-1].tail = (blocks[-1].tail or "") + tail
    return turned


def _start(lst: lxml_html.HtmlElement) -> int:
    start = lst.get("start", "1")
    return int(start) if start.lstrip("-").isdigit() else 1


def _item_blocks(item: lxml_html.HtmlElement, marker: str) -> list[lxml_html.HtmlElement]:
    """The item's content as blocks: its inline runs each a paragraph, its blocks as they are; the first
    paragraph opened by ``marker`` (a paragraph of the marker alone when the item opens with a block that is
    none, such as its code)."""
    out: list[lxml_html.HtmlElement] = []
    run: lxml_html.HtmlElement | None = None

    def paragraph() -> lxml_html.HtmlElement:
        nonlocal run
        if run is None:
            run = lxml_html.Element("p")
            out.append(run)
        return run

    if item.text and item.text.strip():
        paragraph().text = item.text
    for child in list(item):
        tail, child.tail = child.tail, None
        if isinstance(child.tag, str) and child.tag in _BLOCKS:
            run = None
            out.append(child)
        else:
            paragraph().append(child)
        if tail and tail.strip():
            if run is None:
                paragraph().text = tail
            else:
                last = run[-1] if len(run) else None
                if last is None:
                    run.text = (run.text or "") + tail
                else:
                    last.tail = (last.tail or "") + tail
    first = out[0] if out else None
    if first is not None and first.tag == "p":
        first.text = marker + (first.text or "").lstrip()
    else:
        opener = lxml_html.Element("p")
        opener.text = marker.strip()
        out.insert(0, opener)
    return [block for block in out if _has_content(block)]


def _has_content(block: etree._Element) -> bool:
    return bool("".join(block.itertext()).strip()) or block.tag in ("pre", "table")
