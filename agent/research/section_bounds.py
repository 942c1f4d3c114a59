"""How many claims a findings section holds: its answers, within ``max_claims``, what is always cited beside
them, and an ask's farther documents only where the answers leave room.

A report never knows less than a search of its own request: the best quote of each of that search's top
documents and of its first hits is *backbone* evidence, always cited, whatever a section's cap says. A long
request's asks are searched too, and their top documents were backbone as well; with five asks, a brief's
*Details* took 12 to 48 claims (Django's long requests), its tail the asks' far documents ("In this example,
Memcached is running on localhost", "QueryDict.popitem()") under a request on N+1 queries.

So a section holds:

- its answers (claims on evidence admitted because it answers its question; the synthesizer chose at most
  ``max_claims`` of them, and an LLM's extra ones are cut there), and those a full section handed over
  (below);
- what is always cited (``Evidence.always_cited``, ``pinned``): the backbone of the search as written and
  that of the documents of the first ``ASK_HITS`` hits of each ask's or constraint's search, and a
  reviewer's pins. They stand beside the answers and take none of their places, and they are few by
  construction: quotes of the search as written's ``backbone_hits`` hits for the whole report (its top
  ``backbone_documents`` documents and first ``BACKBONE_HITS`` hits, and any of its hits that is backbone
  for another question), and of at most ``ASK_HITS`` documents per ask or constraint. The one search a
  reader would have run is never out-known, nor the first hits of each ask's;
- the backbone of an ask's farther documents (a claim resting on any of it), in the order written, only
  while answers and they stay within ``max_claims``.

The summary is written from every claim as written, before these bounds (``ResearchRun._write``): an ask's
best answer is never lost with a section's tail.

A section that names an ``overflow`` (a brief's key findings) keeps its ``max_claims`` best and hands the
rest to that section, after its own claims, before that section is bounded in turn: the answers it hands
over are kept there (the key findings' answers outranked by backbone quotes had held "SESSION_COOKIE_AGE
... Default: 1209600" for a request on how long users stay logged in).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    handed: set[int] = set()  # answers a full section handed over (by id): kept where they land
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
            handed |= {id(c) for c in rest if _role(c, evidence) == "answer"}
    for spec in template.sections:
        if spec.kind == "summary" or spec.id not in bounded:
            continue
        claims = bounded[spec.id]
        roles: list[Role | Literal["conflict", "handed"]] = [
            "conflict" if c.kind != "finding" else "handed" if id(c) in handed else _role(c, evidence)
            for c in claims
        ]
        # The section's own answers (at most max_claims: an LLM may write more), those a full section handed
        # over, and what is always cited; an ask's farther documents fill the places the answers leave.
        answers = min(roles.count("answer"), spec.max_claims)
        room = max(0, spec.max_claims - answers - roles.count("handed"))
        kept_claims: list[Claim] = []
        for claim, role in zip(claims, roles, strict=True):
            if role in ("conflict", "always", "handed"):
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
    """always: the claim rests on evidence a report always cites; backbone: on backbone of an ask's farther
    documents (any of its evidence); answer: on evidence admitted because it answers only.

    Backbone that the search as written found (``search_rank``: one of its hits) counts as always cited
    too, whichever question made it backbone: a run resumed from a ledger written before ``always_cited``
    existed keeps its search's top documents, and the bound stays ``backbone_hits`` quotes."""
    known = [evidence[i] for i in claim.evidence_ids if i in evidence]
    if any(e.pinned or e.always_cited or (e.backbone and e.search_rank is not None) for e in known):
        return "always"
    return "backbone" if any(e.backbone for e in known) else "answer"


def left_out(
    written: Mapping[str, Sequence[Claim]], bounded: Mapping[str, Sequence[Claim]]
) -> dict[str, int]:
    """How many of each section's written claims no section holds after ``bound_sections`` (a claim a full
    section hands to its overflow section is kept, only elsewhere: it is not counted)."""
    kept = {id(c) for claims in bounded.values() for c in claims}
    return {section: sum(1 for c in claims if id(c) not in kept) for section, claims in written.items()}
