"""What a conversion takes and gives: the options, the converted document, and the converter version.

Kept apart from the converters so that every converter module, the cache and the worker pool share one
definition without importing each other (or the package face).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from sleuth.ingest.convert.sniff import Format

CONVERTER_VERSION = "2026.11.30.1"
"""Bump when any conversion path changes its output: cached conversions of older versions are redone."""

PdfMode = Literal["auto", "text", "standard"]

_BLOCK = 1 << 20


@dataclass(frozen=True)
class ConvertOptions:
    max_bytes: int = 200 * 1024 * 1024
    max_pages: int = 3000
    pdf_mode: PdfMode = "auto"
    docling_artifacts: Path | None = None
    use_outline: bool = True
    #: Read pages without a usable text layer (scans) and images by OCR; off, they are refused.
    ocr: bool = True
    #: Seconds the OCR of one document may take in all (on top of the conversion's own timeout).
    ocr_timeout: float = 600.0
    #: HTML whose main content holds more elements is refused before Docling reads it: a page of a million
    #: links takes minutes and gigabytes to convert and says nothing a report could quote.
    max_html_elements: int = 200_000

    def fingerprint(self) -> str:
        """What, besides the file's bytes, changes the output (cache key part)."""
        return (
            f"{CONVERTER_VERSION}|{self.pdf_mode}|{self.docling_artifacts}|{self.use_outline}|ocr={self.ocr}"
        )


@dataclass
class Converted:
    """A converted document: its Markdown, or for text formats the file to stream it from."""

    #: The Markdown of converted formats; empty for text formats, whose content stays in ``text_path``.
    body: str
    format: Format
    converter: str
    pages: int | None = None
    title: str | None = None
    seconds: float = 0.0
    cached: bool = False
    details: dict[str, object] = field(default_factory=dict)
    date: str | None = None
    date_source: str | None = None
    #: Text formats: read the content from this file (UTF-8, checked), skipping ``text_skip`` characters.
    text_path: Path | None = None
    text_skip: int = 0

    def text(self) -> Iterator[str]:
        """The Markdown in blocks, read from the file for text formats (bounded memory)."""
        if self.text_path is None:
            yield self.body
            return
        skip = self.text_skip
        with self.text_path.open(encoding="utf-8-sig", newline="") as fh:
            while block := fh.read(_BLOCK):
                if skip:
                    block, skip = block[skip:], max(0, skip - len(block))
                if block:
                    yield block

    @property
    def markdown(self) -> str:
        """The whole Markdown (read from the file for text formats): for callers that need it in one piece."""
        return "".join(self.text())
