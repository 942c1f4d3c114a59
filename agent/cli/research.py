"""``sleuth research QUESTION --template NAME``: a templated, grounded report from the corpus and the web."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import click

from sleuth.agent import (
    Evidence,
    ReportFiles,
    RunComplete,
    RunEvent,
    RunFailed,
    RunFolders,
    RunNotFoundError,
    RunRow,
    RunStore,
    Settings,
    Wiring,
    drive,
    new_run_id,
    reviewed_ledger,
)
from sleuth.agent.cli.console import STDERR
from sleuth.agent.cli.progress import ResearchDisplay
from sleuth.agent.cli.workspace import index_options, open_workspace, writable_folder


@click.command("research")
@click.argument("question", required=False)
@click.option("--template", "template_name", default=None, help="Report template (see `sleuth templates`).")
@index_options
@click.option(
    "--web/--no-web", default=None, help="Search the web too (default: when SLEUTH_SEARXNG_URL is set)."
)
@click.option("--no-corpus", is_flag=True, help="Do not search the corpus (web only).")
@click.option("--depth", type=click.IntRange(min=0, max=6), default=None, help="Levels of leads to follow.")
@click.option("--no-llm", is_flag=True, help="No LLM calls: extractive planning and writing.")
@click.option("--offline", is_flag=True, help="No network at all: --no-llm --no-web.")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Write DIR/report.md and DIR/report.json, or FILE.md and FILE.json.",
)
@click.option("--review", is_flag=True, help="Stop after collecting evidence, to pin or drop pieces first.")
@click.option("--resume", "resume_id", default=None, help="Write the report of a reviewed run.")
@click.option("--json", "as_json", is_flag=True, help="Print the report JSON on stdout.")
@click.option(
    "--interactive", is_flag=True, help="With an LLM: one clarifying question if the request is ambiguous."
)
@click.pass_obj
def research_command(  # noqa: PLR0917 - click passes options as parameters
    wiring: Wiring,
    question: str | None,
    template_name: str | None,
    index_dir: Path | None,
    qdrant_url: str | None,
    web: bool | None,
    no_corpus: bool,
    depth: int | None,
    no_llm: bool,
    offline: bool,
    out_dir: Path | None,
    review: bool,
    resume_id: str | None,
    as_json: bool,
    interactive: bool,
) -> None:
    """Research QUESTION and write a report with every claim anchored to verbatim evidence.

    Each template section gets a status: supported, thin_evidence, not_found or stale. Prints the paths of
    report.md and report.json (or, with --json, the report).
    """
    settings = wiring.settings
    writable_folder(out_dir, named=True)
    store = wiring.run_store()
    folders = wiring.run_folders()
    ledger: list[Evidence] = []
    try:
        if resume_id is not None:
            row, ledger = _resumable(store, folders, resume_id)
            question, template_name = row.query, row.template
            depth = row.options.get("depth", depth)
        elif not question or not question.strip():
            raise click.UsageError("give a QUESTION (or --resume RUN_ID)")
        if not template_name:
            raise click.UsageError("choose a report template with --template (see `sleuth templates`)")
        template = wiring.templates().load(template_name)
        use_web = _web_wanted(settings, web, offline)
        if no_corpus and not use_web:
            raise click.UsageError("--no-corpus leaves nothing to search: enable web search (--web)")
        options = wiring.research_options(
            depth=depth,
            corpus=not no_corpus,
            web=use_web,
            llm=not (no_llm or offline) and settings.llm.configured,
            review=review,
        )
        # Without the corpus the index only has to exist (the models come with the runtime).
        create = not options.use_corpus
        with open_workspace(wiring, index_dir=index_dir, qdrant_url=qdrant_url, create=create) as runtime:
            if options.use_corpus and runtime.index.chunk_count() == 0:
                raise click.UsageError(
                    f"the index {runtime.store.location} holds no documents (run `sleuth ingest` first)"
                )
            brief = _brief(wiring, question or "") if interactive and resume_id is None else None
            if interactive and not options.use_llm:
                click.echo(
                    "sleuth: --interactive needs an LLM (SLEUTH_LLM_*); researching as asked", err=True
                )
                brief = None
            run = wiring.research_run(
                runtime,
                resume_id or new_run_id(),
                question or "",
                template,
                options,
                brief=brief,
                resuming=resume_id is not None,
            )
            files: list[ReportFiles] = []
            final = asyncio.run(
                _consume(
                    drive(
                        run,
                        store,
                        folders,
                        out_dir=out_dir,
                        resume_from=ledger if resume_id is not None else None,
                        on_files=files.append,
                    ),
                    ResearchDisplay(STDERR, interval=settings.progress_interval),
                )
            )
    finally:
        store.close()
    _finish(final, files, run.run_id, folders, as_json)


def _resumable(store: RunStore, folders: RunFolders, run_id: str) -> tuple[RunRow, list[Evidence]]:
    try:
        return store.get(run_id), reviewed_ledger(store, folders, run_id)
    except RunNotFoundError as exc:
        raise click.UsageError(f"{exc} (see `sleuth runs`)") from exc


def _brief(wiring: Wiring, question: str) -> str | None:
    """Ask the clarifying question (if the LLM finds the request ambiguous) and write the research brief."""
    clarifier = wiring.clarifier()
    if clarifier is None:
        return None
    try:
        asked = clarifier.question(question)
        reply = click.prompt(asked, err=True, default="", show_default=False) if asked else None
        brief = clarifier.brief(question, asked, reply or None)
    finally:
        clarifier.client.close()
    click.echo(f"brief: {brief}", err=True)
    return brief


def _web_wanted(settings: Settings, web: bool | None, offline: bool) -> bool:
    if offline:
        if web:
            raise click.UsageError("--offline means no web: drop --web")
        return False
    if web is None:
        return settings.web.configured
    if web and not settings.web.configured:
        raise click.UsageError("--web needs a SearXNG instance: set SLEUTH_SEARXNG_URL (or searxng_url)")
    return web


async def _consume(stream: object, display: ResearchDisplay) -> RunEvent | None:
    final: RunEvent | None = None
    with display:
        async for event in stream:  # type: ignore[attr-defined]
            display.update(event)
            final = event
    return final


def _finish(
    final: RunEvent | None, files: list[ReportFiles], run_id: str, folders: RunFolders, as_json: bool
) -> None:
    if isinstance(final, RunFailed):
        raise click.ClickException(f"research run {run_id} failed: {final.error}")
    if not isinstance(final, RunComplete):
        click.echo(
            f"run {run_id}: evidence collected for review in {folders.ledger(run_id)}; "
            f'set "pinned" or "dropped" on entries, then: sleuth research --resume {run_id}',
            err=True,
        )
        return
    report = final.report
    if as_json:
        sys.stdout.write(json.dumps(report.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n")
    else:
        click.echo(str(files[-1].markdown))
        click.echo(str(files[-1].json))
    if all(s.status == "not_found" for s in report.sections):
        click.echo(
            f"sleuth: error: nothing found for {report.query!r} (every section is not_found)", err=True
        )
        raise SystemExit(1)
