"""The embedded index: one Qdrant Edge shard in a folder (Qdrant's engine in-process, no server).

Chosen over qdrant-client's local mode by measurement (docs/BENCHMARKS.md): the local mode keeps every point
in Python objects and scores by brute force, Edge runs the server's segment, HNSW and sparse-index code.
One process at a time owns the folder; a lock file turns a second opener into a clear error instead of
two writers on one write-ahead log, naming the holder the lock file records (``sleuth serve``, pid 4242).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import Any

import qdrant_edge as qe

from sleuth.retrieval.store.base import (
    DENSE,
    INDEXED_FIELDS,
    SPARSE,
    IndexBusyError,
    Match,
    Point,
    Record,
    StoreError,
    VectorQuery,
    one_line,
)
from sleuth.retrieval.store.holders import lock_holders, process_name, recorded_holder, write_owner

_BATCH = 256


class EdgeStore:
    def __init__(self, folder: Path, dense_dim: int, *, create: bool) -> None:
        self.location = str(folder)
        self._lock = _lock(folder, create=create)
        shard_dir = folder / "shard"
        try:
            if (shard_dir / "edge_config.json").is_file():
                self._shard = qe.EdgeShard.load(str(shard_dir))
            elif create:
                self._shard = qe.EdgeShard.create(str(shard_dir), _config(dense_dim))
                for name in INDEXED_FIELDS:
                    self._shard.update(
                        qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Keyword)
                    )
            else:
                raise StoreError(f"index {folder}: no index here (run `sleuth ingest` first)")
        except (StoreError, IndexBusyError):
            _unlock(self._lock)
            raise
        except Exception as exc:
            _unlock(self._lock)
            if "WouldBlock" in str(exc):  # the engine's own lock on its write-ahead log: someone holds it
                raise IndexBusyError(f"index {folder} is busy ({_wal_holder(shard_dir)})") from exc
            raise StoreError(
                f"index {folder} is unreadable ({one_line(exc)}); delete it and ingest again"
            ) from exc

    def upsert(self, points: Sequence[Point]) -> None:
        for start in range(0, len(points), _BATCH):
            batch = [_point(p) for p in points[start : start + _BATCH]]
            self._shard.update(qe.UpdateOperation.upsert_points(batch))

    def set_payload(self, ids: Sequence[str], payload: dict[str, Any]) -> None:
        for start in range(0, len(ids), _BATCH):
            self._shard.update(qe.UpdateOperation.set_payload(list(ids[start : start + _BATCH]), payload))

    def delete(self, match: Match, keep_ids: Collection[str] = ()) -> None:
        flt = _filter(match, keep_ids)
        if flt is None:
            raise ValueError("refusing to delete every point of the index")
        self._shard.update(qe.UpdateOperation.delete_points_by_filter(flt))

    def query(self, query: VectorQuery) -> list[Record]:
        flt = _filter(query.match)
        dense = qe.Query.Nearest(query.dense, using=DENSE) if query.dense is not None else None
        sparse = (
            qe.Query.Nearest(qe.SparseVector(query.sparse.indices, query.sparse.values), using=SPARSE)
            if query.sparse is not None
            else None
        )
        if query.mode == "hybrid":
            fusion: Any = (
                qe.Fusion.Rrf(k=query.rrf_k, weights=list(query.rrf_weights))
                if query.fusion == "rrf"
                else qe.Fusion.Dbsf()
            )
            request = qe.QueryRequest(
                limit=query.limit,
                prefetches=[
                    qe.Prefetch(limit=query.prefetch_limit, query=dense, filter=flt),
                    qe.Prefetch(limit=query.prefetch_limit, query=sparse, filter=flt),
                ],
                query=fusion,
                with_payload=True,
                with_vector=False,
            )
        else:
            request = qe.QueryRequest(
                limit=query.limit,
                query=dense if query.mode == "dense" else sparse,
                filter=flt,
                with_payload=True,
                with_vector=False,
            )
        return [Record(str(p.id), p.payload or {}, p.score) for p in self._shard.query(request)]

    def retrieve(self, ids: Sequence[str]) -> list[Record]:
        if not ids:
            return []
        return [Record(str(r.id), r.payload or {}) for r in self._shard.retrieve(list(ids), True, False)]

    def scroll(self, match: Match, page: int = 256) -> Iterator[Record]:
        offset: Any = None
        while True:
            records, offset = self._shard.scroll(
                qe.ScrollRequest(offset=offset, limit=page, filter=_filter(match), with_payload=True)
            )
            for r in records:
                yield Record(str(r.id), r.payload or {})
            if offset is None:
                return

    def count(self, match: Match) -> int:
        return int(self._shard.count(qe.CountRequest(filter=_filter(match), exact=True)))

    def flush(self) -> None:
        self._shard.flush()

    def close(self) -> None:
        try:
            self._shard.flush()
            self._shard.close()
        finally:
            _unlock(self._lock)


def _config(dense_dim: int) -> qe.EdgeConfig:
    return qe.EdgeConfig(
        vectors={DENSE: qe.EdgeVectorParams(size=dense_dim, distance=qe.Distance.Cosine)},
        sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        on_disk_payload=True,
    )


def _lock(folder: Path, *, create: bool) -> int:
    """An exclusive POSIX record lock on ``folder/.lock``.

    ``lockf`` rather than ``flock``: a record lock belongs to the process and is not inherited by the
    conversion workers it forks, so a killed ingest releases the index even while its orphaned workers wind
    down. Record locks do not exclude the same process, hence the in-process set.
    """
    if not folder.is_dir():
        if not create:
            raise StoreError(f"index {folder}: no such folder (run `sleuth ingest` first)")
        folder.mkdir(parents=True, exist_ok=True)
    key = str(folder.resolve())
    if key in _OPEN_HERE:
        raise IndexBusyError(f"index {folder} is in use (already open in this process)")
    fd = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise IndexBusyError(f"index {folder} is in use by {_holder(folder)}") from None
    write_owner(fd)
    _OPEN_HERE[key] = fd
    return fd


def _holder(folder: Path) -> str:
    """Who holds the index's lock, and what to do about it."""
    holder = recorded_holder(folder / ".lock")
    if holder is None:
        return "another sleuth process"
    if holder.startswith("sleuth serve"):
        return (
            f"{holder}: search and ingest through its HTTP API (GET /v1/search, POST /v1/ingest), or stop it"
        )
    return f"{holder}; try again when it has finished"


def _wal_holder(shard_dir: Path) -> str:
    """Who holds the write-ahead log without the index's lock: a process's child that outlived it."""
    pids = [p for p in lock_holders(shard_dir / "wal") if p != os.getpid()]
    names = [f"{process_name(p)} pid {p}" for p in pids if process_name(p)]
    stopped = [str(p) for p in pids if not process_name(p)]
    if names:
        return f"in use by another process ({', '.join(names)}): its write-ahead log is locked"
    if stopped:
        return (
            f"in use by another process: a child of pid {', '.join(stopped)}, which stopped, still holds its "
            "write-ahead log; try again in a moment"
        )
    return "in use by another process: its write-ahead log is locked; try again once it has stopped"


def _unlock(fd: int) -> None:
    for key, held in list(_OPEN_HERE.items()):
        if held == fd:
            del _OPEN_HERE[key]
    os.close(fd)


_OPEN_HERE: dict[str, int] = {}


def _point(p: Point) -> qe.Point:
    vectors: dict[str, Any] = {}
    if p.dense is not None:
        vectors[DENSE] = p.dense
    if p.sparse is not None:
        vectors[SPARSE] = qe.SparseVector(p.sparse.indices, p.sparse.values)
    return qe.Point(p.id, vectors, p.payload)


def _filter(match: Match, keep_ids: Collection[str] = ()) -> qe.Filter | None:
    must: list[Any] = []
    for key, value in match.items():
        condition = qe.MatchAny(list(value)) if isinstance(value, list) else qe.MatchValue(value)
        must.append(qe.FieldCondition(key, match=condition))
    must_not: list[Any] = [qe.HasIdCondition(set(keep_ids))] if keep_ids else []
    if not must and not must_not:
        return None
    return qe.Filter(must=must or None, must_not=must_not or None)
