"""The ``sleuth`` command line: one entry point in front of ingest, retrieval and the research agent.

Errors are one line on stderr (a traceback only with ``--debug``); exit codes follow the contract: 0 success,
1 some inputs failed, 2 usage or configuration error (``sleuth.ingest.cli.runner`` maps the exception tree).
The group builds the composition root (``Wiring``) from the settings once and hands it to every command.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from sleuth.agent import Settings, Wiring, load_settings
from sleuth.agent.cli.console import configure_logging
from sleuth.agent.cli.eval import eval_group
from sleuth.agent.cli.ingest import ingest_command, remove_command
from sleuth.agent.cli.research import research_command
from sleuth.agent.cli.runs import runs_command, templates_command
from sleuth.agent.cli.search import search_command
from sleuth.agent.cli.serve import mcp_command, serve_command
from sleuth.ingest.cli.chunk import chunk_command
from sleuth.ingest.cli.convert import convert_command
from sleuth.ingest.cli.runner import run_click


@click.group(name="sleuth", context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--config",
    type=click.Path(path_type=Path),
    default=None,
    help="Settings file (default: $SLEUTH_CONFIG, else ./configs/sleuth.toml).",
)
@click.option("-v", "--verbose", is_flag=True, help="Log progress details.")
@click.option("--debug", is_flag=True, help="Debug logs and full tracebacks.")
@click.pass_context
def app(ctx: click.Context, config: Path | None, verbose: bool, debug: bool) -> None:
    """Deep research over your own documents and the web, every claim anchored to verbatim evidence."""
    settings = load_settings(config)
    configure_logging("DEBUG" if debug else ("INFO" if verbose else settings.log_level))
    ctx.obj = Wiring(settings)
    ctx.default_map = _command_defaults(settings)


app.add_command(convert_command)
app.add_command(chunk_command)
app.add_command(ingest_command)
app.add_command(remove_command)
app.add_command(search_command)
app.add_command(research_command)
app.add_command(templates_command)
app.add_command(runs_command)
app.add_command(eval_group)
app.add_command(serve_command)
app.add_command(mcp_command)


def _command_defaults(settings: Settings) -> dict[str, dict[str, object]]:
    """Settings become the defaults of each command's options; explicit flags still win."""
    convert = settings.convert
    conversion: dict[str, object] = {
        "max_file_mb": convert.max_file_mb,
        "max_pages": convert.max_pages,
        "timeout": convert.timeout,
        "pdf_mode": convert.pdf_mode,
        "docling_artifacts": str(convert.docling_artifacts) if convert.docling_artifacts else None,
        "cache_dir": str(convert.cache_dir),
        "ocr": convert.ocr,
        "ocr_timeout": convert.ocr_timeout,
    }
    return {
        "chunk": {
            "max_tokens": settings.index.max_tokens,
            "overlap_tokens": settings.index.overlap_tokens,
            "tokenizer": str(settings.index.tokenizer_dir),
            "workers": convert.workers,
            **conversion,
        },
        "convert": conversion,
        "ingest": {"workers": convert.workers, **conversion},
    }


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and turn every failure into the contract's one line and exit code."""
    return run_click(app, argv, "sleuth")


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
