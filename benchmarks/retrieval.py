"""Retrieval benchmark: ingest throughput by stage, query latency, and quality against BM25.

Quality: FanOutQA dev sub-questions over the 10,033 Wikipedia leads of the development corpus (each
sub-question's evidence page is its relevant document; ``benchmarks.fanout_beir`` builds the BEIR folder).
Dense, sparse, hybrid RRF and hybrid DBSF from one index, next to BM25 (bm25s, Lucene variant) on the same
documents (title + text) and queries. Throughput: the development PDFs (pages/s) and the leads (chunks/s),
with the time per stage and, for reference, what the two encoders cost alone on the same texts.

    python -m benchmarks.retrieval [--corpus corpus-dev] [--limit-docs N]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time
from pathlib import Path

import bm25s

from benchmarks.fanout_beir import build
from benchmarks.report import write_section
from sleuth.ingest.convert import CONVERTIBLE_SUFFIXES, ConvertOptions
from sleuth.ingest.sources import iter_sources
from sleuth.ingest.tokens import TokenCounter, default_models_dir
from sleuth.retrieval.beir import Dataset
from sleuth.retrieval.encoders import Encoders
from sleuth.retrieval.evaluation import RetrievalEval, evaluate
from sleuth.retrieval.index import Index
from sleuth.retrieval.ingestion import Ingestor, IngestReport, passage_text
from sleuth.retrieval.metrics import score_run
from sleuth.retrieval.search import Searcher
from sleuth.retrieval.store import EdgeStore

MAX_TOKENS = 256
OVERLAP = 32


def _ingestor(folder: Path, encoders: Encoders, counter: TokenCounter) -> Ingestor:
    store = EdgeStore(folder, encoders.identity.dense_dim, create=True)
    index = Index(store, encoders.identity, create=True)
    return Ingestor(index, encoders, counter, max_tokens=MAX_TOKENS, overlap_tokens=OVERLAP)


def _stage_row(name: str, report: IngestReport, extra: str = "") -> str:
    s = report.seconds
    total = s["total"] or 1e-9
    pages = f"{report.pages / total:.1f}" if report.pages else "-"
    return (
        f"| {name} | {report.added} | {report.pages or '-'} | {report.chunks_written} | {total:.1f} | "
        f"{pages} | {report.chunks_written / total:.1f} | {s['convert']:.1f} | {s['chunk']:.1f} | "
        f"{s['embed']:.1f} | {s['store']:.1f} |{extra}"
    )


def _encoders_alone(encoders: Encoders, texts: list[str]) -> float:
    started = time.perf_counter()
    encoders.embed_passages(texts)
    return len(texts) / (time.perf_counter() - started)


def _bm25(dataset: Dataset) -> tuple[dict[str, float], list[float]]:
    ids, texts = [], []
    for doc in dataset.documents():
        ids.append(doc.document_id)
        texts.append(doc.markdown)
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False)
    run: dict[str, list[str]] = {}
    seconds = []
    for qid, text in dataset.queries.items():
        started = time.perf_counter()
        docs, _ = retriever.retrieve(
            bm25s.tokenize([text], stopwords="en", show_progress=False), k=100, show_progress=False
        )
        seconds.append(time.perf_counter() - started)
        run[qid] = [ids[i] for i in docs[0]]
    return score_run(run, dataset.qrels), seconds


def _latency(seconds: list[float]) -> str:
    ms = sorted(x * 1000 for x in seconds)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"{statistics.median(ms):.1f} | {p95:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("corpus-dev"))
    parser.add_argument("--work", type=Path, default=None, help="Keep indexes here (default: temporary).")
    parser.add_argument(
        "--quality-only",
        action="store_true",
        help="Reuse the indexes in --work; rewrite only the quality table.",
    )
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="sleuth-bench-"))
    encoders = Encoders(default_models_dir(), "offline")
    counter = TokenCounter.from_dir(default_models_dir() / "bge-small-en-v1.5")

    # -- ingest throughput: PDFs (conversion-heavy) and Wikipedia leads (embedding-heavy)
    rows = []
    if args.quality_only:
        dataset_dir = work / "fanout-beir"
        n_docs, n_queries = build(args.corpus, dataset_dir)
        dataset = Dataset.load(dataset_dir)
        wiki = _ingestor(work / "wiki-index", encoders, counter)
        _quality(dataset, wiki, n_docs, n_queries)
        return
    pdfs = _ingestor(work / "pdf-index", encoders, counter)
    pdfs.ingest_sources(
        iter_sources([args.corpus / "pdf"], CONVERTIBLE_SUFFIXES), ConvertOptions(), workers=1
    )
    pdf_texts = [passage_text(c) for c in _sample_chunks(pdfs)]
    rows.append(_stage_row("11 PDF manuals", pdfs.report))
    dataset_dir = work / "fanout-beir"
    n_docs, n_queries = build(args.corpus, dataset_dir)
    dataset = Dataset.load(dataset_dir)
    wiki = _ingestor(work / "wiki-index", encoders, counter)
    wiki.ingest_texts(dataset.documents())
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows.append(_stage_row(f"{n_docs} Wikipedia leads", wiki.report))
    alone_pdf = _encoders_alone(encoders, pdf_texts[:400])

    wiki.index.store.close()
    pdfs.index.store.close()
    body = "\n".join(
        [
            "### Ingest throughput (embedded Qdrant Edge index, offline models, 1 conversion worker)",
            "",
            "| corpus | documents | pages | chunks | seconds | pages/s | chunks/s | convert wait s | "
            "chunk s | embed s | store s |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
            *rows,
            "",
            'Conversion runs in a worker process while the main process embeds, so "convert wait" is only '
            "the time the main process waited for it: embedding is the bottleneck. "
            f"The two encoders alone on 400 of the PDF chunks (heading path + content, up to {MAX_TOKENS} "
            f"tokens): {alone_pdf:.1f} chunks/s. Peak RSS of the whole run: {peak_mb:.0f} MB.",
        ]
    )
    write_section("retrieval-ingest", body)
    print(body)
    _quality(dataset, _ingestor(work / "wiki-index", encoders, counter), n_docs, n_queries)


def _quality(dataset: Dataset, wiki: Ingestor, n_docs: int, n_queries: int) -> None:
    encoders = wiki.encoders
    searcher = Searcher(wiki.index, encoders)
    results: list[RetrievalEval] = [evaluate(dataset, searcher, mode=m) for m in ("dense", "sparse")]
    rrf = evaluate(dataset, searcher, mode="hybrid", fusion="rrf")
    rrf.mode = "hybrid (RRF k=2, dense weight 2)"
    dbsf = evaluate(dataset, searcher, mode="hybrid", fusion="dbsf")
    dbsf.mode = "hybrid (DBSF; default)"
    results += [rrf, dbsf]
    bm25_metrics, bm25_seconds = _bm25(dataset)
    wiki.index.store.close()
    quality = [
        "| method | nDCG@10 | Recall@10 | Recall@100 | MRR@10 | query p50 ms | query p95 ms |",
        "|---|---|---|---|---|---|---|",
        f"| BM25 (bm25s) | {_m(bm25_metrics)} | {_latency(bm25_seconds)} |",
    ]
    quality += [f"| {r.mode} | {_m(r.metrics)} | {_latency(r.query_seconds)} |" for r in results]
    body = "\n".join(
        [
            f"### Retrieval quality: FanOutQA dev sub-questions ({n_queries} judged) over {n_docs} Wikipedia "
            "leads",
            "",
            "Document-level ranking (a document scores as its best chunk); latency is one query end to end "
            "(encoding included) against the embedded index; BM25 latency is bm25s's in-memory lookup.",
            "",
            *quality,
        ]
    )
    write_section("retrieval", body)
    print(body)

    print(body)


def _sample_chunks(ingestor: Ingestor) -> list:  # type: ignore[type-arg]
    from sleuth.ingest.models import Chunk  # noqa: PLC0415

    records = ingestor.index.store.scroll({"record": "chunk", "state": "live"})
    out = []
    for r in records:
        fields = {k: r.payload[k] for k in Chunk.model_fields if k != "id"}
        out.append(Chunk(id=r.payload["chunk_id"], **fields))
        if len(out) >= 400:
            break
    return out


def _m(metrics: dict[str, float]) -> str:
    return " | ".join(f"{metrics[k]:.3f}" for k in ("ndcg@10", "recall@10", "recall@100", "mrr@10"))


if __name__ == "__main__":
    main()
