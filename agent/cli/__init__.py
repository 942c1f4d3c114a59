"""The ``sleuth`` command line (a front end: it imports the layers' faces only)."""

from sleuth.agent.cli.app import app, main, run

__all__ = ["app", "main", "run"]
