"""The report viewer: two plain HTML pages with a small script each, served by the API (no build step).

``/`` (``runs.html``) lists the runs; ``/runs/{run_id}`` (``run.html``) shows a run's report (a status ribbon
per section, claims with their citations, evidence cards with the verbatim quote and its document, page or
URL) and, while the run is going, its live progress from the event stream. Every text is inserted as text
(never as HTML): reports quote web pages, and web text is data.
"""

from __future__ import annotations

from importlib.resources import files

RUNS_PAGE = files(__package__).joinpath("runs.html").read_text(encoding="utf-8")
RUN_PAGE = files(__package__).joinpath("run.html").read_text(encoding="utf-8")
