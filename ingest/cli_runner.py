"""Running a click command the way the contract wants errors: one line on stderr and a meaningful exit code.

Shared by ``python -m sleuth.ingest.chunk`` and the ``sleuth`` application, so both report failures alike.
"""

from __future__ import annotations

import sys

import click


def run_click(
    command: click.Command,
    argv: list[str] | None,
    prog_name: str,
    config_errors: tuple[type[Exception], ...] = (),
) -> int:
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
    except config_errors as exc:
        click.echo(f"{prog_name}: configuration error: {exc}", err=True)
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
