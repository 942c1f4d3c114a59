"""``sleuth ingest PATH...``: files and folders into the corpus index, idempotently."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

import click
from rich.console import Console

from sleuth.agent.settings import Settings
from sleuth.agent.workspace import index_options, make_ingestor, open_workspace, progress_bar
from sleuth.ingest.cli_options import Conversion, conversion_options
from sleuth.ingest.convert import CONVERTIBLE_SUFFIXES
from sleuth.ingest.sources import iter_files
from sleuth.retrieval.ingestion import IngestReport, Shard


@click.command("ingest")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@index_options
@click.option(
    "--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Conversion processes."
)
@click.option("--prune", is_flag=True, help="Remove indexed files under PATHS that no longer exist.")
@click.option(
    "--shard",
    default="0/1",
    show_default=True,
    help="i/n: take only the files whose path hashes to i (run n workers against one Qdrant cluster).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON on stdout.")
@conversion_options
@click.pass_obj
def ingest_command(  # noqa: PLR0917 - click passes options as parameters
    settings: Settings,
    paths: tuple[Path, ...],
    index_dir: Path | None,
    qdrant_url: str | None,
    workers: int,
    prune: bool,
    shard: str,
    as_json: bool,
    conversion: Conversion,
) -> None:
    """Convert, chunk, embed and index PATHS (files or folders, recursively).

    Unchanged files cost nothing; a changed file replaces its old chunks; a crash or kill leaves no
    half-written document visible, and a rerun finishes the job.
    """
    try:
        shard_spec = Shard.parse(shard)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--shard") from exc
    files = list(iter_files(paths, CONVERTIBLE_SUFFIXES))
    console = Console(stderr=True)

    with open_workspace(settings, index_dir=index_dir, qdrant_url=qdrant_url, create=True) as ws:
        ingestor = make_ingestor(settings, ws, console)
        with progress_bar(console) as progress:
            task = progress.add_task("ingesting", total=len(files))
            ingestor.ingest_files(
                files,
                conversion.options,
                workers=workers,
                timeout=conversion.timeout,
                cache=conversion.cache,
                shard=shard_spec,
                progress=lambda n: progress.advance(task, n),
            )
        if prune:
            ingestor.prune(paths, shard_spec)
        report = ingestor.report
        total_chunks = ws.index.chunk_count()
    _print_summary(report, total_chunks, as_json)
    if report.failed:
        raise SystemExit(1)


def _print_summary(report: IngestReport, total_chunks: int, as_json: bool) -> None:
    if as_json:
        data = asdict(report)
        data["index_chunks"] = total_chunks
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return
    secs = report.seconds
    rate = report.chunks_written / secs["total"] if secs["total"] else 0.0
    click.echo(
        f"ingested {report.seen} files: {report.added} added, {report.updated} updated, "
        f"{report.unchanged} unchanged, {report.removed} removed, {report.failed} failed; "
        f"{report.chunks_written} chunks written ({rate:.1f}/s), {total_chunks} in the index",
        err=True,
    )
