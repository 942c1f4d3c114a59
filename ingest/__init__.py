"""Structure-aware ingestion: documents to Markdown, Markdown to a section tree and to typed, token-exact
chunks.

Usable on its own; it imports neither ``retrieval`` nor ``agent``. This face is what other layers' front
ends import; modules inside the package import each other directly.
"""

from sleuth.ingest.chunker import chunk_markdown
from sleuth.ingest.convert import CONVERTIBLE_SUFFIXES, Converted, ConvertOptions, convert_file
from sleuth.ingest.errors import ConfigurationError, InputError, SleuthError, UnavailableError, first_line
from sleuth.ingest.models import Chunk, ChunkType, ElementNode, ListItemNode, SectionNode
from sleuth.ingest.pages import page_marker, strip_page_markers
from sleuth.ingest.sources import SourceError, SourceFile, iter_sources
from sleuth.ingest.tokens import TokenCounter, TokenizerNotFoundError
from sleuth.ingest.tree import document_tree

__all__ = [
    "CONVERTIBLE_SUFFIXES",
    "Chunk",
    "ChunkType",
    "ConfigurationError",
    "ConvertOptions",
    "Converted",
    "ElementNode",
    "InputError",
    "ListItemNode",
    "SectionNode",
    "SleuthError",
    "SourceError",
    "SourceFile",
    "TokenCounter",
    "TokenizerNotFoundError",
    "UnavailableError",
    "chunk_markdown",
    "convert_file",
    "document_tree",
    "first_line",
    "iter_sources",
    "page_marker",
    "strip_page_markers",
]
