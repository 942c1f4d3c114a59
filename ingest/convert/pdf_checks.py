"""What every PDF path checks before converting: readable, not encrypted, has pages, not over the limit."""

from __future__ import annotations

from pathlib import Path

from sleuth.ingest.convert.metadata import DocumentMeta
from sleuth.ingest.convert.model import ConvertOptions
from sleuth.ingest.sources import SourceError


def checked_pdf(path: Path, options: ConvertOptions, name: str) -> DocumentMeta:
    """The PDF's title and date (info dictionary); a ``SourceError`` naming ``name`` for what no PDF path
    can convert."""
    from sleuth.ingest.convert.pdf_layout import PdfReadError, read_info, read_outline  # noqa: PLC0415

    try:
        pages, _ = read_outline(path)
        meta = read_info(path)
    except PdfReadError as exc:
        raise SourceError(name, str(exc)) from exc
    if pages == 0:
        raise SourceError(name, "PDF has no pages")
    if pages > options.max_pages:
        raise SourceError(name, f"too many pages ({pages} > limit {options.max_pages})")
    return meta
