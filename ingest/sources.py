"""Finding input files and reading them as Markdown, with one clear error per bad file.

A batch never stops for one bad file: problems come back as ``SourceError`` values naming the file and the
reason, and the caller reports them and goes on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdown", ".mkd", ".txt", ".text"})
DEFAULT_MAX_BYTES = 200 * 1024 * 1024


class SourceError(Exception):
    """One input that could not be read; ``str()`` is the one line shown to the user."""

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason

    def __reduce__(self) -> tuple[type[SourceError], tuple[str, str]]:
        # Errors cross process boundaries (conversion workers); rebuild them from both parts.
        return SourceError, (self.path, self.reason)


def iter_files(
    paths: Iterable[Path], suffixes: frozenset[str] = MARKDOWN_SUFFIXES
) -> Iterator[Path | SourceError]:
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


def read_markdown(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The text of a Markdown or plain-text file; binary, empty or oversized files raise SourceError."""
    if path.suffix.lower() not in MARKDOWN_SUFFIXES:
        raise SourceError(
            path, f"unsupported file type {path.suffix or '(no suffix)'}: expected Markdown or text"
        )
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise SourceError(path, f"file too large ({size / 1e6:.1f} MB > limit {max_bytes / 1e6:.1f} MB)")
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(path, exc.strerror or str(exc)) from exc
    return decode_text(path, data)


def decode_text(path: str | Path, data: bytes) -> str:
    if b"\0" in data[:8192]:
        raise SourceError(path, "binary content, not text (wrong file type?)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError(path, f"not UTF-8 text (invalid byte at offset {exc.start})") from exc
    if not text.strip():
        raise SourceError(path, "empty document (no text)")
    return text
