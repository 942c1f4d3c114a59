"""The converter protocol: what every conversion path offers the registry.

A converter says which content it takes (``accepts``: the format sniffed from the bytes, and the options,
since e.g. the PDF paths depend on which models are configured) and converts a ``Source`` (a file, or bytes
with a name). It raises ``SourceError`` naming the source for everything that goes wrong with the input.
Converters import their heavy libraries inside ``convert``: the registry is imported by every process,
conversion happens in workers.
"""

from __future__ import annotations

from typing import Protocol

from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.convert.sniff import Format
from sleuth.ingest.convert.source import Source


class Converter(Protocol):
    @property
    def name(self) -> str:
        """What the result records as its converter (``Converted.converter``) when this path ran."""
        ...

    def accepts(self, fmt: Format, options: ConvertOptions) -> bool:
        """True when this converter handles content of format ``fmt`` under ``options``."""
        ...

    def convert(self, source: Source, options: ConvertOptions) -> Converted:
        """The document as Markdown; a ``SourceError`` naming ``source.name`` when it cannot be read."""
        ...
