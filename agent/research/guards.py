"""Grounding, enforced in code after every step that writes text, whoever wrote it.

- A quote must stand verbatim in the visible text of its source (the chunk in the index as a reader sees it
  rendered, or the fetched page's; with the next chunk when the quote runs on into the list a colon
  introduced); a quote that matches only up to white space is replaced by the exact slice; otherwise it is
  dropped.
- A claim must cite evidence, and only evidence that exists; unknown ids are removed, a claim left with none
  is dropped.
- Numbers, names (capitalised terms) and quoted strings in a claim must appear in the evidence it cites; a
  claim that brings its own is cut back to its supported sentences, or dropped.
- Silent filler: a claim whose content words are mostly absent from its evidence, or that is far longer than
  its evidence, says more than the evidence supports, and is dropped.

Every removal is counted; the counts go into the report's metrics.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

from sleuth.agent.report import Claim
from sleuth.agent.research.claim_text import one_line
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.history import release_of
from sleuth.agent.research.text import named_things, numbers, path_parts, term_set, words

_CLAIM_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“])")
_QUOTED = re.compile(r"[“\"]([^”\"]{2,})[”\"]")
#: Share of a claim's content words that may be absent from its evidence (inflections, connectives).
MAX_NOVEL_SHARE = 0.5
#: A claim may be at most this many times as long (in words) as the evidence it cites, plus a margin.
MAX_LENGTH_RATIO = 2.0


class GuardCounts(Counter[str]):
    """How many items each guard removed (keys: non_verbatim, quote_repaired, unanchored, unknown_ids,
    unsupported_terms, claims_cut_back, filler)."""


def verify_quotes(
    evidence: Sequence[Evidence], sources: Mapping[str, str | None], counts: GuardCounts
) -> list[Evidence]:
    """Evidence whose quote stands in its source text (``sources[evidence.id]``); the rest is dropped."""
    kept: list[Evidence] = []
    for found in evidence:
        text = sources.get(found.id)
        if text is None:
            counts["source_missing"] += 1
            continue
        item = found
        if found.term is not None and " ".join(found.term.split()) not in " ".join(text.split()):
            item = found.model_copy(update={"term": None})  # (a term the source does not hold names nothing)
        if item.quote and item.quote in text:
            kept.append(item.model_copy(update={"start": _once_at(item.quote, text)}))
            continue
        exact = whitespace_match(item.quote, text)
        if exact is None:
            counts["non_verbatim"] += 1
            continue
        counts["quote_repaired"] += 1
        # (the repaired quote's code, if any, is told from its text again)
        code_at = item.code_at if exact == item.quote else None
        kept.append(
            item.model_copy(update={"quote": exact, "code_at": code_at, "start": _once_at(exact, text)})
        )
    return kept


def _once_at(quote: str, text: str) -> int | None:
    """Where ``quote`` stands in ``text``, when it stands there once (a sentence a manual repeats under
    every option has no one place)."""
    at = text.find(quote)
    return at if at >= 0 and text.find(quote, at + 1) < 0 else None


def whitespace_match(quote: str, text: str) -> str | None:
    """The slice of ``text`` equal to ``quote`` up to white space, if there is one."""
    parts = quote.split()
    if not parts:
        return None
    pattern = r"\s+".join(re.escape(p) for p in parts)
    m = re.search(pattern, text)
    return m.group(0) if m else None


def guard_claims(
    claims: Sequence[Claim], evidence: Mapping[str, Evidence], counts: GuardCounts
) -> list[Claim]:
    kept: list[Claim] = []
    for claim in claims:
        ids = list(dict.fromkeys(claim.evidence_ids))
        if not ids:
            counts["unanchored"] += 1
            continue
        known = [i for i in ids if i in evidence and not evidence[i].dropped]
        if len(known) < len(ids):
            counts["unknown_ids"] += len(ids) - len(known)
        if not known:
            counts["unanchored"] += 1
            continue
        quotes = [evidence[i].quote for i in known]
        # A quote as a claim reads on one line (``one_line``: a list's items joined by "; "): the
        # claim is checked against that rendering too, or a docstring's quotes would seem its own. The
        # page's title and the heading a quote stands under are the source's too (a claim may name what
        # "this hook" is, or the module a page documents).
        headings = [h for i in known for h in _page_and_heading(evidence[i]) if h]
        text = _supported_part(claim.text, [*quotes, *map(one_line, quotes), *headings], counts)
        if text is None:
            continue
        if _filler(text, [*quotes, *headings]):  # (a claim named by the signature it stands under)
            counts["filler"] += 1
            continue
        kept.append(claim.model_copy(update={"text": text, "evidence_ids": known}))
    return kept


def _supported_part(text: str, quotes: Sequence[str], counts: GuardCounts) -> str | None:
    """The claim, or the sentences of it whose numbers, names and quoted strings the evidence contains."""
    sentences = [s for s in _CLAIM_SENTENCE.split(text.strip()) if s.strip()]
    good = [s for s in sentences if terms_supported(s, quotes)]
    if not good:
        counts["unsupported_terms"] += 1
        return None
    if len(good) == len(sentences):
        return text  # as written (a claim's code keeps its lines)
    counts["claims_cut_back"] += 1
    return " ".join(good)


def terms_supported(sentence: str, quotes: Sequence[str]) -> bool:
    evidence = " ".join(quotes)
    folded = " ".join(evidence.split()).casefold()
    if not numbers(sentence) <= numbers(evidence):
        return False
    for name in named_things(sentence):
        if " ".join(name.split()).casefold() not in folded:
            return False
    return all(" ".join(q.split()).casefold() in folded for q in _QUOTED.findall(sentence))


def _filler(text: str, quotes: Sequence[str]) -> bool:
    claim_terms = term_set(text)
    evidence_terms = frozenset().union(*(term_set(q) for q in quotes))
    if claim_terms and len(claim_terms - evidence_terms) / len(claim_terms) > MAX_NOVEL_SHARE:
        return True
    evidence_words = sum(len(words(q)) for q in quotes)
    return len(words(text)) > MAX_LENGTH_RATIO * evidence_words + 12


def _page_and_heading(evidence: Evidence) -> tuple[str, str, str]:
    """The first and the last heading a quote stands under (the page's title, its section's heading), and in a
    change log the release it stands in (``history.release_of``), with the term lines over its description
    (``Evidence.term``): what a claim may name besides its quote
    (see ``claim_names.pointed_at``); never the other headings between, whose numbers and names are about
    other parts of the page."""
    parts = path_parts(evidence.section_path)
    # ... and the term lines its description stands under, where the quote does not open on them
    # (``Evidence.term``, checked against the source with the quote)
    term = " ".join((evidence.term or "").split())
    return parts[0], parts[-1] if len(parts) > 1 else "", f"{release_of(evidence) or ''} {term}".strip()
