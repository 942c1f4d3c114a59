"""Headings from printed contents, on every unseen PDF without bookmarks that has them.

Every PDF of up to 120 pages under ROOT (Debian's texlive-doc tree, unpacked with
``apt-get download texlive-publishers-doc && dpkg -x texlive-publishers-doc_*.deb ROOT``) that has no
outline and whose printed contents list five entries or more: heading recall against those entries.
Conversions run in the worker pool, so a PDF that crashes a native parser is one failed file. The entries
come from sleuth's own contents reader, so a contents page it misreads is judged by its own misreading;
the titles (checked by eye on the lowest scorers) are what the figures are worth.

    python -m benchmarks.pdf_contents_sweep ROOT
"""

from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks.report import write_section
from sleuth.ingest.convert import ConvertOptions
from sleuth.ingest.convert.pdf_contents import contents_outline
from sleuth.ingest.convert.pdf_layout import PdfReadError, read_outline, read_pages
from sleuth.ingest.convert.pool import convert_files
from sleuth.ingest.convert.quality import heading_recall
from sleuth.ingest.sources import SourceError


def candidates(root: Path) -> list[Path]:
    out = []
    for pdf in sorted(root.rglob("*.pdf")):
        try:
            pages, outline = read_outline(pdf)
        except PdfReadError:
            continue
        if not outline and pages <= 120:
            out.append(pdf)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    args = parser.parse_args()
    pdfs = candidates(args.root)
    rows, recalls, failed = [], [], []
    imageless = crashed = 0
    # The text-layer path is what this sweep judges: scans are counted, not read by OCR (benchmarks/ocr.py).
    for pdf, result in convert_files(pdfs, ConvertOptions(ocr=False), workers=1, timeout=120):
        name = pdf.relative_to(args.root)
        if isinstance(result, SourceError):
            if "no text layer" in result.reason:
                imageless += 1
            else:
                failed.append(f"{name}: {result.reason}")
            continue
        if result.converter == "pdfium-text":  # the structure path crashed on it: nothing to judge
            crashed += 1
            continue
        titles = [e.title for e in contents_outline(read_pages(pdf))]
        if len(titles) < 5:
            continue
        recall = heading_recall(titles, result.markdown)
        recalls.append(recall)
        source = result.details.get("heading_source", "-")
        rows.append(f"| {name} | {result.pages} | {len(titles)} | {source} | {recall:.2f} |")
    mean = sum(recalls) / len(recalls) if recalls else 0.0
    low = sum(1 for r in recalls if r < 0.6)
    body = f"""### Headings from printed contents on unseen PDFs without bookmarks

{len(pdfs)} PDFs without an outline (up to 120 pages) under texlive-doc; {len(recalls)} have printed contents
of five entries or more: mean heading recall {mean:.2f}, {low} below 0.6. {imageless} have no text layer
(figures and scans, refused with that reason), {crashed} crashed the native parser (its text read by pdfium
instead), {len(failed)} failed otherwise{": " + "; ".join(failed) if failed else ""}.
Command: `python -m benchmarks.pdf_contents_sweep ROOT`.

| file | pages | contents entries | heading source | recall |
|---|---:|---:|---|---:|
{chr(10).join(rows)}
"""
    write_section("pdf-contents-sweep", body)
    print(body)


if __name__ == "__main__":
    main()
