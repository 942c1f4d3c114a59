"""PDFs by their text layer, with structure recovered from outline, fonts and geometry (``pdf_structure``):
the PDF path whenever Docling's standard pipeline is not configured (its models cannot be had here).

Pages without a usable text layer (a scanned report, scanned pages inside a born-digital one) are read by OCR
(``pdf_ocr``) and then go through the same structure recovery; the result is then recorded as
``sleuth-pdf-ocr``, with the pages OCR read and the engine in its details.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.convert.sniff import Format
from sleuth.ingest.convert.source import Source
from sleuth.ingest.sources import SourceError

if TYPE_CHECKING:
    from sleuth.ingest.convert.ocr import OcrEngine

OCR_CONVERTER = "sleuth-pdf-ocr"


class PdfText:
    name = "sleuth-pdf-text"

    def __init__(self, ocr_engine: OcrEngine | None = None) -> None:
        #: The OCR engine for scanned pages (Tesseract unless another is given, as the benchmark does).
        self.ocr_engine = ocr_engine

    def accepts(self, fmt: Format, options: ConvertOptions) -> bool:
        return fmt is Format.PDF

    def convert(self, source: Source, options: ConvertOptions) -> Converted:
        # Heavy imports, only in conversion workers.
        from sleuth.ingest.convert.ocr import OcrError, Tesseract  # noqa: PLC0415
        from sleuth.ingest.convert.pdf_checks import checked_pdf  # noqa: PLC0415
        from sleuth.ingest.convert.pdf_layout import PdfReadError, read_outline, read_pages  # noqa: PLC0415
        from sleuth.ingest.convert.pdf_ocr import ocr_pages, scanned_pages  # noqa: PLC0415
        from sleuth.ingest.convert.pdf_structure import structure_markdown  # noqa: PLC0415

        details: dict[str, object] = {}
        with source.as_file(".pdf") as path:
            meta = checked_pdf(path, options, source.name)
            try:
                count, outline = read_outline(path)
                pages = read_pages(path)
                scanned = scanned_pages(path, pages)
                if scanned and options.ocr:
                    engine = self.ocr_engine or Tesseract()
                    ocr_pages(path, pages, scanned, engine, options.ocr_timeout)
                    details = {"ocr_pages": scanned, "ocr_engine": engine.name}
                if not any(p.lines for p in pages):
                    raise SourceError(source.name, _no_text(count, scanned, options))
                result = structure_markdown(pages, outline, use_outline=options.use_outline)
            except (PdfReadError, OcrError) as exc:
                raise SourceError(source.name, str(exc)) from exc
        # The information dictionary's title, else the cover's, else the first heading (a section's title,
        # "1 Introduction", is a poor name for a manual, but better than none).
        title = meta.title or result.title or (result.headings[0][1] if result.headings else None)
        details = {
            "headings": len(result.headings),
            "heading_source": result.heading_source,
            "tables": result.tables,
            **details,
        }
        return Converted(
            result.markdown,
            Format.PDF,
            OCR_CONVERTER if "ocr_pages" in details else self.name,
            result.pages,
            title,
            details=details,
            date=meta.date,
            date_source=meta.date_source,
        )


def _no_text(count: int, scanned: list[int], options: ConvertOptions) -> str:
    if not scanned:
        return f"no text layer in {count} page(s), and no scanned page image to read"
    if not options.ocr:
        return f"no text layer in {count} page(s): scanned pages need OCR, which is switched off (ocr)"
    return f"no text layer in {count} page(s), and OCR found no text on the scanned pages"
