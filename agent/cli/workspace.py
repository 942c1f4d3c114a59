"""What the commands share: the ``--index``/``--qdrant-url`` options, the runtime opened for a command (setup
problems as the CLI's one-line errors), an ingestor reporting failed inputs on stderr, a progress bar."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from sleuth.agent import ReportFiles, Runtime, Wiring, report_files
from sleuth.retrieval import Encoders, Ingestor, IngestProgress


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
    wiring: Wiring,
    *,
    index_dir: Path | None,
    qdrant_url: str | None,
    create: bool,
    encoders: Encoders | None = None,
) -> Iterator[Runtime]:
    """The runtime for a command, closed at the end (a problem opening it is a ``SetupError`` line)."""
    runtime = wiring.runtime(index_dir=index_dir, qdrant_url=qdrant_url, create=create, encoders=encoders)
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
    wiring: Wiring, runtime: Runtime, console: Console, progress: IngestProgress | None = None
) -> Ingestor:
    """An ingestor with the configured chunking that reports each failed input as one stderr line."""
    return wiring.ingestor(
        runtime,
        on_error=lambda line: console.print(
            f"sleuth: error: {line}", markup=False, highlight=False, soft_wrap=True
        ),
        progress=progress,
    )


def _written_by_sleuth(files: ReportFiles) -> bool:
    """Whether a report file pair is one sleuth wrote (its JSON twin is a report: an object with a run id,
    a query, a template and sections): ``--out brief.md`` run again rewrites its report, never a file of
    the user's that happens to bear that name or its twin's."""
    try:
        report = json.loads(files.json.read_text())
    except (OSError, ValueError):
        return False
    return isinstance(report, dict) and {"run_id", "query", "template", "sections"} <= report.keys()


def writable_folder(out: Path | None, *, named: bool = False) -> None:
    """Refuse an ``--out DIR`` (or, where ``named``, ``--out FILE.md``: research's) that cannot take the
    reports before anything runs (a run can take minutes, and its report would be lost at the end): a file
    where the folder should be, a file of the user's a report or its twin would overwrite, or no write
    access to the nearest folder that exists."""
    if out is None:
        return
    files = report_files(out.expanduser(), named=named)
    for file in (files.markdown, files.json):
        if file.is_dir():
            raise click.UsageError(f"--out {out}: {file} is a folder")
    if files.markdown.parent != out.expanduser():  # a report file and its twin
        if (files.markdown.exists() or files.json.exists()) and not _written_by_sleuth(files):
            taken = files.markdown if files.markdown.exists() else files.json
            raise click.UsageError(f"--out {out}: {taken} is a file and no report of sleuth's")
    elif out.exists() and not out.is_dir():
        hint = "name a folder or a new .md or .json file" if named else "name a folder"
        raise click.UsageError(f"--out {out}: is a file; {hint} (reports go to DIR/report.md, .json)")
    existing = files.markdown.parent.absolute()
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise click.UsageError(f"--out {out}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise click.UsageError(f"--out {out}: {existing} is not writable")
