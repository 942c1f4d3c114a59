"""What a file really is, from its bytes: names lie (a ``.pdf`` that is an HTML error page is common)."""

from __future__ import annotations

import zipfile
from enum import StrEnum
from pathlib import Path

from sleuth.ingest.errors import InputError


class Format(StrEnum):
    PDF = "pdf"
    HTML = "html"
    DOCX = "docx"
    MARKDOWN = "markdown"
    TEXT = "text"


SUFFIXES: dict[str, Format] = {
    ".pdf": Format.PDF,
    ".html": Format.HTML,
    ".htm": Format.HTML,
    ".xhtml": Format.HTML,
    ".docx": Format.DOCX,
    ".md": Format.MARKDOWN,
    ".markdown": Format.MARKDOWN,
    ".mdown": Format.MARKDOWN,
    ".mkd": Format.MARKDOWN,
    ".txt": Format.TEXT,
    ".text": Format.TEXT,
}


class UnsupportedFormatError(InputError, ValueError):
    """Content that no converter handles; the message says what it looks like."""


def detect_format(path: Path, head: bytes) -> Format:
    """The format of the content, whatever the name says; ``head`` is the file's first few KiB."""
    if not head.strip():
        raise UnsupportedFormatError("empty file")
    if b"%PDF-" in head[:1024]:
        return Format.PDF
    if head.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(path) as archive:
                names = set(archive.namelist())
        except zipfile.BadZipFile as exc:
            raise UnsupportedFormatError("corrupt ZIP container (truncated DOCX?)") from exc
        if "word/document.xml" in names:
            return Format.DOCX
        raise UnsupportedFormatError("ZIP archive that is not a DOCX document")
    if head.startswith((b"\xd0\xcf\x11\xe0", b"\x89PNG", b"\xff\xd8\xff", b"GIF8")):
        raise UnsupportedFormatError("binary document or image format that sleuth does not convert")
    if b"\0" in head:
        raise UnsupportedFormatError("binary content, not a supported document format")
    lowered = head[:4096].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if (
        lowered.startswith((b"<!doctype html", b"<html", b"<?xml"))
        or b"<html" in lowered
        or b"<body" in lowered
    ):
        return Format.HTML
    by_name = SUFFIXES.get(path.suffix.lower())
    if by_name in (Format.HTML, Format.MARKDOWN, Format.TEXT):
        return by_name
    if by_name in (Format.PDF, Format.DOCX):
        raise UnsupportedFormatError(
            f"named {path.suffix} but the content is text, not {by_name.value.upper()}"
        )
    return Format.TEXT
