"""DOCX through Docling's Word backend (no models needed); title and date from the core properties."""

from __future__ import annotations

from pathlib import Path

from sleuth.ingest.convert.metadata import DocumentMeta
from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.convert.sniff import Format
from sleuth.ingest.convert.source import Source, failure_reason
from sleuth.ingest.sources import SourceError


class DoclingDocx:
    name = "docling-docx"

    def accepts(self, fmt: Format, options: ConvertOptions) -> bool:
        return fmt is Format.DOCX

    def convert(self, source: Source, options: ConvertOptions) -> Converted:
        from sleuth.ingest.convert.docling_backend import convert_with_docling  # noqa: PLC0415 - heavy

        with source.as_file(".docx") as path:
            try:
                markdown, pages, title = convert_with_docling(path, ".docx")
            except Exception as exc:  # Docling wraps parser failures in many exception types
                raise SourceError(source.name, f"DOCX conversion failed ({failure_reason(exc)})") from exc
            if not markdown.strip():
                raise SourceError(source.name, "no text found in the DOCX document")
            meta = _docx_metadata(path)
        return Converted(
            markdown,
            Format.DOCX,
            self.name,
            pages,
            meta.title or title,
            date=meta.date,
            date_source=meta.date_source,
        )


def _docx_metadata(path: Path) -> DocumentMeta:
    """Title and modification date from a DOCX's core properties (python-docx ships with Docling)."""
    try:
        from docx import Document  # noqa: PLC0415

        props = Document(str(path)).core_properties
    except Exception:  # metadata is optional; a DOCX Docling read is still converted
        return DocumentMeta()
    from sleuth.ingest.convert.metadata import parse_date  # noqa: PLC0415

    when = parse_date(props.modified) or parse_date(props.created)
    return DocumentMeta(props.title or None, when, "docx-core" if when else None)
