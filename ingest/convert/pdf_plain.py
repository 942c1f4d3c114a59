"""A PDF's text, page by page, without structure: the last resort when the structure path cannot run.

docling-parse is a native parser; on some files (drawings exported by design tools, damaged streams) it
crashes the process. The worker pool then runs this path in a fresh worker: pdfium (another parser, via
pypdfium2) reads each page's text in its own reading order, and the document keeps its words and page
markers, without headings or tables. The result says so (``converter`` ``pdfium-text`` and the reason).
"""

from __future__ import annotations

import re
from pathlib import Path

from sleuth.ingest.convert.model import Converted
from sleuth.ingest.convert.pdf_layout import PdfReadError, read_info
from sleuth.ingest.convert.pdf_render import escape_text
from sleuth.ingest.convert.sniff import Format
from sleuth.ingest.pages import page_marker
from sleuth.ingest.sources import SourceError


def plain_pdf(path: Path, reason: str) -> Converted:
    """``path``'s text layer as paragraphs with page markers; ``reason`` is why the structure path failed."""
    import pypdfium2 as pdfium  # noqa: PLC0415 - heavy import, only in conversion workers

    try:
        meta = read_info(path)
        pdf = pdfium.PdfDocument(str(path))
    except (PdfReadError, pdfium.PdfiumError) as exc:
        raise SourceError(path, f"{reason}; pdfium cannot read it either ({exc})") from exc
    out: list[str] = []
    words = 0
    try:
        for number, page in enumerate(pdf, 1):
            text = page.get_textpage().get_text_range()
            out.append(page_marker(number))
            for block in re.split(r"(?:\r?\n\s*){2,}", text):
                lines = [" ".join(line.split()) for line in block.splitlines()]
                paragraph = " ".join(line for line in lines if line)
                if paragraph:
                    words += len(paragraph.split())
                    out.append(escape_text(paragraph))
        pages = len(pdf)
    finally:
        pdf.close()
    if not words:
        raise SourceError(path, f"{reason}; no text layer either")
    return Converted(
        "\n\n".join(out) + "\n",
        Format.PDF,
        "pdfium-text",
        pages,
        meta.title,
        date=meta.date,
        date_source=meta.date_source,
        details={"fallback": reason},
    )


__all__ = ["plain_pdf"]
