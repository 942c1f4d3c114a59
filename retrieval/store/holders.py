"""Who holds an embedded index: the owner a process writes into the index's lock file, and the holder of a
file lock as the kernel lists it (``/proc/locks``).

The lock file says which sleuth command holds the index (``sleuth serve``, pid 4242), so a second command can
say so instead of "in use by another process"; the kernel's list finds a process that holds the write-ahead
log without the lock file (a conversion worker that outlived a killed ingest).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from sleuth.ingest.processes import Owner


def command_name(argv: list[str] | None = None) -> str:
    """The running command as a user typed it, roughly: ``sleuth serve``, ``sleuth ingest``."""
    args = list(sys.argv if argv is None else argv)
    program = Path(args[0]).name if args else "python"
    if program in ("__main__.py", "cli") or "sleuth" in args[0]:
        program = "sleuth"
    verb = next((a for a in args[1:] if not a.startswith("-")), "")
    return f"{program} {Path(verb).name if '/' in verb else verb}".strip()[:80]


def write_owner(fd: int) -> None:
    """Record this process as the holder in the (locked) lock file."""
    body = json.dumps({"owner": str(Owner.current()), "command": command_name()}).encode()
    os.ftruncate(fd, 0)
    os.pwrite(fd, body, 0)


def recorded_holder(lock_file: Path) -> str | None:
    """``sleuth serve (pid 4242)`` for a lock file whose recorded owner still runs; None when unknown."""
    try:
        data = json.loads(lock_file.read_text())
        owner = Owner.parse(str(data["owner"]))
        command = str(data["command"])[:80]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if owner is None or owner.is_gone():
        return None
    return f"{command} (pid {owner.pid})"


def lock_holders(folder: Path) -> list[int]:
    """Processes that took a kernel file lock on ``folder`` or a file directly in it (Linux; elsewhere none).

    The kernel names the process that took the lock: when it was killed and a child it forked holds the lock
    on, the id is the dead one's."""
    try:
        inodes = {folder.stat().st_ino} | {e.stat().st_ino for e in os.scandir(folder) if e.is_file()}
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return []
    pids: list[int] = []
    for line in lines:
        fields = line.split()
        # "1: FLOCK  ADVISORY  WRITE 22726 00:2f:1234567 0 EOF" (a "->" after the number marks a waiter)
        if len(fields) < 6 or fields[1] == "->":
            continue
        pid, where = fields[4], fields[5].rsplit(":", 1)
        if pid.isdigit() and len(where) == 2 and where[1].isdigit() and int(where[1]) in inodes:
            pids.append(int(pid))
    return sorted(set(pids))


def process_name(pid: int) -> str:
    """``sleuth ingest`` for a sleuth process, else its program's name; "" when it cannot be read."""
    try:
        argv = [
            a.decode(errors="replace") for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") if a
        ]
    except OSError:
        return ""
    if not argv:
        return ""
    if any("sleuth" in a for a in argv[:3]):
        # python -m sleuth.agent.cli ingest ... / .venv/bin/sleuth ingest ... / a pool worker (no verb)
        rest = argv[argv.index(next(a for a in argv if "sleuth" in a)) + 1 :]
        return command_name(["sleuth", *rest])
    return Path(argv[0]).name
