"""``sleuth serve``: the HTTP API and the viewer page, and ``sleuth mcp``: the MCP server on stdio."""

from __future__ import annotations

from pathlib import Path

import click

from sleuth.agent import Wiring
from sleuth.agent.cli.workspace import index_options, open_workspace


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@index_options
@click.pass_obj
def serve_command(
    wiring: Wiring, host: str, port: int, index_dir: Path | None, qdrant_url: str | None
) -> None:
    """Serve the HTTP API (OpenAPI schema at /openapi.json) and the report viewer at /."""
    import uvicorn  # noqa: PLC0415 - only the server needs it

    from sleuth.agent.api.app import create_app  # noqa: PLC0415

    with open_workspace(wiring, index_dir=index_dir, qdrant_url=qdrant_url, create=True) as runtime:
        app = create_app(wiring, runtime)
        uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=5)


@click.command("mcp")
@index_options
@click.pass_obj
def mcp_command(wiring: Wiring, index_dir: Path | None, qdrant_url: str | None) -> None:
    """Serve the tools search, research and templates over MCP on stdio."""
    from sleuth.agent.mcp.server import build_server  # noqa: PLC0415

    with open_workspace(wiring, index_dir=index_dir, qdrant_url=qdrant_url, create=True) as runtime:
        build_server(wiring, runtime).run("stdio")
