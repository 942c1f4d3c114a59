"""Per section: is the evidence enough? ``supported``, ``thin_evidence``, ``not_found`` or ``stale``.

Decided from what the section's surviving claims cite, after the guards: a section with nothing cited is
``not_found`` (and has no claims); one whose newest cited evidence is older than the template's staleness
limit is ``stale`` (a template may have none: a literature review does not go out of date); otherwise
``supported`` at ``min_evidence`` distinct pieces or more, ``thin_evidence`` below. Evidence of unknown date
(a document without a publication date of its own) is never called stale. A section that cites only what
the search found on the topic where the judge found no quote on it (``Evidence.found_only``) is
``thin_evidence`` whatever its count: it shows what the corpus has, not an answer. So is every section of a
report whose question names something no evidence mentions (``unnamed``: "Mercurial" over git's manual):
its quotes are about something near, not about what was asked. So is a summary section when some ask of
the request has no answer in the report (``unanswered``): it answers the request in part.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

from sleuth.agent.report import Claim, Status
from sleuth.agent.research.evidence import Evidence, found_only
from sleuth.agent.templates import SectionSpec


def cited(claims: Sequence[Claim]) -> list[str]:
    return list(dict.fromkeys(i for c in claims for i in c.evidence_ids))


def section_status(
    section: SectionSpec,
    claims: Sequence[Claim],
    evidence: Mapping[str, Evidence],
    *,
    stale_after_days: int | None,
    now: datetime,
    unnamed: Sequence[str] = (),
    unanswered: Sequence[str] = (),
) -> Status:
    ids = cited(claims)
    if not ids:
        return "not_found"
    dates = [_parse(evidence[i].date) for i in ids if i in evidence]
    known = [d for d in dates if d is not None]
    limit = now - timedelta(days=stale_after_days) if stale_after_days is not None else None
    if limit is not None and known and len(known) == len(dates) and max(known) < limit:
        return "stale"
    if found_only(ids, evidence) or unnamed or unanswered:
        return "thin_evidence"
    return "supported" if len(ids) >= section.min_evidence else "thin_evidence"


def _parse(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
