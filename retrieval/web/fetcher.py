"""Fetching result pages safely: only public addresses (checked, then connected to), redirects followed by
hand and each hop checked again, a streamed cap on the decoded size, a per-page timeout and a run deadline,
one concurrency limit and one page budget shared by every branch of a run, robots.txt, a polite user agent,
and a cache with conditional GETs.

A page is untrusted input: whatever goes wrong while fetching it (a closed port, a stall, another protocol on
the port, a malformed URL or redirect, a body that inflates without end) is a ``FetchError`` naming the page
and the reason, counted in ``stats`` and logged once, and the run goes on without that page.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import SplitResult, urljoin, urlsplit, urlunsplit
from urllib.robotparser import RobotFileParser

import httpx

from sleuth.ingest.errors import InputError
from sleuth.retrieval.web.addresses import BlockedAddressError, Target, literal_address, resolve
from sleuth.retrieval.web.cache import CachedPage, FetchCache
from sleuth.retrieval.web.urls import canonical_url

log = logging.getLogger(__name__)
USER_AGENT = "sleuth/0.1 (deep-research agent; +https://github.com/sleuth-research/sleuth)"
_ACCEPTED = {"text/html": "html", "application/xhtml+xml": "html", "application/pdf": "pdf"}
#: RFC 9309's parsing limit (at least 500 KiB): what lies beyond it is not read.
ROBOTS_MAX_BYTES = 500 * 1024
#: Seconds robots.txt may take, within the page's own timeout.
ROBOTS_SECONDS = 5.0
#: The codings ``_Inflater`` undoes with a bound on the output: the only ones asked for.
_ACCEPT_ENCODING = "gzip, deflate"


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
        # Name lookups block: they run on threads of their own, so that a slow resolver neither stalls the
        # event loop (where no timeout could fire) nor takes the threads the run embeds with.
        self._resolver = ThreadPoolExecutor(max_workers=policy.concurrency, thread_name_prefix="sleuth-dns")
        self._client = httpx.AsyncClient(
            follow_redirects=False,
            headers={
                "User-Agent": policy.user_agent,
                "Accept": "text/html,application/xhtml+xml,application/pdf",
                "Accept-Encoding": _ACCEPT_ENCODING,
            },
            # The policy's per-page timeout (around the whole fetch: robots.txt, every hop, the body) is
            # what fires; httpx's own timeouts (5 s by default, per connect or read) only back it up.
            timeout=httpx.Timeout(policy.timeout + 1.0),
            transport=transport,
            trust_env=False,  # never through a proxy: the address checked is the address connected to
        )

    async def aclose(self) -> None:
        await self._client.aclose()
        self._resolver.shutdown(wait=False, cancel_futures=True)

    async def fetch(self, url: str) -> FetchedPage:
        """The page at ``url``; raises ``FetchError`` (counted and logged) for anything that goes wrong with
        the page, and nothing else but cancellation and the local cache's own errors."""
        try:
            canonical = canonical_url(url)
        except ValueError as exc:
            raise self._failed(url, f"not a valid URL ({exc})") from None
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
            except FetchError as exc:
                where = "" if exc.url == url else f" (at {exc.url})"
                raise self._failed(url, exc.reason + where) from None
            except Exception as exc:  # any failure of one page is that page's, never the run's
                raise self._failed(url, _reason(exc, timeout)) from None
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
            parts, target = await self._target(current)  # before anything is sent, robots.txt included
            if self.policy.respect_robots and not await self._allowed(current, parts, target):
                raise FetchError(current, "disallowed by robots.txt")
            headers = {}
            if cached is not None and current == url:
                if cached.etag:
                    headers["If-None-Match"] = cached.etag
                if cached.last_modified:
                    headers["If-Modified-Since"] = cached.last_modified
            request = self._request(parts, target, headers)
            response = await self._client.send(request, stream=True)
            try:
                if response.status_code in (301, 302, 303, 307, 308):
                    location = response.headers.get("Location")
                    if not location:
                        raise FetchError(current, f"HTTP {response.status_code} without a Location")
                    try:
                        current = urljoin(current, location)
                    except ValueError as exc:
                        raise FetchError(current, f"a redirect to a malformed URL ({exc})") from None
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

    async def _target(self, url: str) -> tuple[SplitResult, Target]:
        """The URL's parts and the one address its host was checked to resolve to (every hop, the same
        rules: ``addresses.refusal``)."""
        try:
            parts = urlsplit(url)
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError as exc:
            raise FetchError(url, f"not a valid URL ({exc})") from None
        if parts.scheme not in ("http", "https"):
            raise FetchError(url, f"scheme {parts.scheme or 'missing'!r} refused (http and https only)")
        if not parts.hostname:
            raise FetchError(url, "no host")
        try:
            if literal_address(parts.hostname) is not None:  # nothing to look up
                target = resolve(parts.hostname, port, allow_private=self.policy.allow_private)
            else:
                lookup = asyncio.get_running_loop().run_in_executor(
                    self._resolver,
                    lambda: resolve(parts.hostname or "", port, allow_private=self.policy.allow_private),
                )
                target = await lookup
        except BlockedAddressError as exc:
            raise FetchError(url, str(exc)) from None
        return parts, target

    def _request(self, parts: SplitResult, target: Target, headers: dict[str, str]) -> httpx.Request:
        """A request to the address the host was checked to resolve to (no second lookup)."""
        address = f"[{target.address}]" if ":" in target.address else target.address
        pinned = urlunsplit((parts.scheme, f"{address}:{target.port}", parts.path or "/", parts.query, ""))
        name = _ascii_host(parts)
        host = f"[{name}]" if ":" in name else name
        host_header = host if parts.port is None else f"{host}:{parts.port}"
        extensions = {"sni_hostname": name} if parts.scheme == "https" else {}
        return self._client.build_request(
            "GET", pinned, headers={**headers, "Host": host_header}, extensions=extensions
        )

    async def _read(self, url: str, response: httpx.Response) -> bytes:
        declared = response.headers.get("Content-Length")
        if declared and declared.isdigit() and int(declared) > self.policy.max_bytes:
            raise FetchError(
                url, f"larger than {self.policy.max_bytes / 1e6:.1f} MB ({int(declared) / 1e6:.1f} MB)"
            )
        body = bytearray()
        if not await _read_decoded(url, response, body, self.policy.max_bytes):
            raise FetchError(url, f"larger than {self.policy.max_bytes / 1e6:.1f} MB (stopped reading)")
        return bytes(body)

    async def _allowed(self, url: str, parts: SplitResult, target: Target) -> bool:
        origin = f"{parts.scheme}://{parts.netloc}"
        if origin not in self._robots:
            self._robots[origin] = await self._robots_for(origin, parts, target)
        parser = self._robots[origin]
        return parser is None or parser.can_fetch(self.policy.user_agent, url)

    async def _robots_for(self, origin: str, parts: SplitResult, target: Target) -> RobotFileParser | None:
        """The rules of ``origin``'s robots.txt, from at most ``ROBOTS_MAX_BYTES`` of it (decoded) read within
        ``ROBOTS_SECONDS``; None (nothing disallowed) when there is none to be had.

        A robots.txt cut by either limit is parsed as far as it was read, up to its last whole line: RFC 9309
        lets crawlers stop at a parsing limit of at least 500 KiB and honour what came before it, and the
        rules that matter sit at the top. Dropping a long file's rules instead would let padding switch
        them off."""
        robots = parts._replace(path="/robots.txt", query="", fragment="")
        body = bytearray()
        complete = False

        async def read() -> bool:
            request = self._request(robots, target, {})
            response = await self._client.send(request, stream=True)
            try:
                if response.status_code != 200:
                    return False
                return await _read_decoded(origin, response, body, ROBOTS_MAX_BYTES)
            finally:
                await response.aclose()

        try:
            complete = await asyncio.wait_for(read(), timeout=min(ROBOTS_SECONDS, self.policy.timeout))
        except Exception as exc:  # robots.txt that cannot be had is no robots.txt; the page's fetch says why
            log.debug("robots.txt of %s: %s", origin, exc)
        if not body:
            return None  # none, or nothing of it read: nothing is disallowed
        if not complete:
            del body[body.rfind(b"\n") + 1 :]  # a line cut short could change what a rule says
        parser = RobotFileParser()
        parser.parse(_lines(body))
        return parser


async def _read_decoded(url: str, response: httpx.Response, body: bytearray, limit: int) -> bool:
    """Read ``response`` into ``body``, Content-Encoding undone, stopping once the decoded body would exceed
    ``limit`` bytes; True when the whole body fit. Raw bytes arrive in pieces of at most 64 KiB and no piece
    inflates beyond the room left, so a gzip bomb costs ``limit`` bytes of memory, not what it expands to."""
    inflater = _Inflater(url, response.headers.get("Content-Encoding"))
    async for chunk in response.aiter_raw():
        body += inflater.inflate(chunk, limit + 1 - len(body))
        if len(body) > limit:
            del body[limit:]
            return False
    body += inflater.flush(limit + 1 - len(body))
    if len(body) > limit:
        del body[limit:]
        return False
    return True


class _Inflater:
    """Undoes a gzip or deflate Content-Encoding with zlib's ``max_length``: no call returns more than the
    room left. httpx's own decoders have no output bound (one 64 KiB piece of a gzip bomb inflates to 64 MB
    at once), so bodies are read raw and decoded here. One coding at most: stacked codings (``gzip, gzip``,
    a bomb of bombs) and codings that were not asked for are refused."""

    def __init__(self, url: str, header: str | None) -> None:
        codings = [c.strip().lower() for c in (header or "").split(",")]
        codings = [c for c in codings if c and c != "identity"]
        self._url = url
        self._zlib: zlib._Decompress | None = None
        self._deflate = False
        if not codings:
            return
        if codings in (["gzip"], ["x-gzip"]):
            self._zlib = zlib.decompressobj(zlib.MAX_WBITS | 16)
        elif codings == ["deflate"]:
            self._zlib = zlib.decompressobj()
            self._deflate = True  # zlib-wrapped as the RFC says, or raw as some servers send it
        else:
            raise FetchError(url, f"unsupported Content-Encoding {header!r} (asked for {_ACCEPT_ENCODING})")

    def inflate(self, data: bytes, room: int) -> bytes:
        if self._zlib is None:
            return data
        try:
            out = self._zlib.decompress(data, room)
        except zlib.error as exc:
            if not self._deflate:
                raise FetchError(self._url, f"cannot decode the body ({exc})") from None
            self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)  # not zlib-wrapped: raw deflate
            self._deflate = False
            return self.inflate(data, room)
        self._deflate = False  # the first piece said which deflate it is
        return out

    def flush(self, room: int) -> bytes:
        if self._zlib is None:
            return b""
        try:
            return self._zlib.flush(room)
        except zlib.error as exc:
            raise FetchError(self._url, f"cannot decode the body ({exc})") from None


def _lines(body: bytearray) -> Iterator[str]:
    """robots.txt's lines one at a time: a list of them would cost eight bytes a line on top of the text
    (4 MB for 500 KiB of empty lines)."""
    start = 0
    while start < len(body):
        end = body.find(b"\n", start)
        end = len(body) if end < 0 else end
        yield body[start:end].decode("utf-8", errors="replace")
        start = end + 1


def _reason(exc: BaseException, timeout: float) -> str:
    """One line saying why a page failed, for an exception that is not a ``FetchError``."""
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    detail = detail if len(detail) <= 160 else detail[:157] + "..."
    if isinstance(exc, (TimeoutError, httpx.TimeoutException)):
        return f"no complete answer within {timeout:.0f} s"
    if isinstance(exc, httpx.ConnectError):
        return f"cannot connect ({detail})"
    if isinstance(exc, (httpx.ProtocolError, httpx.UnsupportedProtocol, httpx.DecodingError)):
        return f"not a valid HTTP answer ({detail})"
    if isinstance(exc, (httpx.InvalidURL, ValueError)):  # UnicodeError included
        return f"not a valid URL ({detail})"
    if isinstance(exc, ssl.SSLError):
        return f"TLS failed ({detail})"
    if isinstance(exc, (httpx.HTTPError, httpx.StreamError, OSError)):
        return f"connection failed ({detail})"
    log.debug("web: unexpected failure", exc_info=exc)
    return f"unexpected failure ({detail})"


def _ascii_host(parts: SplitResult) -> str:
    """The host as it goes into the Host header and TLS's server name: internationalised names in IDNA."""
    host = parts.hostname or ""
    try:
        return host if host.isascii() else host.encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise FetchError(urlunsplit(parts), f"not a valid host name ({exc})") from None


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
