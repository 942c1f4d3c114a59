"""Per-element split strategies that keep every piece under a token limit.

Each strategy cuts an element into *units* (character ranges of its text with their token counts), then packs
consecutive units greedily into pieces. Pieces are verbatim slices of the source, so nothing is rewritten; the
only text ever added is structure a reader needs to make sense of a piece on its own: the header rows of a
split table and the fences of a split code block.

Cut points, most preferred first: list items, table rows and code lines (by element type); then sentences,
clauses and words; then, for text with no white space at all (a 2,000-character URL, CJK prose), token
boundaries, checked by re-encoding because a word cut in two may tokenize differently.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from sleuth.ingest.markdown_tree import Element, ElementKind, ListItem
from sleuth.ingest.tokens import TokenCounter, TokenSpans

_SENTENCE_END = re.compile(r"(?:[.!?…]+[\"'”’)\]]*\s+|[。！？]+[」』”’）]*\s*)")
_CLAUSE_END = re.compile(r"(?:[,;:]\s+|\s+[-–—]\s+|[，、；：]\s*)")
_WHITESPACE = re.compile(r"\s+")
_NON_SPACE = re.compile(r"\S")
_FENCE = re.compile(r"\s*(`{3,}|~{3,})")


@dataclass(frozen=True, slots=True)
class Unit:
    """``text[start:end]`` of an element, ``tokens`` long, starting and ending on non-white space."""

    start: int
    end: int
    tokens: int


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of an element: ``text`` plus the element-relative source range it covers."""

    text: str
    start: int
    end: int
    tokens: int


class _Splitter:
    def __init__(self, text: str, spans: TokenSpans, counter: TokenCounter) -> None:
        self.text = text
        self.spans = spans
        self.counter = counter

    def unit(self, start: int, end: int) -> Unit | None:
        """The non-white-space core of ``text[start:end]``, or None when it is blank."""
        m = _NON_SPACE.search(self.text, start, end)
        if m is None:
            return None
        start = m.start()
        while end > start and self.text[end - 1].isspace():
            end -= 1
        return Unit(start, end, self.spans.count(start, end))

    def line_unit(self, start: int, end: int) -> Unit | None:
        """Like ``unit`` but keeping the indentation at ``start``: it is structure in code and lists."""
        core = self.unit(start, end)
        if core is None:
            return None
        return Unit(start, core.end, core.tokens)

    def text_units(self, start: int, end: int, limit: int) -> list[Unit]:
        """Units of at most ``limit`` tokens: sentences, else clauses, else words, else token runs."""
        whole = self.unit(start, end)
        if whole is None:
            return []
        if whole.tokens <= limit:
            return [whole]
        return self._split_by(whole, limit, 0)

    def _split_by(self, whole: Unit, limit: int, level: int) -> list[Unit]:
        patterns = (_SENTENCE_END, _CLAUSE_END, _WHITESPACE)
        for depth in range(level, len(patterns)):
            cuts = [m.end() for m in patterns[depth].finditer(self.text, whole.start, whole.end)]
            cuts = [c for c in cuts if whole.start < c < whole.end]
            if not cuts:
                continue
            out: list[Unit] = []
            for a, b in zip([whole.start, *cuts], [*cuts, whole.end], strict=True):
                part = self.unit(a, b)
                if part is None:
                    continue
                out.extend([part] if part.tokens <= limit else self._split_by(part, limit, depth + 1))
            return out
        return self._token_runs(whole, limit)

    def _token_runs(self, whole: Unit, limit: int) -> list[Unit]:
        """Cut between tokens, shrinking a run until its re-encoded count fits."""
        out: list[Unit] = []
        first = self.spans.index_at(whole.start)
        stop = self.spans.index_at(whole.end)
        while first < stop:
            last = min(first + limit, stop)
            while True:
                cut = self.spans.starts[last] if last < stop else whole.end
                n = self.counter.count(self.text[self.spans.starts[first] : cut])
                if n <= limit or last - first <= 1:
                    break
                last -= 1
            out.append(Unit(self.spans.starts[first], cut, n))
            first = last
        return out


def pack(units: list[Unit], limit: int, first_limit: int | None = None) -> list[list[Unit]]:
    """Greedy packing of consecutive units; the first group may have a smaller budget."""
    groups: list[list[Unit]] = []
    current: list[Unit] = []
    used = 0
    budget = first_limit if first_limit is not None else limit
    for unit in units:
        if current and used + unit.tokens > budget:
            groups.append(current)
            current, used, budget = [], 0, limit
        if not current and unit.tokens > budget and not groups:
            # Even alone it does not fit the smaller first budget: start with the full one.
            budget = limit
        current.append(unit)
        used += unit.tokens
    if current:
        groups.append(current)
    return groups


def split_element(
    element: Element,
    spans: TokenSpans,
    counter: TokenCounter,
    limit: int,
    *,
    line_offsets: list[int],
    first_limit: int | None = None,
) -> list[Piece]:
    """Pieces of one element, each planned at or under ``limit`` tokens (the first under ``first_limit``)."""
    splitter = _Splitter(element.text, spans, counter)
    if element.kind is ElementKind.TABLE:
        return _split_table(splitter, limit, first_limit)
    if element.kind is ElementKind.CODE:
        return _split_code(splitter, element, limit, first_limit)
    if element.kind is ElementKind.LIST:
        base = line_offsets[element.line_start]

        def rel(line: int) -> int:
            return (
                min(line_offsets[line] - base, len(element.text))
                if line < len(line_offsets)
                else len(element.text)
            )

        units = _list_units(splitter, element.items, rel, limit)
        return _plain_pieces(splitter, pack(units, limit, first_limit))
    units = splitter.text_units(0, len(element.text), limit)
    return _plain_pieces(splitter, pack(units, limit, first_limit))


def _plain_pieces(splitter: _Splitter, groups: list[list[Unit]]) -> list[Piece]:
    text = splitter.text
    return [
        Piece(text[g[0].start : g[-1].end], g[0].start, g[-1].end, sum(u.tokens for u in g)) for g in groups
    ]


def _line_units(splitter: _Splitter, start: int, end: int, limit: int) -> list[Unit]:
    """One unit per non-blank line of ``text[start:end]``; a line over the limit is cut as text."""
    out: list[Unit] = []
    pos = start
    while pos < end:
        nl = splitter.text.find("\n", pos, end)
        line_end = end if nl < 0 else nl
        line = splitter.line_unit(pos, line_end)
        if line is not None:
            out.extend([line] if line.tokens <= limit else splitter.text_units(pos, line_end, limit))
        pos = line_end + 1
    return out


def _split_table(splitter: _Splitter, limit: int, first_limit: int | None) -> list[Piece]:
    text = splitter.text
    first_nl = text.find("\n")
    second_nl = text.find("\n", first_nl + 1) if first_nl >= 0 else -1
    if second_nl < 0:
        return _plain_pieces(splitter, pack(splitter.text_units(0, len(text), limit), limit, first_limit))
    # The header repeated over each piece; its rule compacted when it is too large to repeat: Docling pads
    # a rule to the width of its columns, a run of dashes the tokenizer counts a token a dash, and a header
    # of 400 tokens was no header to repeat (the table was cut as text, rows cut in two).
    header, header_tokens = text[:second_nl], splitter.spans.count(0, second_nl)
    if header_tokens > limit // 2:
        header = f"{text[:first_nl]}\n{_compact_rule(text[first_nl + 1 : second_nl])}"
        header_tokens = splitter.counter.count(header)
    budget = limit - header_tokens
    if header_tokens > limit // 2:
        # A header this large cannot be repeated usefully: the table is cut as text instead.
        return _plain_pieces(splitter, pack(splitter.text_units(0, len(text), limit), limit, first_limit))
    rows = _line_units(splitter, second_nl + 1, len(text), budget)
    first_budget = None if first_limit is None else max(first_limit - header_tokens, 1)
    groups = pack(rows, budget, first_budget)
    if not groups:
        return [Piece(text, 0, len(text), splitter.spans.count(0, len(text)))]
    first = groups[0]
    opening = f"{header}\n{text[first[0].start : first[-1].end]}"  # (the source's own header, or compacted)
    pieces = [Piece(opening, 0, first[-1].end, header_tokens + _sum(first))]
    for g in groups[1:]:
        body = text[g[0].start : g[-1].end]
        pieces.append(Piece(f"{header}\n{body}", g[0].start, g[-1].end, header_tokens + _sum(g)))
    return pieces


_RULE_CELL = re.compile(r"\s*(:?)-+(:?)\s*")


def _compact_rule(rule: str) -> str:
    """A table's rule with each cell's dashes cut to three, its alignment colons kept."""
    line = rule.strip()
    cells = line.strip("|").split("|")
    compact = []
    for cell in cells:
        m = _RULE_CELL.fullmatch(cell)
        compact.append(f"{m.group(1)}---{m.group(2)}" if m else cell.strip())
    opening, closing = ("|" if line.startswith("|") else ""), ("|" if line.endswith("|") else "")
    return opening + "|".join(compact) + closing


def _split_code(splitter: _Splitter, element: Element, limit: int, first_limit: int | None) -> list[Piece]:
    text = splitter.text
    if not element.fenced:
        groups = pack(_line_units(splitter, 0, len(text), limit), limit, first_limit)
        return _plain_pieces(splitter, groups)
    open_end = text.find("\n")
    if open_end < 0:
        return _plain_pieces(splitter, pack(splitter.text_units(0, len(text), limit), limit, first_limit))
    close_start = text.rfind("\n") + 1 if element.closed_fence else len(text)
    opening, closing = text[:open_end], text[close_start:]
    fence = _FENCE.match(opening)
    closing_fence = closing if closing else (fence.group(1) if fence else "```")
    fence_tokens = splitter.spans.count(0, open_end) + splitter.counter.count(closing_fence)
    budget = limit - fence_tokens
    if fence_tokens > limit // 2:
        return _plain_pieces(splitter, pack(splitter.text_units(0, len(text), limit), limit, first_limit))
    lines = _line_units(splitter, open_end + 1, close_start, budget)
    if not lines:
        return [Piece(text, 0, len(text), splitter.spans.count(0, len(text)))]
    first_budget = None if first_limit is None else max(first_limit - fence_tokens, 1)
    groups = pack(lines, budget, first_budget)
    pieces: list[Piece] = []
    for i, g in enumerate(groups):
        start = 0 if i == 0 else g[0].start
        end = len(text) if i == len(groups) - 1 else g[-1].end
        head = "" if i == 0 else opening + "\n"
        tail = "" if i == len(groups) - 1 else "\n" + closing_fence
        pieces.append(Piece(head + text[start:end] + tail, start, end, fence_tokens + _sum(g)))
    return pieces


def _list_units(
    splitter: _Splitter, items: list[ListItem], rel: Callable[[int], int], limit: int
) -> list[Unit]:
    """A whole item where it fits; else its own text, then its nested items, recursively."""
    out: list[Unit] = []
    for item in items:
        whole = splitter.line_unit(rel(item.line_start), rel(item.line_end))
        if whole is None:
            continue
        if whole.tokens <= limit:
            out.append(whole)
            continue
        pos = rel(item.line_start)
        for child in item.children:
            out.extend(splitter.text_units(pos, rel(child.line_start), limit))
            out.extend(_list_units(splitter, [child], rel, limit))
            pos = rel(child.line_end)
        out.extend(splitter.text_units(pos, rel(item.line_end), limit))
    return out


def _sum(units: list[Unit]) -> int:
    return sum(u.tokens for u in units)
