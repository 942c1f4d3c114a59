"""The chunker's own command line (``python -m sleuth.ingest.chunk``), and what the ``sleuth`` application
mounts from it: the ``chunk`` and ``convert`` commands, the conversion options, and the one place errors
become exit codes (``runner``). A front end: the library around it never imports click or rich."""
