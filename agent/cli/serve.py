"""``sleuth serve``: the HTTP API and the research desk, and ``sleuth mcp``: the MCP server on stdio."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sleuth.agent import Wiring
from sleuth.agent.cli.workspace import index_options, open_workspace

if TYPE_CHECKING:
    import uvicorn


def desk_url(host: str, port: int) -> str:
    """The address a person opens: a wildcard host is this machine's name (what other machines reach),
    an IPv6 address goes in brackets."""
    shown = socket.gethostname() if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def _announce(host: str, port: int, key: str | None) -> None:
    """The start-up lines: where the desk is, and with a key the link that sets the browser's cookie (the
    terminal is the one place the key is shown; the pages never show it)."""
    url = desk_url(host, port)
    click.echo(f"sleuth serve: the research desk is at {url} (API at {url}v1/, schema at {url}openapi.json)")
    if key:
        click.echo(f"  open {url}?token={key} once in a browser; a cookie carries the key after that")
    click.echo("  press Ctrl+C to stop")


def _server(config: uvicorn.Config, on_ready: Callable[[], None]) -> uvicorn.Server:
    import uvicorn  # noqa: PLC0415 - only the server needs it

    class Server(uvicorn.Server):
        """Says where it is once it listens (a port in use fails before, with uvicorn's own message)."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                on_ready()

    return Server(config)


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@index_options
@click.pass_obj
def serve_command(
    wiring: Wiring, host: str, port: int, index_dir: Path | None, qdrant_url: str | None
) -> None:
    """Serve the HTTP API (OpenAPI schema at /openapi.json) and the research desk at /."""
    import uvicorn  # noqa: PLC0415 - only the server needs it

    from sleuth.agent.api.app import create_app  # noqa: PLC0415

    with open_workspace(wiring, index_dir=index_dir, qdrant_url=qdrant_url, create=True) as runtime:
        app = create_app(wiring, runtime)
        config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=5)
        _server(config, lambda: _announce(host, port, wiring.settings.api.key)).run()


@click.command("mcp")
@index_options
@click.pass_obj
def mcp_command(wiring: Wiring, index_dir: Path | None, qdrant_url: str | None) -> None:
    """Serve the tools search, research and templates over MCP on stdio."""
    from sleuth.agent.mcp.server import build_server  # noqa: PLC0415

    with open_workspace(wiring, index_dir=index_dir, qdrant_url=qdrant_url, create=True) as runtime:
        build_server(wiring, runtime).run("stdio")
