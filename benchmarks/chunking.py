"""Chunker throughput and chunk quality, side by side with docling-core's HybridChunker, in one run.

Both get the same documents, the same local tokenizer (the dense model's) and the same token limit. Input:
real Markdown (the package READMEs under tests/data/markdown) and the Python library reference (HTML from the
development corpus), converted once by Docling: its DoclingDocument feeds HybridChunker, its Markdown export
feeds sleuth. Conversion time is excluded for both; HybridChunker's limit applies to the text it embeds
(``contextualize``), so that is what its violations are counted on.

    python -m benchmarks.chunking [--corpus corpus-dev] [--max-tokens 128] [--max-docs 120]
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.progress import track

from benchmarks.report import write_section
from sleuth.ingest import TokenCounter, chunk_markdown
from sleuth.ingest.tokens import default_tokenizer_dir

REPO = Path(__file__).resolve().parents[1]
log = logging.getLogger(__name__)


@dataclass
class Result:
    name: str
    seconds: float = 0.0
    sizes: list[int] = field(default_factory=list)
    violations: int = 0

    def row(self, megabytes: float, limit: int) -> str:
        s = sorted(self.sizes)
        q = statistics.quantiles(s, n=10) if len(s) > 1 else [s[0]] * 9
        tiny = sum(1 for n in s if n < limit // 4) / len(s)
        sizes = f"{q[0]:.0f} / {statistics.median(s):.0f} / {q[8]:.0f} / {s[-1]}"
        speed = megabytes / self.seconds
        return f"| {self.name} | {speed:.3f} | {len(s)} | {sizes} | {tiny:.1%} | {self.violations} |"


def load_documents(corpus: Path, max_docs: int) -> list[tuple[str, str, Any]]:
    """(name, markdown, DoclingDocument) triples, converted once by Docling."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from docling.document_converter import DocumentConverter  # noqa: PLC0415 - heavy, optional

    converter = DocumentConverter()
    paths = sorted((REPO / "tests" / "data" / "markdown").glob("*.md"))
    paths += sorted((corpus / "html").glob("*.html"))[: max(0, max_docs - len(paths))]
    docs = []
    for path in track(paths, description="converting with Docling", transient=True):
        document = converter.convert(path).document
        markdown = path.read_text() if path.suffix == ".md" else document.export_to_markdown()
        docs.append((path.name, markdown, document))
    return docs


def run(corpus: Path, limit: int, max_docs: int) -> str:
    from docling_core.transforms.chunker.hybrid_chunker import HybridChunker  # noqa: PLC0415
    from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer  # noqa: PLC0415
    from transformers import AutoTokenizer  # noqa: PLC0415

    docs = load_documents(corpus, max_docs)
    counter = TokenCounter.from_dir(default_tokenizer_dir())
    megabytes = sum(len(md.encode()) for _, md, _ in docs) / 1e6

    ours = Result("sleuth chunk_markdown")
    for name, markdown, _ in track(docs, description="sleuth", transient=True):
        start = time.perf_counter()
        chunks = chunk_markdown(markdown, counter, document_id=name, max_tokens=limit, overlap_tokens=32)
        ours.seconds += time.perf_counter() - start
        exact = counter.count_batch([c.content for c in chunks])
        ours.sizes += exact
        ours.violations += sum(1 for n in exact if n > limit)

    tokenizer = HuggingFaceTokenizer(
        tokenizer=AutoTokenizer.from_pretrained(str(default_tokenizer_dir())), max_tokens=limit
    )
    hybrid = HybridChunker(tokenizer=tokenizer)
    theirs = Result("docling-core HybridChunker")
    for _, _, document in track(docs, description="HybridChunker", transient=True):
        start = time.perf_counter()
        chunks = list(hybrid.chunk(document))
        theirs.seconds += time.perf_counter() - start
        exact = counter.count_batch([hybrid.contextualize(c) for c in chunks])
        theirs.sizes += exact
        theirs.violations += sum(1 for n in exact if n > limit)

    speedup = (megabytes / ours.seconds) / (megabytes / theirs.seconds)
    return f"""## Chunking: sleuth vs docling-core HybridChunker

{len(docs)} real documents ({megabytes:.2f} MB of Markdown: package READMEs and the Python library reference),
limit {limit} tokens of the dense model's tokenizer (bge-small-en-v1.5), overlap 32 for sleuth, one process.
Chunk sizes are exact token counts; a violation is a chunk over the limit (for HybridChunker counted on the
contextualized text it embeds, which is what its limit governs). Conversion time is excluded for both.
Command: `make bench` (`python -m benchmarks.chunking --max-tokens {limit} --max-docs {max_docs}`).

| chunker | MB/s | chunks | tokens p10 / p50 / p90 / max | chunks < limit/4 | violations |
|---|---:|---:|---|---:|---:|
{ours.row(megabytes, limit)}
{theirs.row(megabytes, limit)}

sleuth is {speedup:.1f}x HybridChunker's throughput here.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--corpus", type=Path, default=REPO / "corpus-dev")
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--max-docs", type=int, default=120)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    body = run(args.corpus, args.max_tokens, args.max_docs)
    write_section("chunking", body)
    print(body)


if __name__ == "__main__":
    main()
