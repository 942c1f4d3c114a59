"""Index back ends: the embedded Qdrant Edge shard (default) or a Qdrant server/cluster via qdrant-client."""

from __future__ import annotations

from pathlib import Path

from sleuth.retrieval.store.base import IndexBusyError, Match, Point, Record, Store, StoreError, VectorQuery
from sleuth.retrieval.store.edge import EdgeStore
from sleuth.retrieval.store.server import ServerStore

__all__ = [
    "EdgeStore",
    "IndexBusyError",
    "Match",
    "Point",
    "Record",
    "ServerStore",
    "Store",
    "StoreError",
    "VectorQuery",
    "open_store",
]


def open_store(
    *,
    index_dir: Path,
    dense_dim: int,
    create: bool,
    qdrant_url: str | None = None,
    collection: str = "sleuth",
    shards: int = 1,
    replicas: int = 1,
    api_key: str | None = None,
) -> Store:
    """The server store when ``qdrant_url`` is given, else the embedded one in ``index_dir``."""
    if qdrant_url:
        return ServerStore.connect(
            qdrant_url,
            collection,
            dense_dim,
            create=create,
            shards=shards,
            replicas=replicas,
            api_key=api_key,
        )
    return EdgeStore(index_dir, dense_dim, create=create)
