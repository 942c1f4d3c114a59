"""``make demo``: ingest the bundled sample corpus and write one templated research report, offline.

Runs the real CLI: ``sleuth ingest data/sample data/pdf`` into an embedded index (idempotent: a second run
skips unchanged files), then ``sleuth research QUESTION --template brief --offline``, and prints the
report's sections with their statuses and where report.md and report.json were written.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

from sleuth.agent.cli import main as sleuth

REPO = Path(__file__).resolve().parents[2]
CORPUS = [REPO / "data" / "sample", REPO / "data" / "pdf"]
#: A question the bundled corpus answers (its documents are encyclopaedia leads on energy, materials and
#: electronics): a demo shows what a report looks like when the evidence is there.
QUESTION = "Which energy sources generate electricity, and which of them are renewable?"
TEMPLATE = "brief"


def main() -> int:
    out_dir = Path(".sleuth/demo")
    index = out_dir / "index"
    code = sleuth(["ingest", *map(str, CORPUS), "--index", str(index)])
    if code != 0:
        return code
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        code = sleuth(
            [
                "research",
                QUESTION,
                "--template",
                TEMPLATE,
                "--index",
                str(index),
                "--offline",
                "--out",
                str(out_dir),
            ]
        )
    if code != 0:
        return code
    report = json.loads((out_dir / "report.json").read_text())
    print(f"research ({TEMPLATE}, offline): {QUESTION}")
    for section in report["sections"]:
        cited = {e for c in section["claims"] for e in c["evidence_ids"]}
        claims = len(section["claims"])
        print(f"  {section['title']}: {section['status']} ({claims} claims, {len(cited)} evidence)")
    pages = sorted({f"{e['document_id']} p.{e['page']}" for e in report["evidence"] if e["page"]})
    print(
        f"  {len(report['evidence'])} quotes from {len(report['sources'])} sources"
        + (f"; pages cited: {', '.join(pages)}" if pages else "")
    )
    print(f"report written to {(out_dir / 'report.md').resolve()} and {(out_dir / 'report.json').resolve()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
