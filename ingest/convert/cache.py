"""Conversions cached by content hash and converter version: unchanged files are never converted twice."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.convert.sniff import Format


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/sleuth/conversions`` (``~/.cache/sleuth/conversions`` without it)."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "sleuth" / "conversions"


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class ConversionCache:
    """``<dir>/<key>.md`` plus ``<key>.json`` metadata, written atomically: a crash leaves no half entry."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def key(self, digest: str, options: ConvertOptions) -> str:
        return hashlib.sha256(f"{digest}|{options.fingerprint()}".encode()).hexdigest()[:40]

    def get(self, key: str) -> Converted | None:
        meta_path = self.directory / f"{key}.json"
        md_path = self.directory / f"{key}.md"
        try:
            meta = json.loads(meta_path.read_text())
            markdown = md_path.read_text()
        except (OSError, ValueError):
            return None
        return Converted(
            markdown,
            Format(meta["format"]),
            meta["converter"],
            meta.get("pages"),
            meta.get("title"),
            meta.get("seconds", 0.0),
            cached=True,
            details=meta.get("details", {}),
            date=meta.get("date"),
            date_source=meta.get("date_source"),
        )

    def put(self, key: str, result: Converted) -> None:
        """Keep a conversion; text formats are read from their file each time, so nothing is kept."""
        if result.text_path is not None:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        meta = {
            "format": result.format.value,
            "converter": result.converter,
            "pages": result.pages,
            "title": result.title,
            "seconds": result.seconds,
            "details": result.details,
            "date": result.date,
            "date_source": result.date_source,
        }
        _atomic_write(self.directory / f"{key}.md", result.body)
        _atomic_write(self.directory / f"{key}.json", json.dumps(meta))


def _atomic_write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
