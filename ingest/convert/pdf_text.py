"""PDFs by their text layer, with structure recovered from outline, fonts and geometry (``pdf_structure``):
the PDF path whenever Docling's standard pipeline is not configured (its models cannot be had here)."""

from __future__ import annotations

from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.convert.sniff import Format
from sleuth.ingest.convert.source import Source
from sleuth.ingest.sources import SourceError


class PdfText:
    name = "sleuth-pdf-text"

    def accepts(self, fmt: Format, options: ConvertOptions) -> bool:
        return fmt is Format.PDF

    def convert(self, source: Source, options: ConvertOptions) -> Converted:
        from sleuth.ingest.convert.pdf_checks import checked_pdf  # noqa: PLC0415 - heavy, workers only
        from sleuth.ingest.convert.pdf_layout import PdfReadError  # noqa: PLC0415
        from sleuth.ingest.convert.pdf_structure import pdf_to_markdown  # noqa: PLC0415

        with source.as_file(".pdf") as path:
            meta = checked_pdf(path, options, source.name)
            try:
                result = pdf_to_markdown(path, use_outline=options.use_outline)
            except PdfReadError as exc:
                raise SourceError(source.name, str(exc)) from exc
        title = meta.title or (result.headings[0][1] if result.headings else None)
        details: dict[str, object] = {
            "headings": len(result.headings),
            "heading_source": result.heading_source,
            "tables": result.tables,
        }
        return Converted(
            result.markdown,
            Format.PDF,
            self.name,
            result.pages,
            title,
            details=details,
            date=meta.date,
            date_source=meta.date_source,
        )
