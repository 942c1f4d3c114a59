"""``python -m ingest`` is ``python -m sleuth.ingest.chunk``."""

from sleuth.ingest.chunk import main

main()
