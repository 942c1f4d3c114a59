"""The windows of one passage that answer a question, quoted as one span where they are steps of a procedure.

A passage's windows are judged one by one, and the best two became two claims: "The first thing ... is that
you need to load it: LoadModule http2_module ..." and "When you want to enable all HTTP/2 variants, you simply
write: Protocols h2 h2c http/1.1", with "The second directive you need to add ... is Protocols h2 http/1.1"
between them left out. Where the windows that answer take in what a sentence introduces (code, a list), they
are read as their author wrote them, one verbatim span. Its own module: admission (which judges windows)
uses it, and what makes a span readable as one claim (no code of several lines inside it, no heading, no
line that is not a statement at its head) is a concern of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from sleuth.agent.research.quotes import MAX_QUOTE_CHARS, Readable, Window, headings_in

__all__ = ["joined"]

#: Windows that may be quoted together with others of their passage (prose, and what it introduces).
_JOINABLE = ("sentence", "intro", "example")
#: Windows of a sentence with what it introduces (code, a list): a passage's steps.
_INTRODUCES = ("intro", "example")


def joined(
    scored: Sequence[tuple[tuple[int, Window], float]], readers: Sequence[Readable], floor: float
) -> list[tuple[tuple[int, Window], float]]:
    """``scored`` (passage index, window, score), best first, with the windows of one passage that each
    answer (``floor``), stand within one quote's length of each other and take in what a sentence introduces
    (code, a list) quoted as one span, from the first to the last, under the best one's score: the steps of
    a procedure are read in their order with the words between them, verbatim still ("The second directive
    you need to add to your server configuration is Protocols h2 http/1.1" between "... load it: LoadModule
    http2_module ..." and "When you want to enable all HTTP/2 variants, you simply write: Protocols h2 h2c
    http/1.1", three windows of one paragraph that answer how to enable HTTP/2). Sentences of prose stay
    claims of their own (each is one fact, routed to its section; two figures of one survey are each
    checked against another source's)."""
    ordered = sorted(scored, key=lambda item: -item[1])
    spans: dict[int, Window] = {}  # each passage's best window, grown by the others it takes in
    lead: dict[int, Window] = {}
    steps: set[int] = set()  # passages whose span takes in what a sentence introduces
    absorbed: set[tuple[int, Window]] = set()
    for (k, w), score in ordered:
        if score < floor or w.kind not in _JOINABLE or w.continues or not _a_statement(readers[k], w):
            continue
        span = spans.get(k)
        if span is None:
            spans[k] = lead[k] = w
            if w.kind in _INTRODUCES:
                steps.add(k)
            continue
        union = Window(min(span.start, w.start), max(span.end, w.end), "sentence")
        if (
            (k in steps or w.kind in _INTRODUCES)
            and union.end - union.start <= MAX_QUOTE_CHARS
            and not headings_in(readers[k], union)
            and not _code_within(readers[k], union)
        ):
            spans[k] = union
            steps.add(k)
            absorbed.add((k, w))
    # A window inside its passage's span says nothing the span does not (one the span took in after
    # passing it over, or a line that is no statement): only the span is quoted.
    return [
        ((k, spans[k] if lead.get(k) == w else w), score)
        for (k, w), score in ordered
        if (k, w) not in absorbed
        and (lead.get(k) == w or k not in steps or not (spans[k].start <= w.start and w.end <= spans[k].end))
    ]


def _code_within(reader: Readable, window: Window) -> bool:
    """Whether lines of code stand inside ``window`` with text after them: a claim is one line, and code
    joined into it reads as other code (a ``#`` comment swallows the lines after it: "# before process
    starts, ensure engine.dispose() is called engine.dispose() p = Process(...)"); one line of code reads as
    itself ("... is Protocols h2 http/1.1; This allows h2 ...")."""
    text = reader.text
    return any(
        window.start <= start
        and end < window.end
        and "\n" in text[start:end].strip()
        and text[end : window.end].strip()
        for start, end in _code_blocks(reader)
    )


def _code_blocks(reader: Readable) -> list[tuple[int, int]]:
    """Where ``reader.text``'s runs of code stand, line after line (the next chunk's too, when it is read on
    into)."""
    lines = [(b.start, b.end) for b in reader.visible.blocks if b.kind == "code"]
    if reader.following is not None:
        shift = len(reader.visible.text) + 2
        lines += [(b.start + shift, b.end + shift) for b in reader.following.blocks if b.kind == "code"]
    runs: list[tuple[int, int]] = []
    for start, end in lines:
        if runs and start - runs[-1][1] <= 1:  # the next line of the same block
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((start, end))
    return runs


def _a_statement(reader: Readable, window: Window) -> bool:
    """Whether a window reads as a whole statement (a sentence that ends as one, or what one introduces):
    a line that does not ("Available Languages: en | fr", a page's language menu) is quoted alone if at all,
    never at the head of another's quote."""
    return window.kind != "sentence" or reader.text[window.start : window.end].rstrip().endswith(_ENDS)


_ENDS = (".", "!", "?", ")", '"', "”", "’")
