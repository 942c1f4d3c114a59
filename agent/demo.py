"""``make demo``: the pipeline as far as it exists, on the bundled sample corpus, through the real CLI.

Ingests ``data/sample`` into an embedded index (idempotent: a second run skips unchanged files) and runs one
hybrid search over it, printing the hits and where they were written. The research agent replaces the search
with a templated report when it lands (see the contract).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

from sleuth.agent.cli import main as sleuth

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "data" / "sample"
QUESTION = "Which materials do batteries for electric cars depend on?"


def main() -> int:
    out_dir = Path(".sleuth/demo")
    out_dir.mkdir(parents=True, exist_ok=True)
    index = out_dir / "index"
    code = sleuth(["ingest", str(SAMPLE), "--index", str(index)])
    if code != 0:
        return code
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        code = sleuth(["search", QUESTION, "--index", str(index), "-k", "5", "--json"])
    if code != 0:
        return code
    hits = json.loads(captured.getvalue())
    results = out_dir / "search.json"
    results.write_text(json.dumps({"query": QUESTION, "mode": "hybrid", "hits": hits}, indent=2) + "\n")
    print(f"hybrid search: {QUESTION}")
    for rank, hit in enumerate(hits, 1):
        snippet = " ".join(hit["content"].split())[:110]
        print(f"{rank}. {hit['score']:.4f} {hit['document_id']} [{hit['section_path']}] {snippet}...")
    print(f"index in {index.resolve()}; search results written to {results.resolve()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
