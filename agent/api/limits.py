"""The request body limit, counted as the body arrives.

A ``Content-Length`` check alone lets a chunked body through (it has no length): this middleware counts the
bytes the application actually receives and refuses with 413 the moment ``api_max_body_mb`` is passed. The
application never sees more than the limit, whatever it does with the body (a JSON model, a multipart parse
spooling files), and the refusal is one short line (never the body echoed back), with ``Connection: close``
so the server stops reading the rest.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class _TooLargeError(Exception):
    """Raised into the application's ``receive`` once the body passed the limit."""


class BodyLimit:
    """ASGI middleware: at most ``max_bytes`` of request body, else 413 ``{"error": ...}``."""

    def __init__(self, app: ASGIApp, max_bytes: int, label: str) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.error = f"request body over {label}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        seen = 0
        over = False
        started = False

        async def counted() -> Message:
            nonlocal seen, over
            if over:
                raise _TooLargeError
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    over = True
                    raise _TooLargeError
            return message

        async def guarded(message: Message) -> None:
            nonlocal started
            if over and not started:
                return  # whatever the application answers to a body it never got whole
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, guarded)
        except Exception:
            if not over:
                raise
        if over and not started:
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"error": self.error}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
