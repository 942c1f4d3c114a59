"""The converters in the order they are asked: the first that accepts a document's sniffed format converts it.

A new conversion path is a module with a class following ``base.Converter`` and one line here (before the
converters it should take precedence over), plus its test.
"""

from __future__ import annotations

from sleuth.ingest.convert.base import Converter
from sleuth.ingest.convert.docx import DoclingDocx
from sleuth.ingest.convert.html import DoclingHtml
from sleuth.ingest.convert.image import ImageOcr
from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.convert.pdf_standard import DoclingPdfStandard
from sleuth.ingest.convert.pdf_text import PdfText
from sleuth.ingest.convert.pptx import DoclingPptx
from sleuth.ingest.convert.sheets import CsvTable, XlsxSheets
from sleuth.ingest.convert.sniff import Format
from sleuth.ingest.convert.source import Source
from sleuth.ingest.convert.text import TextFile
from sleuth.ingest.sources import SourceError

CONVERTERS: tuple[Converter, ...] = (
    TextFile(Format.MARKDOWN),
    TextFile(Format.TEXT),
    DoclingHtml(),
    DoclingDocx(),
    DoclingPdfStandard(),  # only where Docling's models are configured (or pdf_mode is "standard")
    PdfText(),  # pages without a text layer read by OCR
    DoclingPptx(),
    XlsxSheets(),
    CsvTable(),
    ImageOcr(),
)


def converter_for(fmt: Format, options: ConvertOptions) -> Converter | None:
    return next((c for c in CONVERTERS if c.accepts(fmt, options)), None)


def convert_source(source: Source, fmt: Format, options: ConvertOptions) -> Converted:
    """``source`` (content sniffed as ``fmt``) converted by the first converter that accepts it."""
    converter = converter_for(fmt, options)
    if converter is None:
        raise SourceError(source.name, f"no converter reads {fmt.value} documents")
    return converter.convert(source, options)
