"""Fetching result pages safely: only public addresses (checked, then connected to), redirects followed by
hand and each hop checked again, a streamed size cap, a per-request timeout and a run deadline, one
concurrency limit and one page budget shared by every branch of a run, robots.txt, a polite user agent,
and a cache with conditional GETs."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit, urlunsplit
from urllib.robotparser import RobotFileParser

import httpx

from sleuth.ingest.errors import InputError
from sleuth.retrieval.web.addresses import BlockedAddressError, resolve
from sleuth.retrieval.web.cache import CachedPage, FetchCache
from sleuth.retrieval.web.urls import canonical_url

log = logging.getLogger(__name__)
USER_AGENT = "sleuth/0.1 (deep-research agent; +https://github.com/sleuth-research/sleuth)"
_ACCEPTED = {"text/html": "html", "application/xhtml+xml": "html", "application/pdf": "pdf"}


class FetchError(InputError):
    """A page that was not fetched: ``str()`` names the URL and the reason in one line."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"{url}: {reason}")
        self.url = url
        self.reason = reason


@dataclass(frozen=True)
class FetchPolicy:
    timeout: float = 10.0
    deadline: float = 120.0
    max_bytes: int = 5_000_000
    concurrency: int = 4
    max_pages: int = 24
    max_redirects: int = 5
    allow_private: bool = False
    respect_robots: bool = True
    user_agent: str = USER_AGENT


@dataclass
class FetchedPage:
    url: str
    final_url: str
    content_type: str
    body: bytes
    etag: str | None
    last_modified: str | None
    from_cache: bool = False
    cached: CachedPage | None = None


@dataclass
class FetchStats:
    fetched: int = 0
    cache_hits: int = 0
    revalidated: int = 0
    failures: dict[str, int] = field(default_factory=dict)

    def fail(self, reason: str) -> None:
        key = reason.split(" (", maxsplit=1)[0][:60]
        self.failures[key] = self.failures.get(key, 0) + 1


class Fetcher:
    """One per run: ``await fetcher.fetch(url)``; ``aclose()`` at the end."""

    def __init__(
        self,
        policy: FetchPolicy,
        cache: FetchCache | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.policy = policy
        self.cache = cache
        self.stats = FetchStats()
        self._semaphore = asyncio.Semaphore(policy.concurrency)
        self._budget = policy.max_pages
        self._deadline = time.monotonic() + policy.deadline
        self._robots: dict[str, RobotFileParser | None] = {}
        self._client = httpx.AsyncClient(
            follow_redirects=False,
            headers={
                "User-Agent": policy.user_agent,
                "Accept": "text/html,application/xhtml+xml,application/pdf",
            },
            transport=transport,
            trust_env=False,  # never through a proxy: the address checked is the address connected to
        )

    async def aclose(self) -> None:
        await self._client.aclose()

    async def fetch(self, url: str) -> FetchedPage:
        canonical = canonical_url(url)
        cached = self.cache.get(canonical) if self.cache else None
        if cached is not None and cached.fresh:
            self.stats.cache_hits += 1
            return _from_cache(url, cached)
        remaining = self._deadline - time.monotonic()
        if remaining <= 0:
            raise self._failed(url, "the run's fetch deadline has passed")
        if self._budget <= 0:
            raise self._failed(url, "the run's page budget is spent")
        self._budget -= 1
        async with self._semaphore:
            timeout = min(self.policy.timeout, self._deadline - time.monotonic())
            try:
                page = await asyncio.wait_for(self._fetch(url, cached), timeout=max(0.1, timeout))
            except TimeoutError:
                raise self._failed(url, f"no complete answer within {timeout:.0f} s") from None
            except FetchError as exc:
                raise self._failed(url, exc.reason) from None
        if page.from_cache:
            self.stats.revalidated += 1
            if self.cache:
                self.cache.refresh(canonical)
            return page
        self.stats.fetched += 1
        if self.cache:
            self.cache.put(
                canonical,
                CachedPage(
                    url=url, final_url=page.final_url, fetched_at=time.time(),
                    expires_at=time.time() + self.cache.ttl, etag=page.etag, last_modified=page.last_modified,
                    content_type=page.content_type, body=page.body,
                ),
            )  # fmt: skip
        return page

    def _failed(self, url: str, reason: str) -> FetchError:
        self.stats.fail(reason)
        log.warning("web: %s: %s", url, reason)
        return FetchError(url, reason)

    async def _fetch(self, url: str, cached: CachedPage | None) -> FetchedPage:
        current = url
        for _ in range(self.policy.max_redirects + 1):
            if self.policy.respect_robots and not await self._allowed(current):
                raise FetchError(current, "disallowed by robots.txt")
            headers = {}
            if cached is not None and current == url:
                if cached.etag:
                    headers["If-None-Match"] = cached.etag
                if cached.last_modified:
                    headers["If-Modified-Since"] = cached.last_modified
            request = self._request(current, headers)
            response = await self._client.send(request, stream=True)
            try:
                if response.status_code in (301, 302, 303, 307, 308):
                    location = response.headers.get("Location")
                    if not location:
                        raise FetchError(current, f"HTTP {response.status_code} without a Location")
                    current = urljoin(current, location)
                    continue
                if response.status_code == 304 and cached is not None:
                    return _from_cache(url, cached)
                if response.status_code != 200:
                    raise FetchError(current, f"HTTP {response.status_code}")
                declared = response.headers.get("Content-Type")
                kind = _content_kind(declared)
                if kind is None and not _may_sniff(declared):
                    raise FetchError(current, f"not HTML or PDF ({declared})")
                body = await self._read(current, response)
                if kind is None:  # no type, or a generic one: the bytes say what they are
                    kind = _sniff(body)
                    if kind is None:
                        raise FetchError(
                            current, f"not HTML or PDF ({declared or 'no content type'}, by its bytes)"
                        )
                return FetchedPage(
                    url=url,
                    final_url=current,
                    content_type=kind,
                    body=body,
                    etag=response.headers.get("ETag"),
                    last_modified=response.headers.get("Last-Modified"),
                )
            finally:
                await response.aclose()
        raise FetchError(url, f"more than {self.policy.max_redirects} redirects")

    def _request(self, url: str, headers: dict[str, str]) -> httpx.Request:
        """A request to the address the host was checked to resolve to (no second lookup)."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            raise FetchError(url, f"scheme {parts.scheme or 'missing'!r} refused (http and https only)")
        if not parts.hostname:
            raise FetchError(url, "no host")
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            target = resolve(parts.hostname, port, allow_private=self.policy.allow_private)
        except BlockedAddressError as exc:
            raise FetchError(url, str(exc)) from None
        address = f"[{target.address}]" if ":" in target.address else target.address
        pinned = urlunsplit((parts.scheme, f"{address}:{port}", parts.path or "/", parts.query, ""))
        host_header = parts.netloc.rsplit("@", 1)[-1]
        extensions = {"sni_hostname": parts.hostname} if parts.scheme == "https" else {}
        return self._client.build_request(
            "GET", pinned, headers={**headers, "Host": host_header}, extensions=extensions
        )

    async def _read(self, url: str, response: httpx.Response) -> bytes:
        declared = response.headers.get("Content-Length")
        if declared and declared.isdigit() and int(declared) > self.policy.max_bytes:
            raise FetchError(
                url, f"larger than {self.policy.max_bytes / 1e6:.1f} MB ({int(declared) / 1e6:.1f} MB)"
            )
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > self.policy.max_bytes:
                raise FetchError(url, f"larger than {self.policy.max_bytes / 1e6:.1f} MB (stopped reading)")
            chunks.append(chunk)
        return b"".join(chunks)

    async def _allowed(self, url: str) -> bool:
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        if origin not in self._robots:
            self._robots[origin] = await self._robots_for(origin)
        parser = self._robots[origin]
        return parser is None or parser.can_fetch(self.policy.user_agent, url)

    async def _robots_for(self, origin: str) -> RobotFileParser | None:
        try:
            request = self._request(f"{origin}/robots.txt", {})
            response = await asyncio.wait_for(
                self._client.send(request), timeout=min(5.0, self.policy.timeout)
            )
        except (FetchError, httpx.HTTPError, TimeoutError):
            return None  # no robots.txt to be had: nothing is disallowed
        if response.status_code != 200 or len(response.content) > 500_000:
            return None
        parser = RobotFileParser()
        parser.parse(response.text.splitlines())
        return parser


def _content_kind(header: str | None) -> str | None:
    if not header:
        return None
    return _ACCEPTED.get(header.split(";", 1)[0].strip().lower())


def _may_sniff(header: str | None) -> bool:
    """Servers that send no type, or a generic one, may still send a page."""
    kind = (header or "").split(";", 1)[0].strip().lower()
    return kind in ("", "application/octet-stream", "binary/octet-stream", "text/plain")


def _sniff(body: bytes) -> str | None:
    head = body[:1024].lstrip().lower()
    if head.startswith(b"%pdf-"):
        return "pdf"
    if head.startswith((b"<!doctype html", b"<html", b"<head", b"<body")) or b"<html" in head:
        return "html"
    return None


def _from_cache(url: str, cached: CachedPage) -> FetchedPage:
    return FetchedPage(
        url=url,
        final_url=cached.final_url,
        content_type=cached.content_type or "html",
        body=cached.body,
        etag=cached.etag,
        last_modified=cached.last_modified,
        from_cache=True,
        cached=cached,
    )
