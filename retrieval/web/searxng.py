"""A SearXNG JSON API client on httpx (a ``SearchProvider``): retries with back-off, a rate limit, explicit
failures.

No third-party SearXNG client is worth a dependency: the API is one GET with a handful of parameters. The
instance may be on loopback (it is the one address sleuth is told to use, unlike the pages it returns).
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import time
from typing import Any

import httpx

from sleuth.retrieval.web.results import SearchAnswer, SearchError, WebResult

__all__ = ["SearchAnswer", "SearchError", "SearxngClient", "WebResult"]
log = logging.getLogger(__name__)
MAX_QUERY_CHARS = 400
#: A larger answer is not a result list (a SearXNG page holds a few dozen results of a few hundred bytes).
MAX_ANSWER_BYTES = 5_000_000
_RETRY_STATUS = {429, 500, 502, 503, 504}


class SearxngClient:
    """``await client.search(query)``; one instance per run (its rate limit is per instance)."""

    name = "SearXNG"

    def __init__(
        self,
        base_url: str,
        *,
        timeout: float = 10.0,
        retries: int = 3,
        min_interval: float = 0.5,
        max_backoff: float = 8.0,
        user_agent: str = "sleuth",
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.name = f"SearXNG at {self.base_url}"
        self.retries = retries
        self.min_interval = min_interval
        self.max_backoff = max_backoff
        self._client = httpx.AsyncClient(
            timeout=timeout,
            headers={"User-Agent": user_agent, "Accept": "application/json"},
            transport=transport,
        )
        self._lock = asyncio.Lock()
        self._last = 0.0

    async def aclose(self) -> None:
        await self._client.aclose()

    async def search(
        self,
        query: str,
        *,
        categories: str | None = None,
        language: str | None = None,
        time_range: str | None = None,
        page: int = 1,
    ) -> SearchAnswer:
        """Results of one query; raises ``SearchError`` when the instance cannot answer after retries."""
        query = " ".join(query.split())[:MAX_QUERY_CHARS]
        params: dict[str, Any] = {"q": query, "format": "json", "pageno": page}
        for key, value in (("categories", categories), ("language", language), ("time_range", time_range)):
            if value:
                params[key] = value
        url = f"{self.base_url}/search"
        delay = 0.5
        last_error = ""
        for attempt in range(self.retries + 1):
            await self._pace()
            try:
                response = await self._client.get(url, params=params)
            except httpx.TimeoutException:
                last_error = "timed out"
            except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError, OSError, ValueError) as exc:
                last_error = f"unreachable ({type(exc).__name__}: {exc})"
                if isinstance(exc, (httpx.ConnectError, httpx.InvalidURL, ValueError)):
                    break  # nothing listens there, or the URL is wrong: retrying does not help
            else:
                if response.status_code in _RETRY_STATUS:
                    last_error = f"HTTP {response.status_code}"
                    wait = _retry_after(response.headers.get("Retry-After"))
                    if attempt < self.retries:
                        await asyncio.sleep(min(self.max_backoff, wait if wait is not None else delay))
                        delay = min(self.max_backoff, delay * 2)
                        continue
                    break
                if response.status_code != 200:
                    raise SearchError(f"SearXNG at {self.base_url}: HTTP {response.status_code}")
                if len(response.content) > MAX_ANSWER_BYTES:
                    raise SearchError(f"SearXNG at {self.base_url}: an answer over {MAX_ANSWER_BYTES} bytes")
                return _answer(query, response, self.base_url)
            if attempt < self.retries:
                await asyncio.sleep(delay)
                delay = min(self.max_backoff, delay * 2)
        raise SearchError(f"SearXNG at {self.base_url}: {last_error}")

    async def _pace(self) -> None:
        async with self._lock:
            wait = self._last + self.min_interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._last = time.monotonic()


def _answer(query: str, response: httpx.Response, base_url: str) -> SearchAnswer:
    try:
        data = response.json()
    except ValueError as exc:
        raise SearchError(
            f"SearXNG at {base_url}: the answer is not JSON (is the json format enabled?)"
        ) from exc
    if not isinstance(data, dict) or not isinstance(data.get("results", []), list):
        raise SearchError(f"SearXNG at {base_url}: unexpected answer shape")
    answer = SearchAnswer(query)
    for position, item in enumerate(data.get("results", [])):
        if not isinstance(item, dict) or not isinstance(item.get("url"), str):
            continue
        answer.results.append(
            WebResult(
                url=item["url"],
                title=str(item.get("title") or ""),
                snippet=str(item.get("content") or ""),
                engine=item.get("engine") if isinstance(item.get("engine"), str) else None,
                published=item.get("publishedDate") if isinstance(item.get("publishedDate"), str) else None,
                position=position,
            )
        )
    engines = data.get("unresponsive_engines") or []
    for entry in engines if isinstance(engines, list) else []:
        answer.unresponsive.append(" ".join(str(x) for x in entry) if isinstance(entry, list) else str(entry))
    if answer.unresponsive:
        log.warning("SearXNG engines did not answer %r: %s", query, "; ".join(answer.unresponsive))
    return answer


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        parsed = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None  # "Retry-After: soon": no date, so the usual back-off
    return max(0.0, parsed.timestamp() - time.time()) if parsed else None
