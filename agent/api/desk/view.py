"""What the report page shows, worked out once from report.json: numbered evidence, where each piece is
cited, the sources panel, conflicts, the coverage ribbon and its legend.

The report page, the standalone HTML download and the DOCX export all read this one view, so a citation
``[3]`` means the same card everywhere (the third evidence record, as in report.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlparse

from sleuth.agent import Claim, EvidenceRecord, Report, SectionReport, quote_markdown
from sleuth.agent.api.desk.markdown import plain, render

#: What each section status means, shown next to the coverage ribbon (the words a reader needs, once).
STATUS_LEGEND = {
    "supported": ("supported", "at least the section's minimum of distinct evidence pieces back it"),
    "thin_evidence": ("thin evidence", "some evidence, less than the section asks for: read it with care"),
    "not_found": ("not found", "no evidence in the sources searched; the section has no claims"),
    "stale": ("stale", "the evidence is older than the template's staleness limit"),
}


@dataclass
class EvidenceView:
    number: int
    record: EvidenceRecord
    quote_html: str
    where: str
    sections: list[str] = field(default_factory=list)


@dataclass
class SectionView:
    section: SectionReport
    html: str
    cited: int

    @property
    def label(self) -> str:
        return STATUS_LEGEND[self.section.status][0]


@dataclass
class SourceView:
    title: str
    where: str
    link: str | None
    date: str | None
    numbers: list[int]
    sections: list[str]


@dataclass
class ConflictView:
    section: str
    html: str


@dataclass
class ReportView:
    report: Report
    sections: list[SectionView]
    evidence: list[EvidenceView]
    sources: list[SourceView]
    conflicts: list[ConflictView]
    counts: dict[str, int]
    legend: dict[str, tuple[str, str]] = field(default_factory=lambda: dict(STATUS_LEGEND))

    @property
    def claims(self) -> int:
        return sum(len(s.section.claims) for s in self.sections)


def where(e: EvidenceRecord) -> str:
    """The document and the heading path below its title, said once ("13.1. Introduction" not twice)."""
    name = plain(e.title or e.document_id or _host(e.url) or "?")
    path = plain(e.section_path or "")
    if path.startswith(name):
        path = path[len(name) :].lstrip(" >")
    return f"{name} › {path.replace(' > ', ' › ')}" if path and path != name else name


def _host(url: str | None) -> str | None:
    return urlparse(url).netloc or url if url else None


def _claim_markdown(claim: Claim, numbers: dict[str, int]) -> str:
    cites = "".join(f"[{numbers[i]}]" for i in claim.evidence_ids if i in numbers)
    return f"{claim.text} {cites}".strip()


def build(report: Report) -> ReportView:
    numbers = {e.id: n for n, e in enumerate(report.evidence, 1)}
    count = len(report.evidence)
    cited_in: dict[str, list[str]] = {}
    sections: list[SectionView] = []
    conflicts: list[ConflictView] = []
    for s in report.sections:
        ids = list(dict.fromkeys(i for c in s.claims for i in c.evidence_ids))
        for i in ids:
            cited_in.setdefault(i, []).append(s.title)
        html = render(s.content, numbers, count) if s.content.strip() else ""
        sections.append(SectionView(s, html, len(ids)))
        conflicts += [
            ConflictView(s.title, render(_claim_markdown(c, numbers), numbers, count))
            for c in s.claims
            if c.kind == "conflict"
        ]
    evidence = [
        EvidenceView(n, e, render(quote_markdown(e.quote, e.code_at)), where(e), cited_in.get(e.id, []))
        for n, e in enumerate(report.evidence, 1)
    ]
    sources = []
    for src in report.sources:
        nums = [numbers[i] for i in src.evidence_ids if i in numbers]
        secs = list(dict.fromkeys(t for i in src.evidence_ids for t in cited_in.get(i, [])))
        link = src.url if src.url and src.url.startswith(("http://", "https://")) else None
        sources.append(
            SourceView(
                title=plain(src.title or src.document_id or _host(src.url) or "?"),
                where=src.url or src.source or src.document_id or "",
                link=link,
                date=src.date[:10] if src.date else None,
                numbers=nums,
                sections=secs,
            )
        )
    counts: dict[str, int] = {}
    for s in report.sections:
        counts[s.status] = counts.get(s.status, 0) + 1
    return ReportView(report, sections, evidence, sources, conflicts, counts)
