"""Scanned pages of a PDF: which pages have no usable text layer, and their text read by OCR.

A page is scanned when its text layer holds (almost) no text and an image covers a good part of it: a whole
scanned report, or scanned pages (a signed form, an annex) inside a born-digital one. A page without text and
without an image (a blank page, a vector drawing) has nothing OCR could read and is left as it is. Each
scanned page is rendered (pypdfium2) and read by the OCR engine within the time the document is given
(``ocr_timeout``); its lines replace the page's in the line model.
"""

from __future__ import annotations

import time
from pathlib import Path

from sleuth.ingest.convert.ocr import OcrEngine, OcrTimeoutError
from sleuth.ingest.convert.ocr_layout import read_page
from sleuth.ingest.convert.pdf_layout import Page

#: Rendering resolution for OCR: Tesseract reads body text best at about 300 dpi (a 150 dpi scan is
#: upsampled, which still helps it).
OCR_DPI = 300
#: A page whose text layer has fewer characters than this has no usable text layer (a stamped page number
#: or a scanner's header line is not the page's text).
MIN_TEXT_CHARS = 20
#: Share of the page an image must cover for the page to be a scan.
MIN_IMAGE_COVER = 0.3


def scanned_pages(path: Path, pages: list[Page]) -> list[int]:
    """Numbers of the pages that have no usable text layer but an image to read."""
    import pypdfium2 as pdfium  # noqa: PLC0415 - heavy, only in conversion workers
    import pypdfium2.raw as pdfium_c  # noqa: PLC0415

    candidates = [p for p in pages if sum(len(line.text) for line in p.lines) < MIN_TEXT_CHARS]
    if not candidates:
        return []
    out: list[int] = []
    pdf = pdfium.PdfDocument(str(path))
    try:
        for page in candidates:
            handle = pdf[page.number - 1]
            width, height = handle.get_size()
            covered = 0.0
            for image in handle.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=3):
                left, bottom, right, top = image.get_bounds()
                covered += max(0.0, min(right, width) - max(left, 0.0)) * max(
                    0.0, min(top, height) - max(bottom, 0.0)
                )
            if width > 0 and height > 0 and covered >= MIN_IMAGE_COVER * width * height:
                out.append(page.number)
    finally:
        pdf.close()
    return out


def ocr_pages(path: Path, pages: list[Page], numbers: list[int], engine: OcrEngine, budget: float) -> None:
    """Replace the lines of the pages ``numbers`` by what OCR reads on them; ``OcrTimeoutError`` (saying how
    far it got) when the pages take longer than ``budget`` seconds."""
    import pypdfium2 as pdfium  # noqa: PLC0415

    deadline = time.monotonic() + budget
    by_number = {p.number: p for p in pages}
    pdf = pdfium.PdfDocument(str(path))
    try:
        for done, number in enumerate(numbers):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise OcrTimeoutError(_timeout(budget, done, len(numbers)))
            page = by_number[number]
            bitmap = pdf[number - 1].render(scale=OCR_DPI / 72, grayscale=True)
            try:
                read = read_page(bitmap.to_pil(), number, engine, remaining, points_per_pixel=72 / OCR_DPI)
            except OcrTimeoutError as exc:
                raise OcrTimeoutError(_timeout(budget, done, len(numbers))) from exc
            # The rendered page has the page's size; lines keep the page's own coordinates.
            page.lines = read.lines
    finally:
        pdf.close()


def _timeout(budget: float, done: int, total: int) -> str:
    return f"OCR timed out after {budget:g}s ({done} of {total} scanned pages read)"
