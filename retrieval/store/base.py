"""The one small interface both index back ends implement, in neutral types.

The indexer and the searcher speak only this; ``EdgeStore`` (Qdrant's in-process engine, the embedded default)
and ``ServerStore`` (qdrant-client: a Qdrant server or cluster, or the client's local mode) translate it.
Filters are deliberately small: payload fields equal to a value (or any of a list), plus ids to exclude. That
is all the commit protocol and the search filters need, and it maps one-to-one onto both APIs.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from sleuth.ingest.errors import ConfigurationError, UnavailableError
from sleuth.retrieval.encoders import SparseVector

DENSE = "dense"
SPARSE = "sparse"
#: Payload fields with an index (keyword); every filter the code builds uses only these.
INDEXED_FIELDS = (
    "record",
    "state",
    "document_id",
    "chunk_type",
    "source_key",
    "key",
    "section_prefixes",
    "chunk_id",
)

Value = str | int | bool
Match = dict[str, Value | list[str]]
Mode = Literal["hybrid", "dense", "sparse"]
Fusion = Literal["rrf", "dbsf"]
#: Distribution-based score fusion ranks documents best on every judged set measured (docs/BENCHMARKS.md:
#: FanOutQA 0.856 vs 0.850 nDCG@10, Python Library Reference questions 0.879 vs 0.854, and a user's unseen
#: set 0.360 vs 0.340), so it is the default; RRF stays a choice.
DEFAULT_FUSION: Fusion = "dbsf"


class StoreError(ConfigurationError):
    """The index cannot be opened or used; ``str()`` is one line naming the index and the reason."""


class IndexBusyError(UnavailableError):
    """An intact index another process holds (a running ``sleuth serve``, an ingest, a worker winding down):
    not a fault of the index or of the settings (so not a ``StoreError``); it can be used once that process
    stops."""


@dataclass(frozen=True, slots=True)
class Point:
    id: str
    payload: dict[str, Any]
    dense: list[float] | None = None
    sparse: SparseVector | None = None


@dataclass(frozen=True, slots=True)
class Record:
    id: str
    payload: dict[str, Any]
    score: float = 0.0


@dataclass(frozen=True, slots=True)
class VectorQuery:
    """A dense, sparse or fused query over points matching ``match``."""

    mode: Mode
    limit: int
    dense: list[float] | None = None
    sparse: SparseVector | None = None
    match: Match = field(default_factory=dict)
    fusion: Fusion = DEFAULT_FUSION
    #: Candidates each side contributes to the fusion.
    prefetch_limit: int = 100
    #: Qdrant's RRF scores rank r (from 1) of a side with weight w as 1 / (r / w + k - 1). k=2 (Qdrant's
    #: default) with the dense side at weight 2 measured best of the RRF settings tried on FanOutQA
    #: (nDCG@10 0.851 vs 0.832 for k=60 equal weights; docs/BENCHMARKS.md): SPLADE-tiny is the weaker side.
    rrf_k: int = 2
    rrf_weights: tuple[float, float] = (2.0, 1.0)


class Store(Protocol):
    """A Qdrant collection seen through the operations sleuth needs."""

    location: str

    def upsert(self, points: Sequence[Point]) -> None: ...

    def set_payload(self, ids: Sequence[str], payload: dict[str, Any]) -> None: ...

    def delete(self, match: Match, keep_ids: Collection[str] = ()) -> None:
        """Delete points matching ``match`` except ``keep_ids``."""
        ...

    def query(self, query: VectorQuery) -> list[Record]: ...

    def retrieve(self, ids: Sequence[str]) -> list[Record]: ...

    def scroll(self, match: Match, page: int = 256) -> Iterator[Record]: ...

    def count(self, match: Match) -> int: ...

    def flush(self) -> None: ...

    def close(self) -> None: ...


def one_line(exc: BaseException) -> str:
    """First line of an engine's error, for the one-line messages the CLI prints."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
