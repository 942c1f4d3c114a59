"""Build a BEIR-layout dataset from the development corpus: FanOutQA sub-questions over Wikipedia leads.

Each leaf sub-question of a FanOutQA dev question names the Wikipedia page holding its answer; that page's
lead section (from the corpus's ``summaries_en-us.json``) is its one relevant document. Questions whose page
is not in the corpus are dropped.

    python -m benchmarks.fanout_beir CORPUS_DIR OUT_DIR
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def _leaves(question: dict[str, Any]) -> Iterator[dict[str, Any]]:
    subs = question.get("decomposition") or []
    if not subs and question.get("evidence"):
        yield question
    for sub in subs:
        yield from _leaves(sub)


def build(corpus_dir: Path, out: Path) -> tuple[int, int]:
    leads: dict[str, Any] = json.loads((corpus_dir / "wiki" / "summaries_en-us.json").read_text())
    questions = json.loads((corpus_dir / "wiki" / "fanout-final-dev.json").read_text())
    ids = {title: f"w{i}" for i, title in enumerate(sorted(leads))}
    (out / "qrels").mkdir(parents=True, exist_ok=True)
    with (out / "corpus.jsonl").open("w") as corpus:
        for title in sorted(leads):
            entry = leads[title]
            text = entry.get("extract") or ""
            row = {"_id": ids[title], "title": entry.get("title") or title, "text": text}
            corpus.write(json.dumps(row, ensure_ascii=False) + "\n")
    seen: set[str] = set()
    n_queries = 0
    with (out / "queries.jsonl").open("w") as queries, (out / "qrels" / "test.tsv").open("w") as qrels:
        qrels.write("query-id\tcorpus-id\tscore\n")
        for question in questions:
            for leaf in _leaves(question):
                title = leaf["evidence"]["title"]
                if title not in ids or leaf["id"] in seen:
                    continue
                seen.add(leaf["id"])
                queries.write(json.dumps({"_id": leaf["id"], "text": leaf["question"]}) + "\n")
                qrels.write(f"{leaf['id']}\t{ids[title]}\t1\n")
                n_queries += 1
    return len(ids), n_queries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus_dir", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    docs, queries = build(args.corpus_dir, args.out)
    print(f"{docs} documents, {queries} judged queries -> {args.out}")


if __name__ == "__main__":
    main()
