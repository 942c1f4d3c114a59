"""``sleuth eval retrieval DATASET_DIR``: retrieval quality on a BEIR-layout dataset."""

from __future__ import annotations

import json
import sys
import tempfile
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import cast

import click
from rich.console import Console

from sleuth.agent import Wiring, evaluate_research, load_questions, summarize, unknown_gold
from sleuth.agent.cli.progress import IngestDisplay
from sleuth.agent.cli.workspace import (
    index_options,
    make_ingestor,
    open_workspace,
    progress_bar,
    writable_folder,
)
from sleuth.retrieval import Dataset, Fusion, Mode, evaluate, index_corpus, write_trec_run


@click.group("eval")
def eval_group() -> None:
    """Measure sleuth against judged datasets."""


@eval_group.command("retrieval")
@click.argument("dataset_dir", type=click.Path(path_type=Path))
@click.option("--mode", type=click.Choice(["hybrid", "dense", "sparse"]), default="hybrid", show_default=True)
@click.option(
    "--fusion", type=click.Choice(["rrf", "dbsf"]), default=None, help="Default: the fusion setting."
)
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
    wiring: Wiring,
    dataset_dir: Path,
    mode: str,
    fusion: str | None,
    run_out: Path | None,
    index_dir: Path | None,
    as_json: bool,
) -> None:
    """Ingest DATASET_DIR's corpus, rank documents per judged query; nDCG@10, Recall@10/100, MRR@10."""
    dataset = Dataset.load(dataset_dir)
    console = Console(stderr=True)
    with ExitStack() as stack:
        folder = index_dir or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="sleuth-eval-")))
        ws = stack.enter_context(open_workspace(wiring, index_dir=folder, qdrant_url=None, create=True))
        corpus = dataset.root / "corpus.jsonl"
        with IngestDisplay(console, _count_lines(corpus), corpus.stat().st_size, label="indexing") as display:
            ingestor = make_ingestor(wiring, ws, console, display)
            index_corpus(dataset, ingestor)
        progress = stack.enter_context(progress_bar(console))
        queries = progress.add_task("querying", total=len(dataset.queries))
        result = evaluate(
            dataset,
            ws.searcher,
            mode=cast(Mode, mode),
            fusion=cast(Fusion, fusion or wiring.settings.index.fusion),
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


@eval_group.command("research")
@click.argument("questions_file", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option("--template", "template_name", required=True, help="Report template for every question.")
@index_options
@click.option("--offline", is_flag=True, help="No network: --no-llm --no-web.")
@click.option("--depth", type=click.IntRange(min=0, max=6), default=None, help="Levels of leads to follow.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Only the first N questions.")
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None, help="DIR/<id>/report.json")
@click.option("--json", "as_json", is_flag=True, help="Print the metrics (and per-question rows) as JSON.")
@click.pass_obj
def eval_research_command(  # noqa: PLR0917 - click passes options as parameters
    wiring: Wiring,
    questions_file: Path,
    template_name: str,
    index_dir: Path | None,
    qdrant_url: str | None,
    offline: bool,
    depth: int | None,
    limit: int | None,
    out_dir: Path | None,
    as_json: bool,
) -> None:
    """Research each question of QUESTIONS_FILE (JSON Lines: id, question, gold_sources) and score the
    documents the reports cite against the gold sources, next to one hybrid search per question that
    returns as many documents as the report cites."""
    settings = wiring.settings
    writable_folder(out_dir)
    questions = load_questions(questions_file)
    template = wiring.templates().load(template_name)
    questions = questions[:limit] if limit else questions
    # Web and LLM are used as configured (SLEUTH_SEARXNG_URL, SLEUTH_LLM_*), as for `sleuth research`.
    options = wiring.research_options(
        depth=depth, web=not offline and settings.web.configured, llm=not offline and settings.llm.configured
    )
    console = Console(stderr=True)
    with (
        open_workspace(wiring, index_dir=index_dir, qdrant_url=qdrant_url, create=False) as runtime,
        progress_bar(console) as progress,
    ):
        known = {record.document_id for record in runtime.index.documents()}
        unknown = unknown_gold(questions, known)
        if unknown:
            shown = ", ".join(repr(g) for g in unknown[:5]) + (", ..." if len(unknown) > 5 else "")
            click.echo(
                f"sleuth: warning: {len(unknown)} gold source(s) name no document in the index "
                f"{runtime.store.location} ({shown}); their questions can only score 0 "
                f"(document ids are paths without extension, see `sleuth search --json`)",
                err=True,
            )
        task = progress.add_task("researching", total=len(questions))
        rows = evaluate_research(
            partial(wiring.research_run, runtime),
            runtime.searcher,
            template,
            questions,
            options,
            out_dir=out_dir,
            progress=lambda: progress.advance(task),
        )
    summary = summarize(rows)
    if as_json:
        sys.stdout.write(json.dumps({**summary, "questions": [r.as_dict() for r in rows]}, indent=2) + "\n")
        return
    research, search = summary["research"], summary["search"]
    click.echo(
        f"{summary['questions_run']} questions: research evidence recall {research['recall']:.3f}, "
        f"precision {research['precision']:.3f} ({research['documents']:.1f} documents cited per report); "
        f"one hybrid search of as many documents: recall {search['recall']:.3f}, "
        f"precision {search['precision']:.3f}; statuses {summary['statuses']}; "
        f"{summary['seconds_per_question']:.2f} s per question"
    )
