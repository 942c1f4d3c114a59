"""A fetched PDF converted in a process of its own (spawned: the caller has threads, which forking does not
survive): a native parser that crashes on a page from the web fails that page, not the run. After a crash,
pdfium reads its text without structure, in a process of its own too."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.sources import SourceError

log = logging.getLogger(__name__)


def isolated_pdf(path: Path, name: str, options: ConvertOptions, timeout: float = 120.0) -> Converted:
    """The PDF at ``path`` converted in a spawned process; errors name ``name`` (the URL)."""
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


def _convert_pdf(path: Path, options: ConvertOptions) -> Converted:
    from sleuth.ingest.convert.registry import convert_source  # noqa: PLC0415
    from sleuth.ingest.convert.sniff import Format  # noqa: PLC0415
    from sleuth.ingest.convert.source import Source  # noqa: PLC0415

    return convert_source(Source.file(path), Format.PDF, options)


def _in_spawned_process(function: Callable[..., Converted], *args: object, timeout: float) -> Converted:
    import multiprocessing  # noqa: PLC0415

    from pebble import concurrent  # noqa: PLC0415

    # pebble 5.2 reads the start method from "context" (its type stubs name it mp_context).
    settings: dict[str, Any] = {"timeout": timeout, "context": multiprocessing.get_context("spawn")}
    decorate: Any = concurrent.process
    isolated: Callable[..., Any] = decorate(**settings)(function)
    return cast(Converted, isolated(*args).result())
