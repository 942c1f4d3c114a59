"""The index with real models and both real engines: Qdrant Edge (embedded) and qdrant-client's local mode.

Idempotence, replacement without orphans, pruning, filters, neighbours, the model guard. Crash and corruption
cases run the CLI in subprocesses (tests/test_ingest_cli.py).
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from sleuth.ingest.convert import CONVERTIBLE_SUFFIXES, ConvertOptions
from sleuth.ingest.sources import iter_sources
from sleuth.ingest.tokens import TokenCounter, default_models_dir
from sleuth.retrieval.encoders import Encoders, ModelIdentity, ModelLoadError
from sleuth.retrieval.index import Index, ModelMismatchError
from sleuth.retrieval.ingestion import Ingestor, Shard
from sleuth.retrieval.search import Searcher, SearchFilters
from sleuth.retrieval.store import EdgeStore, IndexBusyError, ServerStore, Store

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"


pytestmark = pytest.mark.filterwarnings("ignore:Payload indexes have no effect in the local Qdrant")


def _open(kind: str, folder: Path, create: bool = True) -> Store:
    if kind == "edge":
        return EdgeStore(folder / "edge", 384, create=create)
    return ServerStore(
        QdrantClient(path=str(folder / "local")), "sleuth", 384, create=create, location="local"
    )


@pytest.fixture(params=["edge", "qdrant-client-local"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    opened = _open(request.param, tmp_path)
    yield opened
    opened.close()


def _ingestor(store: Store, encoders: Encoders, counter: TokenCounter, **kw: int) -> Ingestor:
    index = Index(store, encoders.identity, create=True)
    return Ingestor(index, encoders, counter, max_tokens=kw.get("max_tokens", 64), overlap_tokens=8)


def _ingest(ingestor: Ingestor, *paths: Path, prune: bool = False) -> None:
    ingestor.ingest_sources(iter_sources(paths, CONVERTIBLE_SUFFIXES), ConvertOptions())
    if prune:
        ingestor.prune(paths)


def _live_chunks(store: Store) -> list[dict[str, object]]:
    return [r.payload for r in store.scroll({"record": "chunk", "state": "live"})]


def _corpus(tmp_path: Path, names: tuple[str, ...] = ("lithium", "copper", "toyota", "silicon")) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir(parents=True)
    for name in names:
        shutil.copy(SAMPLE / f"{name}.md", folder / f"{name}.md")
    return folder


def test_ingest_is_idempotent(
    store: Store, encoders: Encoders, counter: TokenCounter, tmp_path: Path
) -> None:
    docs = _corpus(tmp_path)
    first = _ingestor(store, encoders, counter)
    _ingest(first, docs)
    assert (first.report.added, first.report.failed) == (4, 0)
    chunks = _live_chunks(store)
    assert len(chunks) == first.report.chunks_written > 4  # 64-token chunks: several per lead
    again = _ingestor(store, encoders, counter)
    _ingest(again, docs)
    assert (again.report.unchanged, again.report.added, again.report.chunks_written) == (4, 0, 0)
    assert sorted(str(c["chunk_id"]) for c in _live_chunks(store)) == sorted(
        str(c["chunk_id"]) for c in chunks
    )
    assert store.count({"record": "chunk"}) == len(chunks)  # nothing pending or orphaned


def test_changed_file_replaces_its_chunks(
    store: Store, encoders: Encoders, counter: TokenCounter, tmp_path: Path
) -> None:
    docs = _corpus(tmp_path)
    _ingest(_ingestor(store, encoders, counter), docs)
    others_before = [c for c in _live_chunks(store) if c["document_id"] != "copper"]
    (docs / "copper.md").write_text("# Copper\n\nCopper prices in the zorblax market rose sharply in 2031.\n")
    rerun = _ingestor(store, encoders, counter)
    _ingest(rerun, docs)
    assert (rerun.report.updated, rerun.report.unchanged) == (1, 3)
    copper = [c for c in _live_chunks(store) if c["document_id"] == "copper"]
    assert len(copper) == 1 and "zorblax" in str(copper[0]["content"])
    assert store.count({"record": "chunk", "document_id": "copper"}) == 1  # old version fully gone
    others_after = [c for c in _live_chunks(store) if c["document_id"] != "copper"]
    assert sorted(map(str, others_after)) == sorted(map(str, others_before))
    hits = Searcher(rerun.index, encoders).search("zorblax copper prices", k=3, mode="sparse")
    assert hits[0].document_id == "copper"


def test_prune_drops_deleted_files_only_under_the_given_paths(
    store: Store, encoders: Encoders, counter: TokenCounter, tmp_path: Path
) -> None:
    docs = _corpus(tmp_path)
    elsewhere = _corpus(tmp_path / "b", ("taiwan",))
    _ingest(_ingestor(store, encoders, counter), docs, elsewhere)
    (docs / "toyota.md").unlink()
    rerun = _ingestor(store, encoders, counter)
    _ingest(rerun, docs, prune=True)
    assert rerun.report.removed == 1
    documents = {c["document_id"] for c in _live_chunks(store)}
    assert documents == {"lithium", "copper", "silicon", "taiwan"}
    assert not [d for d in rerun.index.documents() if d.document_id == "toyota"]


def test_search_modes_filters_and_neighbours(
    store: Store, encoders: Encoders, counter: TokenCounter, tmp_path: Path
) -> None:
    docs = _corpus(tmp_path)
    (docs / "guide.md").write_text(
        "# Guide\n\n## Install\n\nRun the installer on Linux with apt.\n\n"
        "## Usage\n\n| flag | meaning |\n|---|---|\n| -v | verbose output |\n\n"
        "```\nsleuth search battery\n```\n"
    )
    ingestor = _ingestor(store, encoders, counter)
    _ingest(ingestor, docs)
    searcher = Searcher(ingestor.index, encoders)
    for mode in ("hybrid", "dense", "sparse"):
        hits = searcher.search("lithium alkali metal", k=3, mode=mode)  # type: ignore[arg-type]
        assert hits and hits[0].document_id == "lithium", mode
    dbsf = searcher.search("lithium alkali metal", k=3, fusion="dbsf")
    assert dbsf[0].document_id == "lithium"
    only_copper = searcher.search("lithium alkali metal", k=5, filters=SearchFilters(document_ids=["copper"]))
    assert only_copper and {h.document_id for h in only_copper} == {"copper"}
    tables = searcher.search("verbose flag", k=5, filters=SearchFilters(chunk_types=["table"]))
    assert tables and all(h.chunk_type == "table" for h in tables)
    usage = searcher.search("installer", k=5, filters=SearchFilters(section_prefix="Guide > Usage"))
    assert usage and all(h.section_path.startswith("Guide > Usage") for h in usage)
    contents = "## Contents\n\n" + "\n".join(
        f"- {t} . . . . . {p}" for p, t in enumerate(["Install", "Usage", "Verbose output"], 3)
    )
    (docs / "manual.md").write_text(
        "# Manual\n\n" + contents + "\n\n## Verbose output\n\nThe verbose flag prints more.\n"
    )
    _ingest(ingestor, docs)
    assert all(h.chunk_type != "toc" for h in searcher.search("Verbose output Install Usage", k=20))
    (toc,) = searcher.search("Verbose output", k=1, filters=SearchFilters(chunk_types=["toc"]))
    assert toc.document_id == "manual" and toc.section_path == "Manual > Contents"
    (hit,) = searcher.search("Run the installer on Linux", k=1, filters=SearchFilters(document_ids=["guide"]))
    with_context = searcher.search(
        "Run the installer on Linux", k=1, filters=SearchFilters(document_ids=["guide"]), neighbours=1
    )[0]
    expected = {hit.prev_chunk_id, hit.next_chunk_id} - {None}
    assert {n.chunk_id for n in with_context.neighbours} == expected


def test_document_ranking_uses_the_best_chunk(
    store: Store, encoders: Encoders, counter: TokenCounter, tmp_path: Path
) -> None:
    ingestor = _ingestor(store, encoders, counter)
    _ingest(ingestor, _corpus(tmp_path))
    ranked = Searcher(ingestor.index, encoders).rank_documents("Japanese car maker", k=10)
    assert ranked[0][0] == "toyota"
    assert len({d for d, _ in ranked}) == len(ranked) == 4  # one entry per document


def test_a_query_is_encoded_alike_whatever_is_asked_with_it(encoders: Encoders) -> None:
    """The dense model's vector of a text shifts with the other texts of its batch: a research run searched
    its question in one batch with its asks, and its tenth document was not the tenth of ``sleuth search``
    (SQLite's STRICT tables page, for "How do I make SQLite reject values of the wrong type in a column?")."""
    question = "How do I make SQLite reject values of the wrong type in a column?"
    asks = [
        "What are the key facts about SQLite reject values wrong type column, and how do strict tables, type "
        "affinity and CHECK constraints interact in practice?",
        "Which error code does a datatype mismatch raise?",
    ]
    ((alone_dense, alone_sparse),) = encoders.embed_queries([question])
    (with_dense, with_sparse), *_ = encoders.embed_queries([question, *asks])
    assert with_dense == alone_dense
    assert (with_sparse.indices, with_sparse.values) == (alone_sparse.indices, alone_sparse.values)


def test_a_pair_is_judged_alike_whatever_is_judged_with_it(encoders: Encoders) -> None:
    """The cross-encoder's score of a (question, passage) pair is the pair's own: read in a batch with longer
    passages (padding) and other texts, the quantized model scored a pair up to 0.98 apart from the pair
    read alone, so whether a research run kept a quote hung on which quotes it judged beside it."""
    question = "By default, how many requests can a client send over one persistent connection?"
    passage = "MaxKeepAliveRequests 100"
    others = [
        "The KeepAlive directive enables long-lived HTTP sessions, which allow multiple requests to be sent "
        "over the same TCP connection. In some cases this has been shown to result in an almost 50% speedup "
        "in latency times for HTML documents with many images.",
        "Timeout 60",
        "The MaxRequestWorkers directive sets the limit on the number of simultaneous requests that will be "
        "served; any connection attempts over the limit will normally be queued.",
    ]
    (alone,) = encoders.rerank(question, [passage])
    for company in ([passage, *others], [*others, passage], [others[0], passage, others[2]]):
        scores = encoders.rerank(question, company)
        assert scores[company.index(passage)] == alone
    assert encoders.rerank(question, others) == [encoders.rerank(question, [o])[0] for o in others]


def test_pairs_read_side_by_side_score_as_one_session_reads_them(encoders: Encoders) -> None:
    """Two sessions on one thread each (the fixture's two cores) read a call's pairs side by side; the scores
    are those one session gives, in the order asked, bit for bit."""
    question = "How do I see the SQL queries Django is running?"
    texts = [
        "Make sure your Django DEBUG setting is set to True. Then do this: connection.queries",
        "If you wish to examine the SQL being run in failing tests, turn on SQL logging with --debug-sql.",
        "Timeout 60",
        "QueryDict.popitem() removes an arbitrary member of the dictionary.",
        "It's a list of dictionaries in order of query execution.",
    ]
    one = Encoders(default_models_dir(), "offline", threads=1)
    assert one.rerank(question, texts) == encoders.rerank(question, texts)
    assert encoders.rerank(question, texts[:1]) == one.rerank(question, texts[:1])


def test_closed_encoders_stop_their_readers_and_load_them_again_on_use() -> None:
    """``close`` ends the threads that read side by side (a server opening and closing indexes keeps none
    behind); the next call loads the sessions again and scores as before."""
    question = "How do I see the SQL queries Django is running?"
    texts = ["connection.queries lists the SQL run so far.", "Timeout 60", "QueryDict.popitem()"]
    others = set(threading.enumerate())  # (the session fixture's readers among them)
    two = Encoders(default_models_dir(), "offline", threads=2)
    try:
        before = two.rerank(question, texts)
        readers = [t for t in threading.enumerate() if t not in others and t.name.startswith("rerank")]
        assert readers
        two.close()
        two.close()
        assert not any(t.is_alive() for t in readers)
        assert two.rerank(question, texts) == before
    finally:
        two.close()


def test_model_mismatch_is_refused(tmp_path: Path, encoders: Encoders) -> None:
    store = _open("edge", tmp_path)
    try:
        Index(store, encoders.identity, create=True)
        with pytest.raises(ModelMismatchError, match=r"was built with dense=bge-small-en-v1\.5-int8"):
            Index(
                store, ModelIdentity("BAAI/bge-base-en-v1.5", 768, "prithivida/Splade_PP_en_v1"), create=True
            )
    finally:
        store.close()


def test_a_second_process_cannot_open_an_embedded_index(tmp_path: Path) -> None:
    first = _open("edge", tmp_path)
    try:
        with pytest.raises(IndexBusyError, match="in use"):
            _open("edge", tmp_path)
    finally:
        first.close()
    _open("edge", tmp_path).close()  # released on close


def test_shards_partition_the_sources() -> None:
    keys = [f"/data/file{i}.pdf" for i in range(200)]
    shards = [Shard(i, 3) for i in range(3)]
    owners = [sum(s.owns(k) for s in shards) for k in keys]
    assert owners == [1] * 200
    assert all(sum(s.owns(k) for k in keys) > 40 for s in shards)
    with pytest.raises(ValueError, match="i/n"):
        Shard.parse("3")
    with pytest.raises(ValueError, match="0 <= i < n"):
        Shard.parse("3/3")


def test_sparse_model_is_provisioned_with_pooling_in_the_graph(encoders: Encoders) -> None:
    import json  # noqa: PLC0415

    from sleuth.ingest.tokens import default_models_dir  # noqa: PLC0415
    from sleuth.retrieval.provision import SPARSE_SPLADE_TINY, is_provisioned  # noqa: PLC0415

    folder = default_models_dir() / SPARSE_SPLADE_TINY.name
    assert is_provisioned(SPARSE_SPLADE_TINY, default_models_dir())
    manifest = json.loads((folder / "sleuth-model.json").read_text())
    assert manifest["build_version"] == SPARSE_SPLADE_TINY.build_version
    assert "model.onnx" in manifest["files"] and "model.safetensors" not in manifest["files"]
    dense, sparse = encoders.embed_passages(["Lithium is the lightest metal.", "x"])
    assert dense.shape == (2, 384)
    vocab = json.loads((folder / "tokenizer.json").read_text())["model"]["vocab"]
    assert vocab["lithium"] in sparse[0].indices  # the text's own terms carry weight
    assert all(v > 0 for v in sparse[0].values)


def test_models_missing_is_one_line_that_says_where_to_point(tmp_path: Path) -> None:
    """A models folder without the provisioned models (XDG_CACHE_HOME moved, another user) names the folder,
    how to provision, and how to point sleuth at models provisioned elsewhere."""
    with pytest.raises(ModelLoadError) as caught:
        Encoders(tmp_path / "models", "offline", threads=1)
    message = str(caught.value)
    assert str(tmp_path / "models") in message and "make models" in message
    assert "SLEUTH_MODELS_DIR" in message and "\n" not in message
