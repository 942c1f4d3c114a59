"""Routing: which evidence each section of the report may use.

Evidence goes to the sections its question targeted. A section with an aspect vocabulary (``keywords``) only
takes evidence that mentions its aspect: a search for "funding of X" returns chunks about X, and without an
LLM to judge them, the word is what tells a funding fact from any other fact about X. Sections still empty
afterwards get a backfill from the whole ledger by similarity to the section and the query (weighted 0.74
and 0.26, as the design notes have it), keyword matches as the fallback. Pinned evidence always goes where
its question pointed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.text import stems, term_set
from sleuth.agent.templates import SectionSpec, Template

SECTION_WEIGHT = 0.74
QUERY_WEIGHT = 0.26


@dataclass(frozen=True, slots=True)
class Embedder:
    """Dense vectors (unit length) of texts; ``query=True`` for what is asked, else for what answers."""

    embed: Callable[[Sequence[str], bool], np.ndarray]


def aspect_match(section: SectionSpec, evidence: Evidence) -> int:
    """How many of the section's aspect words the evidence mentions (quote or heading path)."""
    if not section.keywords:
        return 1
    vocabulary = stems(section.keywords)
    text_terms = term_set(evidence.quote) | term_set(evidence.section_path or "")
    return len(vocabulary & text_terms)


def route(
    template: Template,
    evidence: Sequence[Evidence],
    query: str,
    embedder: Embedder | None,
    *,
    min_similarity: float,
    backfill_limit: int = 4,
) -> dict[str, list[Evidence]]:
    routed: dict[str, list[Evidence]] = {s.id: [] for s in template.sections}
    for item in evidence:
        for section_id in item.sections:
            if section_id not in routed:
                continue
            section = template.section(section_id)
            if item.pinned or section.kind == "summary" or aspect_match(section, item):
                routed[section_id].append(item)
    empty = [s for s in template.sections if s.kind == "findings" and not routed[s.id]]
    if empty and evidence:
        for section, picked in zip(
            empty, _backfill(empty, evidence, query, embedder, min_similarity), strict=True
        ):
            routed[section.id] = picked[:backfill_limit]
    return routed


def _backfill(
    sections: list[SectionSpec],
    evidence: Sequence[Evidence],
    query: str,
    embedder: Embedder | None,
    min_similarity: float,
) -> list[list[Evidence]]:
    pool = [e for e in evidence if not e.dropped]
    similarity: np.ndarray | None = None
    if embedder is not None and pool:
        asks = embedder.embed([f"{s.title}: {s.description}" for s in sections] + [query], True)
        answers = embedder.embed([e.quote for e in pool], False)
        similarity = SECTION_WEIGHT * (asks[:-1] @ answers.T) + QUERY_WEIGHT * (asks[-1] @ answers.T)
    out: list[list[Evidence]] = []
    for k, section in enumerate(sections):
        gated = [(i, e) for i, e in enumerate(pool) if aspect_match(section, e)]
        chosen: list[Evidence] = []
        if similarity is not None:
            ranked = sorted(gated, key=lambda item: -float(similarity[k, item[0]]))
            chosen = [
                e.model_copy(update={"sections": sorted({*e.sections, section.id})})
                for i, e in ranked
                if float(similarity[k, i]) >= min_similarity
            ]
        if not chosen and section.keywords:  # keyword fallback: at least two aspect words
            strong = sorted(((aspect_match(section, e), e) for _, e in gated), key=lambda pair: -pair[0])
            chosen = [
                e.model_copy(update={"sections": sorted({*e.sections, section.id})})
                for n, e in strong
                if n >= 2
            ]
        out.append(chosen)
    return out
