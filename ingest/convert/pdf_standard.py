"""PDFs through Docling's standard pipeline (layout and table models), when a models folder is configured
(``docling_artifacts``): with ``pdf_mode`` ``auto`` whenever the folder exists, with ``standard`` always."""

from __future__ import annotations

from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.convert.sniff import Format
from sleuth.ingest.convert.source import Source, failure_reason
from sleuth.ingest.sources import SourceError


class DoclingPdfStandard:
    name = "docling-pdf-standard"

    def accepts(self, fmt: Format, options: ConvertOptions) -> bool:
        from sleuth.ingest.convert.docling_backend import models_available  # noqa: PLC0415

        if fmt is not Format.PDF:
            return False
        return options.pdf_mode == "standard" or (
            options.pdf_mode == "auto" and models_available(options.docling_artifacts)
        )

    def convert(self, source: Source, options: ConvertOptions) -> Converted:
        from sleuth.ingest.convert.docling_backend import convert_with_docling, models_available  # noqa: PLC0415
        from sleuth.ingest.convert.pdf_checks import checked_pdf  # noqa: PLC0415

        with source.as_file(".pdf") as path:
            meta = checked_pdf(path, options, source.name)
            if not models_available(options.docling_artifacts):
                raise SourceError(
                    source.name,
                    "pdf_mode is 'standard' but no Docling models folder (docling_artifacts) exists",
                )
            try:
                markdown, count, title = convert_with_docling(path, ".pdf", options.docling_artifacts)
            except Exception as exc:
                raise SourceError(source.name, f"PDF conversion failed ({failure_reason(exc)})") from exc
        return Converted(
            markdown,
            Format.PDF,
            self.name,
            count,
            meta.title or title,
            date=meta.date,
            date_source=meta.date_source,
        )
