"""``python -m ingest`` is ``python -m ingest.chunk``."""

from ingest.chunk import main

main()
