"""Finding input files, naming them as documents, and decoding text files, with one clear error per bad file.

A batch never stops for one bad file: problems come back as ``SourceError`` values naming the file and the
reason, and the caller reports them and goes on.

Identity. A file is known by its resolved absolute path (``Path.resolve``): ``./pdf/../pdf/a.pdf``, a symlink
to it and ``/abs/pdf/a.pdf`` are one source, walked once. Its readable ``document_id`` is its path relative to
the folder named on the command line, without extension (``reports/2024/q1``), or the stem of a file named
directly; two different files that would share an id get a suffix derived from their path, so the outcome
depends on nothing but the inputs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from sleuth.ingest.build_files import build_file
from sleuth.ingest.errors import InputError


class SourceError(InputError):
    """One input that could not be read; ``str()`` is the one line shown to the user."""

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason

    def __reduce__(self) -> tuple[type[SourceError], tuple[str, str]]:
        # Errors cross process boundaries (conversion workers); rebuild them from both parts.
        return SourceError, (self.path, self.reason)


class SkippedPageError(SourceError):
    """A page that is no document of its own: an ingest skips it and counts it (``skipped_pages``), never
    as a failure, and a search never finds it."""

    def __reduce__(self) -> tuple[type[SourceError], tuple[str, str]]:
        return type(self), (self.path, self.reason)


class RedirectPageError(SkippedPageError):
    """An HTML page that only sends its reader elsewhere (a ``<meta http-equiv="refresh">`` page with no text
    of its own: Texinfo writes one for every node alias, 144 of the zsh manual's 186 pages, 49 of flex's
    222): "The node you are looking for is at ..." answers nothing."""


class LinksPageError(SkippedPageError):
    """An HTML page whose text is links to other pages and nothing else (an index, a site map, a table of
    contents: zsh's seven indexes, Apache's sitemap, SQLite's keyword index): "AUTO_REMOVE_SLASH | 16.2.2
    Completion" says where something is, never what it is."""


class BuildFileError(SkippedPageError):
    """A file a documentation build carries besides its pages: Sphinx's copy of each page's source
    (``_sources/usage/crypto.rst.txt`` beside ``usage/crypto.html``: the same page again, in reStructuredText
    markup, which doubled every claim of a report over alot's manual) and its theme's images
    (``_static/plus.png``, whose OCR finds no text)."""


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One input file: where it really is, and the document id it asks for."""

    path: Path
    document_id: str

    @property
    def key(self) -> str:
        """What indexes key a file by: its resolved absolute path."""
        return str(self.path)


def resolve(path: Path) -> Path:
    return path.expanduser().resolve()


def disambiguate(document_id: str, key: str) -> str:
    """The id a source gets when ``document_id`` already names another one: stable, readable, unique."""
    return f"{document_id}~{hashlib.sha256(key.encode()).hexdigest()[:6]}"


def iter_sources(paths: Iterable[Path], suffixes: frozenset[str]) -> Iterator[SourceFile | SourceError]:
    """Files as given, and files with a known suffix below given folders (sorted, hidden ones skipped).

    Each real file comes once however often and however spelled it is named; ids are unique in the batch.
    """
    paths = list(paths)
    # A file named on the command line is a document whatever a folder walk makes of it.
    named = {resolve(p) for p in paths if p.is_file()}
    seen: set[Path] = set()
    taken: dict[str, Path] = {}
    for path, wanted in _walk(paths, suffixes):
        if isinstance(path, BuildFileError):
            skipped = Path(path.path)
            if skipped not in named and skipped not in seen:
                seen.add(skipped)
                yield path
            continue
        if isinstance(path, SourceError):
            yield path
            continue
        if path in seen:
            continue
        seen.add(path)
        owner = taken.get(wanted)
        document_id = wanted if owner is None or owner == path else disambiguate(wanted, str(path))
        taken[document_id] = path
        yield SourceFile(path, document_id)


def _walk(paths: Iterable[Path], suffixes: frozenset[str]) -> Iterator[tuple[Path | SourceError, str]]:
    for named in paths:
        if named.is_dir():
            root = resolve(named)
            for child in sorted(root.rglob("*")):
                rel = child.relative_to(root)
                if any(part.startswith(".") for part in rel.parts):
                    continue
                if child.is_file() and child.suffix.lower() in suffixes:
                    why = build_file(child, root)
                    if why is not None:
                        yield BuildFileError(resolve(child), why), ""
                        continue
                    yield resolve(child), str(PurePosixPath(*rel.parts).with_suffix(""))
        elif named.is_file():
            yield resolve(named), named.stem
        elif named.exists():
            yield SourceError(named, "not a regular file"), ""
        else:
            yield SourceError(named, "no such file or directory"), ""
