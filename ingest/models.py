"""Public data shapes of ingest: chunks (the contract's chunk JSON) and the section tree."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: ``toc``: a printed table of contents (entries with page numbers or in-document links), kept out of search
#: by default because its titles match almost any query while saying nothing.
ChunkType = Literal["text", "table", "code", "list", "toc"]


def _is_none(value: object) -> bool:
    return value is None


class Chunk(BaseModel):
    """One retrievable piece of a document, exactly the contract's chunk JSON.

    ``content`` is verbatim Markdown from the source (a split table repeats its header rows, a split code
    block gets its fences back); ``context_before`` / ``context_after`` are neighbouring text for readers and
    rerankers and are not part of ``token_count``.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    document_id: str
    source: str | None
    chunk_type: ChunkType
    section_path: str
    parent_section: str | None
    prev_chunk_id: str | None
    next_chunk_id: str | None
    content: str
    context_before: str
    context_after: str
    token_count: int
    split_sequence: str | None
    page_start: int | None
    page_end: int | None
    chunk_index: int = Field(description="Position of the chunk in its document, from 0.")
    section_level: int = Field(description="Heading level of the innermost section (0: before any heading).")
    page_breaks: list[tuple[int, int]] = Field(
        default_factory=list,
        description="Pages that begin inside the content: (character offset in content, page number).",
    )

    def page_at(self, offset: int) -> int | None:
        """The page the character at ``offset`` of ``content`` stands on (``page_start`` before any break):
        a quote's page, not its chunk's first page."""
        page = self.page_start
        for start, number in self.page_breaks:
            if start > offset:
                break
            page = number
        return page


class ListItemNode(BaseModel):
    text: str
    children: list[ListItemNode] = Field(default_factory=list)


class ElementNode(BaseModel):
    """One content element of a section, with the structure its type has (items, cells, language)."""

    type: str
    text: str
    line_start: int = Field(description="1-based first line in the marker-free Markdown.")
    line_end: int
    page_start: int | None = None
    page_end: int | None = None
    language: str | None = Field(None, exclude_if=_is_none)
    ordered: bool | None = Field(None, exclude_if=_is_none)
    items: list[ListItemNode] | None = Field(None, exclude_if=_is_none)
    header: list[str] | None = Field(None, exclude_if=_is_none)
    rows: list[list[str]] | None = Field(None, exclude_if=_is_none)


class SectionNode(BaseModel):
    """A section of the tree: its heading, the elements directly under it, and its subsections."""

    level: int
    heading: str | None
    content_elements: list[ElementNode] = Field(default_factory=list)
    subsections: list[SectionNode] = Field(default_factory=list)
