"""Structure-aware ingestion: Markdown to a section tree and to typed, token-exact chunks.

Usable on its own; it imports neither ``retrieval`` nor ``agent``.
"""

from sleuth.ingest.chunker import chunk_markdown
from sleuth.ingest.models import Chunk, ChunkType, ElementNode, ListItemNode, SectionNode
from sleuth.ingest.pages import page_marker, strip_page_markers
from sleuth.ingest.tokens import TokenCounter, TokenizerNotFoundError
from sleuth.ingest.tree import document_tree

__all__ = [
    "Chunk",
    "ChunkType",
    "ElementNode",
    "ListItemNode",
    "SectionNode",
    "TokenCounter",
    "TokenizerNotFoundError",
    "chunk_markdown",
    "document_tree",
    "page_marker",
    "strip_page_markers",
]
