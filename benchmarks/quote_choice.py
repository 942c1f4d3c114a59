"""Which sentence answers? The cross-encoder against term weights, on judged questions with answer strings.

For each question of a judged questions file (``{id, question, answers}`` per line), one hybrid search
(the top ``--passages`` chunks, as a research run's own search reads them), every quotable window of those
chunks (``sleuth.agent.research.quotes.windows``), then three ways to choose the ``--top`` windows a report
would quote:

- ``term weight``: the question's SPLADE term weights over each window's tokens, length-normalised (what
  research used before the cross-encoder; also the shortlist's order);
- ``cross-encoder, all``: MiniLM-L-12 reads every window in its heading context;
- ``shortlist + cross-encoder``: what research does now: term weights keep ``per_passage`` windows of each
  chunk and ``budget`` in all (every chunk keeps its best), the cross-encoder orders those.

Reported per half: the share of answerable questions (some window holds a gold answer string) whose chosen
windows hold one, the cross-encoder pairs read per question and the seconds they took.

    python -m benchmarks.quote_choice --index IDX --questions Q.jsonl [--questions Q2.jsonl ...]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import time
from pathlib import Path
from typing import Any

from sleuth.agent import Wiring, load_settings
from sleuth.agent.research.admission import weights
from sleuth.agent.research.quotes import QuoteJudge, Readable, Window, in_context, readable, windows
from sleuth.retrieval import SearchHit


def _norm(text: str) -> str:
    return " ".join(re.sub(r"\\([\\`*_{}\[\]()#+\-.!|])", r"\1", text).casefold().split())


def _holds(texts: list[str], answers: list[str]) -> bool:
    pool = " \n ".join(_norm(t) for t in texts)
    return any(_norm(a) in pool for a in answers)


def _term_score(weights_: dict[int, float], tokens: list[int]) -> float:
    total = sum(weights_.values()) or 1.0
    own = set(tokens)
    return sum(weights_.get(t, 0.0) for t in own) / total / math.log2(2 + len(own) / 24)


def _contexts(readers: list[Readable], found: list[SearchHit], chosen: list[tuple[int, Window]]) -> list[str]:
    return [
        in_context(
            readers[k].text[w.start : w.end],
            title=found[k].document_title,
            section_path=found[k].section_path,
        )
        for k, w in chosen
    ]


def measure(
    path: Path, index: Path, *, passages: int, top: int, per_passage: int, budget: int
) -> dict[str, Any]:
    wiring = Wiring(load_settings())
    questions = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    hits = {"term weight": 0, "cross-encoder, all": 0, "shortlist + cross-encoder": 0}
    pairs = {"cross-encoder, all": 0, "shortlist + cross-encoder": 0}
    seconds = {"cross-encoder, all": 0.0, "shortlist + cross-encoder": 0.0}
    answerable = 0
    with wiring.runtime(index_dir=index) as runtime:
        enc = runtime.encoders
        judge = QuoteJudge(enc.sparse_token_ids, enc.rerank, per_passage=per_passage)
        for q in questions:
            vector = enc.embed_queries([q["question"]])[0]
            found = runtime.searcher.search_vectors([vector], k=passages)[0]
            readers = [readable(h.content) for h in found]
            cut = [windows(r) for r in readers]
            flat: list[tuple[int, Window]] = [(k, w) for k, ws in enumerate(cut) for w in ws]
            texts = [readers[k].text[w.start : w.end] for k, w in flat]
            if not _holds(texts, q.get("answers", [])):
                continue
            answerable += 1
            w = weights(vector[1])
            tokens = enc.sparse_token_ids(texts)
            by_terms = sorted(range(len(flat)), key=lambda i: -_term_score(w, tokens[i]))
            hits["term weight"] += _holds([texts[i] for i in by_terms[:top]], q["answers"])

            started = time.perf_counter()
            scores = enc.rerank(q["question"], _contexts(readers, found, flat))
            seconds["cross-encoder, all"] += time.perf_counter() - started
            pairs["cross-encoder, all"] += len(flat)
            order = sorted(range(len(flat)), key=lambda i: -scores[i])
            hits["cross-encoder, all"] += _holds([texts[i] for i in order[:top]], q["answers"])

            short = judge.shortlist(w, [r.text for r in readers], cut, budget=budget)
            chosen = [(k, win) for k, ws in enumerate(short) for win in ws]
            started = time.perf_counter()
            scores = enc.rerank(q["question"], _contexts(readers, found, chosen))
            seconds["shortlist + cross-encoder"] += time.perf_counter() - started
            pairs["shortlist + cross-encoder"] += len(chosen)
            order = sorted(range(len(chosen)), key=lambda i: -scores[i])
            picked = [readers[chosen[i][0]].text[chosen[i][1].start : chosen[i][1].end] for i in order[:top]]
            hits["shortlist + cross-encoder"] += _holds(picked, q["answers"])
    n = max(1, answerable)
    return {
        "questions": len(questions),
        "answerable": answerable,
        "answer_in_top": {k: round(v / n, 3) for k, v in hits.items()},
        "pairs_per_question": {k: round(v / n, 1) for k, v in pairs.items()},
        "seconds_per_question": {k: round(v / n, 2) for k, v in seconds.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--questions", type=Path, action="append", required=True)
    parser.add_argument("--passages", type=int, default=10)
    parser.add_argument("--top", type=int, default=3)
    parser.add_argument("--per-passage", type=int, default=3)
    parser.add_argument("--budget", type=int, default=24)
    args = parser.parse_args()
    for path in args.questions:
        result = measure(
            path,
            args.index,
            passages=args.passages,
            top=args.top,
            per_passage=args.per_passage,
            budget=args.budget,
        )
        print(json.dumps({"questions_file": str(path), **result}))


if __name__ == "__main__":
    main()
