"""Where the research run's cross-encoder floors come from: score distributions on judged questions.

Runs research on a judged questions file (``{id, question, gold_sources, answers?}`` per line) with every
floor opened (``topic_floor``, ``topic_gap``, ``answer_floor``: nothing is left out for its score), stops
after discovery (review mode), and records every candidate the ledger kept: which search found it (the
request's own, a section's question, a lead), its cross-encoder score, whether it is backbone (the best quote
of a top document of the request's own search), whether its document is gold and whether it holds a gold
answer string. Then it reports, for a grid of floors, what each would keep:

- backbone: the share of gold documents among the top documents kept (the floor must keep them: a report
  never knows less than a search) against the share of other documents kept;
- answers: the share of answer-bearing quotes kept against the share of all quotes kept.

Floors are chosen on the tuning half only; ``--questions`` of the held-out half shows whether they hold.

    python -m benchmarks.research_calibration --questions Q.jsonl --index IDX [--template brief] [--out F]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from sleuth.agent import Wiring, load_settings

TOPIC_FLOORS = (-8.0, -6.0, -4.0, -2.0, 0.0)
TOPIC_GAPS = (4.0, 6.0, 8.0, 10.0, 12.0, 99.0)
ANSWER_FLOORS = (-6.0, -4.0, -2.0, -1.0, 0.0, 1.0, 2.0, 4.0)
OWN = ("query", "ask", "constraint")


def _norm(text: str) -> str:
    return " ".join(re.sub(r"\\([\\`*_{}\[\]()#+\-.!|])", r"\1", text).casefold().split())


def collect(questions: list[dict[str, Any]], index: Path, template: str, depth: int) -> list[dict[str, Any]]:
    wiring = Wiring(load_settings())
    rows: list[dict[str, Any]] = []
    spec = wiring.templates().load(template)
    with wiring.runtime(index_dir=index) as runtime:
        for q in questions:
            options = replace(
                wiring.research_options(depth=depth, review=True),
                topic_floor=-99.0,
                topic_gap=99.0,
                answer_floor=-99.0,
            )
            run = wiring.research_run(runtime, f"cal-{q['id']}", q["question"], spec, options)

            async def drain(r: Any = run) -> None:
                async for _ in r.events():
                    pass

            asyncio.run(drain())
            gold = set(q["gold_sources"])
            answers = [_norm(a) for a in q.get("answers", [])]
            questions_by_id = run.state.questions
            best: dict[str, float] = {}
            for e in run.state.ledger:
                origin = questions_by_id[e.question_id].origin if e.question_id in questions_by_id else "?"
                if origin in OWN:
                    best[e.question_id] = max(best.get(e.question_id, -99.0), e.score)
            for e in run.state.ledger:
                origin = questions_by_id[e.question_id].origin if e.question_id in questions_by_id else "?"
                quote = _norm(e.quote)
                rows.append(
                    {
                        "qid": q["id"],
                        "question_id": e.question_id,
                        "origin": origin,
                        "score": e.score,
                        "best": best.get(e.question_id),
                        "backbone": e.backbone,
                        "document": e.document_key,
                        "gold": e.document_key in gold,
                        "answer": any(a and a in quote for a in answers),
                    }
                )
            print(f"{q['id']}: {len(run.state.ledger)} candidates", flush=True)
    return rows


def analyse(rows: list[dict[str, Any]]) -> dict[str, Any]:
    backbone = [r for r in rows if r["backbone"]]
    grid = []
    for floor in TOPIC_FLOORS:
        for gap in TOPIC_GAPS:
            kept = [r for r in backbone if r["score"] >= max(floor, (r["best"] or -99.0) - gap)]
            gold_docs = {(r["qid"], r["document"]) for r in backbone if r["gold"]}
            kept_gold = {(r["qid"], r["document"]) for r in kept if r["gold"]}
            other = [r for r in backbone if not r["gold"]]
            kept_other = [r for r in kept if not r["gold"]]
            grid.append(
                {
                    "topic_floor": floor,
                    "topic_gap": gap,
                    "gold_kept": len(kept_gold) / len(gold_docs) if gold_docs else None,
                    "other_kept": len(kept_other) / len(other) if other else None,
                }
            )
    others = [r for r in rows if not r["backbone"]]
    answer_grid = []
    for floor in ANSWER_FLOORS:
        kept = [r for r in others if r["score"] >= floor]
        with_answer = [r for r in others if r["answer"]]
        answer_grid.append(
            {
                "answer_floor": floor,
                "answers_kept": sum(r["answer"] for r in kept) / len(with_answer) if with_answer else None,
                "kept": len(kept) / len(others) if others else None,
                "answer_share_of_kept": sum(r["answer"] for r in kept) / len(kept) if kept else None,
            }
        )
    return {"rows": len(rows), "backbone": len(backbone), "topic": grid, "answer": answer_grid}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--template", default="brief")
    parser.add_argument("--depth", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    questions = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
    rows = collect(questions[: args.limit], args.index, args.template, args.depth)
    result = analyse(rows)
    if args.out:
        args.out.write_text(json.dumps({"analysis": result, "rows": rows}, indent=1))
    for row in result["topic"]:
        print(
            f"topic_floor {row['topic_floor']:>5}  gap {row['topic_gap']:>5}  gold kept {row['gold_kept']}  "
            f"other kept {row['other_kept']}"
        )
    for row in result["answer"]:
        print(
            f"answer_floor {row['answer_floor']:>5}  answers kept {row['answers_kept']}  "
            f"all kept {row['kept']}  answer share {row['answer_share_of_kept']}"
        )


if __name__ == "__main__":
    main()
