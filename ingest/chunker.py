"""Markdown in, typed chunks out: structure first, then token-exact limits, then overlap and identity.

The pipeline for one document:
1. parse into elements under their sections (``markdown_tree``);
2. count every element's tokens in one batch, split the ones over the limit by their type's strategy
   (``splitting``), and merge small neighbours of the same section and kind up to the limit; a section that
   is only a heading joins the first chunk of what follows under it, so no chunk is a lone title;
3. re-count every finished chunk exactly (the only count that is reported), attach overlap context that
   stays inside the chunk's own section, and give each chunk an id derived from its document and content.

Long documents stream: the text is cut into windows at block boundaries (``windows``), each window is parsed
and chunked under the sections still open from the one before, and chunks are yielded as they are finished
(one is held back until its successor is known, for ``next_chunk_id`` and the overlap). Memory is bounded by
a window, not by the file; a document of ordinary size is one window.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from tokenizers import Encoding

from sleuth.ingest.markdown_tree import Element, ElementKind, ParsedDocument, Section, parse_markdown
from sleuth.ingest.models import Chunk, ChunkType
from sleuth.ingest.splitting import Piece, split_element
from sleuth.ingest.term_lines import is_term_line
from sleuth.ingest.tokens import TokenCounter, TokenSpans
from sleuth.ingest.visible import visible_text
from sleuth.ingest.windows import SOFT_CHARS, bounded_lines, markdown_windows

_CHUNK_TYPES: dict[ElementKind, ChunkType] = {
    ElementKind.LIST: "list",
    ElementKind.TABLE: "table",
    ElementKind.CODE: "code",
}
#: Bump when the same Markdown would be cut differently (indexes re-chunk what they hold).
#: 2026.11.1: a code block or list of at most a share of the limit reads with the prose around it.
#: 2026.11.27: so does a table of one record (a header, its rule, one row).
#: 2026.11.27.2: a term line joins what comes before it only with its description.
#: 2026.11.27.3: a split table repeats its header with a compact rule (a padded rule cut tables as text).
#: 2026.11.28: a definition's line as Texinfo writes it ("Macro: YYABORT ;") is a term line.
#: 2026.11.28.1: ... and GNU m4's "Builtin: m4wrap (string, …)" and "Composite: forloop (...)"; a list of
#: links to the site's pages (a Texinfo manual's top page) is a table of contents.
#: 2026.11.29: a synopsis ("http-request deny [ { status | deny_status } <code>] [ ... ]*") is a term line,
#: however many words its argument groups hold.
#: 2026.11.30: a Texinfo definition's line with a category of the manual's own ("Pop3d Conf: login-delay
#: duration") is a term line.
CHUNKER_VERSION = "2026.11.30"
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
    return list(
        iter_chunks(
            markdown,
            counter,
            document_id=document_id,
            source=source,
            max_tokens=max_tokens,
            overlap_tokens=overlap_tokens,
        )
    )


def iter_chunks(
    markdown: str | Iterable[str],
    counter: TokenCounter,
    *,
    document_id: str = "document",
    source: str | None = None,
    max_tokens: int = 256,
    overlap_tokens: int = 0,
    window_chars: int = SOFT_CHARS,
) -> Iterator[Chunk]:
    """``chunk_markdown`` as a stream: ``markdown`` is a string or blocks of text read lazily (a file)."""
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be at least 1, got {max_tokens}")
    if overlap_tokens < 0:
        raise ValueError(f"overlap_tokens must not be negative, got {overlap_tokens}")
    blocks = [markdown] if isinstance(markdown, str) else markdown
    emitter = _Emitter(document_id, source, overlap_tokens)
    section: Section | None = None
    page: int | None = None
    for window in markdown_windows(bounded_lines(blocks), window_chars):
        doc = parse_markdown(window.text, within=section, initial_page=page, keep_tree=False)
        for done in _finish_window(doc, _assemble(doc, counter, max_tokens), counter, max_tokens):
            chunk = emitter.push(done)
            if chunk is not None:
                yield chunk
        section, page = doc.last_section, doc.pages.last
    last = emitter.close()
    if last is not None:
        yield last


def _assemble(doc: ParsedDocument, counter: TokenCounter, limit: int) -> list[_Draft]:
    elements = [(section, element) for section in doc.sections for element in section.elements]
    encodings = counter.encode_batch([e.text for _, e in elements])
    drafts: list[_Draft] = []
    draft: _Draft | None = None
    for at, ((section, element), encoding) in enumerate(zip(elements, encodings, strict=True)):
        n = len(encoding)
        # A record (a table of one row) or a term line ("-q", "disable server <backend>/<server>") joins
        # what comes before it only when what describes it, after it, fits too: the term and its
        # description are one thing to find, and the description alone names nothing.
        then = len(encodings[at + 1]) if at + 1 < len(elements) and _names_the_next(element, n) else 0
        kind = kind_of(element)
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
                and draft.tokens + n + (then if not draft.headings_only else 0) <= limit
                and (
                    leads_in
                    or (
                        draft.section is section
                        and draft.split is None
                        and _reads_as_text(draft.chunk_type, draft.tokens, limit, draft.pieces[-1].text)
                        and _reads_as_text(kind, n, limit, element.text)
                    )
                )
            ):
                mixed = not draft.headings_only and draft.chunk_type != kind
                _add(draft, section, kind, piece, is_heading)
                if mixed:
                    draft.chunk_type = "text"
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


#: A code block or list this small (a share of the chunk limit) is read with the prose around it: a one-line
#: command or an option name followed by its description is one thing to find, not two tiny chunks.
SMALL_SHARE = 8


#: A table of at most this many lines (a header, its rule and one row) and half the limit is one
#: record: Exim's "acl_smtp_rcpt | Use: main | Type: string | Default: unset" over the paragraph that
#: describes the option is one thing to find, as a small code block or list over its description is.
RECORD_LINES = 3


def _names_the_next(element: Element, tokens: int) -> bool:
    """A record (a table of one row) or a term line: what the element after it describes."""
    if kind_of(element) == "table":
        return True
    return (
        element.kind is ElementKind.PARAGRAPH
        and tokens <= TERM_TOKENS
        and is_term_line(visible_text(element.text).text)
    )


#: A term line is at most this many tokens (a command with its arguments).
TERM_TOKENS = 40


def kind_of(element: Element) -> ChunkType:
    return "toc" if element.toc else _CHUNK_TYPES.get(element.kind, "text")


def _reads_as_text(kind: ChunkType, tokens: int, limit: int, text: str = "") -> bool:
    if kind == "table":  # (a record's rule of dashes counts a token a dash: half the limit is a short row)
        return (
            tokens <= limit // 2 and len([line for line in text.splitlines() if line.strip()]) <= RECORD_LINES
        )
    return kind == "text" or (kind in ("code", "list") and tokens <= limit // SMALL_SHARE)


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


def _page_breaks(doc: ParsedDocument, draft: _Draft, first: int | None) -> list[tuple[int, int]]:
    """Where in the chunk's content a new page begins (content offset, page), from the pieces' source ranges.

    A piece's text is its source slice except where a split table repeats its header or code gets its
    fences back; there the offset is the piece's own start plus the distance into the source range, which
    lands on the right row or line.
    """
    breaks: list[tuple[int, int]] = []
    position = 0
    current = first
    for k, piece in enumerate(draft.pieces):
        if k:
            position += len(doc.text[draft.pieces[k - 1].end : piece.start] or "\n\n")
        shift = max(0, len(piece.text) - (piece.end - piece.start))
        for start, page in zip(doc.pages.starts, doc.pages.pages, strict=True):
            if start > piece.end:
                break
            low = draft.pieces[k - 1].end if k else piece.start
            if low < start <= piece.end and page != current:
                offset = position + (shift + start - piece.start if start >= piece.start else 0)
                breaks.append((min(offset, position + len(piece.text)), page))
                current = page
        position += len(piece.text)
    return breaks


@dataclass(slots=True)
class _Done:
    """A finished chunk before it has an id and neighbours."""

    section: Section
    chunk_type: ChunkType
    content: str
    encoding: Encoding
    split: tuple[int, int] | None
    page_start: int | None
    page_end: int | None
    page_breaks: list[tuple[int, int]]


def _finish_window(
    doc: ParsedDocument, drafts: list[_Draft], counter: TokenCounter, limit: int
) -> list[_Done]:
    contents = [_content(doc, d) for d in drafts]
    todo = [i for i, d in enumerate(drafts) if d.encoding is None]
    fresh = iter(counter.encode_batch([contents[i] for i in todo]))
    encodings = [d.encoding if d.encoding is not None else next(fresh) for d in drafts]
    drafts, contents, encodings = _enforce_limit(drafts, contents, encodings, counter, limit)
    out: list[_Done] = []
    for draft, content, encoding in zip(drafts, contents, encodings, strict=True):
        first = doc.pages.page_at(draft.pieces[0].start)
        out.append(
            _Done(
                draft.section,
                draft.chunk_type,
                content,
                encoding,
                draft.split,
                first,
                doc.pages.page_at(max(draft.pieces[-1].end - 1, draft.pieces[-1].start)),
                _page_breaks(doc, draft, first) if doc.pages.starts else [],
            )
        )
    return out


class _Emitter:
    """Gives finished chunks their ids, neighbours and overlap, holding one back until its successor exists.

    Ids are UUIDs (Qdrant accepts them as point ids) from document, section and content: re-chunking an
    unchanged document yields the same ids, so re-ingest overwrites instead of duplicating; a repeated
    identical chunk in one document gets its occurrence number mixed in to stay unique.
    """

    def __init__(self, document_id: str, source: str | None, overlap: int) -> None:
        self.document_id = document_id
        self.source = source
        self.overlap = overlap
        self.index = 0
        self.before: tuple[_Done, str] | None = None
        self.held: tuple[_Done, str] | None = None
        self.seen: dict[bytes, int] = {}

    def push(self, done: _Done) -> Chunk | None:
        current = (done, self._id(done))
        out = self._emit(current) if self.held is not None else None
        self.held = current
        return out

    def close(self) -> Chunk | None:
        return self._emit(None) if self.held is not None else None

    def _id(self, done: _Done) -> str:
        digest = hashlib.sha256(
            "\x1f".join((self.document_id, " > ".join(done.section.path), done.content)).encode()
        ).digest()
        occurrence = self.seen.get(digest, 0)
        self.seen[digest] = occurrence + 1
        return str(uuid.uuid5(_ID_NAMESPACE, f"{digest.hex()}:{occurrence}"))

    def _emit(self, after: tuple[_Done, str] | None) -> Chunk:
        assert self.held is not None
        done, chunk_id = self.held
        before_text = after_text = ""
        if self.overlap and self.before is not None and self.before[0].section.contains(done.section):
            before_text = _tail(self.before[0].content, self.before[0].encoding, self.overlap)
        if self.overlap and after is not None and done.section.contains(after[0].section):
            after_text = _head(after[0].content, after[0].encoding, self.overlap)
        path = done.section.path
        chunk = Chunk(
            id=chunk_id,
            document_id=self.document_id,
            source=self.source,
            chunk_type=done.chunk_type,
            section_path=" > ".join(path),
            parent_section=path[-1] if path else None,
            prev_chunk_id=self.before[1] if self.before is not None else None,
            next_chunk_id=after[1] if after is not None else None,
            content=done.content,
            context_before=before_text,
            context_after=after_text,
            token_count=len(done.encoding),
            split_sequence=f"{done.split[0]}/{done.split[1]}" if done.split else None,
            page_start=done.page_start,
            page_end=done.page_end,
            chunk_index=self.index,
            section_level=done.section.level,
            page_breaks=done.page_breaks,
        )
        self.index += 1
        self.before, self.held = self.held, None
        return chunk


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
