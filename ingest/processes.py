"""Which process is this, and is a process recorded earlier still the same running one.

A run store row or an index lock records its owner so that a reader can tell an owner at work from one that
was killed: a process id alone is not enough (ids are reused), so the owner is ``HOST:PID:START`` where START
is the process's start time as the kernel counts it (``/proc/PID/stat``, clock ticks since boot). An owner
recorded on another host cannot be judged from here and counts as alive.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Owner", "die_with_parent"]


@dataclass(frozen=True, slots=True)
class Owner:
    host: str
    pid: int
    start: str

    @classmethod
    def current(cls) -> Owner:
        return cls.of(os.getpid())

    @classmethod
    def of(cls, pid: int) -> Owner:
        """Process ``pid`` of this host as it is now."""
        return cls(socket.gethostname(), pid, _start_time(pid) or "")

    @classmethod
    def parse(cls, text: str | None) -> Owner | None:
        """An owner from its recorded form; None for a missing or malformed one."""
        parts = (text or "").rsplit(":", 2)
        if len(parts) != 3 or not parts[1].isdigit():
            return None
        return cls(parts[0], int(parts[1]), parts[2])

    def __str__(self) -> str:
        return f"{self.host}:{self.pid}:{self.start}"

    def is_gone(self) -> bool:
        """True when this owner certainly stopped: on this host, no process with its id, or one started at
        another time (the id was reused)."""
        if self.host != socket.gethostname():
            return False
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:  # someone else's process: it exists
            pass
        start = _start_time(self.pid)
        return bool(self.start and start and start != self.start)


def _start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux), None where /proc cannot tell."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: fields after the last ")" are plain.
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else None  # field 22 of the whole line


def die_with_parent(parent: int) -> None:
    """Ask the kernel to kill this process when its parent (process ``parent``) dies: Linux
    ``PR_SET_PDEATHSIG``, elsewhere a no-op. A worker forked by a process that is killed would otherwise live
    on, holding whatever files it inherited (an index's write-ahead log).

    The kernel's "parent" is the thread that forked the worker: call this only in workers of a pool whose
    threads outlive its workers (pebble's do: the caller's thread and the pool's manager thread)."""
    try:
        import ctypes  # noqa: PLC0415
        import signal  # noqa: PLC0415

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)
