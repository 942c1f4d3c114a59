"""Claims that read the same but stand in different places: each named by where it stands.

A manual may document one name twice with the same words: HAProxy's "alpn <protocols>" is a bind option and
a server option, each "This enables the TLS ALPN extension and advertises the specified protocol list ...".
The two quotes are kept apart (their headings say they are two things: ``synthesis._named_apart``), and a
report showed the same line twice, word for word, with nothing to tell which is which. Each such claim is
named by the heading its quote stands under where those differ, or by its page's title where only those do
("alpn <protocols> (Bind options) — This enables ..."): words of the source that the guards accept as what a
claim may name (``guards._page_and_heading``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from sleuth.agent.report import Claim
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.text import path_parts

__all__ = ["named_apart"]

#: A section's number before its title ("5.1. Bind options"): the title says where, the number adds nothing.
_SECTION_NUMBER = re.compile(r"^\d+(?:\.\d+)*\.?\s+(?=\S)")


def named_apart(sections: Sequence[Sequence[Claim]], evidence: Mapping[str, Evidence]) -> list[list[Claim]]:
    """``sections``' claims, those that read as another claim of the report does (the same name, or the same
    text) while standing elsewhere named by their place; every other claim as it was. A claim stands where
    its first cited piece does."""
    places: dict[str, set[tuple[str, str]]] = {}
    for claims in sections:
        for claim in claims:
            place = _place(claim, evidence)
            if place is not None:
                places.setdefault(_read_as(claim), set()).add(place)
    return [[_named(c, places.get(_read_as(c), set()), evidence) for c in claims] for claims in sections]


def _read_as(claim: Claim) -> str:
    """What a reader tells a claim by: the name it opens on ("alpn <protocols>" in "alpn <protocols> — This
    enables ..."; the bind option's description and the server option's end on other words), else its
    words (aspell's "To reset an option to the default value, prefix the option with a 'reset-' and don't
    specify a value." on the command line's page and on the configuration file's, one with a comma more)."""
    name, dash, _ = claim.text.partition(" — ")
    return name if dash and "\n" not in name else " ".join(re.findall(r"\w+", claim.text.casefold()))


def _place(claim: Claim, evidence: Mapping[str, Evidence]) -> tuple[str, str] | None:
    """A claim's page title and heading (its first cited piece's)."""
    first = next((evidence[i] for i in claim.evidence_ids if i in evidence), None)
    if first is None:
        return None
    parts = path_parts(first.section_path)
    return parts[0], parts[-1] if len(parts) > 1 else ""


def _named(claim: Claim, places: set[tuple[str, str]], evidence: Mapping[str, Evidence]) -> Claim:
    place = _place(claim, evidence)
    if len(places) < 2 or place is None:
        return claim
    title, heading = place
    # (the heading tells them apart where the headings differ; else the page they stand on)
    where = heading if len({h for _, h in places}) > 1 else title
    where = _SECTION_NUMBER.sub("", where).strip()
    if not where or where.casefold() in claim.text.casefold():
        return claim
    name, dash, rest = claim.text.partition(" — ")
    if dash and "\n" not in name:
        return claim.model_copy(update={"text": f"{name} ({where}) — {rest}"})
    return claim.model_copy(update={"text": f"{where} — {claim.text}"})
