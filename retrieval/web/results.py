"""What any web search provider returns, and the protocol a provider implements.

SearXNG (``searxng.py``) is the provider sleuth ships; another one (a commercial search API, an intranet
search) implements ``SearchProvider`` in a module of its own and is chosen in the composition root
(``sleuth.agent.wiring``). Everything after the search (gatekeeper, fetcher, conversion) works on
``WebResult`` and does not know which provider found it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from sleuth.ingest.errors import UnavailableError


class SearchError(UnavailableError):
    """The search provider could not answer (down, refused, malformed); the message names it and why."""


@dataclass(frozen=True, slots=True)
class WebResult:
    url: str
    title: str
    snippet: str
    engine: str | None = None
    published: str | None = None
    #: Position in the provider's answer (0 = first).
    position: int = 0


@dataclass
class SearchAnswer:
    query: str
    results: list[WebResult] = field(default_factory=list)
    unresponsive: list[str] = field(default_factory=list)


class SearchProvider(Protocol):
    """``await provider.search(query)``; one instance per run (rate limits are per instance)."""

    #: What the provider is, for messages ("SearXNG at http://...").
    name: str

    async def search(self, query: str) -> SearchAnswer:
        """Results of one query; raises ``SearchError`` when the provider cannot answer."""
        ...

    async def aclose(self) -> None: ...
