"""The HTTP API against hostile or careless clients: cross-origin writes, chunked bodies past the limit,
upload names and repeats, the operator's file limit, template names that are paths, empty or NUL queries and
bad ``Last-Event-ID`` values. A real ``sleuth serve`` on loopback; raw sockets where httpx would be too
polite."""

from __future__ import annotations

import asyncio
import os
import select
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.test_api import Server, sse
from tests.test_cli import run

NOTE = "# Zircon note\n\nZircon crystals date the oldest rocks on Earth.\n"
BASALT = b"# Basalt note\n\nBasalt forms from rapidly cooled lava on the ocean floor.\n"
GOOD = "http://good.example"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "docs").mkdir()
    (folder / "docs" / "zircon.md").write_text(NOTE)
    result = run(["ingest", str(folder / "docs"), "--index", str(folder / "index")], cwd=folder)
    assert result.returncode == 0, result.stderr
    (folder / "root").mkdir()
    (folder / "root" / "huge.md").write_text("# Huge\n\n" + "Gabbro is coarse. " * 90_000)  # 1.6 MB
    evil = folder / "planted"
    evil.mkdir()
    (evil / "evil.yaml").write_text("name: evil\ntitle: Evil\nsections: []\n")
    return folder


@pytest.fixture(scope="module")
def api(folder: Path) -> Iterator[Server]:
    s = Server(
        folder,
        "open",
        SLEUTH_RUNS_DIR="rel/runs",  # relative, as the default is: uploads must work with it
        SLEUTH_API_MAX_BODY_MB="3",
        SLEUTH_MAX_FILE_MB="1",
        SLEUTH_API_CORS_ORIGINS=f'["{GOOD}"]',
    )
    yield s
    s.close()


def _chunks(server: Server) -> int:
    return int(httpx.get(f"{server.base}/healthz").json()["chunks"])


def _chunked_post(server: Server, path: str, content_type: str, head: bytes, limit_mb: int) -> bytes:
    """POST a chunked body that never ends (up to ``limit_mb``) and return the raw response: sending stops as
    soon as the server answers."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: {content_type}\r\n"
            "Transfer-Encoding: chunked\r\n\r\n".encode()
        )
        piece = b"A" * 65536
        sent = 0
        try:
            for block in (head, *[piece] * (limit_mb * 16)):
                sock.sendall(f"{len(block):x}\r\n".encode() + block + b"\r\n")
                sent += len(block)
                if select.select([sock], [], [], 0)[0]:
                    break
            else:
                raise AssertionError(f"the server took {sent} bytes of a chunked body without answering")
        except (BrokenPipeError, ConnectionResetError):
            pass  # it answered and closed while we were still sending
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    return answer


def _upload(server: Server, *files: tuple[str, bytes], **headers: str) -> httpx.Response:
    return httpx.post(
        f"{server.base}/v1/ingest", files=[("files", f) for f in files], headers=headers, timeout=300
    )


def test_cross_origin_writes_are_refused_and_same_origin_or_allowed_ones_go_on(api: Server) -> None:
    before = _chunks(api)
    simple = httpx.post(
        f"{api.base}/v1/ingest",
        content=b'{"paths": ["."]}',
        headers={"Content-Type": "text/plain", "Origin": "http://evil.example"},
    )
    assert simple.status_code == 403 and "http://evil.example" in simple.json()["error"]
    form = _upload(api, ("evil.md", b"# Evil\n\nPlanted text.\n"), Origin="http://evil.example")
    assert form.status_code == 403
    research = httpx.post(
        f"{api.base}/v1/research",
        json={"query": "zircon", "template": "brief"},
        headers={"Origin": "null"},
    )
    assert research.status_code == 403
    fetch_meta = httpx.post(
        f"{api.base}/v1/ingest", json={"paths": ["."]}, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert fetch_meta.status_code == 403
    assert _chunks(api) == before and not (api.root.parent / "rel" / "uploads" / "evil.md").exists()
    # Reading is not writing; the server's own pages and the allowed origin may write.
    assert httpx.get(f"{api.base}/v1/templates", headers={"Origin": "http://evil.example"}).status_code == 200
    for origin in (f"http://127.0.0.1:{api.port}", GOOD):
        answer = httpx.post(f"{api.base}/v1/ingest", json={"paths": ["."]}, headers={"Origin": origin})
        assert answer.status_code == 200, answer.text


def test_chunked_bodies_stop_at_the_limit_without_an_echo(api: Server) -> None:
    before = _chunks(api)
    answer = _chunked_post(api, "/v1/ingest", "application/json", b'{"paths": ["', 40)
    status, _, body = answer.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 413") and len(body) < 200 and b"3 MB" in body
    boundary = "sleuthboundary"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="flood.md"\r\n'
        "Content-Type: text/markdown\r\n\r\n# Flood\n\n"
    ).encode()
    answer = _chunked_post(api, "/v1/ingest", f"multipart/form-data; boundary={boundary}", head, 40)
    assert answer.startswith(b"HTTP/1.1 413") and b"AAAA" not in answer
    answer = _chunked_post(api, "/v1/research", "application/json", b'{"query": "', 40)
    assert answer.startswith(b"HTTP/1.1 413") and len(answer) < 400
    # A declared length over the limit is refused before any of it is read.
    declared = httpx.post(f"{api.base}/v1/ingest", content=b"x" * 3_100_000)
    assert declared.status_code == 413 and declared.json() == {"error": "request body over 3 MB"}
    assert _chunks(api) == before and not (api.root.parent / "rel" / "uploads" / "flood.md").exists()
    # A validation error names the field, never echoes the body.
    invalid = httpx.post(f"{api.base}/v1/research", json={"query": "Q" * 2_500_000, "template": "brief"})
    assert invalid.status_code == 422 and "query" in invalid.json()["error"] and len(invalid.content) < 2000


def test_uploads_are_kept_once_by_name_and_can_be_removed(api: Server, folder: Path) -> None:
    uploads = folder / "rel" / "uploads"  # next to the relative runs folder, under the server's cwd
    first = _upload(api, ("basalt.md", BASALT))
    assert first.status_code == 200 and first.json()["added"] == 1, first.text
    for _ in range(2):
        again = _upload(api, ("basalt.md", BASALT))
        assert again.json()["unchanged"] == 1 and again.json()["added"] == 0
    hits = httpx.get(f"{api.base}/v1/search", params={"q": "basalt lava ocean floor", "k": 10}).json()
    assert [h["document_id"] for h in hits].count("basalt") == 1
    assert not any("~" in h["document_id"] for h in hits)
    assert sorted(p.name for p in uploads.iterdir()) == ["basalt.md"]

    changed = _upload(api, ("basalt.md", BASALT + b"\nBasalt weathers into fertile soil.\n"))
    assert changed.json()["updated"] == 1
    pair = _upload(api, ("gneiss.md", b"# Gneiss\n\nGneiss is banded.\n"), ("gneiss.md", b"# Other\n\nNo.\n"))
    body = pair.json()
    assert body["added"] == 1 and body["failed"] == 1
    assert body["errors"] == ["gneiss.md: a second file of this name in one upload; only the first is kept"]
    climbing = _upload(api, ("../../escape.md", b"# Escape\n\nClimbing out.\n"))
    assert climbing.json()["added"] == 1 and (uploads / "escape.md").is_file()
    assert not (folder / "escape.md").exists() and not (folder / "rel" / "escape.md").exists()

    for bad, reason in ((".hidden.md", "hidden"), ("", "no file name"), ("x" * 300 + ".md", "bytes")):
        refused = _upload(api, (bad, b"# Bad\n\nName.\n"))
        assert refused.status_code == 400 and reason in refused.json()["error"], refused.text
        mixed = _upload(api, (bad, b"# Bad\n\nName.\n"), ("granite.md", b"# Granite\n\nGranite is coarse.\n"))
        assert (
            mixed.status_code == 200 and mixed.json()["failed"] == 1 and reason in mixed.json()["errors"][0]
        )

    removed = httpx.delete(f"{api.base}/v1/documents/basalt")
    assert removed.status_code == 200 and removed.json()["removed"] == 1
    assert not (uploads / "basalt.md").exists()
    hits = httpx.get(f"{api.base}/v1/search", params={"q": "basalt lava ocean floor", "k": 10}).json()
    assert "basalt" not in [h["document_id"] for h in hits]
    gone = httpx.delete(f"{api.base}/v1/documents/basalt")
    assert gone.status_code == 404 and "basalt" in gone.json()["error"]


def test_api_ingest_refuses_files_over_max_file_mb_as_the_cli_does(api: Server, folder: Path) -> None:
    by_path = httpx.post(f"{api.base}/v1/ingest", json={"paths": ["huge.md"]}, timeout=300).json()
    assert by_path["added"] == 0 and by_path["failed"] == 1
    [line] = by_path["errors"]
    assert "huge.md" in line
    uploaded = _upload(api, ("huge2.md", (folder / "root" / "huge.md").read_bytes())).json()
    assert uploaded["added"] == 0 and uploaded["failed"] == 1 and "huge2.md" in uploaded["errors"][0]
    cli = run(
        ["ingest", str(folder / "root" / "huge.md"), "--index", str(folder / "cli-index")],
        cwd=folder,
        env={"SLEUTH_MAX_FILE_MB": "1"},
    )
    assert cli.returncode == 1
    reason = line.split("huge.md", 1)[1]
    assert reason and reason in cli.stderr  # the same reason, word for word


@pytest.mark.parametrize(
    "name",
    ["../../etc/passwd", "/etc/passwd", "PLANTED/evil", "../planted/evil", ".hidden", "a/b", "x" * 200],
)
def test_template_names_are_never_paths(api: Server, folder: Path, name: str) -> None:
    name = name.replace("PLANTED", str(folder / "planted"))
    answer = httpx.post(f"{api.base}/v1/research", json={"query": "zircon", "template": name[:100]})
    assert answer.status_code in (400, 422), answer.text
    error = answer.json()["error"]
    assert "\n" not in error and "Traceback" not in error
    assert all(r["template"] != "evil" for r in httpx.get(f"{api.base}/v1/research").json())


def test_empty_or_nul_queries_and_bad_event_ids_are_clear_errors(api: Server) -> None:
    for query in ("   ", "\t\n", "zircon\x00crystals", "zircon\x07"):
        for route in ("/v1/research", "/v1/research/stream"):
            answer = httpx.post(f"{api.base}{route}", json={"query": query, "template": "brief"})
            assert answer.status_code == 400 and "query" in answer.json()["error"], answer.text
        found = httpx.get(f"{api.base}/v1/search", params={"q": query})
        assert found.status_code == 400 and "query" in found.json()["error"]
    idle = httpx.post(f"{api.base}/v1/research", json={"query": "zircon", "template": "brief", "depth": 0})
    assert idle.json()["status"] == "running" and idle.json()["queue_position"] is None  # nothing ahead of it
    started = httpx.post(
        f"{api.base}/v1/research/stream", json={"query": "zircon crystals", "template": "brief", "depth": 0},
        timeout=300,
    )  # fmt: skip
    events = sse(started)
    run_id = events[-1]["run_id"]
    url = f"{api.base}/v1/research/{run_id}/events"
    for bad in ("abc", "-1", "9" * 5000, "\u0663", "1.5", "99999999999999999"):
        answer = httpx.get(url, headers={"Last-Event-ID": bad.encode()})
        assert answer.status_code == 400 and "Last-Event-ID" in answer.json()["error"], (bad, answer.text)
    assert sse(httpx.get(url, headers={"Last-Event-ID": ""})) == events
    assert sse(httpx.get(url, headers={"Last-Event-ID": "2"})) == events[2:]
    assert httpx.get(url, params={"after": 10**30}).status_code == 422


def test_a_cors_preflight_needs_no_key(folder: Path) -> None:
    keyed = Server(
        folder,
        "keyed",
        SLEUTH_API_KEY="k3y",
        SLEUTH_API_CORS_ORIGINS=f'["{GOOD}"]',
        SLEUTH_INDEX=str(folder / "keyed-index"),
    )
    try:
        preflight = httpx.options(
            f"{keyed.base}/v1/ingest",
            headers={
                "Origin": GOOD,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "x-api-key, content-type",
            },
        )
        assert preflight.status_code == 200 and preflight.headers["access-control-allow-origin"] == GOOD
        allowed = httpx.get(f"{keyed.base}/v1/templates", headers={"Origin": GOOD, "X-API-Key": "k3y"})
        assert allowed.status_code == 200 and allowed.headers["access-control-allow-origin"] == GOOD
        assert httpx.get(f"{keyed.base}/v1/templates", headers={"Origin": GOOD}).status_code == 401
        evil = httpx.post(
            f"{keyed.base}/v1/ingest",
            json={"paths": ["."]},
            headers={"Origin": "http://evil.example", "X-API-Key": "k3y"},
        )
        assert evil.status_code == 403  # the key does not make a cross-origin write acceptable
    finally:
        keyed.close()


def test_mcp_tools_refuse_empty_queries_and_template_paths_in_one_line(folder: Path) -> None:
    from mcp.client.session import ClientSession  # noqa: PLC0415
    from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: PLC0415

    ingest = run(["ingest", str(folder / "docs"), "--index", str(folder / "mcp-index")], cwd=folder)
    assert ingest.returncode == 0, ingest.stderr
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "sleuth.agent.cli", "mcp", "--index", str(folder / "mcp-index")],
        env={**os.environ, "SLEUTH_RUNS_DIR": str(folder / "mcp-runs")},
        cwd=str(folder),
    )
    calls = [
        ("search", {"query": "  \n "}, "the query is empty"),
        ("search", {"query": "zircon\x00"}, "control character (U+0000)"),
        ("research", {"query": "\t"}, "the query is empty"),
        ("research", {"query": "zircon", "template": str(folder / "planted" / "evil")}, "unknown template"),
        ("research", {"query": "zircon", "template": "nope"}, "unknown template 'nope'"),
    ]

    async def go() -> list[tuple[bool, str]]:
        out = []
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            for tool, arguments, _ in calls:
                result = await session.call_tool(tool, arguments)
                out.append((result.is_error, result.content[0].text))  # type: ignore[union-attr]
        return out

    for (is_error, text), (_, _, expected) in zip(asyncio.run(go()), calls, strict=True):
        assert is_error and expected in text and "\n" not in text, text
