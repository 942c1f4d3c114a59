"""FanOutQA questions for ``sleuth eval research``, over the development corpus's Wikipedia leads as files.

Writes ``OUT/wiki/<title>.md`` (one lead per file, its document id being the page title) and two question
files: FanOutQA dev questions whose evidence pages include at least two of the leads, with those pages as
gold sources and FanOutQA's gold answer flattened to short strings (``answers``), split by a hash of the
question id into ``questions-tune.jsonl`` (what settings may be chosen on) and ``questions-heldout.jsonl``
(what results are reported on, never tuned against).

    python -m benchmarks.fanout_research CORPUS_DIR OUT [--leads DIR] [--questions DIR]

``--leads`` / ``--questions`` put the lead files or the question files elsewhere (the judged sets keep the
questions under benchmarks/judged/fanout/ and the leads in the corpora folder, see
benchmarks/judged_corpora.sh).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def document_id(title: str) -> str:
    return title.replace("/", "_")


def _leaves(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    subs = node.get("decomposition") or []
    if not subs and node.get("evidence"):
        yield node
    for sub in subs:
        yield from _leaves(sub)


def flatten_answer(answer: Any) -> list[str]:
    """FanOutQA answers are strings, numbers, booleans, lists or dicts (entity -> value): every scalar
    inside, keys included (the entities are part of the answer), as distinct strings in order."""
    out: list[str] = []
    if isinstance(answer, dict):
        for key, value in answer.items():
            out += [str(key), *flatten_answer(value)]
    elif isinstance(answer, list | tuple):
        for item in answer:
            out += flatten_answer(item)
    elif isinstance(answer, bool):
        out.append("yes" if answer else "no")
    elif isinstance(answer, float) and answer.is_integer():
        out.append(str(int(answer)))
    elif answer is not None and str(answer).strip():
        out.append(str(answer).strip())
    first: dict[str, str] = {}
    for a in out:
        first.setdefault(a.casefold(), a)
    return list(first.values())


def build(
    corpus_dir: Path,
    out: Path,
    min_gold: int = 2,
    *,
    leads_dir: Path | None = None,
    questions_dir: Path | None = None,
) -> dict[str, int]:
    leads: dict[str, Any] = json.loads((corpus_dir / "wiki" / "summaries_en-us.json").read_text())
    wiki = leads_dir or out / "wiki"
    wiki.mkdir(parents=True, exist_ok=True)
    for title, entry in leads.items():
        path = wiki / f"{document_id(title)}.md"
        if path.exists():
            continue
        description = (entry.get("description") or "").strip()
        head = f"# {title}\n\n" + (f"*{description}*\n\n" if description else "")
        path.write_text(f"---\ntitle: {json.dumps(title)}\n---\n{head}{entry.get('extract') or ''}\n")
    questions = json.loads((corpus_dir / "wiki" / "fanout-final-dev.json").read_text())
    counts = {"tune": 0, "heldout": 0, "documents": len(leads)}
    qdir = questions_dir or out
    qdir.mkdir(parents=True, exist_ok=True)
    with (
        (qdir / "questions-tune.jsonl").open("w") as tune,
        (qdir / "questions-heldout.jsonl").open("w") as held,
    ):
        for question in questions:
            gold = sorted(
                {document_id(leaf["evidence"]["title"]) for leaf in _leaves(question)}
                & {document_id(t) for t in leads}
            )
            if len(gold) < min_gold:
                continue
            row = json.dumps(
                {
                    "id": question["id"],
                    "question": question["question"],
                    "gold_sources": gold,
                    "answers": flatten_answer(question.get("answer")),
                    "style": "fanout",
                }
            )
            half = (
                "tune" if int(hashlib.sha256(question["id"].encode()).hexdigest(), 16) % 2 == 0 else "heldout"
            )
            (tune if half == "tune" else held).write(row + "\n")
            counts[half] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus_dir", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--leads", type=Path, default=None, help="Lead files go here (default OUT/wiki).")
    parser.add_argument("--questions", type=Path, default=None, help="Question files go here (default OUT).")
    args = parser.parse_args()
    print(build(args.corpus_dir, args.out, leads_dir=args.leads, questions_dir=args.questions))


if __name__ == "__main__":
    main()
