"""``sleuth ingest``, ``search`` and ``eval retrieval`` as scripts drive them: real subprocesses, real models.

Includes the hard cases: a SIGKILL in the middle of an ingest, a corrupted index folder, a batch with broken
files in it, and an index built with other models.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from sleuth.retrieval.encoders import Encoders, ModelIdentity
from sleuth.retrieval.index import Index
from sleuth.retrieval.store import EdgeStore
from tests.test_cli import REPO, SLEUTH, run

SAMPLE = REPO / "data" / "sample"
HITS_FIELDS = {"chunk_id", "document_id", "score", "section_path", "content", "source", "page_start"}


def _docs(tmp_path: Path, copies: int = 1) -> Path:
    """The 26 sample leads, ``copies`` times under distinct names (a bigger corpus for the kill test)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(copies):
        for src in sorted(SAMPLE.glob("*.md")):
            text = src.read_text()
            (folder / f"{src.stem}-{i}.md").write_text(text if i == 0 else f"{text}\nCopy {i}.\n")
    return folder


def _check_consistent(index_dir: Path, encoders: Encoders) -> tuple[int, int]:
    """No duplicates, no orphans: each source's live chunks are one generation, matching its record."""
    store = EdgeStore(index_dir, 384, create=False)
    try:
        index = Index(store, encoders.identity, create=False)
        records = {d.key: d for d in index.documents()}
        live = [r.payload for r in store.scroll({"record": "chunk", "state": "live"})]
        by_source: dict[str, set[str]] = {}
        for chunk in live:
            by_source.setdefault(str(chunk["source_key"]), set()).add(str(chunk["generation"]))
        assert all(len(gens) == 1 for gens in by_source.values())
        ids = Counter((c["source_key"], c["chunk_id"]) for c in live)
        assert max(ids.values(), default=1) == 1
        for key, record in records.items():
            assert by_source.get(key) == {record.generation}
            assert sum(1 for c in live if c["source_key"] == key) == record.chunk_count
        return len(records), len(live)
    finally:
        store.close()


def test_ingest_then_search_json_matches_the_contract(tmp_path: Path) -> None:
    index = tmp_path / "index"
    result = run(["ingest", str(SAMPLE), "--index", str(index), "--json"])
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["added"], report["failed"], report["index_chunks"]) == (26, 0, report["chunks_written"])
    again = json.loads(run(["ingest", str(SAMPLE), "--index", str(index), "--json"]).stdout)
    assert (again["unchanged"], again["chunks_written"]) == (26, 0)
    found = run(["search", "Which company makes the iPhone?", "--index", str(index), "--json", "-k", "3"])
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)
    assert len(hits) == 3 and set(hits[0]) >= HITS_FIELDS
    assert hits[0]["document_id"] in {"apple_inc", "smartphone"}
    env_index = run(["search", "copper", "--json", "-k", "1"], env={"SLEUTH_INDEX": str(index)})
    assert json.loads(env_index.stdout)[0]["document_id"] == "copper"


def test_sigkill_mid_ingest_then_rerun_leaves_no_duplicates(tmp_path: Path, encoders: Encoders) -> None:
    docs = _docs(tmp_path, copies=8)  # 208 files: long enough to be killed in the middle
    index = tmp_path / "index"
    proc = subprocess.Popen(
        [*SLEUTH, "-v", "ingest", str(docs), "--index", str(index)],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    flushes = 0
    for line in proc.stderr:  # kill right after the first commit, in the middle of the next batch
        if "flushed" in line:
            flushes += 1
        elif flushes and "chunks indexed" in line:
            break
    assert proc.poll() is None, "ingest finished before it could be killed; make the corpus bigger"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    partial_docs, _ = _check_consistent(index, encoders)
    assert partial_docs < 208
    rerun = run(["ingest", str(docs), "--index", str(index), "--json"])
    assert rerun.returncode == 0, rerun.stderr
    report = json.loads(rerun.stdout)
    assert report["unchanged"] + report["added"] + report["updated"] == 208
    assert report["unchanged"] >= partial_docs > 0
    assert _check_consistent(index, encoders)[0] == 208


def test_bad_files_are_named_and_the_batch_goes_on(tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    (docs / "empty.md").write_text("")
    (docs / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj <<>> garbage")
    (docs / "notreally.pdf").write_text("# A Markdown file with a PDF name\n\nIt says so.\n")
    (docs / "noise.pdf").write_bytes(bytes(range(256)) * 8)  # no PDF at all: named for what it claims to be
    # A page that only redirects (Texinfo writes one per node alias) or only links (an index) is skipped
    # and counted, not failed.
    (docs / "alias.html").write_text(REDIRECT.format(target="Introduction.html#See-Also"))
    entries = "".join(f'<li><a href="moved.html#e{n}">entry {n}</a></li>' for n in range(30))
    (docs / "index-page.html").write_text(f"<html><body><ul>{entries}</ul></body></html>")  # an index
    (docs / "moved.html").write_text(
        "<html><head><title>Moved</title></head><body><h1>Moved</h1><p>This chapter explains how the "
        "history file is written, when it is read back, and which options change either.</p></body></html>"
    )
    index = tmp_path / "index"
    result = run(["ingest", str(docs), "--index", str(index), "--json"])
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("sleuth: error:")]
    assert any("empty.md" in line for line in errors)
    assert any("broken.pdf" in line for line in errors)
    assert any("noise.pdf" in line and "not a readable PDF" in line for line in errors)
    assert not any("alias.html" in line or "index-page.html" in line for line in errors)
    report = json.loads(result.stdout)
    assert report["added"] >= 27 and report["failed"] == len(errors) and report["skipped_pages"] == 2
    # ... each named with its reason, in the JSON and in the summary
    assert sorted(page["path"].rsplit("/", 1)[-1] for page in report["skipped"]) == [
        "alias.html",
        "index-page.html",
    ]
    # Nothing stored is lost: a rerun keeps everything and fails the same files again; a page that became a
    # redirect since is removed (what it said is gone).
    (docs / "moved.html").write_text(REDIRECT.format(target="History.html"))
    rerun = json.loads(run(["ingest", str(docs), "--index", str(index), "--json"]).stdout)
    assert rerun["unchanged"] == report["added"] - 1 and rerun["skipped_pages"] == 3 and rerun["removed"] == 1
    assert rerun["index_chunks"] < report["index_chunks"]
    summary = run(["ingest", str(docs), "--index", str(index)]).stderr.splitlines()
    named = next(line for line in summary if line.startswith("skipped: "))
    assert all(name in named for name in ("alias.html", "index-page.html", "moved.html"))


#: A Texinfo node alias, as makeinfo writes it.
REDIRECT = (
    '<html><head><title>Alias</title><meta http-equiv="Refresh" content="0; url={target}"></head>'
    '<body><p>The node you are looking for is at <a href="{target}">See Also</a>.</p></body></html>'
)


def test_a_sphinx_build_is_ingested_as_its_pages(tmp_path: Path) -> None:
    # A built Sphinx manual (Debian's *-doc packages: alot's) holds each page's source beside it in _sources
    # (the same page again, in markup) and its theme's icons in _static: skipped and named, not ingested twice
    # nor failed for an icon without text. A source whose page the build lacks is a document.
    html = tmp_path / "html"
    page = "<html><head><title>{title}</title></head><body><h1>{title}</h1><p>{text}</p></body></html>"
    texts = {
        "index": ("alot", "alot is a terminal-based mail user agent for the notmuch mail system."),
        "usage/crypto": ("Crypto", "alot can sign, encrypt and decrypt messages with GnuPG and PGP/MIME."),
    }
    for name, (title, text) in texts.items():
        (html / name).parent.mkdir(parents=True, exist_ok=True)
        (html / f"{name}.html").write_text(page.format(title=title, text=text))
        (html / "_sources" / name).parent.mkdir(parents=True, exist_ok=True)
        (html / "_sources" / f"{name}.rst.txt").write_text(f"{title}\n{'=' * len(title)}\n\n{text}\n")
    (html / "_sources" / "notes.txt").write_text("Release notes kept as text only.\n\nNothing else.\n")
    (html / "searchindex.js").write_text("Search.setIndex({})")
    (html / "search.html").write_text(
        "<html><head><title>Search</title></head><body><form></form></body></html>"
    )
    (html / "_static").mkdir()
    from PIL import Image  # noqa: PLC0415

    Image.new("L", (9, 9), 255).save(html / "_static" / "plus.png")  # a theme's icon: no text to find
    (html / "_static" / "cheatsheet.md").write_text("# Cheat sheet\n\nPress m to compose a message.\n")
    # A "dirhtml" build: the page of _sources/faq.rst.txt is faq/index.html.
    (html / "faq").mkdir()
    (html / "faq" / "index.html").write_text(page.format(title="FAQ", text="Why alot? Because mail."))
    (html / "_sources" / "faq.rst.txt").write_text("FAQ\n===\n\nWhy alot? Because mail.\n")
    index = tmp_path / "index"
    # Ingested before sleuth told them apart (a source named directly is always a document) ...
    first = run(["ingest", str(html / "_sources" / "usage" / "crypto.rst.txt"), "--index", str(index)])
    assert first.returncode == 0, first.stderr
    # ... the folder's walk skips it, and what the index held of it goes.
    result = run(["ingest", str(html), "--index", str(index), "--json"])
    assert result.returncode == 0, result.stderr
    assert "sleuth: error" not in result.stderr
    report = json.loads(result.stdout)
    assert (report["added"], report["skipped_pages"], report["removed"], report["failed"]) == (5, 5, 1, 0)
    reasons = {Path(page["path"]).name: page["reason"] for page in report["skipped"]}
    assert reasons["crypto.rst.txt"] == "the source text of the Sphinx page usage/crypto.html"
    assert reasons["faq.rst.txt"] == "the source text of the Sphinx page faq/index.html"
    assert reasons["plus.png"] == "an image of the Sphinx build's theme (_static)"
    assert "notes.txt" not in reasons and "index.rst.txt" in reasons and "cheatsheet.md" not in reasons
    hits = json.loads(run(["search", "sign and encrypt messages", "--index", str(index), "--json"]).stdout)
    assert [h["document_id"] for h in hits].count("usage/crypto") == 1
    assert "crypto.rst" not in [h["document_id"] for h in hits]  # (its id when named directly)
    # Named on the command line, the sources are what was asked for ...
    sources = json.loads(run(["ingest", str(html / "_sources"), "--index", str(index), "--json"]).stdout)
    assert sources["skipped_pages"] == 0 and sources["added"] == 3
    # ... and a source named as a file stays, however often the folder it stands in is walked beside it (the
    # walk skips the other two sources again: what the index held of them goes, once).
    both = ["ingest", str(html / "_sources" / "usage" / "crypto.rst.txt"), str(html), "--index", str(index)]
    for removed in (2, 0):
        again = json.loads(run([*both, "--json"]).stdout)
        assert (again["removed"], again["added"], again["skipped_pages"]) == (removed, 0, 4)
        assert again["seen"] == again["unchanged"] + again["skipped_pages"]


def test_corrupted_index_is_one_clear_error(tmp_path: Path) -> None:
    index = tmp_path / "index"
    assert run(["ingest", str(SAMPLE / "copper.md"), "--index", str(index)]).returncode == 0
    for path in (index / "shard").rglob("*"):
        if path.is_file():
            path.write_bytes(b"\x00garbage" * 10)
    result = run(["search", "copper", "--index", str(index)])
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert str(index) in result.stderr and "unreadable" in result.stderr


def test_index_built_with_other_models_is_refused(tmp_path: Path) -> None:
    index = tmp_path / "index"
    store = EdgeStore(index, 768, create=True)
    Index(store, ModelIdentity("BAAI/bge-base-en-v1.5", 768, "prithivida/Splade_PP_en_v1"), create=True)
    store.close()
    result = run(["search", "copper", "--index", str(index)])
    assert result.returncode == 2
    assert "was built with dense=BAAI/bge-base-en-v1.5" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_eval_retrieval_on_a_beir_folder(tmp_path: Path) -> None:
    data = tmp_path / "beir"
    (data / "qrels").mkdir(parents=True)
    with (data / "corpus.jsonl").open("w") as corpus:
        for src in sorted(SAMPLE.glob("*.md")):
            title, _, body = src.read_text().partition("\n")
            corpus.write(json.dumps({"_id": src.stem, "title": title.lstrip("# "), "text": body}) + "\n")
    questions = {
        "q1": ("Which company designs the iPhone and the Mac?", "apple_inc"),
        "q2": ("Which element has atomic number 29?", "copper"),
        "q3": ("What is the lightest metal?", "lithium"),
        "q4": ("Which Japanese company is the largest car maker?", "toyota"),
    }
    (data / "queries.jsonl").write_text(
        "".join(json.dumps({"_id": q, "text": text}) + "\n" for q, (text, _) in questions.items())
    )
    (data / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{doc}\t1\n" for q, (_, doc) in questions.items())
    )
    run_file = tmp_path / "run.trec"
    result = run(["eval", "retrieval", str(data), "--json", "--run-out", str(run_file)])
    assert result.returncode == 0, result.stderr
    metrics = json.loads(result.stdout)
    assert metrics["queries"] == 4 and metrics["mode"] == "hybrid"
    assert metrics["mrr@10"] >= 0.75 and metrics["recall@100"] == 1.0
    lines = [line.split() for line in run_file.read_text().splitlines()]
    assert {row[0] for row in lines} == set(questions)
    assert all(len(row) == 6 and row[1] == "Q0" and row[5] == "sleuth-hybrid" for row in lines)
    per_query = Counter(row[0] for row in lines)
    assert max(per_query.values()) <= 100
    ranks = [int(row[3]) for row in lines if row[0] == "q1"]
    assert ranks == list(range(1, len(ranks) + 1))


def test_eval_retrieval_names_a_missing_file(tmp_path: Path) -> None:
    result = run(["eval", "retrieval", str(tmp_path)])
    assert result.returncode == 2
    assert "corpus.jsonl: missing" in result.stderr


@pytest.mark.parametrize("shard", ["0/2", "1/2"])
def test_shards_split_one_corpus(tmp_path: Path, shard: str) -> None:
    result = run(["ingest", str(SAMPLE), "--index", str(tmp_path / "i"), "--shard", shard, "--json"])
    report = json.loads(result.stdout)
    assert 0 < report["added"] < 26
    assert report["added"] + report["skipped_other_shard"] == 26


def test_prune_through_the_cli(tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    index = tmp_path / "index"
    run(["ingest", str(docs), "--index", str(index)])
    (docs / "copper-0.md").unlink()
    shutil.rmtree(docs / "sub", ignore_errors=True)
    report = json.loads(run(["ingest", str(docs), "--index", str(index), "--prune", "--json"]).stdout)
    assert (report["removed"], report["unchanged"]) == (1, 25)


def test_demo_ingests_the_sample_and_writes_a_report(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def demo() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "sleuth.agent.cli.demo"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    first = demo()
    assert first.returncode == 0, first.stderr
    report = json.loads((tmp_path / ".sleuth" / "demo" / "report.json").read_text())
    assert report["template"] == "brief" and len(report["sections"]) == 4
    statuses = {s["id"]: s["status"] for s in report["sections"]}
    assert statuses["answer"] == statuses["key_findings"] == "supported"
    # The demo's question is one its corpus answers: the renewable sources are named from several articles.
    claims = " ".join(c["text"] for s in report["sections"] for c in s["claims"])
    assert "wind power" in claims and "hydro" in claims.lower()
    assert len(report["sources"]) >= 3
    assert "report written to" in first.stdout
    second = demo()
    assert second.returncode == 0 and "28 unchanged" in second.stderr
