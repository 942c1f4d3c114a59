"""Hold-out check of issue 21's items 1 and 2 with hostile pages and address spellings that the fetcher's
tests never used: every broken page must be one counted ``FetchError`` (nothing else raised), and
``allow_private`` (SLEUTH_WEB_ALLOW_PRIVATE=1) must open loopback and nothing else, directly or through a
redirect, in any spelling. Everything runs on loopback under the tests' connect guard, which refuses and
records any connect beyond it; no host name is looked up (the only names are ones IDNA refuses to encode).

    python -m benchmarks.web_holdout          # prints one line per case; exit status 1 if any case failed
"""

from __future__ import annotations

import asyncio
import socket
import socketserver
import struct
import sys
import threading
import time
import tracemalloc
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote, unquote

from sleuth.retrieval.web.fetcher import FetchedPage, Fetcher, FetchError, FetchPolicy
from tests.connect_guard import guarded

TIMEOUT = 7.0  # longer than httpx's default 5 s
MAX_BYTES = 2_000_000
_HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"


def _deflate_bomb(size: int) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = b"\0" * (1 << 20)
    return b"".join(compressor.compress(block) for _ in range(size >> 20)) + compressor.flush()


DEFLATE_BOMB = _deflate_bomb(128 << 20)


def _reset(sock: socket.socket) -> None:
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _trickle(sock: socket.socket) -> None:
    sock.sendall(f"{_HEAD}Content-Length: 100000\r\n\r\n".encode())
    for _ in range(120):
        sock.sendall(b"x")
        time.sleep(0.5)


#: path -> what the server does with the connection after reading the request.
BEHAVIOURS: dict[str, Callable[[socket.socket], None]] = {
    "/status-then-stall": lambda s: (s.sendall(b"HTTP/1.1 200 OK\r\n"), time.sleep(60)),
    "/headers-then-stall": lambda s: (
        s.sendall(f"{_HEAD}Content-Length: 5000\r\n\r\n".encode()),
        time.sleep(60),
    ),
    "/chunk-stall": lambda s: (
        s.sendall(f"{_HEAD}Transfer-Encoding: chunked\r\n\r\n100\r\n{'<p>' * 16}".encode()),
        time.sleep(60),
    ),
    "/trickle": _trickle,
    "/first-byte-after-20s": lambda s: (
        time.sleep(20),
        s.sendall(f"{_HEAD}Content-Length: 2\r\n\r\nhi".encode()),
    ),
    "/reset-after-headers": lambda s: (
        s.sendall(f"{_HEAD}Content-Length: 5000\r\n\r\n<p>".encode()),
        _reset(s),
    ),
    "/empty-reply": lambda s: None,
    "/http09": lambda s: s.sendall(b"<html><body>no status line</body></html>"),
    "/bad-status": lambda s: s.sendall(b"HTTP/1.1 abc OK\r\nContent-Length: 0\r\n\r\n"),
    "/header-without-colon": lambda s: s.sendall(b"HTTP/1.1 200 OK\r\nContent-Type text/html\r\n\r\n"),
    "/huge-header": lambda s: s.sendall(b"HTTP/1.1 200 OK\r\nX-A: " + b"a" * 300_000 + b"\r\n\r\n"),
    "/short-body": lambda s: s.sendall(f"{_HEAD}Content-Length: 10000\r\n\r\n<html><body>".encode()),
    "/corrupt-gzip": lambda s: s.sendall(
        f"{_HEAD}Content-Encoding: gzip\r\nContent-Length: 64\r\n\r\n".encode() + bytes(range(64))
    ),
    "/brotli": lambda s: s.sendall(
        f"{_HEAD}Content-Encoding: br\r\nContent-Length: 8\r\n\r\n".encode()
        + b"\x1b\x03\x00\xf8\xa5\x00\x00\x00"
    ),
    "/double-gzip": lambda s: s.sendall(
        f"{_HEAD}Content-Encoding: gzip, gzip\r\n\r\n".encode() + zlib.compress(zlib.compress(b"<p>" * 1000))
    ),
    "/deflate-bomb": lambda s: s.sendall(
        f"{_HEAD}Content-Encoding: deflate\r\nContent-Length: {len(DEFLATE_BOMB)}\r\n\r\n".encode()
        + DEFLATE_BOMB
    ),
    "/redirect-bad-port": lambda s: s.sendall(
        b"HTTP/1.1 301 Moved\r\nLocation: http://127.0.0.1:70000/\r\n\r\n"
    ),
    "/redirect-file": lambda s: s.sendall(b"HTTP/1.1 302 Found\r\nLocation: file:///etc/passwd\r\n\r\n"),
    "/redirect-empty-location": lambda s: s.sendall(b"HTTP/1.1 302 Found\r\nLocation: \r\n\r\n"),
    "/redirect-bad-zone": lambda s: s.sendall(b"HTTP/1.1 307 Temporary\r\nLocation: http://[::1%zz/\r\n\r\n"),
    "/redirect-long-label": lambda s: s.sendall(
        b"HTTP/1.1 302 Found\r\nLocation: http://" + b"a" * 64 + b".invalid/\r\n\r\n"
    ),
    "/redirect-to": lambda s: None,  # answered in the handler: 302 to ?to=
    "/page": lambda s: s.sendall(f"{_HEAD}Content-Length: 30\r\n\r\n<html><body>fine</body></html>".encode()),
}

#: Addresses no setting opens, in spellings the tests never used.
FORBIDDEN = [
    "[::ffff:169.254.169.254]", "[::ffff:a9fe:a9fe]", "2852039166", "0251.0376.0251.0376",
    "0xa9.0xfe.0xa9.0xfe", "0xa9fea9fe", "169.254.43518", "0251.254.169.254", "[fe80::1]", "[fe80::1%25lo]",
    "169.254.1.1", "0", "[::]", "0.0.0.0", "172.31.255.255", "192.168.0.1", "[fd12:3456::1]",
    "[::ffff:10.1.2.3]", "100.127.255.254", "240.0.0.1", "255.255.255.255", "198.19.0.1", "203.0.113.5",
    "239.255.255.250", "[ff02::1]", "[ff05::1:3]", "[::a9fe:a9fe]", "[2001:db8::1]", "[2002:a9fe:a9fe::]",
    "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",
]  # fmt: skip


class _Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        sock: socket.socket = self.request
        data = b""
        while b"\r\n\r\n" not in data and len(data) < 65536:
            piece = sock.recv(4096)
            if not piece:
                return
            data += piece
        target = data.split(b" ", 2)[1].decode("latin-1") if data.count(b" ") >= 2 else "/"
        path, _, query = target.partition("?")
        try:
            if path == "/robots.txt":
                sock.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            elif path == "/redirect-to":
                location = unquote(query.removeprefix("to="))
                sock.sendall(
                    f"HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\n\r\n".encode()
                )
            else:
                BEHAVIOURS.get(path, lambda s: s.sendall(b"HTTP/1.1 404 Not Found\r\n\r\n"))(sock)
        except OSError:
            pass


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass


@dataclass
class Outcome:
    case: str
    ok: bool
    detail: str
    seconds: float
    blocked: int


def _fetch(policy: FetchPolicy, url: str) -> tuple[FetchedPage | FetchError | BaseException, int, float, int]:
    """The result (or whatever escaped), failures counted, seconds, peak traced bytes."""

    async def go() -> tuple[FetchedPage | FetchError | BaseException, int]:
        fetcher = Fetcher(policy)
        try:
            return await fetcher.fetch(url), sum(fetcher.stats.failures.values())
        except Exception as exc:  # a FetchError as expected, or anything that escaped: both are reported
            return exc, sum(fetcher.stats.failures.values())
        finally:
            await fetcher.aclose()

    started = time.monotonic()
    tracemalloc.start()
    try:
        result, failures = asyncio.run(go())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, failures, time.monotonic() - started, peak


def _describe(result: object) -> str:
    if isinstance(result, FetchError):
        return f"FetchError: {result.reason}"
    if isinstance(result, FetchedPage):
        return f"page ({len(result.body)} bytes)"
    return f"ESCAPED {type(result).__name__}: {result}"


def broken_pages(base: str, closed_v6: str) -> list[Outcome]:
    """Item 1: each broken page is exactly one counted FetchError."""
    policy = FetchPolicy(allow_private=True, timeout=TIMEOUT, max_bytes=MAX_BYTES)
    urls = {path: f"{base}{path}" for path in BEHAVIOURS if path not in ("/redirect-to", "/page")}
    urls["/tls-on-plain-http"] = base.replace("http://", "https://") + "/page"
    urls["/closed-port-ipv6"] = closed_v6
    outcomes = []
    for case, url in urls.items():
        with guarded() as guard:
            result, failures, seconds, peak = _fetch(policy, url)
        ok = isinstance(result, FetchError) and failures == 1 and not guard.blocked
        detail = f"{_describe(result)}; peak {peak / 1e6:.1f} MB"
        outcomes.append(Outcome(f"item 1 {case}", ok, detail, seconds, len(guard.blocked)))
    return outcomes


def forbidden_addresses(base: str) -> list[Outcome]:
    """Item 2: no spelling of a non-loopback, non-public address is fetched, directly (with the switch on or
    off) or through a redirect from a loopback page (switch on: off, the loopback page is refused itself);
    nothing even tries to connect."""
    outcomes = []
    for host in FORBIDDEN:
        direct = f"http://{host}/latest/meta-data/"
        redirect = f"{base}/redirect-to?to={quote(direct, safe='')}"
        for how, url, switches in (("direct", direct, (True, False)), ("redirect", redirect, (True,))):
            for switch in switches:
                with guarded() as guard:
                    result, failures, seconds, _ = _fetch(
                        FetchPolicy(allow_private=switch, timeout=TIMEOUT), url
                    )
                ok = (
                    isinstance(result, FetchError)
                    and "never fetched" in result.reason
                    and failures == 1
                    and not guard.blocked
                )
                case = f"item 2 {host} {how} allow_private={int(switch)}"
                outcomes.append(Outcome(case, ok, _describe(result), seconds, len(guard.blocked)))
    return outcomes


def loopback_spellings(port: int) -> list[Outcome]:
    """The control: the switch still opens loopback in other spellings, and nothing opens it without it."""
    outcomes = []
    for host in ("2130706433", "0x7f000001", "0177.0.0.1", "127.1", "[::ffff:127.0.0.1]"):
        url = f"http://{host}:{port}/page"
        for switch in (True, False):
            with guarded() as guard:
                result, _, seconds, _ = _fetch(FetchPolicy(allow_private=switch, timeout=TIMEOUT), url)
            fetched = isinstance(result, FetchedPage)
            refused = (
                isinstance(result, FetchError) and "SLEUTH_WEB_ALLOW_PRIVATE=1 to fetch it" in result.reason
            )
            ok = (fetched if switch else refused) and not guard.blocked
            case = f"control {host} allow_private={int(switch)}"
            outcomes.append(Outcome(case, ok, _describe(result), seconds, len(guard.blocked)))
    return outcomes


def main() -> int:
    server = _Server(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    base = f"http://127.0.0.1:{port}"
    with socket.socket(socket.AF_INET6) as s:
        s.bind(("::1", 0))
        closed_v6 = f"http://[::1]:{s.getsockname()[1]}/"
    try:
        outcomes = broken_pages(base, closed_v6) + forbidden_addresses(base) + loopback_spellings(port)
    finally:
        server.shutdown()
        server.server_close()
    for o in outcomes:
        mark = "ok  " if o.ok else "FAIL"
        print(f"{mark} {o.case}: {o.detail} ({o.seconds:.1f} s, guard blocked {o.blocked})")
    failed = [o for o in outcomes if not o.ok]
    print(f"\n{len(outcomes) - len(failed)} of {len(outcomes)} cases held; {len(failed)} failed.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
