"""Where a piece of text comes from: one model that every shape of it extends.

``DocumentRef`` names a document (a corpus document by id, or a web page by URL) with its title, source and
date; ``Provenance`` adds where in it a piece of text stands (chunk, heading path, page) and what kind of
source it is. A web page's chunk (``WebChunk``), a passage a search returned, a piece of evidence and the
contract's evidence record and source entry are these plus their own fields, so a citation is built from
one set of names everywhere. (``SearchHit`` keeps the names of the contract's search JSON.)
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Kind = Literal["corpus", "web"]

__all__ = ["DocumentRef", "Kind", "Provenance"]


class DocumentRef(BaseModel):
    """A document: its id in the index, or the URL of a web page; its title, source (path or URL) and date."""

    model_config = ConfigDict(frozen=True)

    document_id: str | None = None
    url: str | None = None
    title: str | None = None
    source: str | None = None
    #: ISO 8601 publication date where the document has one.
    date: str | None = None

    @property
    def document_key(self) -> str:
        """What counts as one document: its id, or the page's URL."""
        return self.document_id or self.url or ""


class Provenance(DocumentRef):
    """A piece of text in a document: the chunk it is in, its heading path and page."""

    kind: Kind = "corpus"
    chunk_id: str | None = None
    section_path: str | None = None
    page: int | None = None
