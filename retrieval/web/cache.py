"""Fetched pages on disk (SQLite, keyed by a hash of the canonical URL): raw bytes, extracted Markdown with
the extractor's version, validators for a conditional GET, and an expiry. Safe with concurrent runs (WAL, a
busy timeout); a new extractor version re-extracts from the stored bytes instead of fetching again."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS pages (
    key TEXT PRIMARY KEY, url TEXT NOT NULL, final_url TEXT NOT NULL, fetched_at REAL NOT NULL,
    expires_at REAL NOT NULL, etag TEXT, last_modified TEXT, content_type TEXT, body BLOB NOT NULL,
    markdown TEXT, title TEXT, published TEXT, extractor TEXT
)
"""


@dataclass
class CachedPage:
    url: str
    final_url: str
    fetched_at: float
    expires_at: float
    etag: str | None
    last_modified: str | None
    content_type: str | None
    body: bytes
    markdown: str | None = None
    title: str | None = None
    published: str | None = None
    extractor: str | None = None

    @property
    def fresh(self) -> bool:
        return time.time() < self.expires_at


def url_key(canonical: str) -> str:
    return hashlib.sha256(canonical.encode()).hexdigest()


class FetchCache:
    def __init__(self, path: Path, ttl: float = 7 * 86400) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.ttl = ttl
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, timeout=30, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA busy_timeout=30000")
        self._db.execute(_SCHEMA)
        self._db.commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def get(self, canonical: str) -> CachedPage | None:
        with self._lock:
            row = self._db.execute(
                "SELECT url, final_url, fetched_at, expires_at, etag, last_modified, content_type, body,"
                " markdown, title, published, extractor FROM pages WHERE key = ?",
                (url_key(canonical),),
            ).fetchone()
        return CachedPage(*row) if row else None

    def put(self, canonical: str, page: CachedPage) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO pages VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    url_key(canonical), page.url, page.final_url, page.fetched_at, page.expires_at, page.etag,
                    page.last_modified, page.content_type, page.body, page.markdown, page.title,
                    page.published, page.extractor,
                ),
            )  # fmt: skip
            self._db.commit()

    def refresh(self, canonical: str) -> None:
        """A 304: the stored copy is good for another TTL."""
        with self._lock:
            self._db.execute(
                "UPDATE pages SET expires_at = ?, fetched_at = ? WHERE key = ?",
                (time.time() + self.ttl, time.time(), url_key(canonical)),
            )
            self._db.commit()

    def set_extract(
        self, canonical: str, markdown: str, title: str | None, published: str | None, extractor: str
    ) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE pages SET markdown = ?, title = ?, published = ?, extractor = ? WHERE key = ?",
                (markdown, title, published, extractor, url_key(canonical)),
            )
            self._db.commit()
