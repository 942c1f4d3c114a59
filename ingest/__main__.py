"""``python -m sleuth.ingest`` is ``python -m sleuth.ingest.chunk``."""

from sleuth.ingest.cli.chunk import main

main()
