"""What a question or search query must be before anything runs on it: some text, and no control characters.

Every front end passes what a user typed through here (the CLI, the HTTP API, the MCP tools), so that a
whitespace-only question or one holding a NUL byte is one clear input error rather than a run over nothing.
"""

from __future__ import annotations

import unicodedata

from sleuth.ingest.errors import InputError

#: The same rule as a regular expression, for schemas (an HTTP API's): some non-space character, and no
#: control character but tab, newline and carriage return.
_ALLOWED = r"[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"
QUERY_PATTERN = rf"^{_ALLOWED}*[^\s\x00-\x1f\x7f-\x9f]{_ALLOWED}*$"


class QueryError(InputError):
    """A question or search query that cannot be used; ``str()`` is one line."""


def usable_query(text: str) -> str:
    """``text`` without surrounding whitespace, or a ``QueryError`` saying why it cannot be asked."""
    bad = next((c for c in text if unicodedata.category(c) == "Cc" and c not in "\t\n\r"), None)
    if bad is not None:
        raise QueryError(f"the query holds a control character (U+{ord(bad):04X}); remove it")
    stripped = text.strip()
    if not stripped:
        raise QueryError("the query is empty (nothing but whitespace)")
    return stripped
