"""Conversion in worker processes with a per-file timeout, so one pathological file cannot hang a batch.

pebble's process pool kills a worker that overruns its timeout (``concurrent.futures`` cannot) and reports
a worker that died (a crash in a native parser) as an error of that one file.

Workers never write to the terminal: what libraries log or warn in them (Docling does both) is collected
and handed back with the result, and the main process logs it through its own handlers, which know how to
print above a progress bar.

A file that may need OCR (a PDF, an image) gets the OCR budget (``ocr_timeout``) on top of the conversion
timeout: OCR'd pages take seconds each, where a text layer takes milliseconds, and the OCR itself stops at its
own budget with a reason (how many pages it read).
"""

from __future__ import annotations

import logging
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, TimeoutError
from pathlib import Path
from typing import cast

from pebble import ProcessExpired, ProcessPool

from sleuth.ingest.convert.cache import ConversionCache, file_digest
from sleuth.ingest.convert.dispatch import convert_file
from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.convert.sniff import SUFFIXES, Format
from sleuth.ingest.processes import die_with_parent
from sleuth.ingest.sources import SourceError

log = logging.getLogger(__name__)


def convert_files(
    paths: Iterable[Path | SourceError],
    options: ConvertOptions,
    *,
    workers: int = 1,
    timeout: float = 600.0,
    cache: ConversionCache | None = None,
    on_wait: Callable[[Path], None] | None = None,
) -> Iterator[tuple[Path, Converted | SourceError]]:
    """Results in input order, streaming: at most ``2 * workers`` files are in flight at once.

    ``on_wait(path)`` is called before the caller starts waiting for ``path``'s result: what a progress
    display names while a long conversion runs.
    """
    with ProcessPool(max_workers=max(1, workers), initializer=_worker_init, initargs=(os.getpid(),)) as pool:
        pending: deque[tuple[Path, str | None, Future[Converted] | Converted | SourceError]] = deque()
        for item in paths:
            if isinstance(item, SourceError):
                pending.append((Path(item.path), None, item))
            else:
                pending.append(_submit(pool, item, options, time_limit(item, options, timeout), cache))
            while len(pending) > 2 * max(1, workers) or (pending and not isinstance(pending[0][2], Future)):
                entry = pending.popleft()
                yield _collect(entry, time_limit(entry[0], options, timeout), cache, on_wait, pool)
        while pending:
            entry = pending.popleft()
            yield _collect(entry, time_limit(entry[0], options, timeout), cache, on_wait, pool)


def time_limit(path: Path, options: ConvertOptions, timeout: float) -> float:
    """Seconds ``path`` may take: the conversion timeout, plus the OCR budget where OCR may run."""
    may_ocr = SUFFIXES.get(path.suffix.lower()) in (Format.PDF, Format.IMAGE)
    return timeout + options.ocr_timeout if options.ocr and may_ocr else timeout


def _submit(
    pool: ProcessPool, path: Path, options: ConvertOptions, timeout: float, cache: ConversionCache | None
) -> tuple[Path, str | None, Future[Converted] | Converted | SourceError]:
    key = None
    if cache is not None:
        try:
            if path.stat().st_size <= options.max_bytes:
                key = cache.key(file_digest(path), options)
                hit = cache.get(key)
                if hit is not None:
                    log.info("%s: conversion cached (%s)", path, hit.converter)
                    return path, key, hit
        except OSError as exc:
            return path, None, SourceError(path, exc.strerror or str(exc))
    return path, key, pool.schedule(_convert_job, args=(path, options), timeout=timeout)


def _collect(
    entry: tuple[Path, str | None, Future[Converted] | Converted | SourceError],
    timeout: float,
    cache: ConversionCache | None,
    on_wait: Callable[[Path], None] | None = None,
    pool: ProcessPool | None = None,
) -> tuple[Path, Converted | SourceError]:
    path, key, job = entry
    if on_wait is not None:
        on_wait(path)
    if not isinstance(job, Future):
        return path, job
    try:
        result = job.result()
    except TimeoutError:
        return path, SourceError(path, f"conversion timed out after {timeout:g}s")
    except ProcessExpired as exc:
        reason = f"converter process died (exit code {exc.exitcode})"
        if pool is None or path.suffix.lower() != ".pdf":
            return path, SourceError(path, reason)
        # A native parser crashed on this PDF: read its text with the other parser, in a fresh worker.
        try:
            result = pool.schedule(_plain_job, args=(path, reason), timeout=timeout).result()
        except SourceError as plain_exc:
            return path, plain_exc
        except (ProcessExpired, TimeoutError, Exception):
            return path, SourceError(path, reason)
        log.warning("%s: %s; its text was read without structure (pdfium)", path, reason)
        if cache is not None and key is not None:
            cache.put(key, result)
        return path, result
    except SourceError as exc:
        return path, exc
    except Exception as exc:
        return path, SourceError(path, f"conversion failed ({type(exc).__name__}: {exc})")
    for level, message in cast(list[tuple[int, str]], result.details.pop("log", [])):
        log.log(level, "%s: %s", path, message)
    if cache is not None and key is not None:
        cache.put(key, result)
    return path, result


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[tuple[int, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append((record.levelno, f"{record.name}: {record.getMessage()}"))


def _worker_init(parent: int) -> None:
    # A worker outliving a killed ingest would hold the index's write-ahead log it inherited: the index
    # would read as busy until the worker finished its file.
    die_with_parent(parent)
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.addHandler(_COLLECT)
    root.setLevel(logging.INFO)
    logging.captureWarnings(True)


_COLLECT = _Collect()


def _plain_job(path: Path, reason: str) -> Converted:
    from sleuth.ingest.convert.pdf_plain import plain_pdf  # noqa: PLC0415 - only after a crash

    return plain_pdf(path, reason)


def _convert_job(path: Path, options: ConvertOptions) -> Converted:
    """``convert_file`` in a worker, with what was logged meanwhile attached for the main process."""
    _COLLECT.records = []
    result = convert_file(path, options)
    if _COLLECT.records:
        result.details["log"] = _COLLECT.records
    return result
