"""Slide decks (PPTX) through Docling's PowerPoint backend (python-pptx; no models): one section per slide.

Docling reads what a deck holds better than a hand-written walk over python-pptx would: shapes in reading
order by position, bullet levels and numbering from the slide, layout and master styles, tables, and charts
as tables of their data. What it leaves to us: each slide is a page (``<!-- page: N -->``, slide N = page N,
so a claim cites its slide), its title is the section's heading (a slide without one is headed
``Slide N``, so its text does not fall under the slide before), and the speaker notes and comments (Docling's
``NOTES`` layer) stay with their slide under a bold ``Notes:`` label.
"""

from __future__ import annotations

import re
from pathlib import Path

from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.convert.sniff import Format
from sleuth.ingest.convert.source import Source, failure_reason
from sleuth.ingest.pages import page_marker
from sleuth.ingest.sources import SourceError

_HEADING = re.compile(r"^#{1,6} ", re.M)


class DoclingPptx:
    name = "docling-pptx"

    def accepts(self, fmt: Format, options: ConvertOptions) -> bool:
        return fmt is Format.PPTX

    def convert(self, source: Source, options: ConvertOptions) -> Converted:
        from docling_core.types.doc.common.content_layer import ContentLayer  # noqa: PLC0415 - heavy, only in workers

        from sleuth.ingest.convert.docling_backend import docling_document  # noqa: PLC0415

        try:
            document = docling_document(Path(f"{source.stem}.pptx"), ".pptx", data=source.data())
        except Exception as exc:  # Docling wraps parser failures in many exception types
            raise SourceError(source.name, f"PPTX conversion failed ({failure_reason(exc)})") from exc
        slides = sorted(document.pages)
        if len(slides) > options.max_pages:
            raise SourceError(source.name, f"too many slides ({len(slides)} > limit {options.max_pages})")
        parts: list[str] = []
        words = 0
        for number in slides:
            body = document.export_to_markdown(page_no=number).strip()
            notes = document.export_to_markdown(
                page_no=number, included_content_layers={ContentLayer.NOTES}
            ).strip()
            words += len(body.split()) + len(notes.split())
            parts.append(page_marker(number))
            if not body.startswith("#"):
                parts.append(f"# Slide {number}")
            if body:
                parts.append(body)
            if notes:
                parts.append(f"**Notes:** {notes}")
        if not words:
            raise SourceError(source.name, "no text found in the slides")
        title = _core_title(document) or next(
            (line[2:].strip() for line in "\n".join(parts).splitlines() if _HEADING.match(line)), None
        )
        return Converted("\n\n".join(parts) + "\n", Format.PPTX, self.name, len(slides), title)


def _core_title(document: object) -> str | None:
    """The deck's title from its first slide's title placeholder, as Docling labels it."""
    texts = getattr(document, "texts", [])
    return next((t.text for t in texts if getattr(t, "label", "") == "title" and t.text.strip()), None)
