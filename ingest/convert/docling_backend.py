"""Docling's own converters: HTML, DOCX and PPTX always, PDFs through its standard pipeline when its models
exist.

HTML, DOCX and PPTX need no models. Docling's PDF layout and table models cannot be downloaded on every
machine; where a folder with them is configured (``docling_artifacts``) the standard pipeline runs, page by
page, so page markers can be written between pages.
"""

from __future__ import annotations

import os
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

from sleuth.ingest.pages import page_marker

os.environ.setdefault("HF_HUB_OFFLINE", "1")


@cache
def _converter(artifacts: str | None) -> Any:
    from docling.datamodel.base_models import InputFormat  # noqa: PLC0415 - heavy, only in workers
    from docling.document_converter import DocumentConverter, PdfFormatOption  # noqa: PLC0415

    formats = [InputFormat.HTML, InputFormat.DOCX, InputFormat.PPTX]
    options: dict[Any, Any] = {}
    if artifacts is not None:
        from docling.datamodel.pipeline_options import PdfPipelineOptions  # noqa: PLC0415

        formats.append(InputFormat.PDF)
        options[InputFormat.PDF] = PdfFormatOption(
            pipeline_options=PdfPipelineOptions(artifacts_path=artifacts)
        )
    return DocumentConverter(allowed_formats=formats, format_options=options)


def convert_with_docling(
    path: Path, suffix: str, artifacts: Path | None = None, data: bytes | None = None
) -> tuple[str, int | None, str | None]:
    """(Markdown, page count or None, title) of an HTML, DOCX or (with models) PDF file.

    The file (or ``data`` standing for it, e.g. cleaned HTML) goes in as a stream named by its detected
    ``suffix``: Docling picks its backend by name, and the name may lie.
    """
    document = docling_document(path, suffix, artifacts, data)
    title = next((t.text for t in document.texts if getattr(t, "label", "") == "title"), None)
    if not document.pages:
        return document.export_to_markdown(), None, title
    parts = []
    for number in sorted(document.pages):
        parts.append(page_marker(number))
        parts.append(document.export_to_markdown(page_no=number))
    return "\n\n".join(parts) + "\n", len(document.pages), title


def docling_document(
    path: Path, suffix: str, artifacts: Path | None = None, data: bytes | None = None
) -> Any:
    """Docling's ``DoclingDocument`` of the file (or ``data`` standing for it), read as ``suffix`` says."""
    from docling.datamodel.base_models import DocumentStream  # noqa: PLC0415

    content = data if data is not None else path.read_bytes()
    stream = DocumentStream(name=f"{path.stem}{suffix}", stream=BytesIO(content))
    return _converter(str(artifacts) if artifacts else None).convert(stream, raises_on_error=True).document


def models_available(artifacts: Path | None) -> bool:
    """True when a Docling artifacts folder with the layout model is configured and present."""
    return artifacts is not None and artifacts.is_dir() and any(artifacts.iterdir())
