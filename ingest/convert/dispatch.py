"""Converting a file or bytes: sniff the content, hand it to the registry's converter, time and log it.

Which converter runs is decided by the content, not the name (``sniff``), and recorded in the result.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.convert.registry import convert_source
from sleuth.ingest.convert.sniff import SUFFIXES, Format, UnsupportedFormatError, detect_format
from sleuth.ingest.convert.source import Source
from sleuth.ingest.sources import SourceError

log = logging.getLogger(__name__)


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
    result = convert_source(Source.file(path), fmt, options)
    result.seconds = time.perf_counter() - start
    if named is not None and named != fmt:
        result.details["named_as"] = named.value
    log.info(
        "%s: converted with %s (%s pages) in %.2fs", path, result.converter, result.pages, result.seconds
    )
    return result


def convert_bytes(data: bytes, name: str, options: ConvertOptions | None = None) -> Converted:
    """Convert a document held in memory (a fetched web page): HTML or PDF, detected from the bytes.

    HTML goes through the same converter as files. PDFs are converted in a process of their own
    (``isolated``), from a private temporary file removed after (pypdfium2 and docling-parse both open
    paths). ``name`` (a URL) names the document in errors. Failures are ``SourceError``s.
    """
    from sleuth.ingest.convert.isolated import isolated_pdf  # noqa: PLC0415

    options = options or ConvertOptions()
    label = Path(name.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1] or "page")
    start = time.perf_counter()
    if len(data) > options.max_bytes:
        raise SourceError(name, f"too large ({len(data) / 1e6:.1f} MB)")
    try:
        fmt = detect_format(label, data[:8192], data)
    except UnsupportedFormatError as exc:
        raise SourceError(name, str(exc)) from exc
    if fmt not in (Format.HTML, Format.PDF):
        raise SourceError(name, f"{fmt.value} is not a web page format (HTML or PDF)")
    source = Source.memory(data, name)
    if fmt is Format.PDF:
        with source.as_file(".pdf") as path:
            result = isolated_pdf(path, name, options)
    else:
        result = convert_source(source, fmt, options)
    result.seconds = time.perf_counter() - start
    return result
