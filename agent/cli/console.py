"""The one stderr console of the command line: progress displays and log lines share it.

Rich prints log records above a live progress bar only when both go through the same ``Console``; a plain
``StreamHandler`` writing to stderr would tear the bar.
"""

from __future__ import annotations

import logging
import sys

from rich.console import Console
from rich.logging import RichHandler

STDERR = Console(stderr=True)


def configure_logging(level: str) -> None:
    """Log records to stderr: through rich on a terminal (above any progress bar), plain lines otherwise."""
    handler: logging.Handler
    if STDERR.is_terminal:
        handler = RichHandler(console=STDERR, show_time=False, show_path=False, markup=False)
        handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    else:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(True)
