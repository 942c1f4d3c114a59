"""Heading recall on PDFs never looked at while the structure rules were written.

Every 25th PDF (from the third) of Debian's texlive-publishers-doc, plus ACM's sigconf sample, unpacked with
``apt-get download texlive-publishers-doc && dpkg -x texlive-publishers-doc_*.deb ROOT``: judged against each
PDF's outline, else its printed contents; speed in pages per second.

    python -m benchmarks.pdf_heldout ROOT
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from benchmarks.report import write_section
from sleuth.ingest.convert import convert_file
from sleuth.ingest.convert.pdf_contents import contents_outline
from sleuth.ingest.convert.pdf_layout import read_outline, read_pages
from sleuth.ingest.convert.quality import heading_recall
from sleuth.ingest.sources import SourceError


def picks(root: Path) -> list[Path]:
    pdfs = sorted(root.rglob("*.pdf"))
    chosen = [p for n, p in enumerate(pdfs, 1) if n % 25 == 3][:14]
    return chosen + sorted(root.rglob("sample-sigconf.pdf"))[:1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    args = parser.parse_args()
    rows, recalls, pages, seconds = [], [], 0, 0.0
    for pdf in picks(args.root):
        try:
            _, outline = read_outline(pdf)
            started = time.perf_counter()
            result = convert_file(pdf)
            seconds += time.perf_counter() - started
        except SourceError as exc:
            rows.append(f"| {pdf.name} | - | - | {exc.reason} |")
            continue
        pages += result.pages or 0
        titles, truth = [e.title for e in outline], "outline"
        if not titles:
            titles, truth = [e.title for e in contents_outline(read_pages(pdf))], "contents"
        if titles:
            recall = heading_recall(titles, result.markdown)
            recalls.append(recall)
            rows.append(f"| {pdf.name} | {result.pages} | {len(titles)} ({truth}) | {recall:.2f} |")
        else:
            rows.append(f"| {pdf.name} | {result.pages} | - | - |")
    mean = sum(recalls) / len(recalls) if recalls else 0.0
    body = f"""### PDF headings on unseen PDFs (texlive-publishers-doc)

{len(rows)} PDFs never looked at while writing the rules; {len(recalls)} have an outline or printed contents:
mean heading recall {mean:.2f}, lowest {min(recalls, default=0):.2f}; {pages / seconds:.0f} pages/s.
Command: `python -m benchmarks.pdf_heldout ROOT`.

| file | pages | reference headings | recall |
|---|---:|---|---:|
{chr(10).join(rows)}
"""
    write_section("pdf-heldout", body)
    print(body)


if __name__ == "__main__":
    main()
