"""``sleuth ingest PATH...`` and ``sleuth remove``: documents into and out of the corpus, idempotently."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

import click

from sleuth.agent import Wiring
from sleuth.agent.cli.console import STDERR
from sleuth.agent.cli.progress import IngestDisplay
from sleuth.agent.cli.workspace import index_options, make_ingestor, open_workspace
from sleuth.ingest import CONVERTIBLE_SUFFIXES, SourceError, iter_sources
from sleuth.ingest.cli.options import Conversion, conversion_options
from sleuth.retrieval import IngestReport, Shard


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
    wiring: Wiring,
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

    A document's id is its path relative to the folder named here, without extension (a file named
    directly: its stem), and stays the same on later runs. Unchanged files cost nothing; a changed file
    replaces its old chunks; a crash or kill leaves no half-written document visible, and a rerun finishes
    the job.
    """
    try:
        shard_spec = Shard.parse(shard)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--shard") from exc
    sources = list(iter_sources(paths, CONVERTIBLE_SUFFIXES))
    total_bytes = sum(_size(s.path) for s in sources if not isinstance(s, SourceError))

    interval = wiring.settings.progress_interval
    with open_workspace(wiring, index_dir=index_dir, qdrant_url=qdrant_url, create=True) as ws:
        with IngestDisplay(STDERR, len(sources), total_bytes, interval=interval) as display:
            ingestor = make_ingestor(wiring, ws, STDERR, display)
            ingestor.ingest_sources(
                sources,
                conversion.options,
                workers=workers,
                timeout=conversion.timeout,
                cache=conversion.cache,
                shard=shard_spec,
            )
        if prune:
            ingestor.prune(paths, shard_spec)
        report = ingestor.report
        total_chunks = ws.index.chunk_count()
    _print_summary(report, total_chunks, as_json)
    if report.failed:
        raise SystemExit(1)


@click.command("remove")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--document", "documents", multiple=True, help="A document id to remove (repeatable).")
@index_options
@click.option("--json", "as_json", is_flag=True, help="Print what was removed as JSON on stdout.")
@click.pass_obj
def remove_command(  # noqa: PLR0917 - click passes options as parameters
    wiring: Wiring,
    paths: tuple[Path, ...],
    documents: tuple[str, ...],
    index_dir: Path | None,
    qdrant_url: str | None,
    as_json: bool,
) -> None:
    """Remove documents from the corpus: the files at or under PATHS, or those with the --document ids.

    The files themselves are not touched. A path or id that matches nothing indexed is an error line.
    """
    if not paths and not documents:
        raise click.UsageError("name the PATHS or --document ids to remove")
    with open_workspace(wiring, index_dir=index_dir, qdrant_url=qdrant_url, create=False) as ws:
        ingestor = make_ingestor(wiring, ws, STDERR)
        removed = {**ingestor.remove_paths(list(paths)), **ingestor.remove_documents(list(documents))}
        remaining = ws.index.chunk_count()
    missing = [name for name, count in removed.items() if count == 0]
    for name in missing:
        click.echo(f"sleuth: error: {name}: no indexed document matches", err=True)
    total = sum(removed.values())
    if as_json:
        sys.stdout.write(json.dumps({"removed": removed, "index_chunks": remaining}, indent=2) + "\n")
    else:
        click.echo(f"removed {total} documents; {remaining} chunks in the index", err=True)
    if missing:
        raise SystemExit(1)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _print_summary(report: IngestReport, total_chunks: int, as_json: bool) -> None:
    if as_json:
        data = asdict(report)
        data["index_chunks"] = total_chunks
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return
    secs = report.seconds
    rate = report.chunks_written / secs["total"] if secs["total"] else 0.0
    tokens = report.tokens_written / secs["total"] if secs["total"] else 0.0
    skipped = f", {report.skipped_pages} pages skipped (redirects, indexes, build files)"
    click.echo(
        f"ingested {report.seen} files: {report.added} added, {report.updated} updated, "
        f"{report.unchanged} unchanged, {report.removed} removed, {report.failed} failed"
        f"{skipped if report.skipped_pages else ''}; "
        f"{report.chunks_written} chunks written ({rate:.1f}/s, {tokens:.0f} tokens/s), "
        f"{total_chunks} in the index",
        err=True,
    )
    if report.skipped:
        names = ", ".join(Path(page["path"]).name for page in report.skipped[:SKIPPED_NAMED])
        more = len(report.skipped) - SKIPPED_NAMED
        tail = f" and {more} more (--json lists each with its reason)" if more > 0 else ""
        click.echo(f"skipped: {names}{tail}", err=True)


#: Skipped pages named in the summary line (``--json`` lists them all, each with its reason).
SKIPPED_NAMED = 8
