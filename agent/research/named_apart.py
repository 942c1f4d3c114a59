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
from collections.abc import Callable, Mapping, Sequence

from sleuth.agent.report import Claim
from sleuth.agent.research.claim_names import SECTION_NUMBER
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.text import path_parts

__all__ = ["named_apart"]

#: What a page's title adds after its own name: the site's ("... — Django 3.2.25 documentation").
_SITE = re.compile(r"\s+[—|]\s+")
#: Where a claim stands: its page's title and its section's heading.
Place = tuple[str, str]


def named_apart(sections: Sequence[Sequence[Claim]], evidence: Mapping[str, Evidence]) -> list[list[Claim]]:
    """``sections``' claims, those that read as another claim of the report does (the same name, or the same
    words) while standing elsewhere named by their place; every other claim as it was. A claim stands where
    its cited pieces do; one whose pieces stand in several places (one fact in two sections) is named by
    none of them."""
    places: dict[str, set[Place]] = {}
    for claims in sections:
        for claim in claims:
            place = _place(claim, evidence)
            if place is not None:
                places.setdefault(_read_as(claim), set()).add(place)
    labels = {read: _labels(found) for read, found in places.items() if len(found) > 1}
    out: list[list[Claim]] = []
    for claims in sections:
        named: list[Claim] = []
        for claim in claims:
            place = _place(claim, evidence)
            label = labels.get(_read_as(claim), {}).get(place) if place is not None else None
            named.append(claim if label is None else _with_place(claim, label))
        out.append(named)
    return out


def _read_as(claim: Claim) -> str:
    """What a reader tells a claim by: the name it opens on ("alpn <protocols>" in "alpn <protocols> — This
    enables ..."; the bind option's description and the server option's end on other words), else its
    words (aspell's "To reset an option to the default value, prefix the option with a 'reset-' and don't
    specify a value." on the command line's page and on the configuration file's, one with a comma more)."""
    name, dash, _ = claim.text.partition(" — ")
    return name if dash and "\n" not in name else " ".join(re.findall(r"\w+", claim.text.casefold()))


def _place(claim: Claim, evidence: Mapping[str, Evidence]) -> Place | None:
    """A claim's page title and heading, where all its cited pieces stand in one place."""
    found: set[Place] = set()
    for i in claim.evidence_ids:
        if i in evidence:
            parts = path_parts(evidence[i].section_path)
            found.add((parts[0], parts[-1] if len(parts) > 1 else ""))
    return next(iter(found)) if len(found) == 1 else None


def _labels(places: set[Place]) -> dict[Place, str]:
    """A label for each place, the first of these forms that tells them all apart: the heading without its
    section number ("Bind options"), the heading, the page's title without the site's name after it ("The
    staticfiles app", not "The staticfiles app — Django 3.2.25 documentation"), the whole title, both
    ("Guide › Examples"); none where nothing does."""
    forms: tuple[Callable[[Place], str], ...] = (
        lambda p: SECTION_NUMBER.sub("", p[1]).strip(),
        lambda p: p[1],
        lambda p: _SITE.split(p[0], maxsplit=1)[0],
        lambda p: p[0],
        lambda p: " › ".join(x for x in p if x),
    )
    for form in forms:
        labels = {place: form(place) for place in places}
        if all(labels.values()) and len(set(labels.values())) == len(places):
            return labels
    return {}


def _with_place(claim: Claim, where: str) -> Claim:
    """The claim named by its place, after its name where it has one; as it was where its text already
    says that place (as a word or words of it)."""
    if re.search(rf"(?<!\w){re.escape(where)}(?!\w)", claim.text, re.I):
        return claim
    name, dash, rest = claim.text.partition(" — ")
    if dash and "\n" not in name:
        return claim.model_copy(update={"text": f"{name} ({where}) — {rest}"})
    return claim.model_copy(update={"text": f"{where} — {claim.text}"})
