"""What a converter reads: a file, or bytes held in memory with a name (a fetched web page).

One converter serves both: it reads ``data`` (the file's bytes, read once) or, where its parser opens
paths, ``path`` (for bytes, a private temporary file that lives as long as the ``as_file`` block).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Source:
    #: What errors name: the file's path, or the URL the bytes came from.
    name: str
    #: The file, for sources on disk.
    path: Path | None = None
    #: The content, for sources held in memory.
    content: bytes | None = None
    #: The document's name without suffix, as the parsers that take a name are given it.
    stem: str = "page"

    @classmethod
    def file(cls, path: Path) -> Source:
        return cls(str(path), path=path, stem=path.stem)

    @classmethod
    def memory(cls, content: bytes, name: str) -> Source:
        return cls(name, content=content)

    def data(self) -> bytes:
        if self.content is not None:
            return self.content
        assert self.path is not None
        return self.path.read_bytes()

    @contextmanager
    def as_file(self, suffix: str) -> Iterator[Path]:
        """A path to the content: the file itself, or bytes written to a temporary file removed after."""
        if self.path is not None:
            yield self.path
            return
        with tempfile.TemporaryDirectory(prefix="sleuth-web-") as folder:
            path = Path(folder) / f"page{suffix}"
            path.write_bytes(self.data())
            yield path


def failure_reason(exc: Exception) -> str:
    """An exception as a short reason for an error line (parsers wrap their failures in many types)."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__
