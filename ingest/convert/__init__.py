"""Documents (PDF, HTML, DOCX, Markdown, text) to Markdown with page markers, ready for the chunker.

Which path converts a file is decided by its content, not its name, and recorded in the result:

- ``markdown`` / ``text``: read verbatim (Markdown is already the target; a Docling round trip would
  rewrite it), and lazily: the text is checked here and streamed from the file by whoever chunks it, so a
  huge text file never sits in memory whole; YAML front matter gives title and date and is not content;
- ``docling-html`` / ``docling-docx``: Docling's DocumentConverter (no models needed);
- ``docling-pdf-standard``: Docling's standard PDF pipeline, when its layout/table models are configured;
- ``sleuth-pdf-text``: the PDF's text layer with structure recovered from outline, fonts and geometry
  (``pdf_structure``), when they are not.
"""

from __future__ import annotations

import codecs
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

from sleuth.ingest.convert.metadata import DocumentMeta, html_metadata, split_front_matter
from sleuth.ingest.convert.sniff import SUFFIXES, Format, UnsupportedFormatError, detect_format
from sleuth.ingest.sources import SourceError

log = logging.getLogger(__name__)

CONVERTER_VERSION = "2026.11.19"
"""Bump when any conversion path changes its output: cached conversions of older versions are redone."""

CONVERTIBLE_SUFFIXES = frozenset(SUFFIXES)
PdfMode = Literal["auto", "text", "standard"]


@dataclass(frozen=True)
class ConvertOptions:
    max_bytes: int = 200 * 1024 * 1024
    max_pages: int = 3000
    pdf_mode: PdfMode = "auto"
    docling_artifacts: Path | None = None
    use_outline: bool = True

    def fingerprint(self) -> str:
        """What, besides the file's bytes, changes the output (cache key part)."""
        return f"{CONVERTER_VERSION}|{self.pdf_mode}|{self.docling_artifacts}|{self.use_outline}"


_BLOCK = 1 << 20
_HEAD_CHARS = 65536


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


def convert_file(path: Path, options: ConvertOptions | None = None) -> Converted:
    """Convert one file in this process; every failure is a ``SourceError`` naming the file and reason."""
    options = options or ConvertOptions()
    start = time.perf_counter()
    try:
        size = path.stat().st_size
        if size > options.max_bytes:
            raise SourceError(
                path, f"file too large ({size / 1e6:.1f} MB > limit {options.max_bytes / 1e6:.1f} MB)"
            )
        with path.open("rb") as fh:
            head = fh.read(8192)
        fmt = detect_format(path, head)
    except UnsupportedFormatError as exc:
        raise SourceError(path, str(exc)) from exc
    except OSError as exc:
        raise SourceError(path, exc.strerror or str(exc)) from exc
    named = SUFFIXES.get(path.suffix.lower())
    if named is not None and named != fmt and {named, fmt} != {Format.MARKDOWN, Format.TEXT}:
        log.info(
            "%s: named %s but the content is %s; converting it as %s", path, path.suffix, fmt.value, fmt.value
        )
    result = _convert(path, fmt, options)
    result.seconds = time.perf_counter() - start
    if named is not None and named != fmt:
        result.details["named_as"] = named.value
    log.info(
        "%s: converted with %s (%s pages) in %.2fs", path, result.converter, result.pages, result.seconds
    )
    return result


def _convert(path: Path, fmt: Format, options: ConvertOptions) -> Converted:
    if fmt in (Format.MARKDOWN, Format.TEXT):
        return _convert_text(path, fmt)
    if fmt is Format.PDF:
        return _convert_pdf(path, options)
    from sleuth.ingest.convert.docling_backend import convert_with_docling  # noqa: PLC0415 - heavy

    details: dict[str, object] = {}
    data: bytes | None = None
    raw = path.read_bytes() if fmt is Format.HTML else b""
    if fmt is Format.HTML:
        from sleuth.ingest.convert.html_main import clean_html  # noqa: PLC0415

        cleaned = clean_html(raw)
        data = cleaned.html.encode()
        details = {"main": cleaned.main, "removed": dict(cleaned.removed)}
    try:
        markdown, pages, title = convert_with_docling(path, f".{fmt.value}", data=data)
    except Exception as exc:  # Docling wraps parser failures in many exception types
        raise SourceError(path, f"{fmt.value.upper()} conversion failed ({_reason(exc)})") from exc
    if not markdown.strip():
        raise SourceError(path, f"no text found in the {fmt.value.upper()} document")
    meta = html_metadata(raw) if fmt is Format.HTML else _docx_metadata(path)
    return Converted(
        markdown,
        fmt,
        f"docling-{fmt.value}",
        pages,
        meta.title or title,
        date=meta.date,
        date_source=meta.date_source,
        details=details,
    )


def _convert_text(path: Path, fmt: Format) -> Converted:
    """Check that the file is UTF-8 text, block by block, and leave the reading to the chunker."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")("strict")
    head = ""  # the first characters: front matter and title live there
    text_beyond_head = False
    offset = 0
    with path.open("rb") as fh:
        while block := fh.read(_BLOCK):
            if offset == 0 and b"\0" in block[:8192]:
                raise SourceError(path, "binary content, not text (wrong file type?)")
            try:
                text = decoder.decode(block)
            except UnicodeDecodeError as exc:
                raise SourceError(
                    path, f"not UTF-8 text (invalid byte at offset {offset + exc.start})"
                ) from exc
            room = _HEAD_CHARS - len(head)
            head += text[:room]
            text_beyond_head = text_beyond_head or bool(text[room:].strip())
            offset += len(block)
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError as exc:
        raise SourceError(path, f"not UTF-8 text (truncated character at offset {offset})") from exc
    meta, skip = split_front_matter(head) if fmt is Format.MARKDOWN else (DocumentMeta(), 0)
    if not head[skip:].strip() and not text_beyond_head:
        raise SourceError(path, "empty document (no text)")
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


def _convert_pdf(path: Path, options: ConvertOptions) -> Converted:
    from sleuth.ingest.convert.docling_backend import convert_with_docling, models_available  # noqa: PLC0415
    from sleuth.ingest.convert.pdf_layout import PdfReadError, read_info, read_outline  # noqa: PLC0415
    from sleuth.ingest.convert.pdf_structure import pdf_to_markdown  # noqa: PLC0415

    try:
        pages, _ = read_outline(path)
        meta = read_info(path)
    except PdfReadError as exc:
        raise SourceError(path, str(exc)) from exc
    if pages == 0:
        raise SourceError(path, "PDF has no pages")
    if pages > options.max_pages:
        raise SourceError(path, f"too many pages ({pages} > limit {options.max_pages})")
    standard = options.pdf_mode == "standard" or (
        options.pdf_mode == "auto" and models_available(options.docling_artifacts)
    )
    if standard:
        if not models_available(options.docling_artifacts):
            raise SourceError(
                path, "pdf_mode is 'standard' but no Docling models folder (docling_artifacts) exists"
            )
        try:
            markdown, count, title = convert_with_docling(path, ".pdf", options.docling_artifacts)
        except Exception as exc:
            raise SourceError(path, f"PDF conversion failed ({_reason(exc)})") from exc
        return Converted(
            markdown,
            Format.PDF,
            "docling-pdf-standard",
            count,
            meta.title or title,
            date=meta.date,
            date_source=meta.date_source,
        )
    try:
        result = pdf_to_markdown(path, use_outline=options.use_outline)
    except PdfReadError as exc:
        raise SourceError(path, str(exc)) from exc
    title = meta.title or (result.headings[0][1] if result.headings else None)
    details: dict[str, object] = {
        "headings": len(result.headings),
        "heading_source": result.heading_source,
        "tables": result.tables,
    }
    return Converted(
        result.markdown,
        Format.PDF,
        "sleuth-pdf-text",
        result.pages,
        title,
        details=details,
        date=meta.date,
        date_source=meta.date_source,
    )


def _isolated_pdf(path: Path, name: str, options: ConvertOptions, timeout: float = 120.0) -> Converted:
    """A fetched PDF converted in a process of its own (spawned: the caller has threads, which forking
    does not survive): a native parser that crashes on a page from the web fails that page, not the run.
    After a crash, pdfium reads its text without structure, in a process of its own too."""
    from pebble import ProcessExpired  # noqa: PLC0415

    from sleuth.ingest.convert.pdf_plain import plain_pdf  # noqa: PLC0415

    try:
        return _in_spawned_process(_convert_pdf, path, options, timeout=timeout)
    except SourceError as exc:
        raise SourceError(name, exc.reason) from exc
    except TimeoutError as exc:
        raise SourceError(name, f"PDF conversion timed out after {timeout:g}s") from exc
    except ProcessExpired as exc:
        reason = f"converter process died (exit code {exc.exitcode})"
    try:
        result = _in_spawned_process(plain_pdf, path, reason, timeout=timeout)
    except SourceError as exc:
        raise SourceError(name, exc.reason) from exc
    except (ProcessExpired, TimeoutError) as exc:
        raise SourceError(name, reason) from exc
    log.warning("%s: %s; its text was read without structure (pdfium)", name, reason)
    return result


def _in_spawned_process(function: Callable[..., Converted], *args: object, timeout: float) -> Converted:
    import multiprocessing  # noqa: PLC0415

    from pebble import concurrent  # noqa: PLC0415

    # pebble 5.2 reads the start method from "context" (its type stubs name it mp_context).
    settings: dict[str, Any] = {"timeout": timeout, "context": multiprocessing.get_context("spawn")}
    decorate: Any = concurrent.process
    isolated: Callable[..., Any] = decorate(**settings)(function)
    return cast(Converted, isolated(*args).result())


def _reason(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


__all__ = [
    "CONVERTER_VERSION",
    "CONVERTIBLE_SUFFIXES",
    "ConvertOptions",
    "Converted",
    "Format",
    "convert_bytes",
    "convert_file",
]


def convert_bytes(data: bytes, name: str, options: ConvertOptions | None = None) -> Converted:
    """Convert a document held in memory (a fetched web page): HTML or PDF, detected from the bytes.

    HTML goes to Docling as a stream, as files do. The text-layer PDF path reads a file (pypdfium2 and
    docling-parse both open paths), so a PDF is written to a private temporary file first and removed after.
    ``name`` (a URL) names the document in errors. Failures are ``SourceError``s.
    """
    options = options or ConvertOptions()
    label = Path(name.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1] or "page")
    start = time.perf_counter()
    if len(data) > options.max_bytes:
        raise SourceError(name, f"too large ({len(data) / 1e6:.1f} MB)")
    try:
        fmt = detect_format(label, data[:8192])
    except UnsupportedFormatError as exc:
        raise SourceError(name, str(exc)) from exc
    if fmt not in (Format.HTML, Format.PDF):
        raise SourceError(name, f"{fmt.value} is not a web page format (HTML or PDF)")
    if fmt is Format.PDF:
        import tempfile  # noqa: PLC0415

        with tempfile.TemporaryDirectory(prefix="sleuth-web-") as folder:
            path = Path(folder) / "page.pdf"
            path.write_bytes(data)
            result = _isolated_pdf(path, name, options)
    else:
        from sleuth.ingest.convert.docling_backend import convert_with_docling  # noqa: PLC0415
        from sleuth.ingest.convert.html_main import clean_html  # noqa: PLC0415

        cleaned = clean_html(data)
        try:
            markdown, pages, title = convert_with_docling(Path("page"), ".html", data=cleaned.html.encode())
        except Exception as exc:
            raise SourceError(name, f"HTML conversion failed ({_reason(exc)})") from exc
        if not markdown.strip():
            raise SourceError(name, "no text found in the page")
        meta = html_metadata(data)
        result = Converted(
            markdown,
            fmt,
            "docling-html",
            pages,
            meta.title or title,
            date=meta.date,
            date_source=meta.date_source,
            details={"main": cleaned.main, "removed": dict(cleaned.removed)},
        )
    result.seconds = time.perf_counter() - start
    return result
