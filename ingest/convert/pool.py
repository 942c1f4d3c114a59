"""Conversion in worker processes with a per-file timeout, so one pathological file cannot hang a batch.

pebble's process pool kills a worker that overruns its timeout (``concurrent.futures`` cannot) and reports
a worker that died (a crash in a native parser) as an error of that one file.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, TimeoutError
from pathlib import Path

from pebble import ProcessExpired, ProcessPool

from sleuth.ingest.convert import Converted, ConvertOptions, convert_file
from sleuth.ingest.convert.cache import ConversionCache, file_digest
from sleuth.ingest.sources import SourceError

log = logging.getLogger(__name__)


def convert_files(
    paths: Iterable[Path | SourceError],
    options: ConvertOptions,
    *,
    workers: int = 1,
    timeout: float = 600.0,
    cache: ConversionCache | None = None,
) -> Iterator[tuple[Path, Converted | SourceError]]:
    """Results in input order, streaming: at most ``2 * workers`` files are in flight at once."""
    with ProcessPool(max_workers=max(1, workers)) as pool:
        pending: deque[tuple[Path, str | None, Future[Converted] | Converted | SourceError]] = deque()
        for item in paths:
            if isinstance(item, SourceError):
                pending.append((Path(item.path), None, item))
            else:
                pending.append(_submit(pool, item, options, timeout, cache))
            while len(pending) > 2 * max(1, workers) or (pending and not isinstance(pending[0][2], Future)):
                yield _collect(pending.popleft(), timeout, cache)
        while pending:
            yield _collect(pending.popleft(), timeout, cache)


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
    return path, key, pool.schedule(convert_file, args=(path, options), timeout=timeout)


def _collect(
    entry: tuple[Path, str | None, Future[Converted] | Converted | SourceError],
    timeout: float,
    cache: ConversionCache | None,
) -> tuple[Path, Converted | SourceError]:
    path, key, job = entry
    if not isinstance(job, Future):
        return path, job
    try:
        result = job.result()
    except TimeoutError:
        return path, SourceError(path, f"conversion timed out after {timeout:g}s")
    except ProcessExpired as exc:
        return path, SourceError(path, f"converter process died (exit code {exc.exitcode})")
    except SourceError as exc:
        return path, exc
    except Exception as exc:
        return path, SourceError(path, f"conversion failed ({type(exc).__name__}: {exc})")
    if cache is not None and key is not None:
        cache.put(key, result)
    return path, result
