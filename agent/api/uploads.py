"""Uploaded files: their names checked, and kept in one managed folder, one file per name.

An upload is stored as ``UPLOADS/<its file name>`` (the folder next to the runs folder, resolved once): the
same name uploaded again replaces the file, so it is the same source and the same document (``unchanged``
when the content is too, ``updated`` otherwise) instead of a new ``name~hash`` copy each time, and the folder
grows with distinct names only, never with repeats. The files are kept rather than deleted after ingest
because the index names them as each chunk's ``source``: a kept file can be re-ingested, and
``DELETE /v1/documents/{id}`` removes the document and its file together.

A name the server cannot keep is one clear error line naming it: no name, a hidden name (``.x``: folders are
ingested without hidden files), a control character, more bytes than a file name may have.
"""

from __future__ import annotations

import os
import shutil
import unicodedata
import uuid
from pathlib import Path
from typing import BinaryIO

from sleuth.ingest import InputError

#: The longest file name most file systems allow, in bytes.
MAX_NAME_BYTES = 255


class UploadNameError(InputError):
    """An uploaded file's name that cannot be kept; ``str()`` is one line naming it."""


def upload_name(raw: str | None) -> str:
    """The name an upload is kept under: the last part of what the client sent (either slash), checked."""
    given = (raw or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
    shown = repr(raw[:80]) if raw else "an uploaded file"
    if not given or given in (".", ".."):
        raise UploadNameError(f"{shown}: has no file name; send each file with its name")
    if given.startswith("."):
        raise UploadNameError(f"{shown}: a name starting with '.' is a hidden file; rename it")
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in given):
        raise UploadNameError(f"{shown}: the name holds a control character; rename it")
    size = len(given.encode("utf-8", "surrogatepass"))
    if size > MAX_NAME_BYTES:
        raise UploadNameError(
            f"{shown}: the name is {size} bytes, over the {MAX_NAME_BYTES} a file name may have"
        )
    return given


class UploadFolder:
    """The managed folder of uploads (created on first use)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder.expanduser().resolve()

    def keep(self, name: str, data: BinaryIO) -> Path:
        """Write ``data`` as ``name`` (replacing a file of that name whole: written aside, then renamed)."""
        self.path.mkdir(parents=True, exist_ok=True)
        target = self.path / name
        partial = self.path / f".partial-{uuid.uuid4().hex}"
        try:
            with partial.open("wb") as out:
                shutil.copyfileobj(data, out, 1 << 20)
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
        return target

    def holds(self, path: Path) -> bool:
        return path.parent == self.path

    def discard(self, path: Path) -> None:
        """Delete a kept upload (its document was removed)."""
        if self.holds(path):
            path.unlink(missing_ok=True)
