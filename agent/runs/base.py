"""The run store's interface: a research run's row, its event log and its versioned artifacts.

``SqliteRunStore`` (``sqlite.py``) is the implementation sleuth ships; a shared store for several servers (a
Postgres one, say) implements this protocol and is chosen in ``sleuth.agent.wiring``. Report and ledger files
are not the store's business: they live in the run's folder (``RunFolders``), whatever store keeps the log.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from sleuth.agent.events import RunEvent
from sleuth.ingest.errors import InputError

#: The error of a run whose process stopped without ending it (recorded by whoever reads it next).
INTERRUPTED = "interrupted (the process running it stopped)"


class RunNotFoundError(InputError, KeyError):
    """A run id that names no run."""

    def __str__(self) -> str:
        return f"no research run {self.args[0]!r}"


@dataclass(frozen=True, slots=True)
class RunRow:
    run_id: str
    created_at: float
    updated_at: float
    query: str
    template: str
    status: str
    options: dict[str, Any]
    summary: dict[str, Any] | None
    #: Why a ``failed`` run failed (its last ``failed`` event's error); None otherwise.
    error: str | None = None


def new_run_id() -> str:
    """Sortable by time, unique: ``20261123-142501-3fa9c2``."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


class RunStore(Protocol):
    """Runs, their events and artifacts. Safe to call from several threads; calls may block (run them off an
    event loop)."""

    def create(self, run_id: str, query: str, template: str, options: dict[str, Any]) -> None: ...

    def record(self, event: RunEvent) -> RunEvent:
        """Append one event to its run's log, numbered after what the log holds (a resumed run goes on where
        it stopped); terminal events set the run's status. Returns the event as stored."""
        ...

    def save_artifact(self, run_id: str, name: str, body: Any) -> int:
        """Store a new version of an artifact (report, ledger); returns its version number."""
        ...

    def set_summary(self, run_id: str, summary: dict[str, Any]) -> None: ...

    def get(self, run_id: str) -> RunRow:
        """The run's row; ``RunNotFoundError`` when there is none."""
        ...

    def list(self, limit: int = 50) -> list[RunRow]: ...

    def events(self, run_id: str, after: int = 0) -> Iterator[dict[str, Any]]:
        """The run's events in order, those after sequence number ``after`` (a reconnecting client's)."""
        ...

    def artifact(self, run_id: str, name: str, version: int | None = None) -> Any | None:
        """The latest version of an artifact (or the given one), None when there is none."""
        ...

    def close(self) -> None: ...
