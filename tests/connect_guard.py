"""A connect shim for tests: every connect to an address outside loopback is refused and recorded, so that
nothing a test runs can reach beyond the machine even when the code under test is wrong.

It patches the two places a TCP connect passes through in this process: ``socket.socket.connect`` /
``connect_ex`` (what asyncio's selector loop calls for httpx's anyio backend, and what blocking clients call)
and the loop's ``sock_connect`` (asyncio's own entry point, guarded too in case a loop implementation
connects without ``socket.socket.connect``). A refused connect raises ``ConnectionRefusedError``, as a closed
port would, and is appended to ``ConnectGuard.blocked`` for the test to assert on.

In a subprocess: ``python -m tests.connect_guard MODULE ARGS...`` runs ``python -m MODULE ARGS...`` with the
guard installed and prints one ``connect-guard: blocked HOST PORT`` line on stderr per refused connect.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import runpy
import socket
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

_LOOPBACK_V4 = ipaddress.ip_network("127.0.0.0/8")


def is_loopback(address: object) -> bool:
    """True for a socket address on loopback (127.0.0.0/8, ::1, ::ffff:127.x) or a Unix socket path."""
    if isinstance(address, (str, bytes)):
        return True  # AF_UNIX: a path on this machine
    if not isinstance(address, tuple) or not address:
        return False
    host = str(address[0]).split("%", 1)[0]
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False  # a name: refused, the guard never resolves anything itself
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip in _LOOPBACK_V4 if isinstance(ip, ipaddress.IPv4Address) else ip == ipaddress.IPv6Address("::1")


class ConnectGuard:
    """Install with ``guarded()``; ``blocked`` lists every (host, port) a connect was refused for."""

    def __init__(self, report: Callable[[str, object], None] | None = None) -> None:
        self.blocked: list[tuple[str, object]] = []
        self._report = report
        self._saved: list[tuple[Any, str, Any]] = []

    def _refuse(self, address: object) -> ConnectionRefusedError:
        host, port = (address[0], address[1]) if isinstance(address, tuple) else (str(address), None)
        self.blocked.append((str(host), port))
        if self._report:
            self._report(str(host), port)
        return ConnectionRefusedError(errno.ECONNREFUSED, f"connect to {host} refused by the test guard")

    def install(self) -> None:
        guard = self
        real_connect = socket.socket.connect
        real_connect_ex = socket.socket.connect_ex
        loop_class = asyncio.selector_events.BaseSelectorEventLoop
        real_sock_connect = loop_class.sock_connect

        def connect(self: socket.socket, address: Any) -> None:
            if not is_loopback(address):
                raise guard._refuse(address)
            real_connect(self, address)

        def connect_ex(self: socket.socket, address: Any) -> int:
            if not is_loopback(address):
                guard._refuse(address)
                return errno.ECONNREFUSED
            return real_connect_ex(self, address)

        async def sock_connect(self: Any, sock: socket.socket, address: Any) -> None:
            if not is_loopback(address):
                raise guard._refuse(address)
            await real_sock_connect(self, sock, address)

        self._saved = [
            (socket.socket, "connect", real_connect),
            (socket.socket, "connect_ex", real_connect_ex),
            (loop_class, "sock_connect", real_sock_connect),
        ]
        socket.socket.connect = connect  # type: ignore[method-assign]
        socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
        loop_class.sock_connect = sock_connect  # type: ignore[method-assign]

    def uninstall(self) -> None:
        for owner, name, original in self._saved:
            setattr(owner, name, original)
        self._saved = []


@contextmanager
def guarded() -> Iterator[ConnectGuard]:
    guard = ConnectGuard()
    guard.install()
    try:
        yield guard
    finally:
        guard.uninstall()


def _main() -> None:
    def report(host: str, port: object) -> None:
        print(f"connect-guard: blocked {host} {port}", file=sys.stderr, flush=True)

    ConnectGuard(report).install()
    module, *args = sys.argv[1:]
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    _main()
