"""What a file really is, from its bytes: names lie (a ``.pdf`` that is an HTML error page is common).

Office documents are ZIP containers told apart by the part that makes each one (``word/document.xml``,
``ppt/presentation.xml``, ``xl/workbook.xml``); an Office document saved with a password is not a ZIP but an
OLE2 compound file holding an ``EncryptedPackage`` stream, and says so. Images are recognised by their
signatures. Text formats (Markdown, CSV, plain text) cannot be told apart by content and go by the name.
"""

from __future__ import annotations

import io
import zipfile
from enum import StrEnum
from pathlib import Path

from sleuth.ingest.errors import InputError


class Format(StrEnum):
    PDF = "pdf"
    HTML = "html"
    DOCX = "docx"
    PPTX = "pptx"
    XLSX = "xlsx"
    CSV = "csv"
    IMAGE = "image"
    MARKDOWN = "markdown"
    TEXT = "text"


SUFFIXES: dict[str, Format] = {
    ".pdf": Format.PDF,
    ".html": Format.HTML,
    ".htm": Format.HTML,
    ".xhtml": Format.HTML,
    ".docx": Format.DOCX,
    ".pptx": Format.PPTX,
    ".xlsx": Format.XLSX,
    ".xlsm": Format.XLSX,
    ".csv": Format.CSV,
    ".tsv": Format.CSV,
    ".png": Format.IMAGE,
    ".jpg": Format.IMAGE,
    ".jpeg": Format.IMAGE,
    ".tif": Format.IMAGE,
    ".tiff": Format.IMAGE,
    ".md": Format.MARKDOWN,
    ".markdown": Format.MARKDOWN,
    ".mdown": Format.MARKDOWN,
    ".mkd": Format.MARKDOWN,
    ".txt": Format.TEXT,
    ".text": Format.TEXT,
}

#: The part of an Office ZIP container that makes it a document of each kind.
_OFFICE_PARTS = {
    "word/document.xml": Format.DOCX,
    "ppt/presentation.xml": Format.PPTX,
    "xl/workbook.xml": Format.XLSX,
}
_IMAGES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"II*\x00", b"MM\x00*")
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")
_BINARY_FORMATS = (b"GIF8", b"BM", b"RIFF")


#: What a file's name says it is, for the error when its content is none of the formats sleuth reads.
_CLAIMED = {
    ".pdf": "PDF",
    ".docx": "Word document",
    ".pptx": "PowerPoint deck",
    ".xlsx": "Excel workbook",
    ".html": "HTML page",
    ".htm": "HTML page",
}


class UnsupportedFormatError(InputError, ValueError):
    """Content that no converter handles; the message says what it looks like."""


def detect_format(path: Path, head: bytes, content: bytes | None = None) -> Format:
    """The format of the content, whatever the name says; ``head`` is the file's first few KiB.

    Containers are opened to look inside: from ``content`` when the document is held in memory (a fetched
    page), else from ``path``.
    """
    if not head.strip():
        raise UnsupportedFormatError("empty file")
    if b"%PDF-" in head[:1024]:
        return Format.PDF
    if head.startswith(b"PK\x03\x04"):
        return _office_format(path, content)
    if head.startswith(_IMAGES):
        return Format.IMAGE
    if head.startswith(_OLE):
        data = content if content is not None else _read(path, 1 << 22)
        if _ENCRYPTED_PACKAGE in data:
            raise UnsupportedFormatError("encrypted Office document (a password is required)")
        raise UnsupportedFormatError(
            "legacy binary Office format (.doc, .xls, .ppt) that sleuth does not convert"
        )
    if head.startswith(_BINARY_FORMATS):
        raise UnsupportedFormatError("binary document or image format that sleuth does not convert")
    if b"\0" in head:
        # Named for what the file claims to be: a ".pdf" of other bytes is a damaged or mislabelled PDF.
        claimed = _CLAIMED.get(path.suffix.lower())
        if claimed:
            raise UnsupportedFormatError(f"not a readable {claimed}: binary data of no known format")
        raise UnsupportedFormatError("binary content, not a supported document format")
    lowered = head[:4096].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if (
        lowered.startswith((b"<!doctype html", b"<html", b"<?xml"))
        or b"<html" in lowered
        or b"<body" in lowered
    ):
        return Format.HTML
    by_name = SUFFIXES.get(path.suffix.lower())
    if by_name in (Format.HTML, Format.MARKDOWN, Format.TEXT, Format.CSV):
        return by_name
    if by_name is not None:
        raise UnsupportedFormatError(
            f"named {path.suffix} but the content is text, not {by_name.value.upper()}"
        )
    return Format.TEXT


def _office_format(path: Path, content: bytes | None) -> Format:
    try:
        with zipfile.ZipFile(io.BytesIO(content) if content is not None else path) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, OSError) as exc:
        raise UnsupportedFormatError("corrupt ZIP container (truncated Office document?)") from exc
    for part, fmt in _OFFICE_PARTS.items():
        if part in names:
            return fmt
    raise UnsupportedFormatError("ZIP archive that is not an Office document (DOCX, PPTX, XLSX)")


def _read(path: Path, limit: int) -> bytes:
    with path.open("rb") as fh:
        return fh.read(limit)
