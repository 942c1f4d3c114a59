"""Web evidence: SearXNG search, a gatekeeper over its results, a fetcher that cannot be pointed at private
networks, and a cache of fetched pages. The research agent calls ``WebSearch`` (``service.py``)."""
