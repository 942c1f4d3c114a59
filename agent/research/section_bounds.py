"""How many claims a findings section holds: its ``max_claims`` best, and besides them only what is always
cited (what the search of the request as written shows on its first page and in its top documents, each
ask's first documents, a reviewer's pins).

A report never knows less than a search of its own request: the best quote of each of that search's top
documents and of its first hits is *backbone* evidence, always cited, whatever a section's cap says. A long
request's asks are searched too, and their top documents were backbone as well; with five asks, a brief's
*Details* took 12 to 48 claims (Django's long requests), its tail the asks' far documents ("In this example,
Memcached is running on localhost", "QueryDict.popitem()") under a request on N+1 queries.

So a section holds at most ``max_claims`` claims, best first, besides those that cite pinned evidence (a
reviewer's choice) or backbone evidence of the search as written or of an ask's first documents, which stand
beside the best answers and take none of their places. Those are few by construction: ``backbone_documents``
documents and ``BACKBONE_HITS`` first hits for the whole report, and ``ASK_HITS`` documents per ask. The one
search a reader would have run is still never out-known, nor the first documents of each ask's. The asks'
best answers are not lost with the tail: the summary answers each ask by its best piece of all the evidence
chosen (its own step).

A section that names an ``overflow`` (a brief's key findings) keeps its ``max_claims`` best and hands the
rest to that section, after its own claims, before that section is bounded in turn.
"""

from __future__ import annotations

from collections.abc import Mapping

from sleuth.agent.report import Claim
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.templates import Template

__all__ = ["bound_sections"]


def bound_sections(
    template: Template, findings: Mapping[str, list[Claim]], evidence: Mapping[str, Evidence]
) -> dict[str, list[Claim]]:
    """Each findings section's claims (best first, as written and guarded) within its bound; conflict claims
    are kept where they stand (they cite what the section holds and are few)."""
    bounded = {section: list(claims) for section, claims in findings.items()}
    for spec in template.sections:
        if spec.overflow is None or spec.id not in bounded:
            continue
        own = [c for c in bounded[spec.id] if c.kind == "finding"]
        if len(own) > spec.max_claims:
            # The section keeps its best (and its conflicts); the section named takes the rest, after its own.
            kept = {id(c) for c in own[: spec.max_claims]}
            bounded[spec.id] = [c for c in bounded[spec.id] if c.kind != "finding" or id(c) in kept]
            bounded[spec.overflow] = [*bounded.get(spec.overflow, []), *own[spec.max_claims :]]
    for spec in template.sections:
        if spec.kind == "summary" or spec.id not in bounded:
            continue
        room = spec.max_claims
        kept_claims: list[Claim] = []
        for claim in bounded[spec.id]:
            # What is always cited stands beside the best answers and takes none of their places.
            if claim.kind != "finding" or _must_cite(claim, evidence):
                kept_claims.append(claim)
            elif room > 0:
                kept_claims.append(claim)
                room -= 1
        bounded[spec.id] = kept_claims
    return bounded


def _must_cite(claim: Claim, evidence: Mapping[str, Evidence]) -> bool:
    """Whether the claim rests on evidence a report always cites: pinned by a reviewer, or backbone of the
    search as written or of an ask's first documents (``Evidence.always_cited``, set where it is admitted)."""
    return any(evidence[i].pinned or evidence[i].always_cited for i in claim.evidence_ids if i in evidence)
