"""Write the judged sets' question files from their hand-written sources, split by a hash of the question id.

The split is the one benchmarks/fanout_research.py uses (sha256 of the id, even -> tuning half, odd ->
held-out half): fixed by the ids alone, before anything is tuned, and unchanged when questions are added.

    python -m benchmarks.judged.src.build
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from benchmarks.judged.src.long_django import REQUESTS

HERE = Path(__file__).resolve().parent
JUDGED = HERE.parent


def half(question_id: str) -> str:
    return "tune" if int(hashlib.sha256(question_id.encode()).hexdigest(), 16) % 2 == 0 else "heldout"


def write_set(name: str, style: str, rows: list[dict[str, Any]]) -> dict[str, int]:
    out = JUDGED / name
    out.mkdir(parents=True, exist_ok=True)
    halves: dict[str, list[str]] = {"tune": [], "heldout": []}
    for row in rows:
        record = {
            "id": row["id"],
            "question": row["question"],
            "gold_sources": row["gold_sources"],
            "answers": row.get("answers", []),
            "style": style,
        }
        halves[half(str(row["id"]))].append(json.dumps(record, ensure_ascii=False))
    for key, lines in halves.items():
        (out / f"questions-{key}.jsonl").write_text("".join(line + "\n" for line in lines))
    return {key: len(lines) for key, lines in halves.items()}


def main() -> None:
    for name in ("manual-apache", "manual-sqlite"):
        lines = (HERE / f"{name}.jsonl").read_text().splitlines()
        rows = [json.loads(line) for line in lines if line.strip()]
        print(name, write_set(name, "manual", rows))
    print("long-django", write_set("long-django", "long", list(REQUESTS)))


if __name__ == "__main__":
    main()
