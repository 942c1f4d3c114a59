"""Retrieval evaluation on a BEIR dataset: ingest its corpus, rank documents per query, score the run."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sleuth.retrieval.beir import Dataset
from sleuth.retrieval.ingestion import Ingestor
from sleuth.retrieval.metrics import score_run
from sleuth.retrieval.search import Searcher
from sleuth.retrieval.store.base import DEFAULT_FUSION, Fusion, Mode

log = logging.getLogger(__name__)


@dataclass
class RetrievalEval:
    mode: str
    metrics: dict[str, float]
    run: dict[str, list[tuple[str, float]]] = field(repr=False)
    query_seconds: list[float] = field(repr=False)


def index_corpus(dataset: Dataset, ingestor: Ingestor) -> None:
    """The corpus into the ingestor's index (unchanged documents skipped); progress to its display."""
    ingestor.ingest_texts(dataset.documents())


def evaluate(
    dataset: Dataset,
    searcher: Searcher,
    *,
    mode: Mode = "hybrid",
    fusion: Fusion = DEFAULT_FUSION,
    depth: int = 100,
    progress: Callable[[int], None] | None = None,
) -> RetrievalEval:
    """Document-level ranking (a document scores as its best chunk), ``depth`` documents per query."""
    run: dict[str, list[tuple[str, float]]] = {}
    seconds: list[float] = []
    for qid, text in dataset.queries.items():
        started = time.perf_counter()
        run[qid] = searcher.rank_documents(text, k=depth, mode=mode, fusion=fusion)
        seconds.append(time.perf_counter() - started)
        if progress:
            progress(1)
    metrics = score_run({q: [d for d, _ in ranked] for q, ranked in run.items()}, dataset.qrels)
    return RetrievalEval(mode, metrics, run, seconds)
