"""Document identity, path spelling, removal and honest search filters: a user's first hour."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from sleuth.ingest.convert import CONVERTIBLE_SUFFIXES, ConvertOptions
from sleuth.ingest.sources import SourceFile, iter_sources
from sleuth.ingest.tokens import TokenCounter
from sleuth.retrieval.encoders import Encoders
from sleuth.retrieval.index import Index
from sleuth.retrieval.ingestion import Ingestor
from sleuth.retrieval.store import EdgeStore
from tests.test_cli import REPO, run

SAMPLE = REPO / "data" / "sample"


def _search_docs(query: str, index: Path, *extra: str) -> list[str]:
    result = run(["search", query, "--index", str(index), "--json", "-k", "20", *extra])
    assert result.returncode == 0, result.stderr
    return [h["document_id"] for h in json.loads(result.stdout)]


def _ingest(index: Path, *paths: Path | str, cwd: Path = REPO) -> dict[str, object]:
    result = run(["ingest", *map(str, paths), "--index", str(index), "--json"], cwd=cwd)
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout))


def test_same_named_files_in_two_folders_are_two_documents(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    for team, fact in (
        ("alpha", "The alpha team ships on Mondays."),
        ("beta", "The beta team ships on Fridays."),
    ):
        (docs / team).mkdir(parents=True)
        (docs / team / "README.md").write_text(f"# Team notes\n\n{fact}\n")
    index = tmp_path / "index"
    assert _ingest(index, docs)["added"] == 2
    assert _search_docs("which day does the team ship", index, "--document", "alpha/README") == [
        "alpha/README"
    ]
    assert _search_docs("which day does the team ship", index, "--document", "beta/README") == ["beta/README"]
    again = _ingest(index, docs)
    assert again["unchanged"] == 2
    assert sorted(_search_docs("team ships", index)) == ["alpha/README", "beta/README"]


def test_two_spellings_of_one_path_are_one_document(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    (corpus / "md").mkdir(parents=True)
    for name in ("copper", "lithium"):
        shutil.copy(SAMPLE / f"{name}.md", corpus / "md" / f"{name}.md")
    index = tmp_path / "index"
    assert _ingest(index, corpus)["added"] == 2
    respelt = _ingest(index, "./md/../md", corpus / "md" / "copper.md", cwd=corpus)
    assert (respelt["added"], respelt["unchanged"], respelt["seen"]) == (0, 2, 2)
    hits = json.loads(run(["search", "copper", "--index", str(index), "--json", "-k", "50"]).stdout)
    assert {h["document_id"] for h in hits} == {"md/copper", "md/lithium"}  # ids from the first ingest
    assert {h["source"] for h in hits} == {
        str((corpus / "md" / f).resolve()) for f in ("copper.md", "lithium.md")
    }
    assert respelt["index_chunks"] == len({h["chunk_id"] for h in hits})


def test_a_new_source_never_takes_an_indexed_id(tmp_path: Path) -> None:
    for team in ("a", "b"):
        (tmp_path / team).mkdir()
        (tmp_path / team / "notes.md").write_text(f"# Notes\n\nTeam {team} keeps notes about zebras.\n")
    index = tmp_path / "index"
    _ingest(index, tmp_path / "a" / "notes.md")
    _ingest(index, tmp_path / "b" / "notes.md")
    ids = sorted(_search_docs("zebras", index))
    assert ids[0] == "notes" and ids[1].startswith("notes~") and len(ids) == 2
    _ingest(index, tmp_path / "b" / "notes.md", tmp_path / "a" / "notes.md")  # any order: ids stay
    assert sorted(_search_docs("zebras", index)) == ids


def test_sources_are_resolved_and_named_relative_to_the_folder(tmp_path: Path) -> None:
    (tmp_path / "x" / "deep").mkdir(parents=True)
    (tmp_path / "x" / "deep" / "report.final.md").write_text("text")
    (tmp_path / "link.md").symlink_to(tmp_path / "x" / "deep" / "report.final.md")
    found = list(
        iter_sources([tmp_path / "x", tmp_path / "link.md", tmp_path / "nope"], CONVERTIBLE_SUFFIXES)
    )
    assert isinstance(found[0], SourceFile)
    assert found[0].document_id == "deep/report.final" and found[0].path.is_absolute()
    assert len(found) == 2  # the symlink is the same file; the missing path is an error
    assert "no such file" in str(found[1])


def test_remove_by_path_and_by_id(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("copper", "lithium", "silicon"):
        shutil.copy(SAMPLE / f"{name}.md", docs / f"{name}.md")
    index = tmp_path / "index"
    _ingest(index, docs)
    by_path = run(["remove", str(docs / "copper.md"), "--index", str(index), "--json"])
    assert by_path.returncode == 0, by_path.stderr
    assert json.loads(by_path.stdout)["removed"] == {str(docs / "copper.md"): 1}
    by_id = run(["remove", "--document", "silicon", "--document", "nothere", "--index", str(index)])
    assert by_id.returncode == 1
    assert (
        by_id.stderr.count("sleuth: error:") == 1 and "nothere: no indexed document matches" in by_id.stderr
    )
    assert set(_search_docs("metal element", index)) == {"lithium"}
    assert _ingest(index, docs)["added"] == 2  # files on disk are untouched: they come back


def test_prune_on_a_fresh_ingestor_removes_only_vanished_files(
    tmp_path: Path, encoders: Encoders, counter: TokenCounter
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("copper", "lithium", "silicon"):
        shutil.copy(SAMPLE / f"{name}.md", docs / f"{name}.md")
    store = EdgeStore(tmp_path / "index", 384, create=True)
    try:
        index = Index(store, encoders.identity, create=True)
        Ingestor(index, encoders, counter, max_tokens=128, overlap_tokens=0).ingest_sources(
            iter_sources([docs], CONVERTIBLE_SUFFIXES), ConvertOptions()
        )
        (docs / "lithium.md").unlink()
        fresh = Ingestor(index, encoders, counter, max_tokens=128, overlap_tokens=0)
        fresh.prune([docs])  # before (or without) any ingest of its own
        assert fresh.report.removed == 1
        assert sorted(r.document_id for r in index.documents()) == ["copper", "silicon"]
    finally:
        store.close()


def test_the_tokenizer_is_part_of_the_pipeline_signature(
    tmp_path: Path, encoders: Encoders, counter: TokenCounter
) -> None:
    store = EdgeStore(tmp_path / "index", 384, create=True)
    try:
        index = Index(store, encoders.identity, create=True)
        other = TokenCounter.from_dir(tmp_path / "tok") if _other_tokenizer(tmp_path / "tok") else counter
        a = Ingestor(index, encoders, counter, max_tokens=128, overlap_tokens=0)
        b = Ingestor(index, encoders, other, max_tokens=128, overlap_tokens=0)
        assert counter.identity != other.identity
        assert a.signature != b.signature
    finally:
        store.close()


def _other_tokenizer(folder: Path) -> bool:
    """The provisioned tokenizer with one more special token: counts change, so must the signature."""
    from sleuth.ingest.tokens import default_tokenizer_dir  # noqa: PLC0415

    data = json.loads((default_tokenizer_dir() / "tokenizer.json").read_text())
    data["added_tokens"].append(
        {"id": 30522, "content": "[SLEUTH]", "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": True}
    )  # fmt: skip
    folder.mkdir()
    (folder / "tokenizer.json").write_text(json.dumps(data))
    return True


def test_search_never_answers_nothing_in_silence(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "guides").mkdir(parents=True)
    (docs / "guides" / "install.md").write_text("# Install\n\n## Linux\n\nRun the installer with apt.\n")
    index = tmp_path / "index"
    _ingest(index, docs)
    bad_type = run(["search", "installer", "--index", str(index), "--type", "tabel"])
    assert bad_type.returncode == 2 and "tabel" in bad_type.stderr
    bad_doc = run(["search", "installer", "--index", str(index), "--document", "install"])
    assert bad_doc.returncode == 2
    assert "no document with id 'install'" in bad_doc.stderr and "guides/install" in bad_doc.stderr
    assert len(bad_doc.stderr.strip().splitlines()) == 1
    bad_section = run(["search", "installer", "--index", str(index), "--section", "Install > Windows"])
    assert (
        bad_section.returncode == 2
        and "no heading path starts with 'Install > Windows'" in bad_section.stderr
    )
    empty = run(["search", "installer", "--index", str(index), "--type", "table", "--json"])
    assert empty.returncode == 0 and json.loads(empty.stdout) == []
    assert "no hits: no chunk matches all the filters together" in empty.stderr
    good = run(["search", "installer", "--index", str(index), "--section", "Install > Linux", "--json"])
    assert json.loads(good.stdout)[0]["document_id"] == "guides/install"
    # An option name is a query a manual's reader makes ("-Cem"), not an option of this command.
    option = run(["search", "-Cem", "--index", str(index), "--json"])
    assert option.returncode == 0 and json.loads(option.stdout)[0]["document_id"] == "guides/install"
    # ... but beside a query, a mistyped option is named as one.
    typo = run(["search", "installer", "--jsn", "--index", str(index)])
    assert typo.returncode == 2 and "No such option '--jsn'" in typo.stderr


def test_without_a_terminal_progress_is_a_line_every_few_seconds(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(REPO / "tests" / "data" / "docs" / "R-FAQ.pdf", docs / "R-FAQ.pdf")  # converts for a while
    for name in ("copper", "lithium", "silicon"):
        shutil.copy(SAMPLE / f"{name}.md", docs / f"{name}.md")
    result = run(
        ["ingest", str(docs), "--index", str(tmp_path / "index")], env={"SLEUTH_PROGRESS_INTERVAL": "0.3"}
    )
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("ingest: ")]
    assert len(lines) >= 2, result.stderr
    assert all(" files (" in line and " chunks at " in line for line in lines)
    assert any("now: R-FAQ.pdf (" in line for line in lines)  # the long conversion is named while it runs
