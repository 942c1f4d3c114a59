"""``sleuth eval retrieval DATASET_DIR``: retrieval quality on a BEIR-layout dataset."""

from __future__ import annotations

import json
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import cast

import click
from rich.console import Console

from sleuth.agent.progress import IngestDisplay
from sleuth.agent.settings import Settings
from sleuth.agent.workspace import make_ingestor, open_workspace, progress_bar
from sleuth.retrieval.beir import Dataset, DatasetError, write_trec_run
from sleuth.retrieval.evaluation import evaluate, index_corpus
from sleuth.retrieval.search import Searcher
from sleuth.retrieval.store.base import Fusion, Mode


@click.group("eval")
def eval_group() -> None:
    """Measure sleuth against judged datasets."""


@eval_group.command("retrieval")
@click.argument("dataset_dir", type=click.Path(path_type=Path))
@click.option("--mode", type=click.Choice(["hybrid", "dense", "sparse"]), default="hybrid", show_default=True)
@click.option("--fusion", type=click.Choice(["rrf", "dbsf"]), default="rrf", show_default=True)
@click.option("--run-out", type=click.Path(path_type=Path), default=None, help="Write a TREC run file.")
@click.option(
    "--index",
    "index_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Keep the corpus index here (reused when unchanged); default: a temporary folder.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the metrics as JSON.")
@click.pass_obj
def eval_retrieval_command(  # noqa: PLR0917 - click passes options as parameters
    settings: Settings,
    dataset_dir: Path,
    mode: str,
    fusion: str,
    run_out: Path | None,
    index_dir: Path | None,
    as_json: bool,
) -> None:
    """Ingest DATASET_DIR's corpus, rank documents per judged query; nDCG@10, Recall@10/100, MRR@10."""
    try:
        dataset = Dataset.load(dataset_dir)
    except DatasetError as exc:
        raise click.UsageError(str(exc)) from exc
    console = Console(stderr=True)
    with ExitStack() as stack:
        folder = index_dir or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="sleuth-eval-")))
        ws = stack.enter_context(open_workspace(settings, index_dir=folder, qdrant_url=None, create=True))
        corpus = dataset.root / "corpus.jsonl"
        with IngestDisplay(console, _count_lines(corpus), corpus.stat().st_size, label="indexing") as display:
            ingestor = make_ingestor(settings, ws, console, display)
            try:
                index_corpus(dataset, ingestor)
            except DatasetError as exc:
                raise click.UsageError(str(exc)) from exc
        progress = stack.enter_context(progress_bar(console))
        queries = progress.add_task("querying", total=len(dataset.queries))
        result = evaluate(
            dataset,
            Searcher(ws.index, ws.encoders),
            mode=cast(Mode, mode),
            fusion=cast(Fusion, fusion),
            progress=lambda n: progress.advance(queries, n),
        )
    if run_out is not None:
        write_trec_run(run_out, result.run, f"sleuth-{mode}")
    if as_json:
        sys.stdout.write(json.dumps({"mode": mode, **result.metrics}, indent=2) + "\n")
    else:
        m = result.metrics
        click.echo(
            f"{mode}: nDCG@10 {m['ndcg@10']:.4f}  Recall@10 {m['recall@10']:.4f}  "
            f"Recall@100 {m['recall@100']:.4f}  MRR@10 {m['mrr@10']:.4f}  ({int(m['queries'])} queries)"
        )


def _count_lines(path: Path) -> int:
    with path.open("rb") as fh:
        return sum(1 for _ in fh)
