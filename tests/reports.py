"""Reports built by hand for tests of how they are shown (report.md, the desk)."""

from __future__ import annotations

from sleuth.agent import EvidenceRecord, Report


def report_of(*evidence: EvidenceRecord, query: str = "q") -> Report:
    """A report of ``query`` with no sections, only ``evidence``."""
    return Report(
        query=query,
        template="brief",
        run_id="r",
        created_at="2026-11-27T00:00:00Z",
        executive_summary="",
        sections=[],
        evidence=list(evidence),
        sources=[],
    )
