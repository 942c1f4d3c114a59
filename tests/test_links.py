"""Links as leads: the page a quote sends its reader to is read for the question that found the quote.

Pure functions first (where a link points, which links a quote carries), then a real run: ingest of an HTML
manual whose FAQ links to the page on the command, research, and the questions the run asked.
"""

from __future__ import annotations

from pathlib import Path

from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.leads import find_links, linked_document
from sleuth.agent.runs import SqliteRunStore
from tests.test_cli import run
from tests.test_research import _research


def test_a_link_points_to_the_document_ingest_named_for_its_target() -> None:
    assert linked_document("lang_vacuum.html", "faq") == "lang_vacuum"
    sessions = linked_document("../topics/http/sessions.html#std-setting-X", "ref/settings")
    assert sessions == "topics/http/sessions"
    assert linked_document("./api.html?x=1", "guide/intro") == "guide/api"
    assert linked_document("release%20notes.html", "guide/intro") == "guide/release notes"
    # outside the corpus, the same page, above the folder ingested
    for target in ("https://sqlite.org/lang_vacuum.html", "mailto:a@example.org", "/abs/page.html", "#usage"):
        assert linked_document(target, "faq") is None
    assert linked_document("faq.html#q12", "faq") is None
    assert linked_document("../../elsewhere.html", "ref/settings") is None


def _piece(eid: str, quote: str, document_id: str, score: float, *, origin: str = "query") -> Evidence:
    return Evidence(
        id=eid,
        kind="corpus",
        chunk_id=f"chunk-{eid}",
        url=None,
        document_id=document_id,
        title=None,
        section_path=None,
        page=None,
        quote=quote,
        origin=origin,
        score=score,
        # (during discovery only the request's own searches have a relevance; the rest are judged later)
        relevance=score if origin == "query" else 0.0,
    )


def test_only_links_in_the_quote_lead_each_page_once_by_its_most_relevant_quote() -> None:
    faq = _piece("E1", "If you delete a lot of data, run the VACUUM command.", "faq", 3.0)
    pragma = _piece("E2", "Use VACUUM after changing auto_vacuum.", "pragma", 5.0)
    stored = {
        "chunk-E1": "If you delete a lot of data, run the [VACUUM](lang_vacuum.html) command. See also "
        "[the backup API](backup.html).",
        "chunk-E2": "Use [`VACUUM`](lang_vacuum.html#into) after changing [auto\\_vacuum](pragma.html#av). "
        "![VACUUM](vacuum.png)",
    }
    asked = {"E1": "How do I shrink the file?", "E2": "How do I shrink the file?"}
    leads = find_links([faq, pragma], stored, asked_by=asked)
    # the backup link stands outside the quote; pragma's own page is no lead; one lead for lang_vacuum,
    # by the quote that answers best
    assert [(lead.document_id, lead.text, lead.priority) for lead in leads] == [
        ("lang_vacuum", "VACUUM: How do I shrink the file?", 7.0)
    ]
    assert find_links([faq], stored, asked_by={}) == []


def test_a_quote_that_does_not_answer_and_links_not_in_its_words_lead_nowhere() -> None:
    # A template question's quote on aggregate callbacks, found for a running total, scores -3.6: its link
    # to sqlite3_result() is no lead, though its relevance is not judged yet (0.0).
    callbacks = _piece("E1", "Then sqlite3_result() is called once.", "appfunc", -3.6, origin="plan")
    small = _piece("E2", "The SQLite library is small.", "about", 4.0)
    stored = {
        "chunk-E1": "Then [sqlite3_result()](c3ref/result_blob.html) is called once.",
        # links whose text is no word of the quote, or a single letter
        "chunk-E2": "The SQLite library is small. Read [SQL](lang.html) [here](docs.html), or [a](x.html).",
    }
    asked = {"E1": "How do I compute a running total?", "E2": "How big is the library?"}
    assert find_links([callbacks, small], stored, asked_by=asked, floor=-1.0) == []


def _page(title: str, body: str) -> str:
    return f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"


def test_a_run_asks_the_linked_page_and_no_page_that_was_not_ingested(tmp_path: Path) -> None:
    corpus = tmp_path / "manual"
    corpus.mkdir()
    (corpus / "faq.html").write_text(
        _page(
            "Frequently asked questions",
            "<h2>How do I make the database file smaller?</h2><p>If you delete a lot of data and want to "
            'shrink the database file, run the <a href="vacuum.html">VACUUM</a> command, which rebuilds the '
            'file (the <a href="attic.html">attic</a> keeps older notes on shrinking it).</p>',
        )
    )
    (corpus / "vacuum.html").write_text(
        _page(
            "VACUUM",
            "<p>The VACUUM command rebuilds the database file, repacking it into a minimal amount of disk "
            "space.</p><h2>VACUUM with an INTO clause</h2><p>If the INTO clause is included, the original "
            "database file is unchanged and a new database is created in a file named by the argument to "
            "the INTO clause.</p>",
        )
    )
    (corpus / "wal.html").write_text(
        _page("Write-ahead log", "<p>The WAL file grows until a checkpoint copies its pages back.</p>")
    )
    result = run(["ingest", str(corpus), "--index", str(tmp_path / "index")], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    report = _research(
        tmp_path, "How do I shrink the database file after deleting lots of data?", "--template", "brief"
    )
    store = SqliteRunStore(tmp_path / ".sleuth" / "runs")
    try:
        asked = [e["question"] for e in store.events(report["run_id"]) if e["type"] == "question_started"]
    finally:
        store.close()
    followed = [q["text"] for q in asked if q["origin"] == "lead"]
    # the FAQ's link to the page on VACUUM is followed with the question; attic.html was never ingested
    assert "VACUUM: How do I shrink the database file after deleting lots of data?" in followed
    assert any("attic" in e["quote"] for e in report["evidence"])  # (its link stood in a quote)
    assert not any(text.startswith("attic:") for text in followed)
