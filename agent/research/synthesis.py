"""Writing sections from evidence. Without an LLM (``ExtractiveSynthesizer``) every claim is a quote.

Per findings section: its evidence, best first (pinned first of all), near-duplicates merged into one claim
that cites them all (the same fact in two documents is one claim with two anchors), distinct documents
before second quotes from one document. Numbers that disagree across documents about the same thing become
a conflict claim citing both sides. Summary sections (executive summary, key findings) are written last, from
the other sections' claims and their own evidence, ranked by relevance to the user's query.

The LLM synthesizer (``sleuth.agent.llm.steps``) implements the same ``Synthesizer`` protocol; whatever
writes the text, the guards run afterwards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from sleuth.agent.report import Claim
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.text import measures, numbers, plain, term_set, years
from sleuth.agent.templates import Template

#: Two quotes state the same thing when the shorter shares this much of its content words with the longer
#: and its numbers are among the longer's (the longer may add a detail: "according to a survey of 40").
DUPLICATE_SHARE = 0.75
#: Two quotes from different documents about the same thing: this many shared content words, and half of
#: the shorter quote's words.
CONFLICT_SHARED = 3
#: Each further document stating a fact multiplies its weight by this.
CORROBORATION = 1.15


class Synthesizer(Protocol):
    def write(
        self,
        template: Template,
        routed: Mapping[str, Sequence[Evidence]],
        query_relevance: Mapping[str, float],
    ) -> dict[str, list[Claim]]: ...


@dataclass
class _Group:
    """Quotes that state one thing; the first is the best and gives the claim its text."""

    items: list[Evidence]
    terms: frozenset[str]
    score: float
    documents: set[str] = field(default_factory=set)

    @property
    def ids(self) -> list[str]:
        return [e.id for e in self.items]


class ExtractiveSynthesizer:
    def __init__(self, max_claims: int = 6) -> None:
        self.max_claims = max_claims

    def write(
        self,
        template: Template,
        routed: Mapping[str, Sequence[Evidence]],
        query_relevance: Mapping[str, float],
    ) -> dict[str, list[Claim]]:
        claims: dict[str, list[Claim]] = {}
        chosen: dict[str, list[_Group]] = {}
        used: set[str] = set()
        for section in template.sections:
            if section.kind == "summary":
                continue
            groups = _groups(_rescore(routed.get(section.id, []), query_relevance))
            # What an earlier section already says is not repeated, unless this section would be left
            # with less than it needs.
            fresh = [g for g in groups if not set(g.ids) & used]
            needed = max(section.min_evidence, 1)
            if len(fresh) < needed:
                fresh += [g for g in groups if g not in fresh][: needed - len(fresh)]
            picked = _select(fresh, section.max_claims)
            chosen[section.id] = picked
            used.update(i for g in picked for i in g.ids)
            claims[section.id] = [*map(_claim, picked), *_conflicts(picked)]
        for section in template.sections:
            if section.kind != "summary":
                continue
            own = list(routed.get(section.id, []))
            from_others = [e for groups in chosen.values() for g in groups for e in g.items]
            pool = _rescore([*own, *from_others], query_relevance)
            groups = _select(_groups(pool), section.max_claims)
            claims[section.id] = [_claim(g) for g in groups]
        return claims


def _rescore(items: Sequence[Evidence], relevance: Mapping[str, float]) -> list[Evidence]:
    """Summary sections rank by relevance to the user's query, not to the question each quote answered."""
    unique = {e.id: e for e in items}
    return [e.model_copy(update={"score": relevance.get(e.id, e.score)}) for e in unique.values()]


def _groups(items: Sequence[Evidence]) -> list[_Group]:
    # Best first: closest to the user's query (the question's own score breaks ties), then the newer
    # evidence (a 2024 figure before the 2015 one).
    ordered = sorted(
        (e for e in items if not e.dropped),
        key=lambda e: (not e.pinned, -round(e.relevance, 3), -round(e.score, 3), _newest_first(e)),
    )
    groups: list[_Group] = []
    for item in ordered:
        terms = term_set(item.quote)
        if not terms:
            continue
        for group in groups:
            if _same(terms, group.terms) and _same_numbers(item.quote, group.items[0].quote):
                group.items.append(item)
                if item.document_key not in group.documents:
                    group.documents.add(item.document_key)
                    group.score *= CORROBORATION  # said by another document too: it weighs more
                break
        else:
            weight = (item.relevance or item.score) + (10.0 if item.pinned else 0.0)
            groups.append(_Group([item], terms, weight, {item.document_key}))
    return groups


def _same(a: frozenset[str], b: frozenset[str]) -> bool:
    return len(a & b) >= DUPLICATE_SHARE * min(len(a), len(b))


def _same_numbers(a: str, b: str) -> bool:
    na, nb = numbers(a), numbers(b)
    return na <= nb or nb <= na


def _newest_first(evidence: Evidence) -> str:
    """A sort key that puts later ISO dates first (unknown dates last)."""
    date = evidence.date or ""
    return "".join(chr(0x10FFFF - ord(c)) for c in date) if date else "\U0010ffff"


def _select(groups: list[_Group], limit: int) -> list[_Group]:
    """Best groups, one per document first (several documents say more than one document twice)."""
    ordered = sorted(groups, key=lambda g: -g.score)
    picked: list[_Group] = []
    seen: set[str] = set()
    for group in ordered:
        if not group.documents & seen:
            picked.append(group)
            seen |= group.documents
    for group in ordered:
        if group not in picked:
            picked.append(group)
    pinned = [g for g in picked if any(e.pinned for e in g.items)]
    rest = [g for g in picked if g not in pinned]
    return [*pinned, *rest[: max(0, limit - len(pinned))]]


def _claim(group: _Group) -> Claim:
    return Claim(text=plain(group.items[0].quote), evidence_ids=group.ids)


def _conflicts(groups: Sequence[_Group]) -> list[Claim]:
    """Pairs of quotes from different documents that give the same measure different values.

    Same measure: the quotes share most of their subject words, and each has a number with the same unit
    word after it ("38 percent" / "31 percent"). Different years in the two quotes make a time series, not
    a disagreement ("0.6 billion in 2015" / "4.2 billion in 2024").
    """
    out: list[Claim] = []
    for i, a in enumerate(groups):
        for b in groups[i + 1 :]:
            if a.documents & b.documents:
                continue
            qa, qb = a.items[0].quote, b.items[0].quote
            ya, yb = years(qa), years(qb)
            if ya and yb and ya != yb:
                continue
            ma, mb = measures(qa), measures(qb)
            clash = {unit for unit in ma.keys() & mb.keys() if ma[unit] != mb[unit]}
            if not clash:
                continue
            shared = a.terms & b.terms
            if len(shared) >= CONFLICT_SHARED and len(shared) >= 0.5 * min(len(a.terms), len(b.terms)):
                out.append(
                    Claim(
                        text=f"“{plain(qa)}” versus “{plain(qb)}”",
                        evidence_ids=[a.items[0].id, b.items[0].id],
                        kind="conflict",
                    )
                )
    return out
