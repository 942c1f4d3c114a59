"""PDF conversion: speed and structure quality of sleuth's text-layer path, side by side in one run with
Docling's plain NativePdfPipeline (the same text layer, no structure recovery) and poppler's pdftotext.

Structure quality: heading recall against each PDF's own outline (bookmarks) and the number of Markdown
tables. sleuth is measured twice: using the outline (its default) and with the outline hidden (font
heuristics only), which is what documents without bookmarks get.

    python -m benchmarks.conversion [--corpus corpus-dev]     (needs poppler-utils for pdftotext)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.progress import track

from benchmarks.report import write_section
from sleuth.ingest.convert import ConvertOptions, convert_file
from sleuth.ingest.convert.pdf_contents import contents_outline
from sleuth.ingest.convert.pdf_layout import read_outline, read_pages
from sleuth.ingest.convert.quality import heading_recall

REPO = Path(__file__).resolve().parents[1]
_TABLE = re.compile(r"^\|.*\|\n\|[-:| ]+\|$", re.M)


@dataclass
class Tally:
    name: str
    seconds: float = 0.0
    recalls: list[float] = field(default_factory=list)
    tables: int = 0

    def row(self, pages: int) -> str:
        recall = sum(self.recalls) / len(self.recalls) if self.recalls else 0.0
        return f"| {self.name} | {pages / self.seconds:.1f} | {recall:.2f} | {self.tables} |"


def native_converter() -> Any:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from docling.datamodel.base_models import InputFormat  # noqa: PLC0415
    from docling.datamodel.pipeline_options import NativePdfPipelineOptions  # noqa: PLC0415
    from docling.document_converter import DocumentConverter, PdfFormatOption  # noqa: PLC0415
    from docling.pipeline.native_pdf_pipeline import NativePdfPipeline  # noqa: PLC0415

    option = PdfFormatOption(pipeline_cls=NativePdfPipeline, pipeline_options=NativePdfPipelineOptions())
    return DocumentConverter(allowed_formats=[InputFormat.PDF], format_options={InputFormat.PDF: option})


def run(corpus: Path) -> str:
    pdfs = sorted((corpus / "pdf").glob("*.pdf"))
    native = native_converter()
    tallies = {
        key: Tally(name)
        for key, name in [
            ("sleuth", "sleuth text layer (outline + fonts)"),
            ("fonts", "sleuth text layer, outline hidden (fonts only)"),
            ("native", "Docling NativePdfPipeline"),
            ("pdftotext", "poppler pdftotext"),
        ]
    }
    rows = []
    total_pages = 0
    for pdf in track(pdfs, description="converting"):
        pages, outline = read_outline(pdf)
        titles = [e.title for e in outline]
        truth = "outline"
        if not titles:  # judged against the printed contents, as the acceptance of issue 10 says
            titles = [e.title for e in contents_outline(read_pages(pdf))]
            truth = "contents" if titles else "-"
        total_pages += pages
        per_doc = []
        for key, options in (("sleuth", ConvertOptions()), ("fonts", ConvertOptions(use_outline=False))):
            start = time.perf_counter()
            md = convert_file(pdf, options).markdown
            tallies[key].seconds += time.perf_counter() - start
            per_doc.append(md)
        start = time.perf_counter()
        native_md = native.convert(pdf).document.export_to_markdown()
        tallies["native"].seconds += time.perf_counter() - start
        start = time.perf_counter()
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        tallies["pdftotext"].seconds += time.perf_counter() - start
        outputs = {"sleuth": per_doc[0], "fonts": per_doc[1], "native": native_md, "pdftotext": text}
        cells = []
        for key, md in outputs.items():
            tables = len(_TABLE.findall(md))
            tallies[key].tables += tables
            if titles:
                recall = heading_recall(titles, md)
                tallies[key].recalls.append(recall)
                cells.append(f"{recall:.2f} / {tables}")
            else:
                cells.append(f"- / {tables}")
        rows.append(f"| {pdf.name} | {pages} | {len(titles)} ({truth}) | " + " | ".join(cells) + " |")
    per_file = "\n".join(rows)
    summary = "\n".join(t.row(total_pages) for t in tallies.values())
    return f"""## PDF conversion: sleuth text layer vs Docling NativePdfPipeline vs pdftotext

{len(pdfs)} real PDFs of the development corpus ({total_pages} pages: R manuals, the Bash reference, the
ReportLab user guide, LaTeX package manuals), one process, in-process conversion (no worker start-up).
Heading recall: share of the PDF's own outline titles (without an outline: its printed contents' titles)
found inside a Markdown heading (mean over the PDFs that have either). Tables: Markdown pipe tables in the
output. Neither Docling's native pipeline nor pdftotext produce headings or tables by design: they are the
speed reference.
Command: `python -m benchmarks.conversion`.

| converter | pages/s | heading recall | tables |
|---|---:|---:|---:|
{summary}

Per file (heading recall / tables): sleuth, sleuth fonts only, Docling native, pdftotext.

| file | pages | reference headings | sleuth | fonts only | Docling native | pdftotext |
|---|---:|---:|---|---|---|---|
{per_file}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description="PDF conversion benchmark")
    parser.add_argument("--corpus", type=Path, default=REPO / "corpus-dev")
    args = parser.parse_args()
    if shutil.which("pdftotext") is None:
        raise SystemExit("pdftotext not found: apt-get install poppler-utils")
    body = run(args.corpus)
    write_section("conversion", body)
    print(body)


if __name__ == "__main__":
    main()
