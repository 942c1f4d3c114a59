"""The runtime: the models (loaded once), the index and its searcher, opened from the settings' ``index``
group and closed as a context manager.

What a research run adds per run (web search, an LLM client) is built by the composition root
(``sleuth.agent.wiring``). Nothing here knows about the command line: problems are ``SetupError`` lines that
the CLI, the HTTP API or a notebook report in their own way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from sleuth.agent.settings import IndexSettings
from sleuth.ingest.errors import ConfigurationError
from sleuth.retrieval.encoders import Encoders, ModelLoadError
from sleuth.retrieval.index import Index
from sleuth.retrieval.search import Searcher
from sleuth.retrieval.store import Store, StoreError, open_store


class SetupError(ConfigurationError):
    """The runtime cannot be built (models missing, index unusable); ``str()`` is one line."""


def load_encoders(settings: IndexSettings) -> Encoders:
    try:
        return Encoders(
            settings.models_dir,
            settings.model_set,
            threads=settings.encoder_threads,
            batch_size=settings.embed_batch,
        )
    except ModelLoadError as exc:
        raise SetupError(str(exc)) from exc


@dataclass
class Runtime:
    settings: IndexSettings
    encoders: Encoders
    store: Store
    index: Index
    searcher: Searcher
    #: Whether the encoders were loaded for this runtime (and are closed with it) or lent by the caller.
    owns_encoders: bool = True

    @classmethod
    def open(
        cls,
        settings: IndexSettings,
        *,
        index_dir: Path | None = None,
        qdrant_url: str | None = None,
        create: bool = False,
        encoders: Encoders | None = None,
    ) -> Runtime:
        """Models plus an open index (``create``: make an empty one when there is none)."""
        owns = encoders is None
        encoders = encoders or load_encoders(settings)
        try:
            store = open_store(
                index_dir=(index_dir or settings.path).expanduser(),
                dense_dim=encoders.identity.dense_dim,
                create=create,
                qdrant_url=qdrant_url or settings.qdrant_url,
                collection=settings.qdrant_collection,
                shards=settings.qdrant_shards,
                replicas=settings.qdrant_replicas,
                api_key=settings.qdrant_api_key,
            )
        except StoreError as exc:  # IndexBusyError passes: another process holds a sound index
            raise SetupError(str(exc)) from exc
        try:
            index = Index(store, encoders.identity, create=create)
        except StoreError as exc:
            store.close()
            raise SetupError(str(exc)) from exc
        return cls(settings, encoders, store, index, Searcher(index, encoders), owns_encoders=owns)

    def close(self) -> None:
        self.store.close()
        if self.owns_encoders:
            self.encoders.close()

    def __enter__(self) -> Runtime:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
