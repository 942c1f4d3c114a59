"""What this server can do for a research run: the corpus it holds, whether web search and an LLM are
configured, the depth range. The ask form greys out what is missing and says why; ``GET /v1/capabilities``
gives the same to API clients, so neither has to learn it from a 400."""

from __future__ import annotations

from typing import Any

from sleuth.agent import Runtime, Settings

MAX_DEPTH = 6


def capabilities(settings: Settings, runtime: Runtime) -> dict[str, Any]:
    chunks = runtime.index.chunk_count()
    web, llm = settings.web, settings.llm
    return {
        "corpus": {
            "available": chunks > 0,
            "chunks": chunks,
            "reason": None if chunks else "the index holds no documents yet (add some on the upload page)",
        },
        "web": {
            "available": web.configured,
            "reason": None
            if web.configured
            else "no SearXNG is configured on this server (SLEUTH_SEARXNG_URL)",
        },
        "llm": {
            "available": llm.configured,
            "model": llm.model if llm.configured else None,
            "reason": None
            if llm.configured
            else "no LLM endpoint is configured (SLEUTH_LLM_BASE_URL and SLEUTH_LLM_MODEL); "
            "planning and writing are extractive",
        },
        "depth": {"default": settings.research.depth, "min": 0, "max": MAX_DEPTH},
        "max_runs": settings.api.max_runs,
    }
