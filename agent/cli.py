"""The ``sleuth`` command line: one entry point in front of ingest, retrieval and the research agent.

Errors are one line on stderr (a traceback only with ``--debug``); exit codes follow the contract:
0 success, 1 some inputs failed, 2 usage or configuration error.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from sleuth.agent.console import configure_logging
from sleuth.agent.eval_command import eval_group
from sleuth.agent.ingest_command import ingest_command, remove_command
from sleuth.agent.research_command import research_command
from sleuth.agent.runs_command import runs_command, templates_command
from sleuth.agent.search_command import search_command
from sleuth.agent.serve_command import mcp_command, serve_command
from sleuth.agent.settings import Settings, SettingsError, load_settings
from sleuth.agent.templates import TemplateError
from sleuth.ingest.chunk import chunk_command
from sleuth.ingest.cli_runner import run_click
from sleuth.ingest.convert_command import convert_command


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
    ctx.obj = settings
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
    conversion: dict[str, object] = {
        "max_file_mb": settings.max_file_mb,
        "max_pages": settings.max_pages,
        "timeout": settings.conversion_timeout,
        "pdf_mode": settings.pdf_mode,
        "docling_artifacts": str(settings.docling_artifacts) if settings.docling_artifacts else None,
        "cache_dir": str(settings.cache_dir),
    }
    return {
        "chunk": {
            "max_tokens": settings.max_tokens,
            "overlap_tokens": settings.overlap_tokens,
            "tokenizer": str(settings.tokenizer_dir),
            "workers": settings.workers,
            **conversion,
        },
        "convert": conversion,
        "ingest": {"workers": settings.workers, **conversion},
    }


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and turn every failure into the contract's one line and exit code."""
    return run_click(app, argv, "sleuth", config_errors=(SettingsError, TemplateError))


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    run()
