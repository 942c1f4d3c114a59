"""OCR engines on scanned pages whose text is known: Tesseract against RapidOCR, through sleuth's OCR path.

Material: pages of the development PDFs (``corpus-dev/pdf``, or any folder of born-digital PDFs) rendered
with poppler's ``pdftoppm`` (a renderer other than the pdfium the converter reads PDFs with) in four
conditions: clean at 300 dpi, 150 dpi, turned 1 to 3 degrees, and with scanner noise (grain and specks);
each page set wrapped as an image-only PDF (Pillow). Both engines read the same files through the same
converter (``PdfText`` with the engine given): deskew, OCR, the PDF structure recovery.

- Character error rate: edit distance between the OCR conversion's text and the text-layer conversion of
  the same pages (same structure recovery, so running headers and reading order are alike on both sides),
  over the latter's length; Markdown syntax and whitespace runs aside.
- Heading recall: the original PDF's outline entries on those pages found as headings (the scans have no
  outline, so headings come from size and weight); beside it, the text layer's own recall from fonts alone.
- Pages/s (wall clock, one process, one thread per engine) and CPU seconds per page (engine subprocesses
  included): the machine is shared, CPU time is the steadier measure.

The PDFs are spread over the folder (every n-th) and alternate into a tuning half (the OCR constants were set
looking at it) and a held-out half.

    python -m benchmarks.ocr corpus-dev/pdf [--pdfs 4] [--pages 1]

Needs poppler-utils (pdftoppm), tesseract-ocr, and ``pip install rapidocr-onnxruntime==1.4.4 rapidfuzz``
(``make bench-ocr`` installs them).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.report import write_section
from sleuth.ingest.convert import ConvertOptions
from sleuth.ingest.convert.ocr import OcrEngine, OcrLine, OcrWord, Tesseract
from sleuth.ingest.convert.pdf_layout import read_outline
from sleuth.ingest.convert.pdf_text import PdfText
from sleuth.ingest.convert.quality import heading_recall
from sleuth.ingest.convert.source import Source

CONDITIONS = ("clean 300 dpi", "150 dpi", "turned 1-3°", "noisy")
_MARKUP = re.compile(r"<!-- page: \d+ -->|^#{1,6} |^\s*[-*] |^\d+\. |\*\*|\||^-{3,}|\\(?=\S)", re.M)


class RapidOcr:
    """RapidOCR 1.4.4 (PP-OCRv4 detection and recognition, ONNX models in its wheel) as an ``OcrEngine``.

    It gives one box per text line segment, no word boxes: words are placed along the box by their share of
    its characters. The box (padded by the detector) stands for the type's size."""

    def __init__(self) -> None:
        from rapidocr_onnxruntime import RapidOCR  # noqa: PLC0415 - benchmark-only dependency

        self._engine = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)

    @property
    def name(self) -> str:
        return "rapidocr-onnxruntime 1.4.4"

    def read(self, image: Any, timeout: float) -> list[OcrLine]:
        import numpy as np  # noqa: PLC0415

        found, _ = self._engine(np.asarray(image.convert("RGB")))
        lines = []
        for box, text, _score in found or []:
            xs, ys = [p[0] for p in box], [p[1] for p in box]
            x0, x1, top, bottom = min(xs), max(xs), min(ys), max(ys)
            words = text.split()
            if not words:
                continue
            per_char = (x1 - x0) / max(1, len(text))
            placed, x = [], x0
            for word in words:
                placed.append(OcrWord(word, x, top, x + per_char * len(word), bottom))
                x += per_char * (len(word) + 1)
            height = bottom - top
            lines.append(OcrLine(tuple(placed), 0.8 * height, bottom - 0.2 * height))
        return sorted(lines, key=lambda line: line.baseline)


@dataclass
class Tally:
    pages: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    errors: int = 0
    reference: int = 0
    recalls: list[float] = field(default_factory=list)

    def cer(self) -> float:
        return self.errors / self.reference if self.reference else 0.0


def page_numbers(count: int, per_doc: int) -> list[int]:
    """Pages spread over the body of the document (not the title page)."""
    return sorted({max(2, min(count, round(count * (k + 1) / (per_doc + 1)))) for k in range(per_doc)})


def render(pdf: Path, number: int, dpi: int, folder: Path) -> Path:
    stem = folder / f"p{number}-{dpi}"
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-gray", "-png", "-singlefile", "-f", str(number), "-l", str(number),
         str(pdf), str(stem)],
        check=True,
    )  # fmt: skip
    return stem.with_suffix(".png")


def scan(image_path: Path, condition: str, seed: int) -> Any:
    """The page image as a scanner would have left it under ``condition``."""
    import numpy as np  # noqa: PLC0415
    from PIL import Image  # noqa: PLC0415

    image = Image.open(image_path).convert("L")
    if condition == "turned 1-3°":
        angle = (1.0, -1.7, 2.4, -3.0)[seed % 4]
        image = image.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=255, expand=True)
    elif condition == "noisy":
        rng = np.random.default_rng(seed)
        pixels = np.asarray(image, dtype=np.float64) + rng.normal(0, 30, (image.height, image.width))
        specks = rng.random((image.height, image.width))
        pixels[specks < 0.002] = 0
        pixels[specks > 0.998] = 255
        image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    return image


def image_pdf(images: list[Any], dpi: int, path: Path) -> Path:
    images[0].save(path, "PDF", resolution=dpi, save_all=True, append_images=images[1:])
    return path


def subset(pdf: Path, numbers: list[int], path: Path) -> Path:
    """The pages ``numbers`` of ``pdf`` as a PDF of their own, text layer intact."""
    import pypdfium2 as pdfium  # noqa: PLC0415

    source, out = pdfium.PdfDocument(str(pdf)), pdfium.PdfDocument.new()
    out.import_pages(source, [n - 1 for n in numbers])
    out.save(str(path))
    return path


def plain(markdown: str) -> str:
    return " ".join(_MARKUP.sub(" ", markdown).split())


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    from rapidfuzz.distance import Levenshtein  # noqa: PLC0415 - benchmark-only dependency

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--pdfs", type=int, default=4, help="PDFs (half tuning, half held out)")
    parser.add_argument("--pages", type=int, default=1, help="pages per PDF")
    args = parser.parse_args()
    os.environ["OMP_THREAD_LIMIT"] = "1"
    found = sorted(args.folder.glob("*.pdf"))
    pdfs = found[:: max(1, len(found) // args.pdfs)][: args.pdfs]  # spread over the folder's kinds of PDF
    halves = {"tuning": pdfs[0::2], "held out": pdfs[1::2]}
    engines: dict[str, OcrEngine] = {"Tesseract": Tesseract(), "RapidOCR": RapidOcr()}
    names = {label: engine.name for label, engine in engines.items()}
    tallies: dict[tuple[str, str, str], Tally] = {}
    text_recalls: dict[str, list[float]] = {half: [] for half in halves}
    entries: dict[str, int] = dict.fromkeys(halves, 0)
    options = ConvertOptions(ocr=True, ocr_timeout=3600)
    with tempfile.TemporaryDirectory(prefix="sleuth-ocr-bench-") as tmp:
        folder = Path(tmp)
        for half, chosen in halves.items():
            for n_pdf, pdf in enumerate(chosen):
                count, outline = read_outline(pdf)
                numbers = page_numbers(count, args.pages)
                renumber = {old: new for new, old in enumerate(numbers, 1)}
                titles = [e.title for e in outline if e.page in renumber]
                entries[half] += len(titles)
                original = subset(pdf, numbers, folder / f"{pdf.stem}-text.pdf")
                text = PdfText().convert(Source.file(original), ConvertOptions(use_outline=False))
                reference = plain(text.markdown)
                if titles:
                    text_recalls[half].append(heading_recall(titles, text.markdown))
                for k, condition in enumerate(CONDITIONS):
                    dpi = 150 if condition == "150 dpi" else 300
                    images = [scan(render(pdf, n, dpi, folder), condition, n_pdf + k + n) for n in numbers]
                    scanned = image_pdf(images, dpi, folder / f"{pdf.stem}-{k}.pdf")
                    for label, engine in engines.items():
                        started, cpu = time.perf_counter(), cpu_seconds()
                        result = PdfText(engine).convert(Source.file(scanned), options)
                        tally = tallies.setdefault((half, condition, label), Tally())
                        tally.seconds += time.perf_counter() - started
                        tally.cpu += cpu_seconds() - cpu
                        tally.pages += len(numbers)
                        tally.errors += Levenshtein.distance(plain(result.markdown), reference)
                        tally.reference += len(reference)
                        if titles:
                            tally.recalls.append(heading_recall(titles, result.markdown))
                        print(f"{half} {pdf.name} {condition} {label}: {tally.cer():.3f}", flush=True)
    rows = []
    for (half, condition, label), t in tallies.items():
        recall = f"{statistics.mean(t.recalls):.2f}" if t.recalls else "-"
        rows.append(
            f"| {half} | {condition} | {label} | {t.cer():.3f} | {recall} | {t.pages / t.seconds:.2f} "
            f"| {t.cpu / t.pages:.1f} |"
        )
    totals = []
    for label in engines:
        mine = [t for (_, _, name), t in tallies.items() if name == label]
        errors, reference = sum(t.errors for t in mine), sum(t.reference for t in mine)
        pages, seconds, cpu = (
            sum(t.pages for t in mine),
            sum(t.seconds for t in mine),
            sum(t.cpu for t in mine),
        )
        recalls = [r for t in mine for r in t.recalls]
        totals.append(
            f"| all | all | {label} | {errors / reference:.3f} | {statistics.mean(recalls):.2f} "
            f"| {pages / seconds:.2f} | {cpu / pages:.1f} |"
        )
    ceiling = {half: f"{statistics.mean(r):.2f}" if r else "-" for half, r in text_recalls.items()}
    used = ", ".join(f"{half}: {', '.join(p.name for p in chosen)}" for half, chosen in halves.items())
    count = sum(len(c) for c in halves.values())
    body = f"""### OCR engines on scanned pages (Tesseract vs RapidOCR)

{args.pages} page(s) from each of {count} development PDFs ({used}), scanned in four
conditions with pdftoppm and Pillow, read through sleuth's OCR path (deskew, OCR, PDF structure recovery) by
{names["Tesseract"]} and {names["RapidOCR"]}, one thread each. CER: character error rate against the
text-layer conversion of the same pages; headings: recall of the outline entries on those pages
({entries["tuning"]} tuning, {entries["held out"]} held out; the scans have no outline; the text layer itself,
fonts only, reaches {ceiling["tuning"]} tuning / {ceiling["held out"]} held out); pages/s wall clock on a
shared machine; CPU s/page including the engine's processes.
Command: `python -m benchmarks.ocr corpus-dev/pdf --pdfs {args.pdfs} --pages {args.pages}`.

| half | condition | engine | CER | heading recall | pages/s | CPU s/page |
|---|---|---|---|---|---|---|
{chr(10).join(rows)}
{chr(10).join(totals)}
"""
    write_section("ocr", body)
    print(body)


if __name__ == "__main__":
    main()
