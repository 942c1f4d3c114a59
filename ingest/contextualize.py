"""The one recipe for the text a chunk is read by, wherever a model reads it: the dense and sparse encoders
at ingest, the reranker and the relevance judge during research, the ranking of a fetched page's chunks.

A chunk deep in a manual rarely repeats the words of its headings ("Options", "Return value"), so its heading
path goes first, and its document's title before that where the reader has it (as docling-core's chunkers
``contextualize`` a chunk with its headings). Measured on FanOutQA/Wikipedia in docs/BENCHMARKS.md.
"""

from __future__ import annotations

__all__ = ["contextualize"]


def contextualize(
    text: str, *, section_path: str | None = None, title: str | None = None, limit: int | None = None
) -> str:
    """``title``, ``section_path`` and ``text`` on lines of their own (empty parts left out), cut at ``limit``
    characters (rerankers read a bounded window)."""
    joined = "\n".join(part for part in (title, section_path, text) if part)
    return joined[:limit] if limit is not None else joined
