"""How many claims a findings section holds: its answers, within ``max_claims``, what is always cited beside
them, and an ask's farther documents only where the answers leave room.

A report never knows less than a search of its own request: the best quote of each of that search's top
documents and of its first hits is *backbone* evidence, always cited, whatever a section's cap says. A long
request's asks are searched too, and their top documents were backbone as well; with five asks, a brief's
*Details* took 12 to 48 claims (Django's long requests), its tail the asks' far documents ("In this example,
Memcached is running on localhost", "QueryDict.popitem()") under a request on N+1 queries.

So a section holds:

- its answers (claims on evidence admitted because it answers its question; the synthesizer chose at most
  ``max_claims`` of them), and those a full section handed over (below);
- what is always cited (``Evidence.always_cited``, ``pinned``): the backbone of the search as written and of
  each ask's first documents, and a reviewer's pins. They stand beside the answers and take none of their
  places, and they are few by construction: quotes of the search as written's ``backbone_hits`` hits for
  the whole report (its top ``backbone_documents`` documents and first ``BACKBONE_HITS`` hits), and of
  ``ASK_HITS`` documents per ask. The one search a reader would have run is
  never out-known, nor the first documents of each ask's;
- the backbone of an ask's farther documents, in the order written, only while answers and they stay
  within ``max_claims``: an ask's best answer is not lost with them, the summary answers each ask by its
  best piece of all the evidence chosen (its own step).

A section that names an ``overflow`` (a brief's key findings) keeps its ``max_claims`` best and hands the
rest to that section, after its own claims, before that section is bounded in turn: the answers it hands
over are kept there (the key findings' answers outranked by backbone quotes had held "SESSION_COOKIE_AGE
... Default: 1209600" for a request on how long users stay logged in).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from sleuth.agent.report import Claim
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.templates import Template

__all__ = ["bound_sections"]

Role = Literal["always", "backbone", "answer"]


def bound_sections(
    template: Template, findings: Mapping[str, list[Claim]], evidence: Mapping[str, Evidence]
) -> dict[str, list[Claim]]:
    """Each findings section's claims (best first, as written and guarded) within its bound; conflict claims
    are kept where they stand (they cite what the section holds and are few)."""
    bounded = {section: list(claims) for section, claims in findings.items()}
    handed: dict[str, int] = {}  # answers a full section handed over, by the section that took them
    for spec in template.sections:
        if spec.overflow is None or spec.id not in bounded:
            continue
        own = [c for c in bounded[spec.id] if c.kind == "finding"]
        if len(own) > spec.max_claims:
            # The section keeps its best (and its conflicts); the section named takes the rest, after its own.
            kept = {id(c) for c in own[: spec.max_claims]}
            rest = own[spec.max_claims :]
            bounded[spec.id] = [c for c in bounded[spec.id] if c.kind != "finding" or id(c) in kept]
            bounded[spec.overflow] = [*bounded.get(spec.overflow, []), *rest]
            answers = sum(1 for c in rest if _role(c, evidence) == "answer")
            handed[spec.overflow] = handed.get(spec.overflow, 0) + answers
    for spec in template.sections:
        if spec.kind == "summary" or spec.id not in bounded:
            continue
        claims = bounded[spec.id]
        roles: list[Role | Literal["conflict"]] = [
            _role(c, evidence) if c.kind == "finding" else "conflict" for c in claims
        ]
        # The section's answers (those handed over by a full section besides its own), then an ask's farther
        # documents where they leave room; what is always cited stands beside them all.
        answers = min(roles.count("answer"), spec.max_claims + handed.get(spec.id, 0))
        room = max(0, spec.max_claims - answers)
        kept_claims: list[Claim] = []
        for claim, role in zip(claims, roles, strict=True):
            if role in ("conflict", "always"):
                kept_claims.append(claim)
            elif role == "answer" and answers > 0:
                kept_claims.append(claim)
                answers -= 1
            elif role == "backbone" and room > 0:
                kept_claims.append(claim)
                room -= 1
        bounded[spec.id] = kept_claims
    return bounded


def _role(claim: Claim, evidence: Mapping[str, Evidence]) -> Role:
    """always: the claim rests on evidence a report always cites; backbone: on an ask's farther documents'
    backbone only; answer: on evidence admitted because it answers (what the section chose by its bound).

    Backbone that the search as written found (``search_rank``) counts as always cited too: a run resumed
    from a ledger written before ``always_cited`` existed keeps its search's top documents."""
    known = [evidence[i] for i in claim.evidence_ids if i in evidence]
    if any(e.pinned or e.always_cited or (e.backbone and e.search_rank is not None) for e in known):
        return "always"
    return "backbone" if any(e.backbone for e in known) else "answer"
