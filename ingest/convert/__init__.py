"""Documents (PDF, HTML, DOCX, PPTX, XLSX, CSV, images, Markdown, text) to Markdown with page markers, ready
for the chunker.

Which path converts a file is decided by its content, not its name (``sniff``), and recorded in the result.
The paths are converters in one ordered list (``registry``), each in a module of its own:

- ``markdown`` / ``text`` (``text``): read verbatim and lazily, streamed from the file by whoever chunks it;
- ``docling-html`` / ``docling-docx`` (``html``, ``docx``): Docling's DocumentConverter (no models needed);
- ``docling-pdf-standard`` (``pdf_standard``): Docling's standard PDF pipeline, when its layout/table models
  are configured;
- ``sleuth-pdf-text`` (``pdf_text``): the PDF's text layer with structure recovered from outline, fonts and
  geometry (``pdf_structure``), when they are not; ``sleuth-pdf-ocr`` when scanned pages were read by OCR
  (``pdf_ocr``, ``ocr``, ``ocr_layout``) into the same structure recovery;
- ``docling-pptx`` (``pptx``): slides, one section and page per slide, notes kept;
- ``sleuth-xlsx`` / ``sleuth-csv`` (``sheets``): one section per sheet, tables or records;
- ``sleuth-image-ocr`` (``image``): PNG, JPEG, TIFF read by OCR as one-page documents.

This module is the package's face: what other code imports from ``sleuth.ingest.convert``.
"""

from __future__ import annotations

from sleuth.ingest.convert.dispatch import convert_bytes, convert_file
from sleuth.ingest.convert.model import CONVERTER_VERSION, Converted, ConvertOptions, PdfMode
from sleuth.ingest.convert.sniff import SUFFIXES, Format

CONVERTIBLE_SUFFIXES = frozenset(SUFFIXES)

__all__ = [
    "CONVERTER_VERSION",
    "CONVERTIBLE_SUFFIXES",
    "ConvertOptions",
    "Converted",
    "Format",
    "PdfMode",
    "convert_bytes",
    "convert_file",
]
