"""Table precision and recall of the text-layer PDF path against hand labels (tests/data/tables-truth.json).

A detected table (a Markdown pipe table) is correct when a labelled table of its page has its cell text in
it (cell borders ignored); each label is matched at most once. Precision: correct detections / detections;
recall: matched labels / labels.

    python -m benchmarks.tables [--corpus corpus-dev]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from benchmarks.report import write_section
from sleuth.ingest.convert.pdf_structure import pdf_to_markdown

REPO = Path(__file__).resolve().parents[1]
TRUTH = REPO / "tests" / "data" / "tables-truth.json"


def detected_tables(markdown: str) -> list[tuple[int, str]]:
    """(page, table text) of every pipe table."""
    out: list[tuple[int, str]] = []
    page, current, start = 0, [], 0
    for line in [*markdown.splitlines(), ""]:
        m = re.match(r"<!-- page: (\d+) -->", line)
        if m:
            page = int(m.group(1))
        if line.startswith("|"):
            if not current:
                start = page
            current.append(line)
        elif current:
            out.append((start, "\n".join(current)))
            current = []
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=REPO / "corpus-dev")
    args = parser.parse_args()
    truth = json.loads(TRUTH.read_text())["documents"]
    rows = []
    totals = [0, 0, 0]  # detections, correct, labels
    for name, labels in truth.items():
        tables = detected_tables(pdf_to_markdown(args.corpus / "pdf" / name).markdown)
        unmatched = list(labels)
        correct = 0
        for page, text in tables:
            flat = " ".join(text.replace("|", " ").split())  # a label's words, wherever cells were cut
            hit = next((lab for lab in unmatched if lab["page"] == page and lab["cell"] in flat), None)
            if hit is not None:
                unmatched.remove(hit)
                correct += 1
        totals[0] += len(tables)
        totals[1] += correct
        totals[2] += len(labels)
        rows.append(f"| {name} | {len(labels)} | {len(tables)} | {correct} |")
    precision = totals[1] / totals[0] if totals[0] else 0.0
    recall = totals[1] / totals[2] if totals[2] else 0.0
    body = f"""### PDF tables against hand labels

{len(truth)} development PDFs, tables labelled by hand (`tests/data/tables-truth.json`). Precision
{precision:.2f} ({totals[1]} of {totals[0]} detected tables are tables), recall {recall:.2f} ({totals[1]} of
{totals[2]} labelled tables found). Command: `python -m benchmarks.tables`.

| file | labelled | detected | correct |
|---|---:|---:|---:|
{chr(10).join(rows)}
"""
    write_section("tables", body)
    print(body)


if __name__ == "__main__":
    main()
