"""report.json (the contract's format) and report.md (the same report for people).

Invariants the guards establish before a report exists, and that ``Report.check`` asserts again: every claim
names at least one evidence id and each id is in ``evidence``; a section with no evidence is ``not_found``
and has no claims; ``supported`` means at least ``min_evidence`` distinct pieces of evidence.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from sleuth.agent.research.code_lines import fenced, split_code
from sleuth.agent.research.request import (
    QUESTION_START,
    classify,
    counts_asks,
    leans_back,
    role_removed,
    sentences,
)
from sleuth.retrieval.provenance import DocumentRef, Provenance

Status = Literal["supported", "thin_evidence", "not_found", "stale"]
STATUS_MARK = {"supported": "●", "thin_evidence": "◐", "not_found": "○", "stale": "◷"}


class Claim(BaseModel):
    text: str
    evidence_ids: list[str]
    #: finding (a statement from evidence) or conflict (sources disagree).
    kind: Literal["finding", "conflict"] = "finding"


class SectionReport(BaseModel):
    id: str
    title: str
    required: bool
    min_evidence: int
    status: Status
    content: str
    claims: list[Claim]
    #: Typed facts of the section's ``fields`` (filled when an LLM extracts them; null otherwise).
    fields: dict[str, Any] | None = None
    note: str | None = None


#: The order of an evidence record's keys in report.json, as the contract lists them.
_EVIDENCE_KEYS = (
    "id", "kind", "chunk_id", "url", "document_id", "title", "section_path", "page", "quote", "date", "source"
)  # fmt: skip


class EvidenceRecord(Provenance):
    """A quote and where it stands (the contract's evidence record)."""

    id: str
    quote: str
    #: The quote runs on into this chunk, the next of its document (the list or table a sentence ending in
    #: ":" introduces stands there); null when the quote stands in ``chunk_id`` alone.
    continued_in: str | None = None
    #: Where the code the quote ends with starts in it, in characters (the example its sentence introduces,
    #: fenced in the source's Markdown): shown as lines, not as sentences. Absent when the quote ends on no
    #: code (or where the source did not say: then it is told from the text).
    code_at: int | None = None

    @model_serializer(mode="wrap")
    def _contract_order(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("code_at") is None:
            data.pop("code_at", None)  # (an addition to the contract's record, written only where it says)
        first = {key: data[key] for key in _EVIDENCE_KEYS if key in data}
        return {**first, **{k: v for k, v in data.items() if k not in first}}


class Source(DocumentRef):
    """A document the report cites, with the evidence it gave."""

    evidence_ids: list[str]


class Report(BaseModel):
    run_id: str
    query: str
    template: str
    created_at: str
    executive_summary: str
    sections: list[SectionReport]
    evidence: list[EvidenceRecord]
    sources: list[Source]
    metrics: dict[str, Any] = Field(default_factory=dict)

    def check(self) -> None:
        """Raise AssertionError when an invariant of the contract does not hold (a bug, never input)."""
        known = {e.id for e in self.evidence}
        for section in self.sections:
            cited = {i for c in section.claims for i in c.evidence_ids}
            assert all(c.evidence_ids for c in section.claims), f"{section.id}: a claim without evidence"
            assert cited <= known, f"{section.id}: unknown evidence {sorted(cited - known)}"
            if not cited:
                assert section.status == "not_found" and not section.claims, section.id
            if section.status == "supported":
                assert len(cited) >= section.min_evidence, section.id


def render_markdown(report: Report) -> str:
    """The report for people: a status ribbon per section, then each section once (the summary first, with
    its line per section), claims with numbered citations, the numbered evidence, the sources."""
    numbers = {e.id: n for n, e in enumerate(report.evidence, 1)}
    out = [
        *_heading(report.query),
        "",
        f"*Template: {report.template} · run {report.run_id} · {report.created_at}*",
        "",
        "| section | status | evidence |",
        "|---|---|---|",
    ]
    for section in report.sections:
        cited = {i for c in section.claims for i in c.evidence_ids}
        mark = STATUS_MARK[section.status]
        out.append(f"| {section.title} | {mark} {section.status.replace('_', ' ')} | {len(cited)} |")
    for section in report.sections:
        out += [
            "",
            f"## {section.title}",
            "",
            f"*{STATUS_MARK[section.status]} {section.status.replace('_', ' ')}*",
        ]
        if section.note:
            out += ["", f"> {section.note}"]
        if section.content.strip():
            out += ["", section.content]
        elif not section.note:  # the note already says nothing was found
            out += ["", "No evidence found."]
    out += ["", "## Evidence", ""]
    for e in report.evidence:
        out += _evidence_item(numbers[e.id], citation(e), e.quote, e.code_at)
    out += ["", "## Sources", ""]
    for source in report.sources:
        where = source.url or source.source or source.document_id or ""
        title = source.title or source.document_id or where
        date = f", {source.date[:10]}" if source.date else ""
        cites = ", ".join(str(numbers[i]) for i in source.evidence_ids if i in numbers)
        out.append(f"- {title}{date} ({where}) [{cites}]")
    return "\n".join(out) + "\n"


def quote_markdown(quote: str, code_at: int | None = None) -> str:
    """A quote as Markdown for a page that renders it (the desk's evidence cards): the code it ends with as
    a code block (read as paragraphs, its lines would run together and a ``# comment`` line would be a
    heading)."""
    head, code = split_code(quote, code_at)
    return "\n".join([head, "", *fenced(code)]) if code else quote


def _evidence_item(number: int, cited: str, quote: str, code_at: int | None = None) -> list[str]:
    """A numbered piece of evidence: its quote on one line, but the code it ends with as a block under it
    (joined into the line, a ``#`` comment swallows the lines after it)."""
    head, code = split_code(quote, code_at)
    line = f"{number}. {cited}: “{' '.join(head.split())}”"
    if not code:
        return [line]
    indent = " " * (len(str(number)) + 2)
    return [line, *(f"{indent}{row}".rstrip() for row in fenced(code))]


#: A request longer than this (or of several lines) is not a title: the heading is its start, and the whole
#: request follows as a quotation.
TITLE_CHARS = 120


def title(query: str) -> str:
    """A request's title: the request itself when it is a question's length; otherwise its first ask that
    reads alone (else its first sentence that is no greeting or instruction), cut at a word: a ticket of
    three paragraphs is no heading, and its opening is often context ("We run Django 3.2 behind nginx.").
    report.md, the desk's pages and the Word export all title a report with it."""
    one = " ".join(query.split())
    if is_title(query):
        return one
    kinds = [(t, classify(t)) for t in sentences(query)]
    # ... not a list's lead-in ("What I need to understand:"), which says nothing without its list, nor the
    # count of the questions to come ("We would like to understand three things from the documentation.")
    asks = [
        t
        for k, (t, kind) in enumerate(kinds)
        if kind == "ask"
        and not leans_back(t)
        and not t.rstrip().endswith(":")
        and not (counts_asks(t) and [kind for _, kind in kinds[k + 1 : k + 2]] == ["ask"])
    ]
    said = [t for t, kind in kinds if kind not in ("pleasantry", "instruction")]
    first = " ".join((asks or said or [one])[0].split())
    first = role_removed(first)  # "As a mail security engineer, please explain ..." is titled by its ask
    first = lead_in_removed(first)
    if len(first) > TITLE_CHARS:
        first = first[:TITLE_CHARS].rsplit(" ", 1)[0].rstrip(" ,;:") + " …"
    return first


#: What opens an ask without being part of it: a label ending in a colon ("Concretely:", "What I need:",
#: "Specifically I need to know:"), an ordinal ("First,", "Secondly,"), a list number ("(1)", "a)").
_LEAD_IN = re.compile(
    # a label that says the ask follows ("What I need:", "Specifically I need to know:", "Concretely:"), not
    # a subject ("Apache httpd: how do I ...", "Celery beat: why ...")
    r"^(?:(?:(?i:what|here|my|our|in|specifically|concretely)(?: (?:[a-z']+|I)){0,4}"
    r"|[A-Z][a-z']*(?: (?:[a-z']+|I)){0,3} (?i:need|needs|want|wants|know|question|questions|ask|asks|is|are)"
    r"(?: (?:[a-z']+|I)){0,3}"
    r"|(?i:questions?|background|request|task|goal|context|summary)):\s+"
    r"|(?i:first|second|third|firstly|secondly|thirdly|finally|lastly|then|next|concretely|specifically),\s+"
    r"|(?i:and|also|so),?\s+"
    r"|\(?(?:\d{1,2}|[a-hA-H])\)\s+)+"
)
#: The first item's number in a numbered list, and the second's after it.
_FIRST_ITEM = re.compile(r"\(?(1|a)\)\s+$")
_SECOND_MARK = {"1": "2", "a": "b"}
#: A request for what follows it ("Could you write a guide for the team as a senior Django developer:",
#: "Please prepare a technical recommendation as an independent consultant:") ...
_REQUEST_OPENING = re.compile(
    r"^(?:please|kindly|could|can|would|will|i(?:'d| would) like|i need|we need|tell|explain|write|prepare|"
    r"summari[sz]e|give|describe|list|help)\b",
    re.I,
)
#: ... that asks nothing itself (not "Could you explain how Django processes file uploads: when ..."), when
#: what follows is an ask ("how to resolve migration conflicts ...", not "we run 10k tasks per second").
_WH_WORD = re.compile(r"\b(?:what|which|how|why|when|where|who|whom|whose|whether)\b", re.I)
#: Words besides a question's (``QUESTION_START``) a title opens with in capitals (not "npm install ...").
_SENTENCE_OPENER = re.compile(
    r"^(?:in|on|for|with|the|a|an|if|get|explain|describe|list|give|tell|show|installing|creating|using|"
    r"setting)\b"
)


def _asks_for_what_follows(opening: str, rest: str) -> bool:
    return (
        bool(_REQUEST_OPENING.match(opening.strip()))
        and not _WH_WORD.search(opening)
        and (classify(_LEAD_IN.sub("", rest.strip(), count=1)) == "ask" or rest.rstrip().endswith("?"))
    )


def lead_in_removed(ask: str) -> str:
    """The ask without what only leads into it: "First, which configuration options ..." and "Concretely:
    (1) what declaration makes Bison ..." are titled "Which configuration options ..." and "What declaration
    makes Bison ...", cut before the list's second item; a request for what follows its colon ("Could you
    write a guide for the team as a senior developer: how to resolve ...") by what follows. Unchanged when
    what is left would be no sentence."""
    rest = _LEAD_IN.sub("", ask, count=1)
    before, colon, after = rest.partition(": ")
    if colon and len(after.split()) >= 4 and _asks_for_what_follows(before, after):
        rest = _LEAD_IN.sub("", after, count=1)  # "Could you write a guide for the team: how to resolve ..."
    if rest == ask or len(rest.split()) < 4:
        return ask
    led = ask[: len(ask) - len(rest)] if ask.endswith(rest) else ""
    if QUESTION_START.match(rest) or _SENTENCE_OPENER.match(rest):
        rest = rest[:1].upper() + rest[1:]
    first = _FIRST_ITEM.search(led)
    if first is not None:  # a numbered list's first item: the title stops before the second
        second = re.search(rf"[,;]?\s+(?:and\s+)?\(?{_SECOND_MARK[first.group(1)]}\)\s", rest)
        if second and len(rest[: second.start()].split()) >= 4:
            return rest[: second.start()].rstrip(" ,;:") + " …"
    return rest


def is_title(query: str) -> bool:
    """Whether the request is its own title (else the whole request is shown, quoted, under its title)."""
    return len(" ".join(query.split())) <= TITLE_CHARS and "\n" not in query.strip()


def _heading(query: str) -> list[str]:
    """The report's title, with the whole request quoted under it when the title is only its start."""
    if is_title(query):
        return [f"# {title(query)}"]
    quoted = [f"> {line}".rstrip() for line in query.strip().splitlines()]
    return [f"# {title(query)}", "", *quoted]


def citation(e: EvidenceRecord) -> str:
    """Where a quote stands, said once: the document, the heading path below its title, the page or URL."""
    name = e.title or e.document_id or e.url or "?"
    parts = [name]
    path = e.section_path or ""
    if path.startswith(name):
        path = path[len(name) :].lstrip(" >")
    if path and path != name:
        parts.append(path)
    if e.page:
        parts.append(f"p. {e.page}")
    if e.url:
        parts.append(e.url)
    return " · ".join(parts)
