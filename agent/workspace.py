"""Opening the index and the encoders the settings describe, shared by ingest, search and eval."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from sleuth.agent.settings import Settings
from sleuth.retrieval.encoders import Encoders, ModelLoadError
from sleuth.retrieval.index import Index
from sleuth.retrieval.ingestion import Ingestor, IngestProgress
from sleuth.retrieval.store import StoreError, open_store


@dataclass
class Workspace:
    encoders: Encoders
    index: Index


def index_options(func: click.decorators.FC) -> click.decorators.FC:
    """``--index`` and ``--qdrant-url``, as the contract names them (defaults come from the settings)."""
    func = click.option(
        "--qdrant-url", default=None, help="Use this Qdrant server or cluster instead of the embedded index."
    )(func)
    return click.option(
        "--index",
        "index_dir",
        type=click.Path(path_type=Path),
        default=None,
        help="Embedded index folder (default: $SLEUTH_INDEX, else ./.sleuth/index).",
    )(func)


def load_encoders(settings: Settings) -> Encoders:
    try:
        return Encoders(
            settings.models_dir,
            settings.model_set,
            threads=settings.encoder_threads,
            batch_size=settings.embed_batch,
        )
    except ModelLoadError as exc:
        raise click.UsageError(str(exc)) from exc


@contextmanager
def open_workspace(
    settings: Settings,
    *,
    index_dir: Path | None,
    qdrant_url: str | None,
    create: bool,
    encoders: Encoders | None = None,
) -> Iterator[Workspace]:
    """Encoders plus an open index; the store is closed (and flushed) however the block ends."""
    encoders = encoders or load_encoders(settings)
    try:
        store = open_store(
            index_dir=(index_dir or settings.index).expanduser(),
            dense_dim=encoders.identity.dense_dim,
            create=create,
            qdrant_url=qdrant_url or settings.qdrant_url,
            collection=settings.qdrant_collection,
            shards=settings.qdrant_shards,
            replicas=settings.qdrant_replicas,
            api_key=settings.qdrant_api_key,
        )
    except StoreError as exc:
        raise click.UsageError(str(exc)) from exc
    try:
        try:
            index = Index(store, encoders.identity, create=create)
        except StoreError as exc:
            raise click.UsageError(str(exc)) from exc
        yield Workspace(encoders, index)
    finally:
        store.close()


def progress_bar(console: Console) -> Progress:
    """A simple bar for batches of known size (stderr; nothing when piped)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=not console.is_terminal,
        transient=True,
    )


def make_ingestor(
    settings: Settings, ws: Workspace, console: Console, progress: IngestProgress | None = None
) -> Ingestor:
    """An ingestor with the configured chunking that reports each failed input as one stderr line.

    Tokens are counted by the tokenizer of the dense model that embeds them (``Encoders.token_counter``).
    """
    try:
        counter = ws.encoders.token_counter()
    except ModelLoadError as exc:
        raise click.UsageError(f"{exc} (run `make models`)") from exc
    return Ingestor(
        ws.index,
        ws.encoders,
        counter,
        max_tokens=settings.max_tokens,
        overlap_tokens=settings.overlap_tokens,
        on_error=lambda line: console.print(
            f"sleuth: error: {line}", markup=False, highlight=False, soft_wrap=True
        ),
        progress=progress,
    )
