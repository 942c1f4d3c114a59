"""A quote as one line of a claim: the rows of a table, the items of a list and the lines of a record
joined by semicolons, a term's description after its term, a command after the words that introduce it.

A claim is read as a line of a report, and a quote's line breaks (a table's rows, a list's items) would break
the report's list; what they separate is kept apart by the punctuation a writer would use.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from sleuth.agent.research.code_lines import split_code
from sleuth.agent.research.quotes import labels_only
from sleuth.agent.research.text import STOPWORDS
from sleuth.ingest.term_lines import defined_name, is_term_line

__all__ = ["OVERLAP_WORDS", "SENTENCE_BREAK", "flat", "one_line"]

#: Where one sentence of a quote ends and the next begins.
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(])")
#: A footnote's label on a line of its own over its text: "[1]", "*", "†" (not a number alone: HTTP's "100"
#: over "Continue" is a term).
_FOOTNOTE_LABEL = re.compile(r"\[\d{1,3}\]|[*†‡]")
#: A sentence of at least this many words that two quotes of one passage share makes them one claim.
OVERLAP_WORDS = 6


def one_line(quote: str, code_at: int | None = None) -> str:
    """A quote as a claim's text: one line (a term over its description as "term — description", a list's
    items or a table's rows joined by semicolons), except the code an introducing sentence ends the quote
    with, which keeps its lines after a line break ("... as in this example:\nfixed_login:\n  driver =
    plaintext"): joined by semicolons, a configuration reads as other, wrong configuration. ``code_at``:
    where that code starts, where the source said (``Evidence.code_at``); else it is told from the text."""
    head, code = split_code(quote, code_at)
    text = _one_line(head)
    return f"{text}\n{code}" if code else text


def flat(text: str) -> str:
    """A claim's text on one line (its code lines joined by semicolons), for one-line summaries."""
    lines = [" ".join(line.split()) for line in text.split("\n") if line.strip()]
    return (
        lines[0] + "".join((" " if a.endswith(":") else "; ") + b for a, b in pairwise(lines))
        if lines
        else ""
    )


def _one_line(quote: str) -> str:
    lines = [" ".join(line.split()) for line in quote.splitlines() if line.strip()]
    if len(lines) > 1 and _FOOTNOTE_LABEL.fullmatch(lines[0]):
        lines = lines[
            1:
        ]  # a footnote's label names nothing ("[1] — This is the usual layout." had read as a term)
    record = _record(lines[:2])
    if record is not None and not any(_a_row(line) for line in lines[2:]):
        # a parameter's table, then its description: "type: integer; default: 70% of queue.size; ...; This
        # applies to disk-assisted queues, only."
        return "; ".join([record, _one_line("\n".join(lines[2:]))]) if lines[2:] else record
    joined = lines[0] if lines else ""
    if (
        len(lines) > 1
        and not _a_row(joined)
        and not joined.endswith(_STOPS)
        and (not _runs_on(joined) or defined_name(joined) is not None)  # ("... lr.default-reduction when")
    ):
        # The heading or the term a quote opens with ("DATA_UPLOAD_MAX_MEMORY_SIZE — Default: ...",
        # "mod_ratelimit — Bandwidth Rate Limiting for Clients"); several names of one option are one term
        # ("-u, --include-untracked — When used with ...").
        terms = 1
        # (a definition's line, "Directive: %define lr.type type", names one thing: the list under it is
        # its description)
        # ... and so are term lines one over the other, one description under them all (HAProxy's "inter
        # <delay>", "fastinter <delay>", "downinter <delay>")
        while (
            terms < len(lines) - 1
            and (_names_a_term(lines[terms]) or (is_term_line(lines[0]) and is_term_line(lines[terms])))
            and defined_name(lines[0]) is None
        ):
            terms += 1
        if _names_a_term(lines[terms]) or (terms > 1 and is_term_line(lines[terms])):
            terms = 1  # a list of short items, no description: only the first line is a term
        term = ", ".join(line.removeprefix("• ") for line in lines[:terms])
        said = lines[terms].removeprefix("• ")
        # An admonition's label is no term: "Note: Preferred setting of this variable is DEB-DEFAULT ..."
        label = term.rstrip(":").casefold() in _ADMONITIONS
        joined = f"{term.rstrip(':')}: {said}" if label else f"{term} — {said}"
        lines = lines[terms:]
    paired = _alternates([line for line in lines if line.startswith("• ")])
    for before, line in pairwise(lines):
        if paired and _names_a_term(before) and _describes(line):
            # a definition list under a lead-in, its terms and descriptions as items of one depth ("fields:
            # • major • An optional integer representing the major version. • minor ..."): each term with
            # its description
            joined += " — " + line.removeprefix("• ")
            continue
        joined += (" " if _goes_on(joined, before, line) else "; ") + line
    return joined


#: The labels of admonitions, which converters write as a line of their own over the note.
_ADMONITIONS = frozenset(
    ["note", "notes", "warning", "tip", "hint", "important", "caution", "attention", "danger", "see also"]
)


def _describes(line: str) -> bool:
    """An item that says something of the term above it: a statement, not one more name."""
    return line.startswith("• ") and line.endswith((".", "!", "?")) and not _names_a_term(line)


def _alternates(items: Sequence[str]) -> bool:
    """Items that alternate a term and its description, from the first to the last: a definition list
    written flat ("• Linux • macOS • Windows support is experimental." is a list of three, not a term and
    its description)."""
    return (
        len(items) >= 2
        and len(items) % 2 == 0
        and all(_names_a_term(t) and _describes(d) for t, d in zip(items[::2], items[1::2], strict=True))
    )


def _record(lines: Sequence[str]) -> str | None:
    """A table of a header and one row as its labels and values ("type: binary; default: off; mandatory:
    no"): joined row by row, "type | default | mandatory; binary | off | no" makes the reader count
    columns."""
    if len(lines) != 2 or not labels_only(lines[0]) or not _a_row(lines[1]):
        return None
    labels = [c.strip() for c in lines[0].split(" | ")]
    values = [c.strip() for c in lines[1].split(" | ")]
    if (
        len(labels) != len(values)
        or len(labels) < 2
        or any(a == b for a, b in zip(labels, values, strict=True))
    ):
        return None  # (a label that is its own value: two rows of data)
    return "; ".join(f"{label}: {value}" for label, value in zip(labels, values, strict=True))


def _goes_on(joined: str, before: str, line: str) -> bool:
    """Whether ``line`` reads on after ``before`` with a space: after a lead-in or a clause, after a
    sentence going on, or a paragraph of sentences after a paragraph's last sentence (items and rows are
    set apart by semicolons)."""
    if joined.endswith((":", ";", ",")) or (_runs_on(before) and not before.startswith("• ")):
        return True  # (an item is no sentence going on: "• Language(s): all" ends on "all")
    if joined.endswith((".", "!", "?")) and line.startswith("• "):
        return True  # after an item that ends its sentence ("... with 404. • On — allow %2F ...", no ".;")
    if line[:1].islower() and line.endswith((".", "!", "?")) and len(line.split()) >= CONTINUED_WORDS:
        # the sentence an example interrupted goes on ("This means that using: set_property(...) with a
        # compiler which does not support -std=gnu++11 ... will not result in an error or warning.")
        return " | " not in line
    return (
        before.endswith((".", "!", "?"))
        and not before.startswith("• ")
        and not line.startswith("• ")
        and " | " not in before + line
        and line[:1].isupper()
    )


_STOPS = (".", ":", ";", ",", "!", "?")
#: A line in lower case of at least this many words, ending on a stop, is prose going on (no code line).
CONTINUED_WORDS = 6
_BRACKETED = re.compile(r"\[[^\]]*\]")


def _a_row(line: str) -> bool:
    """A table's row: cells set apart by bars (a term's choices in brackets, "state [ ready | drain | maint
    ]", are no cells)."""
    return " | " in _BRACKETED.sub("", line)


#: Words a title never ends on but a sentence that goes on into the code under it does ("Associative
#: arrays are created using" / "declare -A name").
_RUNS_ON = STOPWORDS | {"using"}


def _runs_on(line: str) -> bool:
    """A first line that is a sentence going on into the next line, not a term over its description."""
    last = line.rsplit(None, 1)[-1].casefold() if line.strip() else ""
    return len(line.split()) > 2 and last in _RUNS_ON


def _names_a_term(line: str) -> bool:
    """A list item of a few words without a stop: one more name of the term above it."""
    return line.startswith("• ") and len(line.split()) <= 5 and not line.endswith(_STOPS)
