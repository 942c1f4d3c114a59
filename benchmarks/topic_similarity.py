"""Does a search find the question's topic? The closest passage's dense cosine, on and off the corpus.

A short question whose every quote the cross-encoder scores off topic still gets its search's first document
cited when the search as written found the topic: the closest passage's BGE cosine reaches
``research.topic_similarity``. This measures how that one number separates questions about an index's corpus
(``--on``: files of judged questions asked of it) from questions about other corpora (``--off``), so that the
setting is chosen where they separate on several corpora and question styles, not on one.

    python -m benchmarks.topic_similarity --index IDX --on Q.jsonl [--on ...] --off O.jsonl [--off ...]

Question files: one JSON object with a ``question`` per line (the judged sets' format). Prints one JSON line
per file: its questions' top cosines (min, median, max) and the share at or above the setting.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

from sleuth.agent import Wiring, load_settings


def closest(index: Path, questions: list[str]) -> list[float]:
    """The dense cosine of each question and the closest chunk of the index (0.0 for an empty index)."""
    wiring = Wiring(load_settings())
    with wiring.runtime(index_dir=index) as runtime:
        vectors = runtime.encoders.embed_queries(questions)
        found = runtime.searcher.search_vectors(vectors, k=1, mode="dense")
    return [hits[0].score if hits else 0.0 for hits in found]


def summary(label: str, path: Path, scores: list[float], threshold: float) -> dict[str, Any]:
    return {
        "file": str(path),
        "label": label,
        "questions": len(scores),
        "min": round(min(scores), 3),
        "median": round(statistics.median(scores), 3),
        "max": round(max(scores), 3),
        "share_at_or_above": round(sum(s >= threshold for s in scores) / len(scores), 3),
        "threshold": threshold,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--on", type=Path, action="append", default=[], help="Questions about this corpus.")
    parser.add_argument("--off", type=Path, action="append", default=[], help="Questions about others.")
    parser.add_argument("--limit", type=int, default=0, help="Only the first N questions of each file.")
    args = parser.parse_args()
    threshold = load_settings().research.topic_similarity
    files = [("on", p) for p in args.on] + [("off", p) for p in args.off]
    asked: list[list[str]] = []
    for _, path in files:
        rows = [json.loads(line)["question"] for line in path.read_text().splitlines() if line.strip()]
        asked.append(rows[: args.limit] if args.limit else rows)
    scores = closest(args.index, [q for qs in asked for q in qs])
    start = 0
    for (label, path), qs in zip(files, asked, strict=True):
        print(json.dumps(summary(label, path, scores[start : start + len(qs)], threshold)))
        start += len(qs)


if __name__ == "__main__":
    main()
