"""The visible text of chunk Markdown: what a reader sees when it is rendered, with a map back to the source.

A quote in a report must read as the document reads, not as its Markdown source: no link targets
(``[VACUUM](sql-vacuum.html)`` reads "VACUUM"), no escapes (``vacuum\\_failsafe\\_age``), no emphasis markers,
no code ticks, no heading hashes or table pipes at the ends of a row. ``visible_text`` renders a chunk's
Markdown to that text block by block (headings, paragraphs, list items, table rows, code lines, quotes), keeps
for every character the offset of the source character it came from (so a quote's page, which is known by
source offset, can be found), and says what kind of block each stretch is (a sentence may end a paragraph
with a colon and the list it introduces follows).

It is deliberately a small renderer for the Markdown the converters and the chunker write (CommonMark plus
GFM tables), not a general one: markdown-it-py gives block structure but no character offsets for inline
markup, and a quote must be a verbatim slice of this text.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

__all__ = ["Block", "Visible", "visible_text"]

_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+")
_HEADING_TAIL = re.compile(r"\s+#+\s*$")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_BULLET = re.compile(r"^(\s*)([-*+])\s+")
#: A bullet the page wrote as the item's first character ("- ", "• ", "– ").
_SHOWN_MARKER = re.compile(r"[-•–—*]\s+")
_ORDERED = re.compile(r"^(\s*)(\d{1,9}[.)])\s+")
_QUOTE = re.compile(r"^\s{0,3}(>\s?)+")
#: A paragraph of one line in strong emphasis and nothing else: the page's own title over what follows.
_STRONG_LINE = re.compile(r"^(\*\*|__)(?!\s)(?:(?!\1).)+(?<!\s)\1$")
#: A FAQ's number before its question: "(12) ", "Q: ", "Q12. ".
_FAQ_NUMBER = re.compile(r"^(?:\(\d{1,3}\)|Q\d{0,3}[.:)])\s+\S")
#: An image's alt text that is a file's path or name, not words ("figs/example-reduce", "logo.png").
_A_PATH = re.compile(r"[\w.-]*/[\w./-]*|[\w-]+\.(?:png|jpe?g|gif|svg|webp|bmp|eps|pdf|tiff?)", re.I)
#: ... also as the caption Docling writes over the placeholder ("figs/example-reduce\n\n<!-- image -->"), and
#: a caption of a word or two there, an icon's alt text (Apache's "top" arrow after every section: "...
#: could be one of: • aes128 • aes256 top").
_PATH_CAPTION = re.compile(
    rf"(?:\A|(?<=\n\n))(?:[ \t]*(?:{_A_PATH.pattern})"
    # (a word or two, not a block: no heading, list or quote marker, no code indent, no stop at its end)
    r"|[ \t]{0,3}(?![#>*+-]|\d+[.)]|```|~~~)[^\s<>|]*[^\s<>|.!?:;,](?:[ \t][^\s<>|]*[^\s<>|.!?:;,])?)"
    r"[ \t]*\n(?:[ \t]*\n)*"
    r"(?=[ \t]*<!--\s*image\s*-->)",
    re.I,
)


def _blanked(found: re.Match[str]) -> str:
    """What ``found`` matched as spaces, its line breaks kept (offsets and blocks stay where they were)."""
    return re.sub(r"[^\n]", " ", found.group(0))


#: A comment, and an image Docling left as its label and a placeholder ("[Important]  <!-- image -->": a
#: manual's admonition icon), which the page shows as a picture, not as words.
_COMMENT = re.compile(r"(?:\[[^\[\]\n]{1,40}\][ \t]*)?<!--\s*image\s*-->|<!--.*?-->", re.S)
#: A character reference ("&gt;", "&#124;", "&#xf17a;").
_ENTITY_PATTERN = r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
#: Inline markup, tried in this order at each position.
_INLINE = re.compile(
    # A code span of one tick: text that neither opens nor closes on a space and holds no single tick.
    # Docling writes such code without spaces inside its ticks and leaves a page's own backticks bare: m4's
    # quotes "'define(`a', `a')a'" are text, "`a', `" is no code span. Code that holds a tick Docling writes
    # between longer runs, padded with a space where it opens or closes on one ("`` `foo' ``"): a run of two
    # ticks or more closes at the next run as long (CommonMark's rule).
    r"(?P<code>(?<!`)`(?!`)(?!\s)(?P<code_text>(?:[^`]|``+)+?)(?<![\s`])`(?!`)"
    r"|(?<!`)(?P<long_ticks>``+)(?!`)(?P<code_text2>.+?)(?<!`)(?P=long_ticks)(?!`))"
    r"|(?P<image>!\[(?P<alt>[^\]]*)\]\([^)]*\))"
    r"|(?P<link>\[(?P<link_text>(?:[^\[\]]|\[(?:[^\[\]]|\[[^\[\]]*\])*\])+)\](?:\([^)]*\)|\[[^\]]*\]))"
    r"|(?P<auto><(?P<auto_url>(?:https?|mailto|ftp):[^>\s]+)>)"
    r"|(?P<tag></?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>)"
    rf"|(?P<entity>{_ENTITY_PATTERN})"
    # A backslash before an entity is the page's own backslash, not an escape of the "&": Docling writes
    # a Windows prompt ``...\>`` as ``...\&gt;`` (it escapes "<", ">" and "&" as entities and escapes
    # nothing with a backslash but "_"), and the page shows ``...\>``, not "...&gt;".
    rf"|(?P<escape>\\(?!{_ENTITY_PATTERN})"
    r"(?P<escaped>[!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~]))"
    r"|(?P<strong>(?<![\w*\\])\*\*\*(?=[^\s*])|(?<=[^\s*\\])\*\*\*(?![\w*])|(?<![\w*\\])\*\*(?=\S)|(?<=\S)\*\*(?![\w*])|(?<![\w_\\])__(?=\S)|(?<=\S)__(?![\w_]))"
    r"|(?P<em>(?<![\w*\\])\*(?=[^\s*])|(?<=[^\s*\\])\*(?![\w*])|(?<![\w_\\])_(?=[^\s_])|(?<=[^\s_\\])_(?![\w_]))"
)


#: A private-use character is a glyph of the page's icon font (Django's console tabs show "\uf17c" as the
#: Linux logo): it reads as nothing, or as an empty box, anywhere else.
_PRIVATE = re.compile("[\ue000-\uf8ff]")


@dataclass(frozen=True, slots=True)
class Block:
    """``text[start:end]`` of the visible text is one block: heading, paragraph, item, row, code or quote."""

    start: int
    end: int
    kind: str
    #: How far a list item is indented in the source (a nested item, such as a term's description in a
    #: definition list, is indented under its term); 0 for any other block.
    depth: int = 0


@dataclass
class Visible:
    """Visible text; ``offsets[i]`` is the source offset of ``text[i]`` (``offsets[len(text)]`` its end)."""

    text: str
    offsets: list[int]
    blocks: list[Block] = field(default_factory=list)
    #: ``linked[i]``: ``text[i]`` is a link's text (an index entry, a table of contents, a pointer).
    linked: list[bool] = field(default_factory=list)

    def linked_share(self, start: int, end: int) -> float:
        """Share of the letters and digits of ``text[start:end]`` that are a link's text."""
        marks = [
            self.linked[i] for i in range(max(start, 0), min(end, len(self.linked))) if self.text[i].isalnum()
        ]
        return sum(marks) / len(marks) if marks else 0.0

    def source_offset(self, index: int) -> int:
        return self.offsets[min(max(index, 0), len(self.offsets) - 1)]

    def block_at(self, index: int) -> Block | None:
        return next((b for b in self.blocks if b.start <= index < b.end), None)


class _Builder:
    def __init__(self) -> None:
        self.chars: list[str] = []
        self.offsets: list[int] = []
        self.blocks: list[Block] = []
        self.linked: list[bool] = []
        #: How many links the text being put stands in.
        self.in_link = 0

    def put(self, text: str, source: int) -> None:
        """``text`` copied from the source at ``source`` (one offset per character)."""
        if _PRIVATE.search(text):
            kept = [(ch, source + k) for k, ch in enumerate(text) if not _PRIVATE.match(ch)]
            self.chars.extend(ch for ch, _ in kept)
            self.offsets.extend(at for _, at in kept)
            self.linked.extend([self.in_link > 0] * len(kept))
            return
        self.chars.extend(text)
        self.offsets.extend(range(source, source + len(text)))
        self.linked.extend([self.in_link > 0] * len(text))

    def add(self, text: str, source: int) -> None:
        """``text`` that stands for the source character at ``source`` (a bullet, a separator)."""
        text = _PRIVATE.sub("", text)
        self.chars.extend(text)
        self.offsets.extend([source] * len(text))
        self.linked.extend([self.in_link > 0] * len(text))

    def block(self, start: int, kind: str, depth: int = 0) -> None:
        end = len(self.chars)
        while end > start and self.chars[end - 1].isspace():
            end -= 1
        if end > start:
            self.blocks.append(Block(start, end, kind, depth))

    def separate(self, source: int, paragraph: bool) -> None:
        if not self.chars:
            return
        while self.chars and self.chars[-1] in " \t":
            self.chars.pop()
            self.offsets.pop()
            self.linked.pop()
        gap = "\n\n" if paragraph else "\n"
        have = len(self.chars) - len("".join(self.chars).rstrip("\n"))
        if have < len(gap):
            self.add(gap[have:], source)

    def done(self, end: int) -> Visible:
        text = "".join(self.chars)
        trimmed = text.rstrip()
        return Visible(
            trimmed, [*self.offsets[: len(trimmed)], end], self.blocks, self.linked[: len(trimmed)]
        )


def _inline(out: _Builder, line: str, base: int) -> None:
    """One line's inline markup rendered: links to their text (a footnote's mark to nothing), escapes to
    their character, markers dropped; then the spaces a converter put between inline pieces and the
    punctuation around them taken out (``_tidy``)."""
    first = len(out.chars)
    spans: list[tuple[int, int]] = []
    _render(out, line, base, spans)
    _tidy(out, first, spans)


#: After a piece of code or a link, a space before these is the converter's ("`flex` 's", "ranges](x) .").
_CLOSING = frozenset(".,;:!?)]'’”")
#: Before one, a space after these, when they open (after a space or at the start), is the converter's.
_OPENING = frozenset("([‘“'\"")


def _tidy(out: _Builder, first: int, spans: list[tuple[int, int]]) -> None:
    """Docling writes a space on each side of inline code and links, whatever stands there in the page:
    Texinfo's quoted option "‘-Cfe’" reads "' -Cfe '", "flex's" reads "flex 's", and every sentence that
    ends on a link "ranges ." The page shows none of those spaces, so neither does its visible text."""
    drop: set[int] = set()
    chars = out.chars
    for start, end in spans:
        if end < len(chars) - 1 and chars[end] == " " and chars[end + 1] in _CLOSING:
            after = chars[end + 2] if end + 2 < len(chars) else " "
            # a closing mark, not the opening of the next quoted piece: "' -Cfe ' or ' -CFe '"
            if chars[end + 1] not in "'’" or not after.isalnum() or chars[end + 2 : end + 3] == ["s"]:
                drop.add(end)
        if start - 2 >= first and chars[start - 1] == " " and chars[start - 2] in _OPENING:
            before = chars[start - 3] if start - 3 >= first else " "
            if before.isspace():
                drop.add(start - 1)
    for index in sorted(drop, reverse=True):
        del chars[index]
        del out.offsets[index]
        del out.linked[index]


def _render(out: _Builder, line: str, base: int, spans: list[tuple[int, int]]) -> None:
    pos = 0
    found = list(_INLINE.finditer(line))
    literal = _unpaired(line, found)
    for m in found:
        if m.start() > pos:
            out.put(line[pos : m.start()], base + pos)
        kind = _first(m)
        if m.start() in literal:
            out.put(m.group(0), base + m.start())  # "FILE *yyin": a star, not emphasis
        elif kind == "code":
            at = len(out.chars)
            inner = "code_text" if m.group("code_text") is not None else "code_text2"
            code, start = m.group(inner), m.start(inner)
            if inner == "code_text2" and len(code) > 2 and code[0] == " " and code[-1] == " ":
                code, start = code[1:-1], start + 1  # the padding around a tick at either end
            _code(out, code, base + start)
            spans.append((at, len(out.chars)))
        elif kind == "image":
            if not _A_PATH.fullmatch(m.group("alt").strip()):
                out.put(m.group("alt"), base + m.start("alt"))
            # (an alt text that is the image's file name says nothing: Texinfo's "figs/example-reduce")
        elif kind == "link":
            if _invisible_link(m):
                rest = line[m.end() : m.end() + 1]
                if out.chars and out.chars[-1] == " " and (rest == " " or rest in _CLOSING):
                    # the mark's own space goes with it ("are run. [38](#FOOT38) However")
                    out.chars.pop()
                    out.offsets.pop()
                    out.linked.pop()
                spans.append((len(out.chars), len(out.chars)))  # ... and the converter's before a "."
            else:
                at = len(out.chars)
                out.in_link += 1
                _render(out, m.group("link_text"), base + m.start("link_text"), spans)
                out.in_link -= 1
                spans.append((at, len(out.chars)))
        elif kind == "auto":
            out.put(m.group("auto_url"), base + m.start("auto_url"))
        elif kind == "entity":
            out.add(html.unescape(m.group("entity")), base + m.start())  # "&#124;" reads as "|"
        elif kind == "escape":
            out.put(m.group("escaped"), base + m.start("escaped"))
        # tags, emphasis and strong markers render as nothing
        pos = m.end()
    if pos < len(line):
        out.put(line[pos:], base + pos)


_ENTITY = re.compile(_ENTITY_PATTERN)


def _unpaired(line: str, found: list[re.Match[str]]) -> set[int]:
    """Where a single ``*`` or ``_`` that could open or close emphasis has no partner on the line: it is the
    text's own character. Converters leave a C declaration's star unescaped inside bold ("**FILE *yyin**"),
    and a pointer read as a marker would change what the quote says ("FILE yyin")."""
    open_at: dict[str, list[int]] = {"*": [], "_": []}
    paired: set[int] = set()
    markers = [m.start() for m in found if _first(m) == "em"]
    for at in markers:
        char = line[at]
        before = line[at - 1] if at > 0 else " "
        after = line[at + 1] if at + 1 < len(line) else " "
        closes = not before.isspace() and not (after.isalnum() or after == char)
        opens = not after.isspace() and not (before.isalnum() or before in (char, "\\"))
        if closes and open_at[char]:
            # With the first open one: a converter never nests emphasis, so a star between the two is the
            # text's ("*( FILE *file, int size )*", Texinfo's emphasised argument list).
            paired.update((open_at[char][0], at))
            open_at[char].clear()
        elif opens:
            open_at[char].append(at)
    return set(markers) - paired


def _code(out: _Builder, text: str, base: int) -> None:
    """Code as written, but for character references: converters write a pipe inside a table cell's code as
    ``&#124;`` (a bare one would end the cell), and the page shows ``|``."""
    pos = 0
    for m in _ENTITY.finditer(text):
        out.put(text[pos : m.start()], base + pos)
        out.add(html.unescape(m.group(0)), base + m.start())
        pos = m.end()
    out.put(text[pos:], base + pos)


#: A footnote's mark: a bracketed number or letter ("[11]", "[a]") linking within the page.
_FOOTNOTE_TEXT = re.compile(r"\[(?:\d{1,3}|[a-z])\]")
#: ... or a bare number (a superscript the converter wrote as text) linking to a footnote's anchor: Texinfo's
#: ``[38](#FOOT38)``, Pandoc's ``#fn1``, DocBook's ``#ftn.x``.
_BARE_FOOTNOTE = re.compile(r"\d{1,3}")
_FOOTNOTE_TARGET = re.compile(r"\(#(?:foot|fn|ftn|note)", re.I)
#: What a permalink next to a heading or a term shows ("HISTSIZE ¶" in Texinfo's HTML, Sphinx's "¶").
_PERMALINK_TEXT = re.compile(r"[*_]*[¶§#🔗]?[*_]*")


def _invisible_link(m: re.Match[str]) -> bool:
    """A link within the page that the sentence does not say: a footnote's mark (DocBook's
    ``[[11]](#ftn.idm1938)``, shown as a superscript: a quote would carry "resolution [11] ." for nothing) or
    a permalink (Texinfo's ``[**¶**](#index-HISTSIZE)``: "HISTSIZE ¶ — ..."). A bare number is a footnote's
    mark only where it links to a footnote (GNU Awk's "... after the BEGIN rules are run. [38](#FOOT38)
    However, ..." read "run. 38 However"); elsewhere it may be what the sentence says ("step [3](#s3)")."""
    target = m.group("link")[len(m.group("link_text")) + 2 :]
    text = m.group("link_text")
    return target.startswith("(#") and (
        _FOOTNOTE_TEXT.fullmatch(text) is not None
        or _PERMALINK_TEXT.fullmatch(text) is not None
        or (_BARE_FOOTNOTE.fullmatch(text) is not None and _FOOTNOTE_TARGET.match(target) is not None)
    )


def _first(m: re.Match[str]) -> str:
    for name in ("code", "image", "link", "auto", "tag", "entity", "escape", "strong", "em"):
        if m.group(name) is not None:
            return name
    return ""


def _cells(out: _Builder, line: str, base: int) -> None:
    """A table row as its cells, separated by " | " (the outer pipes are frame, not text)."""
    body = line.strip()
    lead = line.index(body[0]) if body else 0
    if body.startswith("|"):
        body, lead = body[1:], lead + 1
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells = re.split(r"(?<!\\)\|", body)
    if len(cells) > 1 and len({c.strip() for c in cells}) == 1:
        cells = cells[:1]  # a heading spanning the table, repeated in every cell by the converter
    offset = lead
    first = True
    for cell in cells:
        stripped = cell.strip()
        if stripped:
            if not first:
                out.add(" | ", base + offset)
            _inline(out, stripped, base + offset + cell.index(stripped))
            first = False
        offset += len(cell) + 1


def _words_in(text: str) -> list[str]:
    return re.findall(r"[^\W\d_]{2,}", text)


def _a_title(line: str, after: str) -> bool:
    """Whether ``line``, opening a paragraph, is all of it, in strong emphasis, and a FAQ's question: it asks
    ("**(6) Is SQLite threadsafe?**") or opens with its number ("**(12) I deleted a lot of data but ...**").
    A statement in bold ("**You must never enable debug in production.**") is the page's text, stressed."""
    if not _STRONG_LINE.match(line) or not (after == "" or after.lstrip(" \t").startswith(("\n", "\r"))):
        return False
    inner = line[2:-2].strip()
    # (a question has words: "**$?**" is GNU make's variable, a term)
    return (inner.endswith("?") and len(_words_in(inner)) >= 3) or _FAQ_NUMBER.match(inner) is not None


def visible_text(markdown: str) -> Visible:
    """The rendered text of ``markdown`` with a source offset per character and its blocks."""
    out = _Builder()
    masked = _COMMENT.sub(lambda m: " " * len(m.group(0)), _PATH_CAPTION.sub(_blanked, markdown))
    offset = 0
    in_code = False
    block_start = 0
    block_kind = ""
    block_depth = 0

    def close() -> None:
        nonlocal block_kind, block_depth
        if block_kind:
            out.block(block_start, block_kind, block_depth)
        block_kind = ""
        block_depth = 0

    def open_block(kind: str, source: int, paragraph: bool = True) -> None:
        nonlocal block_start, block_kind
        close()
        out.separate(source, paragraph)
        block_start = len(out.chars)
        block_kind = kind

    for raw in masked.splitlines(keepends=True):
        start = offset
        offset += len(raw)
        line = raw.rstrip("\r\n")
        if _FENCE.match(line):
            close()
            in_code = not in_code
            continue
        if in_code:
            open_block("code", start, paragraph=False)
            _code(out, line, start)
            continue
        if _TABLE_RULE.match(line) and block_kind == "row":
            continue  # the rule under a table's header: rows go on
        if not line.strip() or _TABLE_RULE.match(line) or _RULE.match(line):
            close()
            continue
        heading = _HEADING.match(line)
        if heading:
            open_block("heading", start)
            body = _HEADING_TAIL.sub("", line[heading.end() :])
            _inline(out, body, start + heading.end())
            close()
            continue
        if line.lstrip().startswith("|") and line.count("|") >= 2:
            open_block("row", start, paragraph=block_kind != "row")
            _cells(out, line, start)
            continue
        quote = _QUOTE.match(line)
        if quote:
            if block_kind != "quote":
                open_block("quote", start)
            else:
                out.add(" ", start)
            _inline(out, line[quote.end() :], start + quote.end())
            continue
        bullet, ordered = _BULLET.match(line), _ORDERED.match(line)
        if bullet or ordered:
            marker = bullet or ordered
            assert marker is not None
            open_block("item", start, paragraph=block_kind not in ("item", "paragraph"))
            block_depth = len(line) - len(line.lstrip())
            out.add("• " if bullet else f"{marker.group(2)} ", start + marker.start(2))
            block_start = len(out.chars)  # the item is its text; the marker only shows where it starts
            # A marker the page wrote as text in a list without bullets (Texinfo's "@itemize @minus":
            # ``<li>- If ...``, which Docling writes "- - If ...") is a marker too, not the item's text.
            shown = _SHOWN_MARKER.match(line, marker.end())
            at = shown.end() if shown else marker.end()
            _inline(out, line[at:], start + at)
            continue
        # Indented code is told by the source line (a masked comment or icon at a line's start is no indent).
        if markdown[start : start + 4] == "    " and block_kind not in ("paragraph", "item"):
            open_block("code", start, paragraph=block_kind != "code")
            _code(out, line[4:], start + 4)
            continue
        stripped = line.lstrip()
        lead = len(line) - len(stripped)
        if block_kind in ("paragraph", "item"):
            out.add(" ", start)  # a soft line break renders as a space
        elif _a_title(stripped.rstrip(), masked[offset:]):
            # A FAQ's question in bold ("**(12) I deleted a lot of data but the database file did not get any
            # smaller. Is this a bug?**") is the title of the answer under it, not a statement: a heading.
            open_block("heading", start)
            _inline(out, stripped.rstrip(), start + lead)
            close()
            continue
        else:
            open_block("paragraph", start)
        _inline(out, stripped.rstrip(), start + lead)
    close()
    return out.done(len(markdown))
