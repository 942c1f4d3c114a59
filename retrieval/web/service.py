"""Web evidence for one run: search the web (a ``SearchProvider``: SearXNG unless the composition root
chooses another), gate the results, fetch the best pages, convert and chunk them with the corpus's own
converter and chunker, and rank the chunks against the question.

A web chunk becomes a ``WebChunk``: its text (verbatim Markdown of the page), the page's URL, title and date
(published date from the page's metadata, else ``Last-Modified``), so that evidence cut from it can be cited
and checked as corpus evidence is. Failures are counted in ``stats`` and logged; a run goes on without the web
when the search provider is down.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sleuth.ingest import TokenCounter, chunk_markdown
from sleuth.ingest.contextualize import contextualize
from sleuth.ingest.convert import CONVERTER_VERSION, ConvertOptions, convert_bytes
from sleuth.ingest.convert.metadata import parse_date
from sleuth.ingest.sources import SourceError
from sleuth.retrieval.encoders import Encoders
from sleuth.retrieval.provenance import Kind, Provenance
from sleuth.retrieval.web.cache import FetchCache
from sleuth.retrieval.web.fetcher import FetchedPage, Fetcher, FetchError, FetchPolicy
from sleuth.retrieval.web.gatekeeper import Candidate, GatePolicy, GateReport, gate
from sleuth.retrieval.web.results import SearchError, SearchProvider
from sleuth.retrieval.web.urls import canonical_url

log = logging.getLogger(__name__)
#: Elements a page's main content may have (a documentation page has a few thousand; a page of 110,000
#: links held a research run for 320 s and gave nothing to quote).
MAX_PAGE_ELEMENTS = 30_000
#: Chunks of one page kept: what a reader would read of it, and a bound on the work a page costs.
MAX_PAGE_CHUNKS = 200
#: Chunks embedded per question at most (the likeliest by the question's words): ranking the chunks of a
#: few pages never costs more than this many encodings.
MAX_EMBEDDED = 64
#: Rounds of page reads per question: a page that fails is replaced in the next round.
READ_ROUNDS = 3


@dataclass(frozen=True)
class WebConfig:
    pages_per_question: int = 3
    chunks_per_page: int = 4
    max_tokens: int = 256
    cache_path: Path | None = None
    cache_ttl: float = 7 * 86400
    fetch: FetchPolicy = field(default_factory=FetchPolicy)
    gate: GatePolicy = field(default_factory=GatePolicy)


class WebChunk(Provenance):
    """A chunk of a fetched page: verbatim Markdown of the page, its URL, title and date."""

    kind: Kind = "web"
    chunk_id: str
    url: str
    text: str
    score: float = 0.0


@dataclass
class WebStats:
    searches: int = 0
    search_failures: list[str] = field(default_factory=list)
    results: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    pages: int = 0
    chunks: int = 0
    extraction_failures: int = 0
    seconds: float = 0.0

    def as_dict(self, fetcher: Fetcher) -> dict[str, object]:
        return {
            "searches": self.searches,
            "search_failures": self.search_failures,
            "results": self.results,
            "refused": self.refused,
            "pages": self.pages,
            "fetched": fetcher.stats.fetched,
            "cache_hits": fetcher.stats.cache_hits,
            "revalidated": fetcher.stats.revalidated,
            "fetch_failures": fetcher.stats.failures,
            "extraction_failures": self.extraction_failures,
            "chunks": self.chunks,
            "seconds": round(self.seconds, 3),
        }


class WebSearch:
    """One per run (its page budget, deadline and rate limit are the run's); ``await aclose()`` at the end."""

    def __init__(
        self, config: WebConfig, provider: SearchProvider, encoders: Encoders, counter: TokenCounter
    ) -> None:
        self.config = config
        self.encoders = encoders
        self.counter = counter
        self.stats = WebStats()
        self.cache = FetchCache(config.cache_path, config.cache_ttl) if config.cache_path else None
        self.client = provider
        self.fetcher = Fetcher(config.fetch, self.cache)
        #: Every chunk handed out, by id: the text quotes are checked against.
        self.chunks: dict[str, WebChunk] = {}
        #: Each page read once per run; questions asking for a page being read wait for the same read.
        self._pages: dict[str, asyncio.Task[list[WebChunk] | None]] = {}

    async def aclose(self) -> None:
        pending = [task for task in self._pages.values() if not task.done()]
        for task in pending:  # reads no question waits for any more (the run's deadline passed)
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        await self.client.aclose()
        await self.fetcher.aclose()
        if self.cache:
            self.cache.close()

    def metrics(self) -> dict[str, object]:
        return self.stats.as_dict(self.fetcher)

    async def gather(self, question: str, query_vector: Sequence[float]) -> list[WebChunk]:
        """The best chunks of the best result pages for ``question``, most similar to it first."""
        started = time.monotonic()
        try:
            return await self._gather(question, query_vector)
        finally:
            self.stats.seconds += time.monotonic() - started

    async def _gather(self, question: str, query_vector: Sequence[float]) -> list[WebChunk]:
        self.stats.searches += 1
        try:
            answer = await self.client.search(question)
        except SearchError as exc:
            # A search provider that is down fails every query alike: one warning per run, not one per query.
            level = logging.WARNING if not self.stats.search_failures else logging.DEBUG
            log.log(level, "web search failed (the run goes on from the corpus): %s", exc)
            self.stats.search_failures.append(str(exc))
            return []
        self.stats.results += len(answer.results)
        report = gate(question, answer.results, self.config.gate)
        for reason, n in report.refused.items():
            self.stats.refused[reason] = self.stats.refused.get(reason, 0) + n
        pages = await self._read(report)
        found = _likely([chunk for page in pages for chunk in page], question, MAX_EMBEDDED)
        if not found:
            return []
        vectors = await asyncio.to_thread(
            self.encoders.embed_dense, [contextualize(c.text, title=c.title) for c in found]
        )
        scores = vectors @ np.asarray(query_vector, dtype=np.float32)
        ranked = sorted(zip(found, scores, strict=True), key=lambda pair: -float(pair[1]))
        per_page: dict[str, int] = {}
        out: list[WebChunk] = []
        for chunk, score in ranked:
            if per_page.get(chunk.url, 0) >= self.config.chunks_per_page:
                continue
            per_page[chunk.url] = per_page.get(chunk.url, 0) + 1
            out.append(chunk.model_copy(update={"score": float(score)}))
        return out

    async def _read(self, report: GateReport) -> list[list[WebChunk]]:
        """``pages_per_question`` pages that could be read: a page that fails (it hangs, it is endless, it is
        not HTML) is replaced by the next candidate, the per-domain cap counting pages read, so that a bad
        result at the top of the list never costs the question its evidence. Pages are read in at most
        ``READ_ROUNDS`` concurrent rounds, so failures cost at most that many page timeouts."""
        wanted = self.config.pages_per_question
        cap = self.config.gate.per_domain
        queue, spare = list(report.kept), list(report.spare)
        read: list[list[WebChunk]] = []
        per_domain: dict[str, int] = {}
        for _ in range(READ_ROUNDS):
            if len(read) >= wanted or not (queue or spare):
                break
            batch: list[Candidate] = []
            room = wanted - len(read)
            for pool in (queue, spare):
                for candidate in list(pool):
                    pending = sum(1 for c in batch if c.domain == candidate.domain)
                    if len(batch) < room and per_domain.get(candidate.domain, 0) + pending < cap:
                        batch.append(candidate)
                        pool.remove(candidate)
            if not batch:
                break
            pages = await asyncio.gather(*(self._page(c.url, c.result.published) for c in batch))
            for candidate, page in zip(batch, pages, strict=True):
                if page:
                    read.append(page)
                    per_domain[candidate.domain] = per_domain.get(candidate.domain, 0) + 1
        return read

    async def _page(self, url: str, published: str | None) -> list[WebChunk] | None:
        try:
            key = canonical_url(url)
        except ValueError:
            self.stats.extraction_failures += 1
            return None
        if key not in self._pages:
            self._pages[key] = asyncio.ensure_future(self._read_page(key, url, published))
        return await asyncio.shield(self._pages[key])

    async def _read_page(self, key: str, url: str, published: str | None) -> list[WebChunk] | None:
        try:
            page = await self.fetcher.fetch(url)
        except FetchError:
            return None
        try:
            # Conversion and chunking are CPU work: off the event loop, with the other branches going on.
            web = await asyncio.to_thread(self._web_chunks, key, page, published)
        except SourceError as exc:
            log.warning("web: %s", exc)
            self.stats.extraction_failures += 1
            return None
        except Exception as exc:  # a hostile page fails itself, never the run
            log.warning("web: %s: conversion failed (%s: %s)", url, type(exc).__name__, exc)
            self.stats.extraction_failures += 1
            return None
        self.stats.pages += 1
        self.stats.chunks += len(web)
        for chunk in web:
            self.chunks[chunk.chunk_id] = chunk
        return web

    def _web_chunks(self, key: str, page: FetchedPage, published: str | None) -> list[WebChunk]:
        markdown, title, date = self._extract(key, page, published)
        chunks = chunk_markdown(
            markdown,
            self.counter,
            document_id=page.final_url,
            source=page.final_url,
            max_tokens=self.config.max_tokens,
        )
        if len(chunks) > MAX_PAGE_CHUNKS:
            log.info("web: %s: %d chunks, the first %d kept", page.final_url, len(chunks), MAX_PAGE_CHUNKS)
        return [
            WebChunk(
                chunk_id=c.id,
                text=c.content,
                url=page.final_url,
                source=page.final_url,
                title=title,
                section_path=c.section_path or None,
                date=date,
            )
            for c in chunks[:MAX_PAGE_CHUNKS]
            if c.chunk_type != "toc" and c.content.strip()
        ]

    def _extract(
        self, key: str, page: FetchedPage, published: str | None
    ) -> tuple[str, str | None, str | None]:
        cached = page.cached
        if cached is not None and cached.markdown is not None and cached.extractor == CONVERTER_VERSION:
            return cached.markdown, cached.title, cached.published
        options = ConvertOptions(max_bytes=self.config.fetch.max_bytes, max_html_elements=MAX_PAGE_ELEMENTS)
        converted = convert_bytes(page.body, page.final_url, options)
        markdown = converted.markdown
        date = converted.date if converted.date_source not in (None, "file-mtime") else None
        date = date or parse_date(published) or parse_date(page.last_modified)
        if self.cache:
            self.cache.set_extract(key, markdown, converted.title, date, CONVERTER_VERSION)
        return markdown, converted.title, date


def _likely(chunks: list[WebChunk], question: str, limit: int) -> list[WebChunk]:
    """At most ``limit`` chunks, those sharing the most words with the question first (page order kept
    among equals): the dense ranking that follows reads only these."""
    if len(chunks) <= limit:
        return chunks
    asked = {w.lower() for w in _WORD.findall(question) if len(w) > 2}
    scored = [(len(asked & {w.lower() for w in _WORD.findall(c.text)}), k) for k, c in enumerate(chunks)]
    keep = sorted(sorted(scored, key=lambda pair: (-pair[0], pair[1]))[:limit], key=lambda pair: pair[1])
    return [chunks[k] for _, k in keep]


_WORD = re.compile(r"[^\W_]+", re.UNICODE)
