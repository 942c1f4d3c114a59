"""Markdown in, typed chunks out: structure first, then token-exact limits, then overlap and identity.

The pipeline for one document:
1. parse into elements under their sections (``markdown_tree``);
2. count every element's tokens in one batch, split the ones over the limit by their type's strategy
   (``splitting``), and merge small neighbours of the same section and kind up to the limit; a section that
   is only a heading joins the first chunk of what follows under it, so no chunk is a lone title;
3. re-count every finished chunk exactly (the only count that is reported), attach overlap context that
   stays inside the chunk's own section, and give each chunk an id derived from its document and content.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from dataclasses import dataclass, field

from tokenizers import Encoding

from sleuth.ingest.markdown_tree import Element, ElementKind, ParsedDocument, Section, parse_markdown
from sleuth.ingest.models import Chunk, ChunkType
from sleuth.ingest.splitting import Piece, split_element
from sleuth.ingest.tokens import TokenCounter, TokenSpans

_CHUNK_TYPES: dict[ElementKind, ChunkType] = {
    ElementKind.LIST: "list",
    ElementKind.TABLE: "table",
    ElementKind.CODE: "code",
}
_ID_NAMESPACE = uuid.UUID("6f1c3c2e-5d0b-4f5e-9a57-8f1b2b7f0c11")
_WORD_START = re.compile(r"\s\S")


@dataclass(slots=True)
class _Draft:
    """A chunk being assembled: consecutive pieces of one section (or headings leading into it)."""

    section: Section
    chunk_type: ChunkType
    pieces: list[Piece] = field(default_factory=list)
    tokens: int = 0
    headings_only: bool = True
    split: tuple[int, int] | None = None
    encoding: Encoding | None = None
    """The exact encoding of the content when it is one whole element (saves re-encoding it)."""


def chunk_markdown(
    markdown: str,
    counter: TokenCounter,
    *,
    document_id: str = "document",
    source: str | None = None,
    max_tokens: int = 256,
    overlap_tokens: int = 0,
) -> list[Chunk]:
    """Cut one Markdown document into chunks of at most ``max_tokens`` tokens of ``counter``'s tokenizer.

    Page markers (``<!-- page: N -->`` lines) are removed from content and fill ``page_start``/``page_end``.
    """
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be at least 1, got {max_tokens}")
    if overlap_tokens < 0:
        raise ValueError(f"overlap_tokens must not be negative, got {overlap_tokens}")
    doc = parse_markdown(markdown)
    drafts = _assemble(doc, counter, max_tokens)
    return _finish(
        doc,
        drafts,
        counter,
        document_id=document_id,
        source=source,
        limit=max_tokens,
        overlap=overlap_tokens,
    )


def _assemble(doc: ParsedDocument, counter: TokenCounter, limit: int) -> list[_Draft]:
    elements = [(section, element) for section in doc.sections for element in section.elements]
    encodings = counter.encode_batch([e.text for _, e in elements])
    drafts: list[_Draft] = []
    draft: _Draft | None = None
    for (section, element), encoding in zip(elements, encodings, strict=True):
        n = len(encoding)
        kind = _CHUNK_TYPES.get(element.kind, "text")
        is_heading = element.kind is ElementKind.HEADING
        leads_in = (
            draft is not None
            and draft.headings_only
            and draft.split is None
            and draft.section.contains(section)
        )
        if n <= limit:
            piece = Piece(element.text, element.start, element.end, n)
            if (
                draft is not None
                and draft.tokens + n <= limit
                and (
                    leads_in
                    or (
                        draft.section is section
                        and draft.split is None
                        and draft.chunk_type == "text"
                        and kind == "text"
                    )
                )
            ):
                _add(draft, section, kind, piece, is_heading)
                continue
            if draft is not None:
                drafts.append(draft)
            draft = _Draft(section, kind)
            _add(draft, section, kind, piece, is_heading)
            draft.encoding = encoding
            continue
        # Over the limit: split by the element's strategy; a heading-only draft may lead into piece 1.
        first_limit = None
        if draft is not None and leads_in and draft.tokens <= limit // 4:
            first_limit = limit - draft.tokens
        pieces = _relocate(
            split_element(
                element,
                TokenSpans.of(encoding),
                counter,
                limit,
                line_offsets=doc.line_offsets,
                first_limit=first_limit,
            ),
            element.start,
        )
        for i, piece in enumerate(pieces):
            if (
                i == 0
                and first_limit is not None
                and draft is not None
                and draft.tokens + piece.tokens <= limit
            ):
                _add(draft, section, kind, piece, is_heading)
            else:
                if draft is not None:
                    drafts.append(draft)
                draft = _Draft(section, kind)
                _add(draft, section, kind, piece, is_heading)
            draft.split = (i + 1, len(pieces)) if len(pieces) > 1 else None
        if len(pieces) > 1 and draft is not None:
            drafts.append(draft)
            draft = None
    if draft is not None:
        drafts.append(draft)
    return drafts


def _add(draft: _Draft, section: Section, kind: ChunkType, piece: Piece, is_heading: bool) -> None:
    if draft.headings_only and not is_heading:
        draft.chunk_type = kind
    draft.section = section if draft.section.contains(section) else draft.section
    draft.pieces.append(piece)
    draft.tokens += piece.tokens
    draft.encoding = None
    draft.headings_only = draft.headings_only and is_heading


def _relocate(pieces: list[Piece], offset: int) -> list[Piece]:
    return [Piece(p.text, p.start + offset, p.end + offset, p.tokens) for p in pieces]


def _content(doc: ParsedDocument, draft: _Draft) -> str:
    """Pieces joined by the white space that separated them in the source."""
    parts = [draft.pieces[0].text]
    for prev, piece in zip(draft.pieces, draft.pieces[1:], strict=False):
        parts.append(doc.text[prev.end : piece.start] or "\n\n")
        parts.append(piece.text)
    return "".join(parts)


def _finish(
    doc: ParsedDocument,
    drafts: list[_Draft],
    counter: TokenCounter,
    *,
    document_id: str,
    source: str | None,
    limit: int,
    overlap: int,
) -> list[Chunk]:
    contents = [_content(doc, d) for d in drafts]
    todo = [i for i, d in enumerate(drafts) if d.encoding is None]
    fresh = iter(counter.encode_batch([contents[i] for i in todo]))
    encodings = [d.encoding if d.encoding is not None else next(fresh) for d in drafts]
    drafts, contents, encodings = _enforce_limit(drafts, contents, encodings, counter, limit)
    ids = _chunk_ids(document_id, drafts, contents)
    chunks: list[Chunk] = []
    for i, draft in enumerate(drafts):
        before = after = ""
        if overlap and i > 0 and drafts[i - 1].section.contains(draft.section):
            before = _tail(contents[i - 1], encodings[i - 1], overlap)
        if overlap and i + 1 < len(drafts) and draft.section.contains(drafts[i + 1].section):
            after = _head(contents[i + 1], encodings[i + 1], overlap)
        path = draft.section.path
        chunks.append(
            Chunk(
                id=ids[i],
                document_id=document_id,
                source=source,
                chunk_type=draft.chunk_type,
                section_path=" > ".join(path),
                parent_section=path[-1] if path else None,
                prev_chunk_id=ids[i - 1] if i > 0 else None,
                next_chunk_id=ids[i + 1] if i + 1 < len(ids) else None,
                content=contents[i],
                context_before=before,
                context_after=after,
                token_count=len(encodings[i]),
                split_sequence=f"{draft.split[0]}/{draft.split[1]}" if draft.split else None,
                page_start=doc.pages.page_at(draft.pieces[0].start),
                page_end=doc.pages.page_at(max(draft.pieces[-1].end - 1, draft.pieces[-1].start)),
                chunk_index=i,
                section_level=draft.section.level,
            )
        )
    return chunks


def _enforce_limit(
    drafts: list[_Draft],
    contents: list[str],
    encodings: list[Encoding],
    counter: TokenCounter,
    limit: int,
) -> tuple[list[_Draft], list[str], list[Encoding]]:
    """Re-split the rare chunk whose exact count exceeds the plan (a tokenizer that is not additive)."""
    if all(len(e) <= limit for e in encodings):
        return drafts, contents, encodings
    out_d: list[_Draft] = []
    out_c: list[str] = []
    out_e: list[Encoding] = []
    for draft, content, encoding in zip(drafts, contents, encodings, strict=True):
        if len(encoding) <= limit:
            out_d.append(draft)
            out_c.append(content)
            out_e.append(encoding)
            continue
        element = Element(ElementKind.PARAGRAPH, content, 0, len(content), 0, 1)
        start = draft.pieces[0].start
        end = draft.pieces[-1].end
        pieces = split_element(element, TokenSpans.of(encoding), counter, limit, line_offsets=[0])
        for piece in pieces:
            out_d.append(
                _Draft(
                    draft.section,
                    draft.chunk_type,
                    [Piece(piece.text, start, end, piece.tokens)],
                    piece.tokens,
                    False,
                    draft.split,
                )
            )
            out_c.append(piece.text)
        out_e.extend(counter.encode_batch(out_c[len(out_e) :]))
    return out_d, out_c, out_e


def _tail(text: str, encoding: Encoding, n: int) -> str:
    """The last ``n`` tokens of ``text`` or fewer, starting at a word boundary."""
    if len(encoding) <= n:
        return text.strip()
    cut = _char_span(encoding, len(encoding) - n)[0]
    if cut > 0 and not text[cut - 1].isspace():
        m = _WORD_START.search(text, cut)
        cut = m.start() + 1 if m else len(text)
    return text[cut:].strip()


def _head(text: str, encoding: Encoding, n: int) -> str:
    """The first ``n`` tokens of ``text`` or fewer, ending at a word boundary."""
    if len(encoding) <= n:
        return text.strip()
    cut = _char_span(encoding, n - 1)[1]
    if cut < len(text) and not text[cut].isspace():
        space = max(text.rfind(" ", 0, cut), text.rfind("\n", 0, cut))
        cut = space if space > 0 else 0
    return text[:cut].strip()


def _char_span(encoding: Encoding, token: int) -> tuple[int, int]:
    """One token's character span, without reading out all offsets (which costs more than encoding)."""
    span = encoding.token_to_chars(token)
    return span if span is not None else encoding.offsets[token]


def _chunk_ids(document_id: str, drafts: list[_Draft], contents: list[str]) -> list[str]:
    """UUIDs (Qdrant accepts them as point ids) from document, section and content.

    Re-chunking an unchanged document yields the same ids, so re-ingest overwrites instead of duplicating;
    a repeated identical chunk in one document gets its occurrence number mixed in to stay unique.
    """
    seen: dict[str, int] = {}
    ids: list[str] = []
    for draft, content in zip(drafts, contents, strict=True):
        digest = hashlib.sha256(
            "\x1f".join((document_id, " > ".join(draft.section.path), content)).encode()
        ).hexdigest()
        occurrence = seen.get(digest, 0)
        seen[digest] = occurrence + 1
        ids.append(str(uuid.uuid5(_ID_NAMESPACE, f"{digest}:{occurrence}")))
    return ids
