"""Which search results are worth fetching, best first: allow/deny lists, canonical URLs, duplicates by URL
and by near-identical titles on one domain, a per-domain cap for diversity, and a ranking from the query's
terms in title and snippet (BM25-lite), domain trust, recency and a geographic divergence penalty."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sleuth.retrieval.web.places import diverges
from sleuth.retrieval.web.results import WebResult
from sleuth.retrieval.web.urls import canonical_url, domain_matches, domain_of

_TOKEN = re.compile(r"[^\W_]+", re.U)
_STOP = frozenset(
    "a an and are as at be by for from how in is it of on or that the this to was what when where which who"
    " why with".split()
)


@dataclass(frozen=True)
class GatePolicy:
    allow_domains: tuple[str, ...] = ()
    deny_domains: tuple[str, ...] = ()
    per_domain: int = 2
    #: Domain -> trust in [-1, 1] added to the score (subdomains included).
    trust: Mapping[str, float] = field(default_factory=dict)
    recency_weight: float = 0.2
    geo_penalty: float = 0.5


@dataclass(frozen=True, slots=True)
class Candidate:
    result: WebResult
    url: str
    domain: str
    score: float


@dataclass
class GateReport:
    kept: list[Candidate] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    #: Candidates the per-domain cap held back, best first: what replaces a kept page that cannot be read.
    spare: list[Candidate] = field(default_factory=list)


def gate(
    query: str, results: Sequence[WebResult], policy: GatePolicy, now: datetime | None = None
) -> GateReport:
    """Results in the order worth fetching, each at most once, with counts of what was refused and why."""
    report = GateReport()
    now = now or datetime.now(UTC)
    terms = _terms(query)
    scored: list[Candidate] = []
    seen_urls: set[str] = set()
    seen_titles: list[tuple[str, set[str]]] = []
    docs = [_terms(f"{r.title} {r.snippet}") for r in results]
    avg = sum(len(d) for d in docs) / len(docs) if docs else 1.0
    df = Counter(t for d in docs for t in set(d))
    for result, doc in zip(results, docs, strict=True):
        if not result.url.lower().startswith(("http://", "https://")):
            report.refused["not http(s)"] += 1
            continue
        try:
            url = canonical_url(result.url)
        except ValueError:  # a port out of range, an unclosed IPv6 bracket: not a page to fetch
            report.refused["malformed URL"] += 1
            continue
        domain = domain_of(url)
        if policy.deny_domains and domain_matches(domain, policy.deny_domains):
            report.refused["denied domain"] += 1
            continue
        if policy.allow_domains and not domain_matches(domain, policy.allow_domains):
            report.refused["not an allowed domain"] += 1
            continue
        if url in seen_urls:
            report.refused["duplicate URL"] += 1
            continue
        shingles = _shingles(result.title)
        if shingles and any(d == domain and _jaccard(s, shingles) >= 0.8 for d, s in seen_titles):
            report.refused["duplicate title on the domain"] += 1
            continue
        seen_urls.add(url)
        seen_titles.append((domain, shingles))
        score = _bm25(terms, doc, df, len(docs), avg)
        score += next((w for d, w in policy.trust.items() if domain_matches(domain, (d,))), 0.0)
        score += policy.recency_weight * _recency(result.published, now)
        if policy.geo_penalty and diverges(query, f"{result.title} {result.snippet}"):
            score -= policy.geo_penalty
        score -= 0.01 * result.position  # the engine's order breaks ties
        scored.append(Candidate(result, url, domain, score))
    per_domain: Counter[str] = Counter()
    for candidate in sorted(scored, key=lambda c: -c.score):
        if per_domain[candidate.domain] >= policy.per_domain:
            report.refused["per-domain cap"] += 1
            report.spare.append(candidate)
            continue
        per_domain[candidate.domain] += 1
        report.kept.append(candidate)
    return report


def _terms(text: str) -> list[str]:
    return [t for t in (m.group(0).lower() for m in _TOKEN.finditer(text)) if t not in _STOP]


def _bm25(query: list[str], doc: list[str], df: Counter[str], n: int, avg: float) -> float:
    """BM25 over the result list itself (k1 1.2, b 0.75), scaled to about [0, 1] by the query's length."""
    if not query or not doc:
        return 0.0
    tf = Counter(doc)
    score = 0.0
    for term in set(query):
        if term not in tf:
            continue
        idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
        f = tf[term]
        score += idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * len(doc) / avg))
    return score / (len(set(query)) * math.log(1 + n + 0.5) * 2.2 or 1.0)


def _recency(published: str | None, now: datetime) -> float:
    """1 for today, halving every year; 0 without a date."""
    if not published:
        return 0.0
    try:
        when = datetime.fromisoformat(published.replace("Z", "+00:00"))
    except ValueError:
        return 0.0
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    years = max(0.0, (now - when).days / 365.25)
    return float(0.5**years)


def _shingles(title: str) -> set[str]:
    words = _terms(title)
    return {" ".join(words[i : i + 2]) for i in range(max(1, len(words) - 1))} if words else set()


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0
