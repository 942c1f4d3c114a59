"""Opening the index and the encoders the settings describe, shared by ingest, search and eval."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from sleuth.agent.runtime import Runtime, SetupError
from sleuth.agent.settings import Settings
from sleuth.retrieval.encoders import Encoders, ModelLoadError
from sleuth.retrieval.ingestion import Ingestor, IngestProgress

#: What the commands work with: the runtime (models, index, searcher).
Workspace = Runtime


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


@contextmanager
def open_workspace(
    settings: Settings,
    *,
    index_dir: Path | None,
    qdrant_url: str | None,
    create: bool,
    encoders: Encoders | None = None,
) -> Iterator[Runtime]:
    """The runtime for a command; setup problems become the CLI's one-line usage errors."""
    try:
        runtime = Runtime.open(
            settings, index_dir=index_dir, qdrant_url=qdrant_url, create=create, encoders=encoders
        )
    except SetupError as exc:
        raise click.UsageError(str(exc)) from exc
    with runtime:
        yield runtime


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
