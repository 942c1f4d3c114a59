"""Which browser requests may change the server's state: same-origin ones and those from allowed origins.

A web page the user visits can send simple cross-origin requests (a form post, a ``text/plain`` fetch) with no
CORS preflight; CORS only stops the page reading the answer, not the server acting on the request. So every
state-changing request (POST, PUT, PATCH, DELETE) that a browser marks as coming from another origin is
refused, with or without an API key: the ``Origin`` header must be the server's own origin or one of
``api_cors_origins``; without ``Origin``, a ``Sec-Fetch-Site`` of ``cross-site`` or ``same-site`` is refused
too. Clients that are not browsers (curl, scripts, the MCP host) send neither header and are not affected.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from urllib.parse import urlsplit

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


def cross_origin_refusal(
    method: str, headers: Mapping[str, str], scheme: str, allowed: Collection[str]
) -> str | None:
    """Why this request is refused as a cross-origin write, or None when it may go on."""
    if method.upper() not in UNSAFE_METHODS:
        return None
    origin = headers.get("origin")
    if origin is None:
        site = headers.get("sec-fetch-site", "")
        if site in ("cross-site", "same-site"):
            return f"a {site} request from a browser may not change this server (no Origin header)"
        return None
    if "*" in allowed:  # the operator allowed every origin
        return None
    own = _normal(f"{scheme}://{headers.get('host', '')}")
    if _normal(origin) in {own, *(_normal(a) for a in allowed)} - {None}:
        return None
    return f"requests from origin {origin[:200]!r} may not change this server (not in api_cors_origins)"


def _normal(origin: str) -> tuple[str, str, int] | None:
    """``scheme://host[:port]`` as (scheme, host, port) with the scheme's default port filled in; None for an
    opaque or malformed origin (``null``, a sandboxed frame's)."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[scheme]
