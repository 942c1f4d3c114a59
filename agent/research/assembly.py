"""Report assembly: guarded claims per section become report.json's sections, evidence records, sources and
metrics; each section's Markdown is written here too (report.md renders the whole report in
``sleuth.agent.report``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sleuth.agent.report import Claim, EvidenceRecord, Report, SectionReport, Source
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.plan import Question
from sleuth.agent.research.state import RunState
from sleuth.agent.templates import Template


def anchors(claim: Claim) -> str:
    return "".join(f"[evidence:{i}]" for i in claim.evidence_ids)


def section_content(claims: Sequence[Claim]) -> str:
    lines = []
    for claim in claims:
        prefix = "Sources disagree: " if claim.kind == "conflict" else ""
        lines.append(f"- {prefix}{claim.text} {anchors(claim)}")
    return "\n".join(lines)


def section_note(required: bool, status: str) -> str | None:
    if status == "not_found":
        return "No evidence for this section was found." + (" It is required." if required else "")
    if status == "stale":
        return "The evidence for this section is older than the staleness limit."
    if status == "thin_evidence":
        return "Less evidence than this section asks for."
    return None


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
    sections: list[SectionReport],
    evidence: Mapping[str, Evidence],
    state: RunState,
    guards: Mapping[str, int],
    seconds: float,
    llm: Any,
    web: Any,
) -> Report:
    """The report: evidence in the order first cited, the summary section's claims as the executive summary,
    and what the run did in ``metrics``."""
    used = list(dict.fromkeys(i for s in sections for c in s.claims for i in c.evidence_ids))
    records = [record(evidence[i]) for i in used]
    summary = next((s for s in sections if template.section(s.id).kind == "summary" and s.claims), None)
    metrics = {
        "questions": len(state.questions),
        "questions_by_origin": origins(state.questions.values()),
        "levels": state.levels,
        "stop_reason": state.stop_reason,
        "evidence_found": len(state.ledger),
        "evidence_off_topic": state.off_topic,
        "documents_below_cap": state.uncited_documents,
        "evidence_cited": len(records),
        "documents_cited": len({evidence[i].document_key for i in used}),
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
        executive_summary=" ".join(f"{c.text} {anchors(c)}" for c in summary.claims) if summary else "",
        sections=sections,
        evidence=records,
        sources=sources_of(records),
        metrics=metrics,
    )
