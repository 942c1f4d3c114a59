"""The HTTP API (``sleuth serve``): research with live progress over Server-Sent Events, runs, templates,
search, ingest, and the report viewer page. One process holds the runtime (models loaded once; the embedded
index allows one process) and runs research concurrently up to a limit."""
