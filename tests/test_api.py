"""The HTTP API, the viewer page and the MCP server, each a real server on loopback (``sleuth serve`` in a
subprocess, headless Chromium through Selenium, ``sleuth mcp`` through the SDK's own stdio client)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.test_cli import run
from tests.test_research import FIXTURE, check_report
from tests.web_servers import free_port

BRIEF = ["answer", "key_findings", "details", "open_questions"]
QUESTION = "Who leads the Freedonian graphene battery market?"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("api")
    result = run(["ingest", str(FIXTURE), "--index", str(folder / "index")], cwd=folder)
    assert result.returncode == 0, result.stderr
    (folder / "root" / "docs").mkdir(parents=True)
    (folder / "root" / "docs" / "note.md").write_text(
        "# Zircon note\n\nZircon crystals date the oldest rocks.\n"
    )
    (folder / "outside").mkdir()
    (folder / "outside" / "secret.md").write_text("# Secret\n\nNever to be ingested.\n")
    (folder / "root" / "escape").symlink_to(folder / "outside", target_is_directory=True)
    return folder


class Server:
    def __init__(self, folder: Path, name: str, **env: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.root = folder / "root"
        full = {
            **os.environ,
            "SLEUTH_RUNS_DIR": str(folder / name / "runs"),
            "SLEUTH_API_ROOT": str(folder / "root"),
            "SLEUTH_INDEX": str(folder / "index"),
            **env,
        }
        self.log = (folder / f"{name}.log").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sleuth.agent.cli", "serve", "--port", str(self.port)],
            env=full, stdout=self.log, stderr=subprocess.STDOUT, cwd=folder,
        )  # fmt: skip
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{self.base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert self.process.poll() is None and time.monotonic() < deadline, "sleuth serve did not start"
            time.sleep(0.3)

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture(scope="module")
def server(corpus: Path) -> Iterator[Server]:
    s = Server(corpus, "open", SLEUTH_API_MAX_RUNS="1", SLEUTH_API_MAX_BODY_MB="1")
    yield s
    s.close()


@pytest.fixture(scope="module")
def locked(corpus: Path) -> Iterator[Server]:
    # An embedded index allows one process: this server has its own (empty) one.
    s = Server(corpus, "locked", SLEUTH_API_KEY="s3cret-key", SLEUTH_INDEX=str(corpus / "locked-index"))
    yield s
    s.close()


def sse(response: httpx.Response) -> list[dict[str, Any]]:
    events = []
    for block in response.text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "data" in fields:
            data = json.loads(fields["data"])
            assert fields["event"] == data["type"] and int(fields["id"]) == data["seq"]
            events.append(data)
    return events


def _wait(server: Server, run_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        body = httpx.get(f"{server.base}/v1/research/{run_id}").json()
        if body.get("report"):
            return dict(body)
        time.sleep(1)
    raise AssertionError(f"run {run_id} did not finish")


def test_streamed_run_then_listed_retrievable_and_replayed(server: Server) -> None:
    with httpx.Client(timeout=300) as client:
        streamed = sse(
            client.post(f"{server.base}/v1/research/stream", json={"query": QUESTION, "template": "brief"})
        )
        assert streamed[0]["type"] == "run_started" and streamed[-1]["type"] == "complete"
        assert [e["seq"] for e in streamed] == list(range(1, len(streamed) + 1))
        report = streamed[-1]["report"]
        check_report(report, BRIEF)
        run_id = report["run_id"]
        assert run_id in [r["run_id"] for r in client.get(f"{server.base}/v1/research").json()]
        stored = client.get(f"{server.base}/v1/research/{run_id}").json()
        assert stored["status"] == "complete" and stored["report"] == report
        replay = sse(client.get(f"{server.base}/v1/research/{run_id}/events"))
        assert replay == streamed
        later = sse(client.get(f"{server.base}/v1/research/{run_id}/events", headers={"Last-Event-ID": "3"}))
        assert later == streamed[3:]


def test_a_client_that_disconnects_does_not_stop_the_run(server: Server) -> None:
    with (
        httpx.Client(timeout=300) as client,
        client.stream(
            "POST", f"{server.base}/v1/research/stream", json={"query": QUESTION, "template": "market_brief"}
        ) as response,
    ):
        first = next(response.iter_lines())
        assert first.startswith("id: 1")
    runs = httpx.get(f"{server.base}/v1/research").json()
    run_id = next(r["run_id"] for r in runs if r["template"] == "market_brief")
    done = _wait(server, run_id)
    assert done["status"] == "complete"


def test_two_runs_at_once_queue_beyond_the_limit(server: Server) -> None:
    body = {"query": "graphene battery exports", "template": "brief", "depth": 0}
    first = httpx.post(f"{server.base}/v1/research", json=body).json()
    second = httpx.post(f"{server.base}/v1/research", json=body).json()
    assert first["run_id"] != second["run_id"]
    assert (
        second["status"] == "queued" and second["queue_position"] >= 1
    )  # the server runs one at a time here
    for run_id in (first["run_id"], second["run_id"]):
        check_report(_wait(server, run_id)["report"], BRIEF)


def test_bad_requests_get_clear_errors_without_tracebacks(server: Server) -> None:
    bad_json = httpx.post(
        f"{server.base}/v1/research", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert bad_json.status_code == 422 and "Traceback" not in bad_json.text
    unknown = httpx.post(f"{server.base}/v1/research", json={"query": "x", "template": "nope"})
    assert unknown.status_code == 400 and "nope" in unknown.json()["error"]
    missing = httpx.get(f"{server.base}/v1/research/does-not-exist")
    assert missing.status_code == 404
    assert httpx.get(f"{server.base}/v1/search", params={"q": "x", "type": "bogus"}).status_code == 422
    big = httpx.post(f"{server.base}/v1/ingest", files={"files": ("big.md", b"# Big\n\n" + b"x" * 2_000_000)})
    assert big.status_code == 413


@pytest.mark.parametrize("path", ["../outside", "/etc", "/etc/passwd", "docs/../../outside", "escape"])
def test_server_side_paths_stay_under_the_root(server: Server, path: str) -> None:
    response = httpx.post(f"{server.base}/v1/ingest", json={"paths": [path]})
    assert response.status_code == 403, response.text


def test_unusable_paths_are_a_clear_400(server: Server) -> None:
    for bad in (["docs\u0000x"], [""], []):
        response = httpx.post(f"{server.base}/v1/ingest", json={"paths": bad})
        assert response.status_code in (400, 422), response.text
        assert "error" in response.json() and "Traceback" not in response.text


def test_ingest_by_path_and_by_upload_then_search(server: Server) -> None:
    response = httpx.post(f"{server.base}/v1/ingest", json={"paths": ["docs"]}, timeout=300)
    assert response.status_code == 200 and response.json()["added"] == 1
    absolute = str(Path(server.root) / "docs")  # an absolute path inside the root is fine too
    again = httpx.post(f"{server.base}/v1/ingest", json={"paths": [absolute]}, timeout=300)
    assert again.status_code == 200 and again.json()["unchanged"] == 1
    upload = httpx.post(
        f"{server.base}/v1/ingest",
        files={"files": ("basalt.md", b"# Basalt note\n\nBasalt forms from rapidly cooled lava.\n")},
        timeout=300,
    )
    assert upload.status_code == 200 and upload.json()["added"] == 1
    hits = httpx.get(f"{server.base}/v1/search", params={"q": "zircon crystals", "k": 3}).json()
    assert hits[0]["document_id"] == "note" and set(hits[0]) >= {
        "chunk_id",
        "score",
        "section_path",
        "source",
    }
    assert httpx.get(f"{server.base}/openapi.json").json()["paths"]["/v1/research/stream"]


def test_api_key_header_or_browser_token(locked: Server) -> None:
    assert httpx.get(f"{locked.base}/healthz").status_code == 200
    assert httpx.get(f"{locked.base}/v1/templates").status_code == 401
    assert httpx.get(f"{locked.base}/v1/templates", headers={"X-API-Key": "wrong"}).status_code == 401
    assert httpx.get(f"{locked.base}/v1/templates", headers={"X-API-Key": "s3cret-key"}).status_code == 200
    with httpx.Client(base_url=locked.base, follow_redirects=True) as browser:
        page = browser.get("/?token=s3cret-key")
        assert page.status_code == 200 and str(page.url).endswith("/")  # the key left the address
        assert browser.get("/v1/templates").status_code == 200  # the cookie carries it
        assert "s3cret-key" not in page.text  # the page never shows the key
    log = (locked.root.parent / "locked.log").read_text()  # only the terminal does, as the link to open
    assert f"http://127.0.0.1:{locked.port}/?token=s3cret-key" in log


def test_viewer_in_headless_chromium_shows_every_section_and_follows_a_live_run(server: Server) -> None:
    from selenium import webdriver  # noqa: PLC0415
    from selenium.webdriver.chrome.service import Service  # noqa: PLC0415
    from selenium.webdriver.common.by import By  # noqa: PLC0415
    from selenium.webdriver.support.ui import WebDriverWait  # noqa: PLC0415

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        started = httpx.post(
            f"{server.base}/v1/research", json={"query": QUESTION, "template": "market_brief"}
        ).json()
        driver.get(f"{server.base}/runs/{started['run_id']}")  # live: follows the event stream to the end
        wait = WebDriverWait(driver, 300)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "section[data-status]")) == 4)
        statuses = {
            e.get_attribute("id"): e.get_attribute("data-status")
            for e in driver.find_elements(By.CSS_SELECTOR, "section[data-status]")
        }
        report = _wait(server, started["run_id"])["report"]
        assert statuses == {f"section-{s['id']}": s["status"] for s in report["sections"]}
        assert driver.find_elements(By.CSS_SELECTOR, ".card blockquote")
        driver.get(f"{server.base}/")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "a.run-link"))
        links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "a.run-link")]
        assert f"{server.base}/runs/{started['run_id']}" in links
    finally:
        driver.quit()


def test_mcp_server_over_stdio(corpus: Path) -> None:
    from mcp.client.session import ClientSession  # noqa: PLC0415
    from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: PLC0415

    # Its own index: the API server of this module holds the other one (an embedded index allows one process).
    ingest = run(["ingest", str(FIXTURE), "--index", str(corpus / "mcp-index")], cwd=corpus)
    assert ingest.returncode == 0, ingest.stderr
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "sleuth.agent.cli", "mcp", "--index", str(corpus / "mcp-index")],
        env={**os.environ, "SLEUTH_RUNS_DIR": str(corpus / "mcp-runs")},
        cwd=str(corpus),
    )

    async def go() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            names = {t.name for t in (await session.list_tools()).tools}
            assert names == {"search", "research", "templates"}
            found = await session.call_tool("search", {"query": "graphene battery market", "k": 3})
            hits = [json.loads(block.text) for block in found.content]  # type: ignore[union-attr]  # one per hit
            assert hits and hits[0]["document_id"].startswith("market-report")
            result = await session.call_tool("research", {"query": QUESTION, "template": "brief", "depth": 1})
            body = json.loads(result.content[0].text)  # type: ignore[union-attr]
            check_report(body["report"], BRIEF)
            assert Path(body["report_md"]).is_file()

    asyncio.run(go())
