"""An HTML page's main content, cleaned for conversion: no navigation, admonitions as quotes, one root.

Documentation pages wrap their content in navigation bars, sidebars with the whole table of contents, "prev |
up | next" tables and footers; converted as they are, those become chunks that win every search. Before
Docling converts a page:

1. the main content is located: ``<main>``, ``role="main"``, a single ``<article>``, or the usual content
   containers (``#content``, ``.body``, ...); the whole body when the page has none of these;
2. boilerplate inside it goes: scripts and forms; ``nav``, ``footer``, an ``aside`` that is mostly links (one
   that is prose is a topic, a sidebar or a footnote of the text); ARIA navigation, search and
   complementary regions; elements whose class or id names navigation, sidebars, tables of contents,
   breadcrumbs, cookie banners and the like; tables that are mostly links (prev/next bars); hidden elements;
   the permalink marks (¶) of headings;
3. admonitions (note, tip, warning, ... boxes) become block quotes whose title is bold text, so they no
   longer open a section that swallows the ones after it;
4. preformatted blocks keep their text only (inline markup inside ``<pre>`` breaks Docling's code blocks);
   the blocks of one that read as prose become paragraphs, list items and terms (``pre_prose``); a
   definition list nested in a definition stands in a block of its own (Docling drops the text of a
   definition that holds one); an entry whose description holds several blocks is a section of its own,
   its term a heading (``html_entries``);
5. every heading is rooted under the page's title: when the page has several top-level headings (a
   reference page's "Synopsis", "Description", ...), its title becomes the one top heading and the rest
   move down a level.

Why not a general extractor (trafilatura, readability): they are tuned for articles and drop what matters in a
manual (code, tables, short reference sections) when it looks like boilerplate to them; documentation pages
mark their structure explicitly, and these rules read that markup.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from lxml import etree
from lxml import html as lxml_html

from sleuth.ingest.convert.html_code_lists import code_lists_as_blocks
from sleuth.ingest.convert.html_entries import entries_as_sections
from sleuth.ingest.convert.html_option_tables import option_tables_as_lists
from sleuth.ingest.convert.pre_prose import Part, prose_parts

_log = logging.getLogger(__name__)

_MAIN_SELECTORS = (
    "//main",
    "//*[@role='main']",
    "//*[@id='content' or @id='main-content' or @id='maincontent' or @id='main' or @id='page-content']",
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' body ')"
    " or contains(concat(' ', normalize-space(@class), ' '), ' rst-content ')"
    " or contains(concat(' ', normalize-space(@class), ' '), ' main-content ')"
    " or contains(concat(' ', normalize-space(@class), ' '), ' markdown-body ')]",
)
_DROP_TAGS = ("script", "style", "noscript", "template", "form", "button", "input", "select", "iframe", "nav")
_DROP_ROLES = {"navigation", "search", "complementary", "contentinfo", "banner"}
_BOILERPLATE = re.compile(
    r"^(?:nav|navbar|navigation|navheader|navfooter|nav-panel|navbox|breadcrumbs?|sidebar|sphinxsidebar|"
    r"sphinxsidebarwrapper|related|localtoc|globaltoc|toc|toctree-wrapper|table-of-contents|pagination|"
    r"prev-next|footer|copyright|cookie|cookies|consent|gdpr|share|social|skip-link|skiplink|headerlink|"
    r"edit-on-github|advert|ads|quickview|page-header|site-header|site-footer|menu|topbar|bottombar|"
    # a menu hidden until its toggle is clicked (Bootstrap's, inline in HAProxy's manual: "bind" opens "This
    # keyword is available in sections : Log forwarding, Peers, ..."); the toggle's text stays
    r"dropdown-menu)$",
    re.I,
)
_ADMONITION = re.compile(
    r"^(?:admonition|note|tip|hint|warning|caution|important|attention|danger|error|seealso|callout|notice|"
    r"alert|info|sidebar-note)$",
    re.I,
)
_HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_PERMALINK = {"¶", "#", "§", "🔗", "link"}


@dataclass
class CleanedHtml:
    html: str
    title: str | None
    #: What was removed or rewritten, by kind (for measurement and logs).
    removed: Counter[str] = field(default_factory=Counter)
    main: str = "body"
    #: Elements left in the main content (what Docling would have to read).
    elements: int = 0


class TooComplexError(ValueError):
    """A page with far more elements than any document a person reads (a million links)."""


#: A page that says its encoding: a byte-order mark, ``<meta charset>``, the http-equiv Content-Type, or an
#: XML declaration's encoding (lxml reads each).
_DECLARED = re.compile(rb"^\xef\xbb\xbf|^\xff\xfe|^\xfe\xff|<meta[^>]+charset|<\?xml[^>]+encoding", re.I)


def decoded_html(raw: bytes | str) -> bytes | str:
    """The page as lxml should read it: as it is when it declares its encoding; else as UTF-8 text when it
    is valid UTF-8. lxml reads undeclared bytes as Latin-1, so a UTF-8 page without a charset (a page cut
    out of a larger one, many generated ones) would read "a â`@`â" for "a ‘@’"."""
    if isinstance(raw, str) or _DECLARED.search(raw[:4096]):
        return raw
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def _without_controls(tree: lxml_html.HtmlElement) -> None:
    """Every text of the parsed page without control characters (and noncharacters): no page shows them, and
    lxml refuses any later edit of the tree that carries one ("All strings must be XML compatible"), which
    had failed SQLAlchemy's pages whose code samples hold a literal U+0001. Read from the parsed tree, not
    the bytes: an encoding such as ISO-2022-JP is built on escape bytes, and a reference (``&#1;``) is one
    only once parsed. A form feed or a vertical tab is white space, as HTML reads it."""
    _each_text(tree, _no_controls)


def _no_controls(text: str) -> str:
    return _CONTROL.sub(_as_read, text) if _CONTROL.search(text) else text


def _as_read(match: re.Match[str]) -> str:
    return " " if match.group() in "\x0b\x0c" else ""


def _each_text(root: lxml_html.HtmlElement, rewrite: Callable[[str], str]) -> None:
    """Every text under ``root`` (an element's, and the tail after each element but ``root``) rewritten."""
    for node in root.iter():  # elements, and comments and processing instructions for their tails
        if isinstance(node.tag, str) and node.text:
            node.text = rewrite(node.text)
        if node is not root and node.tail:
            node.tail = rewrite(node.tail)


#: C0 control characters other than tab and line breaks, and the noncharacters U+FFFE and U+FFFF.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


#: A page with a refresh to another page and fewer letters of text than this is only a redirect.
REDIRECT_LETTERS = 200
_REFRESH_URL = re.compile(r"url\s*=\s*['\"]?([^'\";]+)", re.I)


def page_tree(page: bytes | str | lxml_html.HtmlElement) -> lxml_html.HtmlElement | None:
    """The page parsed (once: the checks below each take the tree), or None when it does not parse."""
    if isinstance(page, lxml_html.HtmlElement):
        return page
    try:
        return lxml_html.document_fromstring(decoded_html(page))
    except (etree.ParserError, ValueError):
        return None


def redirect_target(page: bytes | str | lxml_html.HtmlElement) -> str | None:
    """Where a page that only redirects sends its reader (its refresh's URL), or None for a page with text
    of its own: Texinfo's node aliases say no more than "The node you are looking for is at <a>...</a>"."""
    tree = page_tree(page)
    if tree is None:
        return None
    for meta in tree.iter("meta"):
        if (meta.get("http-equiv") or "").strip().casefold() != "refresh":
            continue
        found = _REFRESH_URL.search(meta.get("content") or "")
        body = tree.find("body")
        letters = _content_letters(body.text_content()) if body is not None else 0
        if found and letters < REDIRECT_LETTERS:
            return found.group(1).strip()
    return None


#: A page whose main content has at least this many links, and whose text is at least this share of link
#: text, is mostly links (an index, a site map, a table of contents). Measured on the HTML pages of eight
#: manuals (Django, Apache, SQLite, git, Bash, zsh, flex, Exim): every page at 0.70 or more points elsewhere
#: (Exim's concept index 0.76 and option index 0.79, Django's topic and FAQ contents 0.95, SQLite's
#: function list 0.79, zsh's contents 0.70); content pages that link a lot stay below 0.62 (Django's
#: contributing guide 0.34, SQLite's syntax pages 0.56). An index's entries say where an answer stands,
#: never the answer, and read as claims they said nothing ("From line — The Exim command line [...]").
LINKS_ONLY = (20, 0.7)


def links_only(page: bytes | str | lxml_html.HtmlElement) -> bool:
    """Whether a page is mostly links to other pages (see ``LINKS_ONLY``)."""
    tree = page_tree(page)
    if tree is None:
        return False
    main, _ = _main(tree)
    links = list(main.iter("a"))
    least, share = LINKS_ONLY
    return len(links) >= least and _linked_share(main, links) >= share


def clean_html(raw: bytes | str, max_elements: int | None = None) -> CleanedHtml:
    """The page reduced to its main content, ready for Docling. A page of more than four times
    ``max_elements`` elements is refused before any cleaning (``TooComplexError``): cleaning reads every
    element, and such a page is a link farm or a data dump, not a document.

    Reading layouts Docling gets wrong (prose in ``<pre>``, reference entries, nested lists) refines the page;
    should that reading fail on a layout nobody foresaw, the page is converted without it (a warning says
    so), never dropped: a defect there once cost two whole reference pages."""
    try:
        return _clean(raw, max_elements, refine=True)
    except TooComplexError:
        raise
    except Exception as error:  # any defect of the refinements: the plain reading follows
        _log.warning(
            "reading the page's layout failed (%s: %s); converted without it", type(error).__name__, error
        )
        return _clean(raw, max_elements, refine=False)


def _clean(raw: bytes | str, max_elements: int | None, *, refine: bool) -> CleanedHtml:
    tree = lxml_html.document_fromstring(decoded_html(raw))
    _without_controls(tree)
    if max_elements is not None:
        total = sum(1 for _ in tree.iter())
        if total > 4 * max_elements:
            raise TooComplexError(f"{total} elements")
    title = _title(tree)
    removed: Counter[str] = Counter()
    main, how = _main(tree)
    letters = len(main.text_content())
    for element in list(main.iter(etree.Element)):
        if element is main or element.getparent() is None:
            continue
        reason = _boilerplate(element, letters)
        if reason:
            removed[reason] += 1
            _remove(element)
    for element in list(main.iter("table")):
        if element.getparent() is not None and _link_table(element):
            removed["link table"] += 1
            _remove(element)
    for element in list(main.iter("ul", "ol", "div", "p", "table", "span", "td")):
        if element is not main and element.getparent() is not None and _nav_links(element):
            removed["prev/next links"] += 1
            _remove(element)
    _admonitions(main, removed)
    if refine:
        _preformatted(main)
    _inline_code(main)
    _touching_inline(main)
    _glued_inline(main)
    if refine:
        if tables := option_tables_as_lists(main):
            removed["option tables as lists"] += tables
        if turned := entries_as_sections(main):
            removed["reference entries as sections"] += turned
        _nested_definitions(main)
        if steps := code_lists_as_blocks(main):
            removed["list items with code as blocks"] += steps
    _root_headings(main, title, removed)
    _text_as_written(main)
    body = etree.tostring(main, encoding="unicode", method="html")
    # Docling reads the bytes it is given; without a declared encoding it guesses, and a guess of a Cyrillic
    # code page turned a page's non-ASCII characters into others.
    head = '<meta charset="utf-8">' + (f"<title>{_escape(title)}</title>" if title else "")
    return CleanedHtml(
        f"<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>",
        title,
        removed,
        how,
        sum(1 for _ in main.iter()),
    )


def _title(tree: lxml_html.HtmlElement) -> str | None:
    titles = tree.findall(".//title")
    text = " ".join(titles[0].text_content().split()) if titles else ""
    return text or None


def _main(tree: lxml_html.HtmlElement) -> tuple[lxml_html.HtmlElement, str]:
    for selector in _MAIN_SELECTORS:
        found = [e for e in tree.xpath(selector) if len(e.text_content().strip()) > 40]
        if found:
            return max(found, key=lambda e: len(e.text_content())), selector.split("[")[0].strip(
                "/"
            ) or "body"
    articles = tree.findall(".//article")
    if len(articles) == 1:
        return articles[0], "article"
    body = tree.find(".//body")
    return (body if body is not None else tree), "body"


def _boilerplate(element: lxml_html.HtmlElement, letters: int) -> str | None:
    """Why ``element`` is no part of the page's content, or None. ``letters``: the main content's length
    (a section named like boilerplate that holds most of the page is the page: Texinfo names each chapter's
    container by its node, and the flex manual's chapter "Copyright" is ``<div id="Copyright">``)."""
    tag = element.tag if isinstance(element.tag, str) else ""
    if tag in _DROP_TAGS or tag == "footer":
        return tag
    if tag == "aside" and _linked_share(element, list(element.iter("a"))) >= ASIDE_LINKS:
        return tag  # a box of links beside the text (a table of contents, related pages)
    prose_aside = tag == "aside"  # a topic, a sidebar or a footnote of the text, whatever its class says
    if (element.get("role") or "").lower() in _DROP_ROLES:
        return f"role {element.get('role')}"
    if element.get("hidden") is not None or element.get("aria-hidden") == "true":
        return "hidden"
    if re.search(r"display\s*:\s*none", element.get("style") or ""):
        return "hidden"
    names = (element.get("class") or "").split() + ([element.get("id")] if element.get("id") else [])
    for name in names:
        if _BOILERPLATE.match(name) and not prose_aside and not _is_the_page(element, letters):
            return f"boilerplate {name}"
    if tag == "a" and element.text_content().strip() in _PERMALINK and _in_heading(element):
        return "permalink"
    if tag == "a" and any(True for _ in element.find_class("viewcode-link")):
        return "source link"  # Sphinx's "[source]" after a signature: "install_default_entries(data)[source]"
    return None


def _is_the_page(element: lxml_html.HtmlElement, letters: int) -> bool:
    """A section of the page's own (it has a heading) that holds more than half of its text."""
    return any(True for _ in element.iter(*_HEADING_TAGS)) and 2 * len(element.text_content()) > letters


def _nested_definitions(main: lxml_html.HtmlElement) -> None:
    """A definition list inside a definition goes into a ``<div>``: Docling drops the text of a ``<dd>``
    that holds a ``<dl>`` besides it (the flex manual's "-C[aefFmr]: controls the degree of table
    compression ... The default setting is -Cem" before and after its list of -C options), and keeps it
    when the inner list stands in a block of its own."""
    for inner in list(main.iter("dl")):
        parent = inner.getparent()
        if parent is not None and parent.tag == "dd":
            wrapper = lxml_html.Element("div")
            parent.replace(inner, wrapper)
            wrapper.append(inner)  # the list's tail (text after it) moves along; give it back
            wrapper.tail, inner.tail = inner.tail, None


def _in_heading(element: lxml_html.HtmlElement) -> bool:
    return any(a.tag in _HEADING_TAGS for a in element.iterancestors())


def _remove(element: lxml_html.HtmlElement) -> None:
    """Drop an element but keep the text that follows it (its tail belongs to the parent)."""
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    previous = element.getprevious()
    if tail:
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)


#: An ``<aside>`` in the main content is content (Sphinx writes its topics, sidebars and footnotes as
#: ``<aside class="topic|sidebar|footnote">``: Celery's "A chord is just like a group but with a callback"
#: stands in one) unless at least this share of its words are links.
ASIDE_LINKS = 0.5

_NAV_WORDS = frozenset({"prev", "previous", "next", "up", "home", "contents", "index", "top", "toc"})


def _nav_links(element: lxml_html.HtmlElement) -> bool:
    """A block of page-to-page links ("Prev | Up | Home | Next"), whatever its markup or class: a few links,
    at least two of them named like navigation (or with access keys), and little text outside them."""
    links = list(element.iter("a"))
    if len(links) < 2 or len(links) > 10:
        return False
    # A block that holds a heading is content (a chapter's landing page is a title and links to its sections).
    if any(True for _ in element.iter("h1", "h2", "h3", "h4", "h5", "h6")):
        return False
    named = sum(
        1
        for a in links
        if (words := a.text_content().strip().lower().split()) and words[0].strip("«»<>←→.:") in _NAV_WORDS
    )
    keyed = sum(1 for a in links if a.get("accesskey"))
    if named < 2 and keyed < 2:
        return False
    return _linked_share(element, links) >= 0.6


def _link_table(table: lxml_html.HtmlElement) -> bool:
    """A table that is a navigation bar: a few rows, nearly all of its text in links."""
    if len(table.findall(".//tr")) > 4:
        return False
    return _linked_share(table, list(table.iter("a"))) >= 0.5


def _linked_share(element: lxml_html.HtmlElement, links: list[lxml_html.HtmlElement]) -> float:
    """Share of the element's words that are link text, counted in letters. Navigation words ("Previous:",
    "Up:") count on neither side: a bar labels its links with them. Punctuation and spaces do not count
    either: a bar of one-letter links ("Jump to: A B C") is mostly spaces."""
    text = _content_letters(element.text_content())
    if not text:
        return 1.0 if links else 0.0
    return sum(_content_letters(a.text_content()) for a in links) / text


def _content_letters(text: str) -> int:
    return sum(len(w) for w in re.findall(r"\w+", text) if w.lower() not in _NAV_WORDS)


def _admonitions(main: lxml_html.HtmlElement, removed: Counter[str]) -> None:
    for box in list(main.iter("div", "aside", "section", "table")):
        names = (box.get("class") or "").split()
        if not any(_ADMONITION.match(n) for n in names) or box.getparent() is None:
            continue
        for heading in [h for h in box.iter(*_HEADING_TAGS)] + box.find_class("admonition-title"):
            strong = lxml_html.Element("strong")
            strong.text = " ".join(heading.text_content().split())
            para = lxml_html.Element("p")
            para.append(strong)
            para.tail = heading.tail
            parent = heading.getparent()
            if parent is not None:
                parent.replace(heading, para)
        box.tag = "blockquote"
        removed["admonition as quote"] += 1


def _preformatted(main: lxml_html.HtmlElement) -> None:
    for pre in list(main.iter("pre")):
        text = pre.text_content()
        for child in list(pre):
            pre.remove(child)
        pre.text = text
        parts = prose_parts(text)
        if parts is not None and pre.getparent() is not None:
            _as_prose(pre, parts)


def _as_prose(pre: lxml_html.HtmlElement, parts: list[Part]) -> None:
    """Put the elements the ``<pre>`` reads as (``pre_prose``) in its place, in order."""
    elements: list[lxml_html.HtmlElement] = []
    for part in parts:
        if not part.pieces:
            kept = lxml_html.Element("pre", dict(pre.attrib))  # (its class names the language, when it does)
            kept.text = part.text
            elements.append(kept)
            continue
        listing: lxml_html.HtmlElement | None = None
        for piece in part.pieces:
            if piece.kind == "item":
                if listing is None:
                    listing = lxml_html.Element("ul")
                    elements.append(listing)
                etree.SubElement(listing, "li").text = piece.text
                continue
            listing = None
            paragraph = lxml_html.Element("h6" if piece.kind == "heading" else "p")
            paragraph.text = piece.text
            elements.append(paragraph)
    parent = pre.getparent()
    assert parent is not None
    at = parent.index(pre)
    elements[-1].tail = pre.tail
    parent.remove(pre)
    for offset, element in enumerate(elements):
        parent.insert(at + offset, element)


#: Inline code elements whose markup inside is dropped (kept as its text).
_INLINE_CODE = ("code", "kbd", "samp", "tt")


#: What stands for a literal "*" of the page's text while Docling writes its Markdown (Docling escapes "_"
#: but not "*", and "/var/log/*/*.log" would read as an emphasis: "/var/log//.log"); ``literal_stars``
#: puts it back, escaped outside code. A private-use character: no page's text holds it.
LITERAL_STAR = "\ue02a"


#: What stands for a literal backslash of the page's text while Docling writes its Markdown: Docling escapes
#: "_" only, so a bare backslash before a quote mark or a bracket (GNU Awk's "to use a '\' as the field
#: separator") would read as a Markdown escape and vanish ("to use a ''"); ``literal_stars`` puts it back,
#: escaped outside code.
LITERAL_BACKSLASH = "\ue05c"


#: What stands for an em dash while Docling writes its Markdown: Docling writes every dash as a hyphen, and
#: an em dash set between words without spaces (Texinfo's "cannot be used&mdash;or at least") would read as
#: one hyphenated word ("used-or"); ``literal_dashes`` puts it back.
LITERAL_DASH = "\ue014"


#: An en dash that opens a word in lower case: docutils' "smart quotes" wrote an option's "--" as one
#: ("–soft-time-limit"), and Docling, which writes every dash as a hyphen, would name "-soft-time-limit",
#: an option no program has. Prose sets its en dashes between words and numbers ("10–20", "Paris–Rome").
_OPTION_DASH = re.compile(r"(?<![\w\u2013-])\u2013(?=[a-z][\w-]*[a-z0-9])")


def _text_as_written(main: lxml_html.HtmlElement) -> None:
    """Every text of the page, in one pass, as Docling must read it: each "*" replaced by
    ``LITERAL_STAR`` (see ``literal_stars``), in code too, since Docling writes inline code as a code span
    in a paragraph but as plain text in a definition's term or a table's cell (Celery's
    ``crontab(minute='*', hour='*')`` had read "crontab(minute='', hour=''"); each em dash replaced by
    ``LITERAL_DASH`` (see ``literal_dashes``); and each option's "--" that smart quotes made an en dash given
    back its two hyphens (``_OPTION_DASH``)."""
    _each_text(main, _as_written)


def _as_written(text: str) -> str:
    # (an icon font's glyph at a placeholder's code point is no star nor dash: dropped, as quotes drop it)
    text = text.replace(LITERAL_STAR, "").replace("*", LITERAL_STAR)
    text = text.replace(LITERAL_BACKSLASH, "").replace("\\", LITERAL_BACKSLASH)
    text = text.replace(LITERAL_DASH, "").replace("\u2014", LITERAL_DASH)
    return _OPTION_DASH.sub("--", text) if "\u2013" in text else text


def literal_dashes(text: str) -> str:
    """Docling's Markdown (or title) of a cleaned page, its em dashes put back."""
    return text.replace(LITERAL_DASH, "\u2014")


#: A fenced code block's fence, and an inline code span (Markdown's: a run of backticks closed by as many).
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)")


def literal_stars(text: str) -> str:
    """Docling's Markdown of a cleaned page, its literal stars and backslashes put back: as themselves in
    code (a code span, a fenced block), escaped as Markdown writes them everywhere else."""
    out: list[str] = []
    fence: str | None = None
    for line in text.splitlines(keepends=True):
        opening = _FENCE.match(line)
        if fence is not None or opening:
            out.append(_in_code(line))
            if fence is None:
                fence = opening.group(1) if opening else None
            elif opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = None
            continue
        last = 0
        for span in _CODE_SPAN.finditer(line):
            out.append(_escaped(line[last : span.start()]))
            out.append(_in_code(span.group()))
            last = span.end()
        out.append(_escaped(line[last:]))
    return "".join(out)


def _in_code(text: str) -> str:
    return text.replace(LITERAL_STAR, "*").replace(LITERAL_BACKSLASH, "\\")


def _escaped(text: str) -> str:
    return text.replace(LITERAL_STAR, "\\*").replace(LITERAL_BACKSLASH, "\\\\")


def in_title(text: str) -> str:
    """A title as Docling gave it, its literal stars and backslashes put back (a title is plain text)."""
    return text.replace(LITERAL_STAR, "*").replace(LITERAL_BACKSLASH, "\\")


def _inline_code(main: lxml_html.HtmlElement) -> None:
    """Inline code is one run of text: a placeholder marked up inside it (Texinfo's
    ``<code>${!<var>name</var>[@]}</code>``) would otherwise split it into three code spans around an
    emphasis, and read as ``${! name [@]}``."""
    for code in list(main.iter(*_INLINE_CODE)):
        if len(code) and code.getparent() is not None:
            text = code.text_content()
            for child in list(code):
                code.remove(child)
            code.text = text


#: Inline elements Docling's HTML backend writes as runs of their own, set apart by spaces. Not a link (the
#: visible text keeps its spacing right and knows it is a link's text), a quotation (its marks), nor a
#: superscript or subscript ("10<sup>6</sup>" is no "106").
_INLINE = frozenset(
    "abbr acronym b big cite code dfn em font i kbd mark s samp small span strong tt u var".split()
)


def _touching_inline(main: lxml_html.HtmlElement) -> None:
    """Inline elements written against each other read as one run of text: Sphinx sets a signature's
    prefix and name in two spans ("<span>Task.</span><span>retry_backoff_max</span>"), and Docling's runs,
    set apart by spaces, read "Task. retry_backoff_max"."""
    for parent in list(main.iter()):
        children = list(parent)
        k = 0
        while k < len(children):
            run = [children[k]]
            while (
                _mere_inline(run[-1])
                and not run[-1].tail
                and k + len(run) < len(children)
                and _mere_inline(children[k + len(run)])
            ):
                run.append(children[k + len(run)])
            k += len(run)
            if len(run) < 2 or not _mere_inline(run[0]):
                continue
            text = "".join(e.text_content() for e in run) + (run[-1].tail or "")
            previous = run[0].getprevious()
            if previous is not None:
                previous.tail = (previous.tail or "") + text
            else:
                parent.text = (parent.text or "") + text
            for element in run:
                parent.remove(element)


def _mere_inline(element: lxml_html.HtmlElement) -> bool:
    """An inline element that holds only text and other inline elements."""
    return (
        isinstance(element.tag, str)
        and element.tag in _INLINE
        and all(isinstance(c.tag, str) and c.tag in _INLINE for c in element.iterdescendants())
    )


def _glued_inline(main: lxml_html.HtmlElement) -> None:
    """An inline element written against the text beside it is read as that text: Docling sets every
    inline run apart by spaces, so "the <span>smtp_receive_timeout</span>." read "the smtp_receive_timeout
    .", "IPv<span>x</span>" read "IPv x" and "<em>Warning</em>: Do not" read "Warning : Do not" (Exim's
    manual, and every manual that marks up names inline). Its markup (emphasis, a code span, a link's
    target) is what a quote drops anyway; an element with spaces around it keeps its markup."""
    root = main.getroottree().getroot()
    for element in list(main.iter(*_INLINE)):
        parent = element.getparent()
        if parent is None or element is main or element.getroottree().getroot() is not root:
            continue  # inside an element already read as text
        if any(child.tag not in _INLINE for child in element.iter() if child is not element):
            continue  # an image or a block inside: not mere text
        before_element = element.getprevious()
        while (
            before_element is not None and not isinstance(before_element.tag, str) and not before_element.tail
        ):
            before_element = before_element.getprevious()  # a comment between them is no space
        before = (before_element.tail if before_element is not None else parent.text) or ""
        after = element.tail or ""
        if not ((before and not before[-1].isspace()) or (after and not after[0].isspace())):
            continue
        text = element.text_content() + after
        if before_element is not None:
            before_element.tail = (before_element.tail or "") + text
        else:
            parent.text = (parent.text or "") + text
        parent.remove(element)


def _root_headings(main: lxml_html.HtmlElement, title: str | None, removed: Counter[str]) -> None:
    headings = [h for h in main.iter(*_HEADING_TAGS)]
    if not headings or not title:
        return
    top = min(int(h.tag[1]) for h in headings)
    tops = [h for h in headings if int(h.tag[1]) == top]
    if len(tops) == 1 and tops[0] is headings[0]:
        return
    for heading in headings:
        if _same_text(heading.text_content(), title) and int(heading.tag[1]) == top:
            _remove(heading)  # its content now sits under the title itself
            removed["heading equal to the title"] += 1
            continue
        heading.tag = f"h{min(int(heading.tag[1]) - top + 2, 6)}"
    root = lxml_html.Element("h1")
    root.text = title
    root.tail = main.text
    main.text = None
    main.insert(0, root)
    removed["title made the root heading"] += 1


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _escape(text: str | None) -> str:
    return (text or "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
