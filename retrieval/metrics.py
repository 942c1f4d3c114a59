"""Ranking metrics as trec_eval computes them (linear gain nDCG, binary recall and MRR).

Written out rather than taken from pytrec_eval or ranx: each is a few lines, and those libraries bring a C
build or numba for four numbers. The tests pin them on hand-computed cases.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def ndcg_at(ranked: Sequence[str], qrels: Mapping[str, int], k: int) -> float:
    gains = [qrels.get(doc, 0) for doc in ranked[:k]]
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains) if g > 0)
    ideal = sorted((g for g in qrels.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: Sequence[str], qrels: Mapping[str, int], k: int) -> float:
    relevant = {d for d, g in qrels.items() if g > 0}
    return len(relevant & set(ranked[:k])) / len(relevant) if relevant else 0.0


def mrr_at(ranked: Sequence[str], qrels: Mapping[str, int], k: int) -> float:
    for i, doc in enumerate(ranked[:k]):
        if qrels.get(doc, 0) > 0:
            return 1.0 / (i + 1)
    return 0.0


def score_run(run: Mapping[str, Sequence[str]], qrels: Mapping[str, Mapping[str, int]]) -> dict[str, float]:
    """Mean nDCG@10, Recall@10, Recall@100, MRR@10 over the judged queries (a query with no hits scores 0)."""
    judged = [q for q, rels in qrels.items() if any(g > 0 for g in rels.values())]
    if not judged:
        return {"ndcg@10": 0.0, "recall@10": 0.0, "recall@100": 0.0, "mrr@10": 0.0, "queries": 0}
    totals = {"ndcg@10": 0.0, "recall@10": 0.0, "recall@100": 0.0, "mrr@10": 0.0}
    for qid in judged:
        ranked = run.get(qid, [])
        totals["ndcg@10"] += ndcg_at(ranked, qrels[qid], 10)
        totals["recall@10"] += recall_at(ranked, qrels[qid], 10)
        totals["recall@100"] += recall_at(ranked, qrels[qid], 100)
        totals["mrr@10"] += mrr_at(ranked, qrels[qid], 10)
    result = {name: value / len(judged) for name, value in totals.items()}
    result["queries"] = len(judged)
    return result
