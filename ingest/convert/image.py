"""Images (PNG, JPEG, TIFF): a photographed or scanned page, read by OCR and structured like a PDF page.

An image is a one-page document (each frame of a multi-page TIFF a page of its own), so its text is cited
by page like a PDF's. Its lines go through the PDF structure recovery (``pdf_structure``): headings by size
and weight, paragraphs, lists, tables where the layout shows them.
"""

from __future__ import annotations

from io import BytesIO
from typing import TYPE_CHECKING

from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.convert.sniff import Format
from sleuth.ingest.convert.source import Source
from sleuth.ingest.sources import SourceError

if TYPE_CHECKING:
    from sleuth.ingest.convert.ocr import OcrEngine

#: Frames of a multi-page TIFF read at most (a fax log of thousands of pages is not a document to OCR whole).
MAX_FRAMES = 500


class ImageOcr:
    name = "sleuth-image-ocr"

    def __init__(self, ocr_engine: OcrEngine | None = None) -> None:
        self.ocr_engine = ocr_engine

    def accepts(self, fmt: Format, options: ConvertOptions) -> bool:
        return fmt is Format.IMAGE

    def convert(self, source: Source, options: ConvertOptions) -> Converted:
        # Heavy imports, only in conversion workers.
        import time  # noqa: PLC0415

        from PIL import Image, ImageSequence, UnidentifiedImageError  # noqa: PLC0415

        from sleuth.ingest.convert.ocr import OcrError, OcrTimeoutError, Tesseract  # noqa: PLC0415
        from sleuth.ingest.convert.ocr_layout import read_page  # noqa: PLC0415
        from sleuth.ingest.convert.pdf_structure import structure_markdown  # noqa: PLC0415

        if not options.ocr:
            raise SourceError(source.name, "an image is read by OCR, which is switched off (ocr)")
        engine = self.ocr_engine or Tesseract()
        deadline = time.monotonic() + options.ocr_timeout
        pages = []
        try:
            with Image.open(BytesIO(source.data())) as image:
                frames = getattr(image, "n_frames", 1)
                if frames > min(MAX_FRAMES, options.max_pages):
                    raise SourceError(
                        source.name, f"too many pages ({frames} > limit {min(MAX_FRAMES, options.max_pages)})"
                    )
                for number, frame in enumerate(ImageSequence.Iterator(image), 1):
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        done = f"{number - 1} of {frames} pages read"
                        raise OcrTimeoutError(f"OCR timed out after {options.ocr_timeout:g}s ({done})")
                    pages.append(read_page(frame.copy(), number, engine, remaining))
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
            raise SourceError(source.name, f"cannot be read as an image ({exc})") from exc
        except OcrError as exc:  # the engine is missing, failed, or ran out of time
            raise SourceError(source.name, str(exc)) from exc
        if not any(page.lines for page in pages):
            raise SourceError(source.name, "no text found in the image (OCR)")
        result = structure_markdown(pages, [], use_outline=False)
        return Converted(
            result.markdown,
            Format.IMAGE,
            self.name,
            len(pages),
            result.headings[0][1] if result.headings else None,
            details={
                "headings": len(result.headings),
                "tables": result.tables,
                "ocr_pages": list(range(1, len(pages) + 1)),
                "ocr_engine": engine.name,
            },
        )
