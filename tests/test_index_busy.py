"""An index another process holds, as the next opener sees it: the running ``sleuth serve`` named with its
pid, a write-ahead log still held by a killed process's child called busy (never "unreadable ... delete
it"), and conversion workers that die with the process that started them. Real processes, SIGKILLed."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from sleuth.retrieval import IndexBusyError
from sleuth.retrieval.store import EdgeStore
from tests.test_api import Server
from tests.test_cli import run

#: Opens an index, forks a child that inherits it (as a conversion worker would), prints the child's pid.
HOLDER = """
import os, sys, time
from pathlib import Path
from sleuth.retrieval.store import EdgeStore
store = EdgeStore(Path(sys.argv[1]), 8, create=True)
child = os.fork()
if child == 0:
    time.sleep(600)
    os._exit(0)
print(child, flush=True)
time.sleep(600)
"""

#: A real conversion pool whose one worker is busy for ten minutes; prints the worker's pid.
BUSY_POOL = """
import os, time
from pathlib import Path
from pebble import ProcessPool
from sleuth.ingest.convert.pool import _worker_init
with ProcessPool(max_workers=1, initializer=_worker_init, initargs=(os.getpid(),)) as pool:
    job = pool.schedule(time.sleep, args=(600,))
    me = str(os.getpid())
    while True:
        workers = [p for p in os.listdir("/proc") if p.isdigit()
                   and Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[1] == me]
        if workers:
            break
        time.sleep(0.1)
    print(workers[0], flush=True)
    job.result()
"""


def _gone(pid: int) -> bool:
    """No such process, or only its zombie (exited, not yet reaped by whoever adopted it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _wait_gone(pid: int) -> None:
    deadline = time.monotonic() + 60
    while not _gone(pid):
        assert time.monotonic() < deadline, f"process {pid} outlived its parent"
        time.sleep(0.2)


def _kill(process: subprocess.Popen[str]) -> None:
    process.kill()
    process.wait(30)


def test_an_index_held_by_a_killed_process_child_is_busy_not_unreadable(tmp_path: Path) -> None:
    index = tmp_path / "index"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(index)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None
    child = int(holder.stdout.readline())
    try:
        with pytest.raises(IndexBusyError, match=r"is in use by .* \(pid \d+\)"):
            EdgeStore(index, 8, create=False)
        _kill(holder)
        with pytest.raises(IndexBusyError) as busy:
            EdgeStore(index, 8, create=False)
        assert "busy (in use by another process" in str(busy.value)
        assert "unreadable" not in str(busy.value) and "delete" not in str(busy.value)
    finally:
        subprocess.run(["kill", "-9", str(child)], check=False)
    _wait_gone(child)
    EdgeStore(index, 8, create=False).close()  # intact all along


def test_conversion_workers_die_with_the_process_that_started_them() -> None:
    pool = subprocess.Popen([sys.executable, "-c", BUSY_POOL], stdout=subprocess.PIPE, text=True)
    assert pool.stdout is not None
    worker = int(pool.stdout.readline())
    assert not _gone(worker)
    _kill(pool)
    _wait_gone(worker)


def test_the_cli_names_the_server_that_holds_the_index(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "note.md").write_text("# Schist\n\nSchist splits into thin plates.\n")
    (tmp_path / "root").mkdir()
    assert run(["ingest", str(tmp_path / "docs"), "--index", str(tmp_path / "index")]).returncode == 0
    server = Server(tmp_path, "serve")
    try:
        for args in (["search", "schist"], ["ingest", str(tmp_path / "docs")]):
            result = run([*args, "--index", str(tmp_path / "index")])
            assert result.returncode == 2, result.stderr
            [line] = result.stderr.strip().splitlines()
            assert line.startswith("sleuth: unavailable: index ")
            assert f"in use by sleuth serve (pid {server.process.pid})" in line and "GET /v1/search" in line
    finally:
        server.close()
    assert run(["search", "schist", "--index", str(tmp_path / "index")]).returncode == 0  # released
