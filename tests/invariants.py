"""The chunker's invariants, checked the same way on generated and on real documents."""

from __future__ import annotations

import re

from sleuth.ingest import Chunk, TokenCounter, strip_page_markers
from sleuth.ingest.markdown_tree import normalize_newlines

_FENCE_LINE = re.compile(r"^\s*(`{3,}|~{3,})")


def _rules(text: str) -> str:
    """Runs of dashes cut to three: the chunker compacts a table's rule too padded to repeat, and a rule
    cut as text may fall in two chunks (compared line by line, its halves would not match)."""
    return re.sub(r"-{3,}", "---", text)


def non_space(text: str) -> str:
    return "".join(text.split())


def original_text(chunks: list[Chunk], counter: TokenCounter, max_tokens: int) -> str:
    """Chunk contents in order with the text the chunker adds for readability taken out again.

    Added text: the header rows repeated at the top of table pieces after the first, and the fences that
    close and reopen a split code block.
    """
    parts: list[str] = []
    first_piece: dict[str, list[str]] = {}
    for chunk in chunks:
        lines = chunk.content.split("\n")
        seq = chunk.split_sequence
        if seq is None:
            parts.append(chunk.content)
            continue
        i, n = (int(x) for x in seq.split("/"))
        if i == 1:
            first_piece[chunk.chunk_type] = lines
        elif chunk.chunk_type == "table" and lines[:2] == _repeated_header(
            first_piece["table"], counter, max_tokens
        ):
            lines = lines[2:]
        elif (
            chunk.chunk_type == "code"
            and _FENCE_LINE.match(lines[0])
            and lines[0] in first_piece.get("code", [])
        ):
            lines = lines[1:]
        if chunk.chunk_type == "code" and i < n and len(lines) > 1 and _FENCE_LINE.match(lines[-1]):
            lines = lines[:-1]
        parts.append("\n".join(lines))
    return "\n".join(parts)


def _repeated_header(first_piece: list[str], counter: TokenCounter, max_tokens: int) -> list[str] | None:
    """The header rows the chunker repeats; None when the header is too large and the table is cut as text."""
    header = [ln for ln in first_piece if "|" in ln][:2]
    if len(header) < 2:  # a repeated header leaves room for at least one row in the first piece
        return None
    return header if counter.count("\n".join(header)) <= max_tokens // 2 else None


def check_chunks(markdown: str, chunks: list[Chunk], counter: TokenCounter, max_tokens: int) -> None:
    source, _ = strip_page_markers(normalize_newlines(markdown))
    # Token counts are exact and within the limit.
    exact = counter.count_batch([c.content for c in chunks])
    for chunk, n in zip(chunks, exact, strict=True):
        assert chunk.token_count == n, (chunk.token_count, n, chunk.content[:200])
        assert n <= max_tokens, (n, max_tokens, chunk.content[:200])
        assert chunk.content.strip(), "empty chunk"
    # No character lost, added or reordered (but a split table's rule, too padded to repeat, compacted).
    assert _rules(non_space(original_text(chunks, counter, max_tokens))) == _rules(non_space(source))
    # One prev/next chain.
    ids = [c.id for c in chunks]
    assert len(set(ids)) == len(ids)
    for k, chunk in enumerate(chunks):
        assert chunk.chunk_index == k
        assert chunk.prev_chunk_id == (ids[k - 1] if k else None)
        assert chunk.next_chunk_id == (ids[k + 1] if k + 1 < len(ids) else None)
    # Split tables repeat their header.
    for chunk in chunks:
        if chunk.chunk_type == "table" and chunk.split_sequence and not chunk.split_sequence.startswith("1/"):
            total = chunk.split_sequence.split("/")[1]
            first = next(c for c in reversed(chunks[: chunk.chunk_index]) if c.split_sequence == f"1/{total}")
            header = _repeated_header(first.content.split("\n"), counter, max_tokens)
            if header is not None:  # else it was cut as text, by design
                assert chunk.content.split("\n")[:2] == header, (header, chunk.content[:200])
