"""Progress bars on stderr (rich) for batches, shown only to a person at a terminal."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

from rich.console import Console
from rich.progress import track

T = TypeVar("T")


def track_progress(items: Iterable[T], total: int, description: str) -> Iterator[T]:
    """A progress bar for batches of several items when stderr is a terminal; else just the items."""
    if total <= 1 or not sys.stderr.isatty():
        yield from items
        return
    yield from track(
        items, total=total, description=description, console=Console(stderr=True), transient=True
    )
