"""The fetcher and a research run against pages that break the connection, the protocol or the address rules
(issue 21), all served on loopback by real servers. Every test runs under a connect guard that refuses, and
records, any connect beyond loopback: the tests assert that the code under test never even tried."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from sleuth.retrieval.web.fetcher import ROBOTS_MAX_BYTES, FetchedPage, Fetcher, FetchError, FetchPolicy
from tests.connect_guard import ConnectGuard, guarded
from tests.web_servers import BROKEN, PageServer, free_port, searxng

REPO = Path(__file__).resolve().parents[1]
#: Longer than httpx's own default timeout (5 s): the policy's timeout, not the library's, must fire.
TIMEOUT = 6.0
#: Where a result or a redirect may never lead, whatever the settings.
FORBIDDEN = {
    "169.254.169.254": "cloud metadata",
    "10.0.0.1": "private",
    "224.0.0.1": "multicast",
}


@pytest.fixture(autouse=True)
def guard() -> Iterator[ConnectGuard]:
    with guarded() as active:
        yield active


@pytest.fixture(scope="module")
def pages() -> Iterator[PageServer]:
    with PageServer() as server:
        yield server


def _fetch(policy: FetchPolicy, url: str) -> tuple[FetchedPage | FetchError, Fetcher]:
    """One fetch; anything but a page or a FetchError propagates and fails the test."""

    async def go() -> tuple[FetchedPage | FetchError, Fetcher]:
        fetcher = Fetcher(policy)
        try:
            return await fetcher.fetch(url), fetcher
        except FetchError as exc:
            return exc, fetcher
        finally:
            await fetcher.aclose()

    return asyncio.run(go())


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "sleuth.retrieval.web.fetcher" and r.levelno == logging.WARNING
    ]


# -- item 1: a broken page is one counted, logged failure of that page


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("closed-port", "cannot connect"),
        ("/late", f"no complete answer within {TIMEOUT:.0f} s"),
        ("/stall", f"no complete answer within {TIMEOUT:.0f} s"),
        ("/not-http", "not a valid HTTP answer"),
        ("/bad-chunk", "not a valid HTTP answer"),
    ],
)
def test_a_broken_page_is_one_counted_failure(
    pages: PageServer, guard: ConnectGuard, caplog: pytest.LogCaptureFixture, path: str, reason: str
) -> None:
    url = f"http://127.0.0.1:{free_port()}/page.html" if path == "closed-port" else f"{pages.base}{path}"
    result, fetcher = _fetch(FetchPolicy(allow_private=True, timeout=TIMEOUT), url)
    assert isinstance(result, FetchError) and reason in result.reason, result
    assert sum(fetcher.stats.failures.values()) == 1
    logged = _warnings(caplog)
    assert len(logged) == 1 and url in logged[0] and reason in logged[0], logged
    assert guard.blocked == []


@pytest.mark.parametrize(
    "target",
    [
        "http://127.0.0.1:99999/",  # a port out of range
        "http://[::1/",  # an unclosed IPv6 literal
        "http://127.0.0.1:8o/",  # a port that is not a number
        "http:///no-host",
        "gopher://127.0.0.1/",
    ],
)
def test_malformed_urls_and_redirects_are_failures_not_crashes(
    pages: PageServer, guard: ConnectGuard, target: str
) -> None:
    for url in (target, f"{pages.base}/redirect?to={quote(target, safe='')}"):
        result, fetcher = _fetch(FetchPolicy(allow_private=True, timeout=TIMEOUT), url)
        assert isinstance(result, FetchError), result
        assert sum(fetcher.stats.failures.values()) == 1
    assert guard.blocked == []


# -- item 2: SLEUTH_WEB_ALLOW_PRIVATE=1 allows loopback, never metadata, link-local, multicast or private


@pytest.mark.parametrize(("address", "kind"), FORBIDDEN.items())
def test_the_private_switch_never_opens_metadata_private_or_multicast(
    pages: PageServer, guard: ConnectGuard, address: str, kind: str
) -> None:
    direct = f"http://{address}/latest/meta-data/"
    for url in (direct, f"{pages.base}/redirect?to={quote(direct, safe='')}"):
        result, _ = _fetch(FetchPolicy(allow_private=True, timeout=TIMEOUT), url)
        assert isinstance(result, FetchError) and kind in result.reason, result
        assert "SLEUTH_WEB_ALLOW_PRIVATE=1 allows loopback only" in result.reason
    assert guard.blocked == []  # refused before any connect: the guard had nothing to stop
    page, _ = _fetch(FetchPolicy(allow_private=True), f"{pages.base}/pages/copper.html")
    assert isinstance(page, FetchedPage)  # loopback itself is what the switch is for


# -- item 4: robots.txt and page bodies are read to a cap of decoded bytes


def _peak_while(policy: FetchPolicy, url: str, warm_up: str) -> tuple[FetchedPage | FetchError, int]:
    """The fetch's result and the peak of Python's allocations during it (zlib's output included), after a
    fetch of ``warm_up`` has loaded what httpx imports on its first request."""

    async def go() -> tuple[FetchedPage | FetchError, int]:
        fetcher = Fetcher(policy)
        try:
            await fetcher.fetch(warm_up)
            tracemalloc.start()
            try:
                result: FetchedPage | FetchError = await fetcher.fetch(url)
            except FetchError as exc:
                result = exc
            return result, tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            await fetcher.aclose()

    return asyncio.run(go())


def test_a_gzip_bomb_page_stops_at_max_bytes_of_decoded_data(pages: PageServer, guard: ConnectGuard) -> None:
    max_bytes = 2_000_000
    policy = FetchPolicy(allow_private=True, timeout=30, max_bytes=max_bytes)
    result, peak = _peak_while(policy, f"{pages.base}/gzip-bomb", f"{pages.base}/pages/copper.html")
    assert isinstance(result, FetchError) and "larger than 2.0 MB" in result.reason, result
    # 256 MB behind 256 kB of gzip: at most the cap, one decoded piece and a copy of the body
    assert peak < 3 * max_bytes + 500_000, peak
    assert guard.blocked == []


@pytest.mark.parametrize("robots", ["gzip-bomb", "endless"])
def test_robots_txt_is_read_to_a_cap_and_its_rules_kept(
    pages: PageServer, guard: ConnectGuard, robots: str
) -> None:
    """What was read before the cap is honoured (as RFC 9309's parsing limit has it): the rules at the top
    of the file still disallow /private/, and the padding after them never fills memory."""
    with PageServer(robots=robots) as server:
        policy = FetchPolicy(allow_private=True, timeout=30)
        warm_up = f"{pages.base}/pages/copper.html"
        refused, peak = _peak_while(policy, f"{server.base}/private/secret.html", warm_up)
        assert isinstance(refused, FetchError) and "robots.txt" in refused.reason, refused
        assert peak < 3 * ROBOTS_MAX_BYTES + 500_000, peak  # 500 KiB of robots.txt read, never 256 MB
        page, _ = _fetch(policy, f"{server.base}/pages/copper.html")
        assert isinstance(page, FetchedPage)
    assert guard.blocked == []


# -- a research run over the broken pages


def test_research_completes_and_counts_every_broken_page(tmp_path: Path) -> None:
    """SearXNG returns the sample pages and every broken page above; the run writes its report, cites the
    sample pages and counts each broken page as a fetch failure. The CLI runs under the connect guard."""
    closed = f"http://127.0.0.1:{free_port()}/closed.html"
    forbidden = [f"http://{address}/latest/meta-data/" for address in FORBIDDEN]
    hostile = [closed, *BROKEN, forbidden[0], *(f"redirect?to={quote(u, safe='')}" for u in forbidden)]
    with PageServer(hostile) as server:
        (tmp_path / "searxng").mkdir()
        with searxng(tmp_path / "searxng", server.base) as searx:
            env = {
                **os.environ,
                "SLEUTH_SEARXNG_URL": searx,
                "SLEUTH_RUNS_DIR": str(tmp_path / "runs"),
                "HF_HUB_OFFLINE": "1",
                "SLEUTH_WEB_ALLOW_PRIVATE": "1",
                "SLEUTH_WEB_TIMEOUT": str(TIMEOUT + 2),
                "SLEUTH_WEB_PER_DOMAIN": "20",
                "SLEUTH_WEB_PAGES_PER_QUESTION": "20",
                "SLEUTH_WEB_MAX_PAGES": "100",
            }
            result = subprocess.run(
                [sys.executable, "-m", "tests.connect_guard", "sleuth.agent.cli", "research",
                 "How is lithium mined and used in batteries?", "--template", "market_brief", "--web",
                 "--no-corpus", "--no-llm", "--depth", "1", "--index", str(tmp_path / "index"), "--json"],
                capture_output=True, text=True, env=env, timeout=600, check=False, cwd=REPO,
            )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert "connect-guard: blocked" not in result.stderr
    report = json.loads(result.stdout)
    web = [e for e in report["evidence"] if e["kind"] == "web"]
    assert web and all(e["url"].startswith(server.base + "/pages/") for e in web)
    failures = report["metrics"]["web"]["fetch_failures"]
    assert sum(failures.values()) >= len(hostile), failures
    lines = [line for line in result.stderr.splitlines() if "web: " in line]
    for entry in hostile:
        url = entry if "://" in entry else f"{server.base}/{entry}"
        assert sum(1 for line in lines if f"web: {url}: " in line) == 1, (url, lines)
