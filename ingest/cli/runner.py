"""Running a click command the way the contract wants errors: one line on stderr and a meaningful exit code.

Shared by ``python -m sleuth.ingest.cli.chunk`` and the ``sleuth`` application, so both report failures alike.
This is the one place the exception tree (``sleuth.ingest.errors``) becomes exit codes: a ``SourceError`` of
one input in a batch never gets here (the batch reports it and exits 1 at the end); an input, configuration
or availability error that stops the command exits 2, with a prefix that says which kind it was.
"""

from __future__ import annotations

import sys

import click

from sleuth.ingest.errors import ConfigurationError, InputError, UnavailableError

#: Exit code and the words before the message, per branch of the exception tree.
_KINDS: tuple[tuple[type[Exception], str], ...] = (
    (InputError, "usage error"),
    (ConfigurationError, "configuration error"),
    (UnavailableError, "unavailable"),
)


def run_click(command: click.Command, argv: list[str] | None, prog_name: str) -> int:
    """0 success, 1 some inputs failed or an unexpected error, 2 usage or configuration error."""
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args
    try:
        result = command.main(args=args, prog_name=prog_name, standalone_mode=False)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.exceptions.Abort:
        click.echo(f"{prog_name}: aborted", err=True)
        return 130
    except click.ClickException as exc:
        click.echo(f"{prog_name}: usage error: {exc.format_message()}", err=True)
        return 2
    except (InputError, ConfigurationError, UnavailableError) as exc:
        if debug:
            raise
        kind = next(words for cls, words in _KINDS if isinstance(exc, cls))
        click.echo(f"{prog_name}: {kind}: {exc}", err=True)
        return 2
    except BrokenPipeError:
        return 0
    except Exception as exc:
        if debug:
            raise
        click.echo(
            f"{prog_name}: error: {type(exc).__name__}: {exc} (run with --debug for a traceback)", err=True
        )
        return 1
    return result if isinstance(result, int) else 0
