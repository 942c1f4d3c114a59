"""HTML, from a file or a fetched page alike: its main content (``html_main``) through Docling's HTML backend
(no models needed), title and date from the page's own meta tags."""

from __future__ import annotations

from pathlib import Path

from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.convert.sniff import Format
from sleuth.ingest.convert.source import Source, failure_reason
from sleuth.ingest.sources import LinksPageError, RedirectPageError, SourceError


class DoclingHtml:
    name = "docling-html"

    def accepts(self, fmt: Format, options: ConvertOptions) -> bool:
        return fmt is Format.HTML

    def convert(self, source: Source, options: ConvertOptions) -> Converted:
        # Heavy imports, only in conversion workers.
        from sleuth.ingest.convert.docling_backend import convert_with_docling  # noqa: PLC0415
        from sleuth.ingest.convert.html_main import (  # noqa: PLC0415
            TooComplexError,
            clean_html,
            in_title,
            links_only,
            literal_dashes,
            literal_stars,
            page_tree,
            redirect_target,
        )
        from sleuth.ingest.convert.metadata import html_metadata  # noqa: PLC0415

        raw = source.data()
        tree = page_tree(raw)  # read once for both checks (cleaning edits a tree of its own)
        target = redirect_target(tree) if tree is not None else None
        if target is not None:
            raise RedirectPageError(source.name, f"a redirect to {target}, no text of its own")
        if tree is not None and links_only(tree):
            raise LinksPageError(
                source.name, "mostly links to other pages (an index, a map or a table of contents)"
            )
        try:
            cleaned = clean_html(raw, options.max_html_elements)
        except TooComplexError as exc:
            raise SourceError(
                source.name, f"too complex to convert ({exc} in the page, limit {options.max_html_elements})"
            ) from exc
        if cleaned.elements > options.max_html_elements:
            raise SourceError(
                source.name,
                f"too complex to convert ({cleaned.elements} elements in its main content, limit "
                f"{options.max_html_elements})",
            )
        try:
            # Docling picks its backend by the name's suffix (named as the page, as a file would be).
            markdown, pages, title = convert_with_docling(
                Path(f"{source.stem}.html"), ".html", data=cleaned.html.encode()
            )
            markdown = literal_dashes(literal_stars(markdown))
            title = literal_dashes(in_title(title)) if title else title
        except Exception as exc:  # Docling wraps parser failures in many exception types
            raise SourceError(source.name, f"HTML conversion failed ({failure_reason(exc)})") from exc
        if not markdown.strip():
            where = "the HTML document" if source.path is not None else "the page"
            raise SourceError(source.name, f"no text found in {where}")
        meta = html_metadata(raw)
        return Converted(
            markdown,
            Format.HTML,
            self.name,
            pages,
            meta.title or title,
            date=meta.date,
            date_source=meta.date_source,
            details={"main": cleaned.main, "removed": dict(cleaned.removed)},
        )
