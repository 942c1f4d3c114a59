"""Ranking metrics pinned on hand-computed cases (trec_eval conventions)."""

from __future__ import annotations

import math

import pytest

from sleuth.retrieval.metrics import mrr_at, ndcg_at, recall_at, score_run


def test_ndcg_linear_gain() -> None:
    qrels = {"a": 2, "b": 1}
    # ranked: x, a, b -> dcg = 2/log2(3) + 1/log2(4); ideal: a, b -> 2/1 + 1/log2(3)
    expected = (2 / math.log2(3) + 1 / 2) / (2 + 1 / math.log2(3))
    assert ndcg_at(["x", "a", "b"], qrels, 10) == pytest.approx(expected)
    assert ndcg_at(["a", "b"], qrels, 10) == pytest.approx(1.0)
    assert ndcg_at(["x", "a"], qrels, 1) == 0.0


def test_recall_and_mrr() -> None:
    qrels = {"a": 1, "b": 1, "c": 0}
    assert recall_at(["c", "a", "z"], qrels, 10) == 0.5
    assert recall_at(["c", "a", "b"], qrels, 2) == 0.5
    assert mrr_at(["c", "z", "b"], qrels, 10) == pytest.approx(1 / 3)
    assert mrr_at(["c", "z", "b"], qrels, 2) == 0.0


def test_score_run_counts_unanswered_queries_as_zero() -> None:
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 0}}
    scores = score_run({"q1": ["a"]}, qrels)
    assert scores["queries"] == 2  # q3 has no relevant document: not judged
    assert scores["ndcg@10"] == pytest.approx(0.5)
    assert scores["mrr@10"] == pytest.approx(0.5)
