"""The report viewer: two plain HTML pages with a small script each, served by the API (no build step).

``/`` (``runs.html``) lists the runs; ``/runs/{run_id}`` (``run.html``) shows a run's report (a status ribbon
per section, claims with their citations, evidence cards with the verbatim quote and its document, page or
URL) and, while the run is going, its live progress from the event stream. Every text is inserted as text
(never as HTML): reports quote web pages, and web text is data.
"""

from __future__ import annotations

from importlib.resources import files


def _page(name: str) -> str:
    """A page with the viewer's one style sheet put in place (inline: a page is one request, no static route
    to guard with the API key)."""
    here = files(__package__)
    style = here.joinpath("viewer.css").read_text(encoding="utf-8")
    return here.joinpath(name).read_text(encoding="utf-8").replace("/* viewer.css */\n", style)


RUNS_PAGE = _page("runs.html")
RUN_PAGE = _page("run.html")
