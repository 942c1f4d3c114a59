"""A Qdrant server or cluster through qdrant-client (also the client's local mode, which tests use).

This is the path to scale: many ``sleuth ingest --shard i/n`` workers write to one collection, which is
created with the shard and replication settings from configuration. Writes are batched and retried with
back-off, because a cluster under load answers 5xx or times out now and then, and a long ingest should not
die of it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from functools import partial
from typing import Any, TypeVar

from qdrant_client import QdrantClient, models
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from sleuth.retrieval.store.base import (
    DENSE,
    INDEXED_FIELDS,
    SPARSE,
    Match,
    Point,
    Record,
    StoreError,
    VectorQuery,
    one_line,
)

log = logging.getLogger(__name__)
_BATCH = 128
_ATTEMPTS = 5
T = TypeVar("T")


class ServerStore:
    def __init__(
        self,
        client: QdrantClient,
        collection: str,
        dense_dim: int,
        *,
        create: bool,
        location: str,
        shards: int = 1,
        replicas: int = 1,
    ) -> None:
        self.location = location
        self._client = client
        self._collection = collection
        try:
            exists = client.collection_exists(collection)
        except Exception as exc:
            raise StoreError(f"Qdrant at {location} is unreachable ({one_line(exc)})") from exc
        if not exists:
            if not create:
                raise StoreError(f"Qdrant at {location}: no collection {collection!r} (run `sleuth ingest`)")
            client.create_collection(
                collection,
                vectors_config={DENSE: models.VectorParams(size=dense_dim, distance=models.Distance.COSINE)},
                sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
                shard_number=shards,
                replication_factor=replicas,
            )
            for name in INDEXED_FIELDS:
                client.create_payload_index(collection, name, models.PayloadSchemaType.KEYWORD)

    @classmethod
    def connect(
        cls, url: str, collection: str, dense_dim: int, *, create: bool, **kwargs: Any
    ) -> ServerStore:
        client = QdrantClient(url=url, api_key=kwargs.pop("api_key", None), timeout=60)
        return cls(client, collection, dense_dim, create=create, location=url, **kwargs)

    def upsert(self, points: Sequence[Point]) -> None:
        for start in range(0, len(points), _BATCH):
            batch = [_point(p) for p in points[start : start + _BATCH]]
            self._retry(partial(self._client.upsert, self._collection, batch, wait=True))

    def set_payload(self, ids: Sequence[str], payload: dict[str, Any]) -> None:
        for start in range(0, len(ids), _BATCH):
            chunk: list[Any] = list(ids[start : start + _BATCH])
            self._retry(partial(self._client.set_payload, self._collection, payload, points=chunk, wait=True))

    def delete(self, match: Match, keep_ids: Collection[str] = ()) -> None:
        selector = models.FilterSelector(filter=_filter(match, keep_ids))
        self._retry(lambda: self._client.delete(self._collection, selector, wait=True))

    def query(self, query: VectorQuery) -> list[Record]:
        flt = _filter(query.match)
        dense = query.dense
        sparse = (
            models.SparseVector(indices=query.sparse.indices, values=query.sparse.values)
            if query.sparse is not None
            else None
        )
        if query.mode == "hybrid":
            fusion = (
                models.RrfQuery(rrf=models.Rrf(k=query.rrf_k, weights=list(query.rrf_weights)))
                if query.fusion == "rrf"
                else models.FusionQuery(fusion=models.Fusion.DBSF)
            )
            response = self._retry(
                lambda: self._client.query_points(
                    self._collection,
                    prefetch=[
                        models.Prefetch(query=dense, using=DENSE, limit=query.prefetch_limit, filter=flt),
                        models.Prefetch(
                            query=sparse,
                            using=SPARSE,
                            limit=query.prefetch_limit,
                            filter=flt,
                        ),
                    ],
                    query=fusion,
                    limit=query.limit,
                    with_payload=True,
                )
            )
        else:
            vector: Any = dense if query.mode == "dense" else sparse
            response = self._retry(
                lambda: self._client.query_points(
                    self._collection,
                    query=vector,
                    using=DENSE if query.mode == "dense" else SPARSE,
                    query_filter=flt,
                    limit=query.limit,
                    with_payload=True,
                )
            )
        return [Record(str(p.id), p.payload or {}, p.score) for p in response.points]

    def retrieve(self, ids: Sequence[str]) -> list[Record]:
        if not ids:
            return []
        found = self._retry(lambda: self._client.retrieve(self._collection, list(ids), with_payload=True))
        return [Record(str(r.id), r.payload or {}) for r in found]

    def scroll(self, match: Match, page: int = 256) -> Iterator[Record]:
        offset: Any = None
        while True:
            records, offset = self._retry(
                partial(
                    self._client.scroll,
                    self._collection,
                    scroll_filter=_filter(match),
                    limit=page,
                    offset=offset,
                    with_payload=True,
                )
            )
            for r in records:
                yield Record(str(r.id), r.payload or {})
            if offset is None:
                return

    def count(self, match: Match) -> int:
        return int(self._client.count(self._collection, count_filter=_filter(match), exact=True).count)

    def flush(self) -> None:
        """Writes are acknowledged with ``wait=True``; nothing is buffered client-side."""

    def close(self) -> None:
        self._client.close()

    def _retry(self, call: Callable[[], T]) -> T:
        delay = 0.5
        for attempt in range(1, _ATTEMPTS + 1):
            try:
                return call()
            except (ResponseHandlingException, UnexpectedResponse) as exc:
                status = getattr(exc, "status_code", None)
                if attempt == _ATTEMPTS or (status is not None and status < 500 and status != 429):
                    raise StoreError(f"Qdrant at {self.location}: {one_line(exc)}") from exc
                log.warning(
                    "Qdrant at %s: %s; retry %d in %.1fs", self.location, one_line(exc), attempt, delay
                )
                time.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")


def _point(p: Point) -> models.PointStruct:
    vectors: dict[str, Any] = {}
    if p.dense is not None:
        vectors[DENSE] = p.dense
    if p.sparse is not None:
        vectors[SPARSE] = models.SparseVector(indices=p.sparse.indices, values=p.sparse.values)
    return models.PointStruct(id=p.id, vector=vectors, payload=p.payload)


def _filter(match: Match, keep_ids: Collection[str] = ()) -> models.Filter | None:
    must: list[Any] = []
    for key, value in match.items():
        condition: Any = (
            models.MatchAny(any=list(value)) if isinstance(value, list) else models.MatchValue(value=value)
        )
        must.append(models.FieldCondition(key=key, match=condition))
    must_not: list[Any] = [models.HasIdCondition(has_id=list(keep_ids))] if keep_ids else []
    if not must and not must_not:
        return None
    return models.Filter(must=must or None, must_not=must_not or None)
