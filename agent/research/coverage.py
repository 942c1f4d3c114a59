"""Per section: is the evidence enough? ``supported``, ``thin_evidence``, ``not_found`` or ``stale``.

Decided from what the section's surviving claims cite, after the guards: a section with nothing cited is
``not_found`` (and has no claims); one whose newest cited evidence is older than the staleness limit is
``stale``; otherwise ``supported`` at ``min_evidence`` distinct pieces or more, ``thin_evidence`` below.
Evidence of unknown date is never called stale.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

from sleuth.agent.report import Claim, Status
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.templates import SectionSpec


def cited(claims: Sequence[Claim]) -> list[str]:
    return list(dict.fromkeys(i for c in claims for i in c.evidence_ids))


def section_status(
    section: SectionSpec,
    claims: Sequence[Claim],
    evidence: Mapping[str, Evidence],
    *,
    stale_after_days: int,
    now: datetime,
) -> Status:
    ids = cited(claims)
    if not ids:
        return "not_found"
    dates = [_parse(evidence[i].date) for i in ids if i in evidence]
    known = [d for d in dates if d is not None]
    if known and len(known) == len(dates) and max(known) < now - timedelta(days=stale_after_days):
        return "stale"
    return "supported" if len(ids) >= section.min_evidence else "thin_evidence"


def _parse(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
