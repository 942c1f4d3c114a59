"""Markdown and plain text: read verbatim (Markdown is already the target; a Docling round trip would
rewrite it), and lazily: the text is checked here and streamed from the file by whoever chunks it, so a huge
text file never sits in memory whole. YAML front matter gives title and date and is not content."""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from sleuth.ingest.convert.metadata import DocumentMeta, split_front_matter
from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.convert.sniff import Format
from sleuth.ingest.convert.source import Source
from sleuth.ingest.sources import SourceError

_BLOCK = 1 << 20
_HEAD_CHARS = 65536


@dataclass(frozen=True)
class TextFile:
    """One text format (``markdown`` or ``text``), recorded under the format's own name."""

    format: Format

    @property
    def name(self) -> str:
        return self.format.value

    def accepts(self, fmt: Format, options: ConvertOptions) -> bool:
        return fmt is self.format

    def convert(self, source: Source, options: ConvertOptions) -> Converted:
        """Check that the file is UTF-8 text, block by block, and leave the reading to the chunker."""
        path = source.path
        if path is None:  # streamed from its file later; bytes in memory have none
            raise SourceError(source.name, f"{self.format.value} is read from files only")
        decoder = codecs.getincrementaldecoder("utf-8-sig")("strict")
        head = ""  # the first characters: front matter and title live there
        text_beyond_head = False
        offset = 0
        with path.open("rb") as fh:
            while block := fh.read(_BLOCK):
                if offset == 0 and b"\0" in block[:8192]:
                    raise SourceError(source.name, "binary content, not text (wrong file type?)")
                try:
                    text = decoder.decode(block)
                except UnicodeDecodeError as exc:
                    raise SourceError(
                        source.name, f"not UTF-8 text (invalid byte at offset {offset + exc.start})"
                    ) from exc
                room = _HEAD_CHARS - len(head)
                head += text[:room]
                text_beyond_head = text_beyond_head or bool(text[room:].strip())
                offset += len(block)
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError as exc:
            raise SourceError(
                source.name, f"not UTF-8 text (truncated character at offset {offset})"
            ) from exc
        fmt = self.format
        meta, skip = split_front_matter(head) if fmt is Format.MARKDOWN else (DocumentMeta(), 0)
        if not head[skip:].strip() and not text_beyond_head:
            raise SourceError(source.name, "empty document (no text)")
        return Converted(
            "",
            fmt,
            fmt.value,
            title=meta.title,
            date=meta.date,
            date_source=meta.date_source,
            text_path=path,
            text_skip=skip,
        )
