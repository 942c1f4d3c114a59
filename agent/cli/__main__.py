"""``python -m sleuth.agent.cli``: the ``sleuth`` command."""

from sleuth.agent.cli.app import run

run()
