"""Runs whose process is killed, and runs that were reviewed then resumed, as the run store and the HTTP API
tell them afterwards: real ``sleuth research`` and ``sleuth serve`` subprocesses, killed with SIGKILL.

A run is held mid-way by an LLM endpoint on loopback that accepts connections and never answers, so the kill
always lands while the run is ``running`` (no timing involved).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import click
import httpx
import pytest

from sleuth.agent import SqliteRunStore
from sleuth.agent.cli.workspace import writable_folder
from sleuth.agent.runs.sqlite import INTERRUPTED
from sleuth.ingest.processes import Owner
from tests.test_api import Server, sse
from tests.test_cli import SLEUTH, run

NOTE = "# Basalt\n\nBasalt forms from rapidly cooled lava on the ocean floor.\n"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("crash")
    (folder / "docs").mkdir()
    (folder / "docs" / "basalt.md").write_text(NOTE)
    (folder / "root").mkdir()
    result = run(["ingest", str(folder / "docs"), "--index", str(folder / "index")], cwd=folder)
    assert result.returncode == 0, result.stderr
    return folder


@pytest.fixture(scope="module")
def silent_llm() -> Iterator[str]:
    """An endpoint that takes connections (the kernel's backlog) and never answers a byte."""
    with socket.create_server(("127.0.0.1", 0), backlog=64) as listener:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"


def _hanging_env(folder: Path, llm: str) -> dict[str, str]:
    return {
        "SLEUTH_RUNS_DIR": str(folder / "runs"),
        "SLEUTH_LLM_BASE_URL": llm,
        "SLEUTH_LLM_MODEL": "silent",
        "SLEUTH_LLM_TIMEOUT": "3600",
    }


def _running_row(runs_dir: Path, process: subprocess.Popen[bytes], known: set[str]) -> str:
    """The id of the new run once its row is stored, the process still alive."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        assert process.poll() is None, "the run ended on its own"
        if (runs_dir / "runs.sqlite").is_file():
            store = SqliteRunStore(runs_dir)
            try:
                fresh = [r for r in store.list() if r.run_id not in known]
            finally:
                store.close()
            if fresh:
                assert fresh[0].status == "running"
                return fresh[0].run_id
        time.sleep(0.3)
    raise AssertionError("the run never started")


def test_a_killed_cli_run_is_failed_interrupted_and_its_replay_ends(folder: Path, silent_llm: str) -> None:
    env = {**os.environ, **_hanging_env(folder, silent_llm)}
    process = subprocess.Popen(
        [*SLEUTH, "research", "What forms basalt?", "--template", "brief", "--index", str(folder / "index")],
        cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    run_id = _running_row(folder / "runs", process, set())
    process.send_signal(signal.SIGKILL)
    process.wait(30)

    store = SqliteRunStore(folder / "runs")
    try:
        row = store.get(run_id)
        events = list(store.events(run_id))
        again = list(store.events(run_id))  # a second reader appends nothing more
    finally:
        store.close()
    assert row.status == "failed" and row.error == INTERRUPTED
    assert events[0]["type"] == "run_started" and events[-1] == {**events[-1], "type": "failed"}
    assert [e["type"] for e in events].count("failed") == 1 and again == events
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    shown = run(["runs", run_id], cwd=folder, env={"SLEUTH_RUNS_DIR": str(folder / "runs")})
    assert shown.returncode == 0 and "failed" in shown.stdout and INTERRUPTED in shown.stdout


def test_reviewed_then_resumed_run_replays_whole_and_a_killed_servers_run_ends(
    folder: Path, silent_llm: str
) -> None:
    runs_dir = folder / "runs"
    base = ["--template", "brief", "--index", str(folder / "index"), "--offline"]
    cli_env = {"SLEUTH_RUNS_DIR": str(runs_dir)}
    reviewed = run(["research", "What forms basalt?", *base, "--review"], cwd=folder, env=cli_env)
    assert reviewed.returncode == 0, reviewed.stderr
    store = SqliteRunStore(runs_dir)
    try:
        run_id = next(r.run_id for r in store.list() if r.status == "review")
    finally:
        store.close()
    resumed = run(["research", "--resume", run_id, *base], cwd=folder, env=cli_env)
    assert resumed.returncode == 0, resumed.stderr

    # A server on the same run store (and its own index: the CLI's is free, but it need not be).
    env = {**_hanging_env(folder, silent_llm), "SLEUTH_INDEX": str(folder / "server-index")}
    first = Server(folder, "first", **env)
    try:
        replay = sse(httpx.get(f"{first.base}/v1/research/{run_id}/events", timeout=60))
        types = [e["type"] for e in replay]
        assert "review" in types and types[-1] == "complete" and types.index("review") < len(types) - 1
        assert [e["seq"] for e in replay] == list(range(1, len(replay) + 1))
        assert httpx.get(f"{first.base}/v1/research/{run_id}").json()["status"] == "complete"

        started = httpx.post(
            f"{first.base}/v1/research", json={"query": "What forms basalt?", "template": "brief"}
        ).json()
        held = started["run_id"]
        deadline = time.monotonic() + 120
        while httpx.get(f"{first.base}/v1/research/{held}").json()["status"] != "running":
            assert time.monotonic() < deadline
            time.sleep(0.3)
    finally:
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(30)
        first.log.close()

    second = Server(folder, "second", **env)
    try:
        body = httpx.get(f"{second.base}/v1/research/{held}").json()
        assert body["status"] == "failed" and body["error"] == INTERRUPTED
        events = sse(httpx.get(f"{second.base}/v1/research/{held}/events", timeout=60))
        assert events[0]["type"] == "run_started" and events[-1]["type"] == "failed"
        assert events[-1]["error"] == INTERRUPTED
        listed = {r["run_id"]: r for r in httpx.get(f"{second.base}/v1/research").json()}
        assert listed[held]["status"] == "failed" and listed[run_id]["status"] == "complete"
        page = httpx.get(f"{second.base}/runs/{held}").text  # the desk tells it too
        assert "it did not finish" in page
    finally:
        second.close()


def test_an_owner_is_gone_once_its_process_is_killed() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        owner = Owner.of(child.pid)
        assert owner.start and not owner.is_gone()
        reused = Owner(owner.host, child.pid, owner.start + "1")  # the same id, another process
        assert reused.is_gone()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(30)
    assert owner.is_gone()
    assert not Owner.current().is_gone() and Owner.parse(str(Owner.current())) == Owner.current()
    assert Owner.parse("garbage") is None and Owner.parse(None) is None


def test_research_out_onto_a_file_fails_before_the_run(folder: Path) -> None:
    taken = folder / "taken.md"
    taken.write_text("not a folder\n")
    runs_dir = folder / "out-runs"
    result = run(
        ["research", "What forms basalt?", "--template", "brief", "--index", str(folder / "index"),
         "--offline", "--out", str(taken)],
        cwd=folder, env={"SLEUTH_RUNS_DIR": str(runs_dir)},
    )  # fmt: skip
    assert result.returncode == 2 and "taken.md is a file and no report of sleuth's" in result.stderr
    assert taken.read_text() == "not a folder\n" and not (runs_dir / "runs.sqlite").exists()  # no run began


def test_research_out_onto_a_report_file(folder: Path) -> None:
    """``--out brief.md`` writes that file and its JSON twin, not a folder named brief.md; run again, it
    rewrites them (its own report), while a file of the user's by that name stays refused."""
    brief = folder / "reports" / "brief.md"
    result = run(
        ["research", "What forms basalt?", "--template", "brief", "--index", str(folder / "index"),
         "--offline", "--out", str(brief)],
        cwd=folder, env={"SLEUTH_RUNS_DIR": str(folder / "brief-runs")},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    twin = folder / "reports" / "brief.json"
    assert result.stdout.split() == [str(brief), str(twin)]
    assert brief.is_file() and brief.read_text().startswith("# ") and json.loads(twin.read_text())["run_id"]
    writable_folder(brief, named=True)  # its own report: written again
    writable_folder(twin, named=True)
    twin.write_text('{"run_id": 7, "user": "me"}\n')  # no longer a report of sleuth's
    with pytest.raises(click.UsageError, match="is a file and no report"):
        writable_folder(brief, named=True)
    # ... nor the twin of a new report file: a user's notes.json is not overwritten by --out notes.md
    (folder / "notes.json").write_text("[1, 2]\n")
    with pytest.raises(click.UsageError, match=r"notes\.json is a file and no report"):
        writable_folder(folder / "notes.md", named=True)
    # eval's --out is a folder whatever its name: DIR/<id>/report.json
    with pytest.raises(click.UsageError, match="is a file; name a folder"):
        writable_folder(brief)


def test_eval_warns_when_gold_ids_name_no_document(folder: Path) -> None:
    questions = folder / "questions.jsonl"
    questions.write_text(
        '{"id": "q1", "question": "What forms basalt?", "gold_sources": ["docs/basalt", "basalt"]}\n'
    )
    result = run(
        ["eval", "research", str(questions), "--template", "brief", "--index", str(folder / "index"),
         "--offline", "--depth", "0"],
        cwd=folder, env={"SLEUTH_RUNS_DIR": str(folder / "eval-runs")},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "1 gold source(s)" in warnings[0] and "'docs/basalt'" in warnings[0]
