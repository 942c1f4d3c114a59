"""``python -m sleuth.ingest.chunk PATH...``: the chunker's command line, kept at this name for the README's
command (it lives in ``sleuth.ingest.cli``)."""

from sleuth.ingest.cli.chunk import main

if __name__ == "__main__":
    main()
