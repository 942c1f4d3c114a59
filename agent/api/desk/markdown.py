"""Markdown to safe HTML for the desk: section content, summaries, quotes and search hits.

Reports are Markdown written from verbatim evidence, and evidence is other people's text (web pages, HTML
manuals converted to Markdown). So the renderer is CommonMark with raw HTML off (an ``<script>`` in a quote is
shown as text), relative links shown as their text (``[MVCC](mvcc-intro.html)`` points into a manual that
is not served here), absolute web links opened in a new tab without referrer, and images shown by their alt
text (nothing is fetched from the internet at read time). Citation markers (``[3]``, and the
``[evidence:E…]`` form of older reports) become links to their evidence card, matched by a real inline rule,
so a ``[3]`` inside a code span stays code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_CITE = re.compile(r"\[(?:evidence:)?(\d{1,4}|E[0-9a-f]{6,16})\]")
_WEB = re.compile(r"^https?://", re.IGNORECASE)


def _cite_rule(state: StateInline, silent: bool) -> bool:
    """``[n]`` or ``[evidence:ID]`` naming a piece of evidence of this report: a ``cite`` token."""
    if state.src[state.pos] != "[":
        return False
    found = _CITE.match(state.src, state.pos)
    if found is None:
        return False
    numbers: Mapping[str, int] = state.env.get("numbers", {})
    count: int = state.env.get("count", 0)
    key = found.group(1)
    number = int(key) if key.isdigit() else numbers.get(key)
    if number is None or not 1 <= number <= count:
        return False
    if not silent:
        token = state.push("cite", "", 0)
        token.meta = {"n": number}
    state.pos = found.end()
    return True


def _render_cite(_: RendererHTML, tokens: Sequence[Token], idx: int, __: OptionsDict, ___: EnvType) -> str:
    n = tokens[idx].meta["n"]
    return f'<a class="cite" href="#ev-{n}" data-ev="{n}" aria-label="evidence {n}">[{n}]</a>'


def _render_link_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    href = str(token.attrGet("href") or "")
    if _WEB.match(href):
        token.attrSet("rel", "noopener noreferrer nofollow")
        token.attrSet("target", "_blank")
        return self.renderToken(tokens, idx, options, env)
    token.meta = {**(token.meta or {}), "plain": True}
    return '<span class="link" title="' + escape(href) + '">'


def _render_link_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    # The matching opener is the nearest unclosed link_open before this token.
    depth = 0
    for token in reversed(tokens[:idx]):
        if token.type == "link_close":
            depth += 1
        elif token.type == "link_open":
            if depth == 0:
                return "</span>" if (token.meta or {}).get("plain") else "</a>"
            depth -= 1
    return "</a>"


def _render_image(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    alt = self.renderInlineAsText(tokens[idx].children or [], options, env)
    return f'<span class="img-alt">[image{": " + escape(alt) if alt else ""}]</span>'


def _parser(citations: bool) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    if citations:
        md.inline.ruler.before("link", "cite", _cite_rule)
        md.add_render_rule("cite", _render_cite)
    md.add_render_rule("link_open", _render_link_open)
    md.add_render_rule("link_close", _render_link_close)
    md.add_render_rule("image", _render_image)
    return md


_WITH_CITATIONS = _parser(citations=True)
_PLAIN = _parser(citations=False)


def render(text: str, numbers: Mapping[str, int] | None = None, count: int = 0) -> str:
    """Block Markdown to HTML; with ``numbers`` (evidence id to number) and ``count`` (evidence records),
    citation markers become links to their cards."""
    if numbers is None and not count:
        return str(_PLAIN.render(text))
    env: dict[str, Any] = {"numbers": dict(numbers or {}), "count": count}
    return str(_WITH_CITATIONS.render(text, env))


def plain(text: str) -> str:
    """A heading or title as a reader sees it: Markdown's backslash escapes dropped (``gin\\_pending`` is
    ``gin_pending``); the text is still escaped as HTML where it is shown."""
    return _ESCAPED.sub(r"\1", text)


def parse(text: str) -> list[Token]:
    """The token stream of ``text`` (the DOCX export walks it)."""
    return _PLAIN.parse(text)


_OPEN, _CLOSE = "\ue000", "\ue001"


def render_marked(text: str, quote: str) -> tuple[str, bool]:
    """``text`` rendered with ``quote`` marked (``<mark>``) where it stands verbatim inside one block;
    False when it could not be marked (then the caller says the quote is in this passage)."""
    at = text.find(quote) if quote and "\n\n" not in quote.strip() else -1
    if at < 0 or _OPEN in text or _CLOSE in text:
        return _PLAIN.render(text), False
    marked = text[:at] + _OPEN + quote + _CLOSE + text[at + len(quote) :]
    html = _PLAIN.render(marked)
    if html.count(_OPEN) != 1 or html.count(_CLOSE) != 1:
        return _PLAIN.render(text), False
    return html.replace(_OPEN, "<mark>").replace(_CLOSE, "</mark>"), True
