"""Report assembly: the sections' guarded claims become report.json (sections with their Markdown, evidence
records in the order first cited, sources, metrics) with numbered citations everywhere: ``[3]`` is the third
evidence record, in section content, in the summary and in report.md alike."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sleuth.agent.report import Claim, EvidenceRecord, Report, SectionReport, Source, Status
from sleuth.agent.research.claim_text import flat
from sleuth.agent.research.code_lines import fenced
from sleuth.agent.research.evidence import Evidence, found_only
from sleuth.agent.research.named_apart import named_apart
from sleuth.agent.research.plan import Question
from sleuth.agent.research.state import RunState
from sleuth.agent.templates import SectionSpec, Template

STATUS_WORDS = {
    "supported": "supported",
    "thin_evidence": "thin evidence",
    "not_found": "not found",
    "stale": "stale",
}


@dataclass
class Written:
    """A section as the run wrote it: guarded claims, status, note, typed facts."""

    spec: SectionSpec
    claims: list[Claim]
    status: Status
    note: str | None = None
    fields: dict[str, Any] | None = None


def citations(claim: Claim, numbers: Mapping[str, int]) -> str:
    return "".join(f"[{numbers[i]}]" for i in claim.evidence_ids if i in numbers)


def claim_line(claim: Claim, numbers: Mapping[str, int]) -> str:
    """A claim as a Markdown bullet; the code its text ends with (``one_line``) as a code block in it."""
    prefix = "**Sources disagree:** " if claim.kind == "conflict" else ""
    text, _, code = claim.text.partition("\n")
    line = f"- {prefix}{text} {citations(claim, numbers)}".rstrip()
    if not code:
        return line
    block = "\n".join(f"  {row}".rstrip() for row in fenced(code))
    return f"{line}\n{block}"


#: What a report resting only on ``found_only`` evidence says first, and such a section's note. It does not
#: claim the topic was found: a question about a neighbouring subject (another product's manual) comes as
#: close by the dense measure as one put in other words than its answer (docs/BENCHMARKS.md).
FOUND_ONLY = (
    "No passage answers the request (a cross-encoder judged every candidate quote against it). Shown are "
    "the best passages of the documents the search ranks first: they may answer in other words, or only come "
    "near the topic."
)


def unnamed_note(names: Sequence[str]) -> str:
    """What a report says first when no evidence mentions some name its question is about."""
    listed = ", ".join(f'"{n}"' for n in names)
    them = "it" if len(names) == 1 else "them"
    return (
        f"No evidence found mentions {listed}: the corpus may not cover {them}. "
        "The passages shown are the nearest the searches found and may be about something else."
    )


def unanswered_note(asks: Sequence[str], *, of: int) -> str:
    """What the summary says of the asks no claim of the report answers (``of``: how many it has)."""
    listed = "; ".join(f'"{a.strip().rstrip("?.")}"' for a in asks)
    one = len(asks) == 1
    rest = (
        # (the summary shows each ask its best claim: one shown for an ask said unanswered is the nearest)
        f"the passages shown answer the rest of the request, and any shown for {'it' if one else 'them'} are "
        "the nearest found"
        if len(asks) < of
        else "the passages shown are the nearest the searches found"
    )
    return (
        f"The cross-encoder judged no passage an answer to {'this ask' if one else 'these asks'}: {listed}. "
        f"The corpus may not cover {'it' if one else 'them'}, or say so in other words; {rest}."
    )


def _past_summary(claims: Sequence[Claim], summary: Written, numbers: Mapping[str, int]) -> list[str]:
    """A findings section's Markdown lines: the claims the summary section above already shows as one line
    of their citations, then the others. A reader of a brief met the direct answer's claims again as the
    first lines of Key findings, word for word; the section's ``claims`` still hold every one of them."""
    shown = {c.text for c in summary.claims}
    again = [c for c in claims if c.text in shown]
    lines = [claim_line(c, numbers) for c in claims if c.text not in shown]
    if not again:
        return lines
    cites = "".join(
        f"[{n}]" for n in sorted({numbers[i] for c in again for i in c.evidence_ids if i in numbers})
    )
    return [f"- *As in {summary.spec.title} above* {cites}", *lines]


def left_out_note(ruled_out: Mapping[str, str]) -> str | None:
    """What the summary says of the evidence left out because the request rules out what it names."""
    if not ruled_out:
        return None
    things = ", ".join(f'"{t}"' for t in dict.fromkeys(ruled_out.values()))
    n = len(ruled_out)
    return f"Left out as the request asks: {n} passage{'s' if n != 1 else ''} naming {things}."


def _with(note: str | None, more: str | None) -> str | None:
    return " ".join(n for n in (note, more) if n) or None


def section_note(
    required: bool,
    status: str,
    *,
    found_only: bool = False,
    unnamed: Sequence[str] = (),
    unanswered: Sequence[str] = (),
    asks: int = 0,
) -> str | None:
    if status == "thin_evidence" and (found_only or unnamed or unanswered):
        return " ".join(
            note
            for note in (
                FOUND_ONLY if found_only else "",
                unnamed_note(unnamed) if unnamed else "",
                # (where no passage answers the request, none answers an ask of it either: said once)
                unanswered_note(unanswered, of=asks) if unanswered and not found_only else "",
            )
            if note
        )
    if status == "not_found":
        return "No evidence for this section was found." + (" It is required." if required else "")
    if status == "stale":
        return "The evidence for this section is older than the staleness limit."
    if status == "thin_evidence":
        return "Less evidence than this section asks for."
    return None


def overview(written: Sequence[Written]) -> list[str]:
    """One line per findings section: its status and what it rests on."""
    lines = []
    for w in written:
        if w.spec.kind == "summary":
            continue
        ids = {i for c in w.claims for i in c.evidence_ids}
        claims = f"{len(w.claims)} claim{'s' if len(w.claims) != 1 else ''}"
        rest = f": {claims} on {len(ids)} piece{'s' if len(ids) != 1 else ''} of evidence" if w.claims else ""
        lines.append(f"- *{w.spec.title}* ({STATUS_WORDS[w.status]}){rest}")
    return lines


def record(e: Evidence) -> EvidenceRecord:
    return EvidenceRecord(
        id=e.id,
        kind=e.kind,
        chunk_id=e.chunk_id,
        url=e.url,
        document_id=e.document_id,
        title=e.title,
        section_path=e.section_path,
        page=e.page,
        quote=e.quote,
        date=e.date,
        source=e.source,
        continued_in=e.continued_in,
        code_at=e.code_at,
    )


def sources_of(records: Sequence[EvidenceRecord]) -> list[Source]:
    by_key: dict[str, Source] = {}
    for r in records:
        key = r.document_id or r.url or r.id
        if key not in by_key:
            by_key[key] = Source(
                document_id=r.document_id,
                url=r.url,
                title=r.title,
                source=r.source,
                date=r.date,
                evidence_ids=[],
            )
        by_key[key].evidence_ids.append(r.id)
    return list(by_key.values())


def origins(questions: Iterable[Question]) -> dict[str, int]:
    out: dict[str, int] = {}
    for q in questions:
        out[q.origin] = out.get(q.origin, 0) + 1
    return out


def assemble(
    *,
    run_id: str,
    query: str,
    template: Template,
    written: list[Written],
    evidence: Mapping[str, Evidence],
    state: RunState,
    guards: Mapping[str, int],
    seconds: float,
    llm: Any,
    web: Any,
    empty_reason: str | None = None,
    unnamed: Sequence[str] = (),
    unanswered: Sequence[str] = (),
    asks: int = 0,
    ruled_out: Mapping[str, str] | None = None,
) -> Report:
    """The report: evidence numbered in the order first cited, each section's Markdown with those numbers,
    the summary section's text (its claims, then one line per section) as the executive summary; claims
    that read the same but stand in different places are named by their place (``named_apart``)."""
    named = named_apart([w.claims for w in written], evidence)
    written = [replace(w, claims=claims) for w, claims in zip(written, named, strict=True)]
    used = list(dict.fromkeys(i for w in written for c in w.claims for i in c.evidence_ids))
    records = [record(evidence[i]) for i in used]
    numbers = {i: n for n, i in enumerate(used, 1)}
    sections: list[SectionReport] = []
    summary_text = ""
    summary: Written | None = None
    for w in written:
        lines = [claim_line(c, numbers) for c in w.claims]
        if summary is not None:  # a section after the summary
            lines = _past_summary(w.claims, summary, numbers)
        if w.spec.kind == "summary":
            if not summary_text:
                summary_text = " ".join(f"{flat(c.text)} {citations(c, numbers)}".strip() for c in w.claims)
                if empty_reason and not w.claims:
                    summary_text = empty_reason
                elif found_only(used, evidence):
                    missing = unnamed_note(unnamed) if unnamed else ""
                    summary_text = " ".join(t for t in (FOUND_ONLY, missing, summary_text) if t)
                elif unnamed and used:
                    summary_text = f"{unnamed_note(unnamed)} {summary_text}".strip()
                if (
                    unanswered
                    and used
                    and not found_only(used, evidence)
                    and not (empty_reason and not w.claims)
                ):
                    # (after the answers it gives: what the report answers first, then what it does not)
                    summary_text = f"{summary_text} {unanswered_note(unanswered, of=asks)}".strip()
            lines += ["", *overview(written)] if lines else overview(written)
            summary = summary or w
        sections.append(
            SectionReport(
                id=w.spec.id,
                title=w.spec.title,
                required=w.spec.required,
                min_evidence=w.spec.min_evidence,
                status=w.status,
                content="\n".join(lines).strip("\n"),
                claims=w.claims,
                fields=w.fields,
                note=_with(
                    empty_reason if empty_reason and w.spec.kind == "summary" else w.note,
                    left_out_note(ruled_out or {}) if w.spec.kind == "summary" else None,
                ),
            )
        )
    metrics = {
        "questions": len(state.questions),
        "questions_by_origin": origins(state.questions.values()),
        "levels": state.levels,
        "stop_reason": state.stop_reason,
        "evidence_found": len(state.ledger),
        "evidence_backbone": sum(1 for e in state.ledger if e.backbone),
        "evidence_off_topic": state.off_topic,
        "evidence_cited": len(records),
        "documents_cited": len({evidence[i].document_key for i in used}),
        "cross_encoder_pairs": state.judged_pairs,
        "evidence_ruled_out": len(ruled_out or {}),
        "asks_unanswered": list(unanswered),
        "guards": dict(guards),
        "seconds": {k: round(v, 3) for k, v in {**state.seconds, "total": seconds}.items()},
        "statuses": {s.id: s.status for s in sections},
        "llm": llm,
        "web": web,
    }
    return Report(
        run_id=run_id,
        query=query,
        template=template.name,
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        executive_summary=summary_text,
        sections=sections,
        evidence=records,
        sources=sources_of(records),
        metrics=metrics,
    )
