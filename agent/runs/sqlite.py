"""Research runs persisted in SQLite: one row per run, its event log, and versioned artifacts.

The store is a consumer of a run's event stream: ``record(event)`` appends the event to the log and keeps the
run row current; the ledger of a reviewed run and the report of a finished one are stored as artifacts (a
resumed run adds a new version instead of overwriting).

Each running run's row names its owner, the process that records its events (``Owner``: host, pid and start
time). A process that is killed records no terminal event, so whoever reads a run still ``running`` whose
owner is gone settles it: status ``failed`` and a ``failed`` event ("interrupted"), which ends a replay.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from sleuth.agent.events import TERMINAL, RunEvent, RunFailed
from sleuth.agent.runs.base import INTERRUPTED, RunNotFoundError, RunRow
from sleuth.ingest.processes import Owner

_COLUMNS = "run_id, created_at, updated_at, query, template, status, options, summary"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    query TEXT NOT NULL,
    template TEXT NOT NULL,
    status TEXT NOT NULL,
    options TEXT NOT NULL,
    summary TEXT,
    owner TEXT
);
CREATE TABLE IF NOT EXISTS events (
    run_id TEXT NOT NULL REFERENCES runs(run_id),
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    at REAL NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
CREATE TABLE IF NOT EXISTS artifacts (
    run_id TEXT NOT NULL REFERENCES runs(run_id),
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    created_at REAL NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (run_id, name, version)
);
"""


class SqliteRunStore:
    """Runs in ``FOLDER/runs.sqlite``: WAL mode and a busy timeout let several processes (the CLI, a server)
    read and write at once; one lock serialises this process's threads on the shared connection."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder.expanduser()
        self.folder.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.folder / "runs.sqlite", timeout=30, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA busy_timeout=30000")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(runs)")}
        if "owner" not in columns:  # a store written before owners were recorded
            with self._db:
                self._db.execute("ALTER TABLE runs ADD COLUMN owner TEXT")
        self._owner = str(Owner.current())
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- writing

    def create(self, run_id: str, query: str, template: str, options: dict[str, Any]) -> None:
        now = time.time()
        with self._lock, self._db:
            self._db.execute(
                f"INSERT INTO runs ({_COLUMNS}, owner) VALUES (?, ?, ?, ?, ?, 'running', ?, NULL, ?)",
                (run_id, now, now, query, template, json.dumps(options), self._owner),
            )

    def record(self, event: RunEvent) -> RunEvent:
        """Append one event to its run's log, numbered after what the log holds (a resumed run goes on
        where it stopped); terminal events set the run's status. Returns the event as stored."""
        kind = str(getattr(event, "type", "event"))
        with self._lock, self._db:
            next_seq = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE run_id = ?", (event.run_id,)
            ).fetchone()[0]
            stored = event.model_copy(update={"seq": next_seq})
            body = stored.model_dump_json()
            self._db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?)", (event.run_id, next_seq, kind, event.at, body)
            )
            if kind in TERMINAL:
                self._db.execute(
                    "UPDATE runs SET status = ?, updated_at = ? WHERE run_id = ?",
                    (kind, time.time(), event.run_id),
                )
            else:  # running again (a resumed run), and owned by whoever records its events now
                self._db.execute(
                    "UPDATE runs SET status = 'running', owner = ?, updated_at = ? WHERE run_id = ?",
                    (self._owner, time.time(), event.run_id),
                )
        return stored

    def save_artifact(self, run_id: str, name: str, body: Any) -> int:
        """Store a new version of an artifact (report, ledger); returns its version number."""
        with self._lock, self._db:
            version = self._db.execute(
                "SELECT COALESCE(MAX(version), 0) + 1 FROM artifacts WHERE run_id = ? AND name = ?",
                (run_id, name),
            ).fetchone()[0]
            self._db.execute(
                "INSERT INTO artifacts VALUES (?, ?, ?, ?, ?)",
                (run_id, name, version, time.time(), json.dumps(body)),
            )
        return int(version)

    def set_summary(self, run_id: str, summary: dict[str, Any]) -> None:
        with self._lock, self._db:
            self._db.execute("UPDATE runs SET summary = ? WHERE run_id = ?", (json.dumps(summary), run_id))

    # -- reading

    def get(self, run_id: str) -> RunRow:
        with self._lock:
            self._settle("WHERE run_id = ?", (run_id,))
            row = self._db.execute(f"SELECT {_COLUMNS} FROM runs WHERE run_id = ?", (run_id,)).fetchone()
            if row is None:
                raise RunNotFoundError(run_id)
            return self._with_error(_row(row))

    def list(self, limit: int = 50) -> list[RunRow]:
        with self._lock:
            self._settle("", ())
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM runs ORDER BY created_at DESC LIMIT ?", (limit,)
            ).fetchall()
            return [self._with_error(_row(r)) for r in rows]

    def events(self, run_id: str, after: int = 0) -> Iterator[dict[str, Any]]:
        """The run's events in order, those after sequence number ``after`` (a reconnecting client's)."""
        with self._lock:
            self._settle("WHERE run_id = ?", (run_id,))
            rows = self._db.execute(
                "SELECT body FROM events WHERE run_id = ? AND seq > ? ORDER BY seq", (run_id, after)
            ).fetchall()
        for (body,) in rows:
            yield json.loads(body)

    def artifact(self, run_id: str, name: str, version: int | None = None) -> Any | None:
        """The latest version of an artifact (or the given one), None when there is none."""
        with self._lock:
            row = self._artifact_row(run_id, name, version)
        return json.loads(row[0]) if row else None

    def _with_error(self, row: RunRow) -> RunRow:
        """A failed run's row with the error of its last ``failed`` event."""
        if row.status != "failed":
            return row
        found = self._db.execute(
            "SELECT body FROM events WHERE run_id = ? AND type = 'failed' ORDER BY seq DESC LIMIT 1",
            (row.run_id,),
        ).fetchone()
        return replace(row, error=json.loads(found[0]).get("error")) if found else row

    def _settle(self, where: str, args: tuple[Any, ...]) -> None:
        """Runs still ``running`` whose owner is gone become ``failed``, their log ending with a ``failed``
        event. The update is conditional on the owner read, so two readers settling at once append one
        event. (Runs recorded before owners were, with none, are left as they are: nothing tells.)"""
        candidates = self._db.execute(
            f"SELECT run_id, owner FROM runs {where or 'WHERE 1'} "
            "AND status = 'running' AND owner IS NOT NULL",
            args,
        ).fetchall()
        for run_id, recorded in candidates:
            owner = Owner.parse(recorded)
            if owner is None or not owner.is_gone():
                continue
            now = time.time()
            with self._db:
                # updated_at stays the time of the run's last event: when it stopped, not when it was found.
                changed = self._db.execute(
                    "UPDATE runs SET status = 'failed' WHERE run_id = ? AND status = 'running' AND owner = ?",
                    (run_id, recorded),
                ).rowcount
                if not changed:
                    continue
                seq = self._db.execute(
                    "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE run_id = ?", (run_id,)
                ).fetchone()[0]
                event = RunFailed(run_id=run_id, seq=seq, at=now, error=INTERRUPTED)
                self._db.execute(
                    "INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                    (run_id, seq, event.type, now, event.model_dump_json()),
                )

    def _artifact_row(self, run_id: str, name: str, version: int | None) -> Any:
        if version is None:
            return self._db.execute(
                "SELECT body FROM artifacts WHERE run_id = ? AND name = ? ORDER BY version DESC LIMIT 1",
                (run_id, name),
            ).fetchone()
        return self._db.execute(
            "SELECT body FROM artifacts WHERE run_id = ? AND name = ? AND version = ?",
            (run_id, name, version),
        ).fetchone()


def _row(row: tuple[Any, ...]) -> RunRow:
    return RunRow(
        run_id=row[0],
        created_at=row[1],
        updated_at=row[2],
        query=row[3],
        template=row[4],
        status=row[5],
        options=json.loads(row[6]),
        summary=json.loads(row[7]) if row[7] else None,
    )
