"""Captioned tables kept as Markdown tables, on long manuals never used to write the table rules.

A caption (``Table 4.2: ...``, ``Table 3. ...``, ``TABLE II ...`` on a line of its own) counts as kept when a
Markdown pipe table is the block right before or right after it; a caption inside a table (swallowed as a
row) counts as kept too but is reported, since it is a defect of its own. The manual of the issue's
acceptance has about 170 captioned tables; the Debian Reference (Debian package ``debian-reference-en``,
``apt-get download debian-reference-en && dpkg -x debian-reference-en_*.deb ROOT``) has 169.

    python -m benchmarks.captioned_tables PDF [PDF ...]
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from benchmarks.report import write_section
from sleuth.ingest.convert import convert_file

_CAPTION = re.compile(r"(?:^|\| )\\?(?:Table|TABLE|Tab\.)\s*[0-9IVX]+(?:\.[0-9]+)*[.:]", re.M)


def count(markdown: str) -> tuple[int, int, int]:
    """(captions, captions with a table next to them, captions inside a table)."""
    blocks = [b.strip() for b in markdown.split("\n\n")]
    blocks = [b for b in blocks if b and not b.startswith("<!-- page")]
    captions = kept = inside = 0
    for k, block in enumerate(blocks):
        for _ in _CAPTION.finditer(block):
            captions += 1
            if block.startswith("|"):
                inside += 1
                kept += 1
            elif any(0 <= j < len(blocks) and blocks[j].startswith("|") for j in (k - 1, k + 1)):
                kept += 1
    return captions, kept, inside


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", type=Path, nargs="+")
    args = parser.parse_args()
    rows = []
    for pdf in args.pdfs:
        started = time.perf_counter()
        result = convert_file(pdf)
        seconds = time.perf_counter() - started
        captions, kept, inside = count(result.markdown)
        tables = result.markdown.count("\n|---")
        rows.append(
            f"| {pdf.name} | {result.pages} | {captions} | {kept} | {inside} | {tables} | {seconds:.1f} |"
        )
    body = f"""### Captioned tables in long manuals

A caption is kept when a Markdown table is the block right before or after it (or it sits inside one,
counted apart as a defect). Command: `python -m benchmarks.captioned_tables PDF...`.

| file | pages | captions | with their table | caption inside a table | Markdown tables | seconds |
|---|---:|---:|---:|---:|---:|---:|
{chr(10).join(rows)}
"""
    write_section("captioned-tables", body)
    print(body)


if __name__ == "__main__":
    main()
