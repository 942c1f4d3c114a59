"""Finding input files and decoding text files, with one clear error per bad file.

A batch never stops for one bad file: problems come back as ``SourceError`` values naming the file and the
reason, and the caller reports them and goes on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path


class SourceError(Exception):
    """One input that could not be read; ``str()`` is the one line shown to the user."""

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason

    def __reduce__(self) -> tuple[type[SourceError], tuple[str, str]]:
        # Errors cross process boundaries (conversion workers); rebuild them from both parts.
        return SourceError, (self.path, self.reason)


def iter_files(paths: Iterable[Path], suffixes: frozenset[str]) -> Iterator[Path | SourceError]:
    """Files as given, and files with a known suffix below given folders (sorted, hidden ones skipped)."""
    for path in paths:
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                rel = child.relative_to(path)
                if any(part.startswith(".") for part in rel.parts):
                    continue
                if child.is_file() and child.suffix.lower() in suffixes:
                    yield child
        elif path.is_file():
            yield path
        elif path.exists():
            yield SourceError(path, "not a regular file")
        else:
            yield SourceError(path, "no such file or directory")


def decode_text(path: str | Path, data: bytes) -> str:
    """UTF-8 text (a BOM is allowed); binary, non-UTF-8 or blank content raises SourceError."""
    if b"\0" in data[:8192]:
        raise SourceError(path, "binary content, not text (wrong file type?)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError(path, f"not UTF-8 text (invalid byte at offset {exc.start})") from exc
    if not text.strip():
        raise SourceError(path, "empty document (no text)")
    return text
