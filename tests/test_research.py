"""The research agent end to end through the real CLI, on a fictional corpus built to test every status.

``tests/data/research/docs``: the same fact in two documents, two sources that disagree, an outdated version
of a fact, a distractor on the wrong topic, and nothing about funding (see its README).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from sleuth.agent.research.assembly import section_note
from sleuth.agent.research.request import understand
from sleuth.ingest.convert import convert_file
from sleuth.ingest.visible import visible_text
from tests.test_cli import REPO, run

FIXTURE = REPO / "tests" / "data" / "research" / "docs"
STATUSES = {"supported", "thin_evidence", "not_found", "stale"}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A working folder with the fixture corpus ingested into ./index (runs go to ./.sleuth/runs)."""
    folder = tmp_path_factory.mktemp("research")
    result = run(["ingest", str(FIXTURE), "--index", str(folder / "index")], cwd=folder)
    assert result.returncode == 0, result.stderr
    return folder


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A working folder with data/sample (26 Wikipedia leads) copied to ./sample and ingested into ./index."""
    folder = tmp_path_factory.mktemp("sample")
    shutil.copytree(REPO / "data" / "sample", folder / "sample")
    result = run(["ingest", str(folder / "sample"), "--index", str(folder / "index")], cwd=folder)
    assert result.returncode == 0, result.stderr
    return folder


def _research(workdir: Path, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    result = run(
        ["research", *args, "--index", str(workdir / "index"), "--offline", "--json"], cwd=workdir, env=env
    )
    assert result.returncode in (0, 1), result.stderr
    return dict(json.loads(result.stdout))


def _source_text(document_id: str) -> str:
    return (FIXTURE / f"{document_id}.md").read_text()


def check_report(report: dict[str, Any], template_sections: list[str]) -> None:
    """The contract's invariants, checked from the outside."""
    assert [s["id"] for s in report["sections"]] == template_sections
    evidence = {e["id"]: e for e in report["evidence"]}
    for section in report["sections"]:
        assert section["status"] in STATUSES
        cited = {i for c in section["claims"] for i in c["evidence_ids"]}
        for claim in section["claims"]:
            assert claim["evidence_ids"], claim
            assert all(i in evidence for i in claim["evidence_ids"]), claim
        if not cited:
            assert section["status"] == "not_found" and not section["claims"]
        if section["status"] == "supported":
            assert len(cited) >= section["min_evidence"]
    for e in report["evidence"]:
        assert e["kind"] == "corpus" and e["chunk_id"] and e["document_id"]


def test_market_brief_on_the_fixture_corpus(workdir: Path) -> None:
    report = _research(workdir, "the Freedonian graphene battery market", "--template", "market_brief")
    check_report(report, ["executive_summary", "key_findings", "market_landscape", "data_notes"])
    sections = {s["id"]: s for s in report["sections"]}
    assert sections["key_findings"]["status"] == "supported"
    assert sections["market_landscape"]["status"] == "supported"
    evidence = {e["id"]: e for e in report["evidence"]}
    for e in evidence.values():  # verbatim in the document it cites
        assert e["quote"] in _source_text(e["document_id"])
    # The 2024 market size is stated in two documents: one claim, two anchors, two documents, in one findings
    # section only (a claim never stands in two).
    findings = [s for s in report["sections"] if s["id"] not in ("executive_summary",)]
    merged = [
        c for s in findings for c in s["claims"] if "4.2 billion" in c["text"] and c["kind"] == "finding"
    ]
    assert len(merged) == 1 and len({evidence[i]["document_id"] for i in merged[0]["evidence_ids"]}) == 2
    landscape = sections["market_landscape"]["claims"]
    # Voltra Energy's share: 38 percent in one source, 31 in another.
    conflicts = [c for c in landscape if c["kind"] == "conflict"]
    assert conflicts and "38 percent" in conflicts[0]["text"] and "31 percent" in conflicts[0]["text"]
    assert "Sources disagree" in sections["market_landscape"]["content"]
    # The distractor (cheese) is never cited; the 2015 and 2024 sizes are a time series, not a conflict.
    assert "cheese-festival" not in {e["document_id"] for e in evidence.values()}
    assert not [c for c in conflicts if "0.6 billion" in c["text"]]
    assert report["sources"] and {s["document_id"] for s in report["sources"]} <= {
        "market-report-2025",
        "industry-survey-2025",
        "market-report-2016",
    }


def test_investment_memo_finds_nothing_about_funding(workdir: Path) -> None:
    report = _research(
        workdir, "Voltra Energy and the Freedonian graphene battery market", "--template", "investment_memo"
    )
    check_report(
        report, ["thesis", "bull_base_bear", "competitors", "funding_landscape", "risks", "other_findings"]
    )
    sections = {s["id"]: s for s in report["sections"]}
    assert sections["funding_landscape"]["status"] == "not_found"
    assert sections["funding_landscape"]["claims"] == []
    assert sections["risks"]["status"] == "supported"
    assert any("graphite" in c["text"] for c in sections["risks"]["claims"])


def test_evidence_only_from_an_old_document_is_stale(workdir: Path, tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "pricing.yaml").write_text(
        "title: Pricing\nsections:\n"
        "  - id: overview\n    title: Overview\n    description: The answer.\n    kind: summary\n"
        "  - id: prices\n    title: Prices\n    description: What a battery cell costs.\n"
        "    questions: ['What does a {query} cell cost?']\n"
        "    keywords: [price, prices, cost, costs, kilowatt-hour]\n"
    )
    report = _research(
        workdir,
        "Freedonian graphene battery",
        "--template",
        "pricing",
        env={"SLEUTH_TEMPLATES_DIR": str(templates), "SLEUTH_STALE_DAYS": "730"},
    )
    check_report(report, ["overview", "prices"])
    prices = next(s for s in report["sections"] if s["id"] == "prices")
    assert prices["status"] == "stale", prices
    dated = {e["document_id"]: e["date"] for e in report["evidence"]}
    assert dated.get("market-report-2016", "").startswith("2016-02-01")


def test_review_then_resume_honours_pins_and_drops(workdir: Path) -> None:
    first = run(
        [
            "research",
            "the Freedonian graphene battery market",
            "--template",
            "market_brief",
            "--index",
            str(workdir / "index"),
            "--offline",
            "--review",
        ],
        cwd=workdir,
    )
    assert first.returncode == 0, first.stderr
    run_id = first.stderr.split("run ", 1)[1].split(":", 1)[0]
    ledger_file = workdir / ".sleuth" / "runs" / run_id / "ledger.json"
    ledger = json.loads(ledger_file.read_text())
    dropped = next(e for e in ledger if "38 percent" in e["quote"])
    pinned = min((e for e in ledger if e is not dropped), key=lambda e: e["score"])  # the least relevant
    dropped["dropped"] = True
    pinned["pinned"] = True
    pinned["sections"] = ["market_landscape"]
    ledger_file.write_text(json.dumps(ledger))
    resumed = run(["research", "--resume", run_id, "--index", str(workdir / "index"), "--json"], cwd=workdir)
    assert resumed.returncode == 0, resumed.stderr
    report = json.loads(resumed.stdout)
    cited = {i for s in report["sections"] for c in s["claims"] for i in c["evidence_ids"]}
    assert dropped["id"] not in cited and pinned["id"] in cited
    assert report["run_id"] == run_id
    shown = run(["runs", run_id], cwd=workdir)
    assert shown.returncode == 0 and "complete" in shown.stdout and "report.json" in shown.stdout


def test_an_edited_quote_that_is_not_verbatim_is_dropped(workdir: Path) -> None:
    first = run(
        [
            "research",
            "Voltra Energy market share",
            "--template",
            "brief",
            "--index",
            str(workdir / "index"),
            "--offline",
            "--review",
        ],
        cwd=workdir,
    )
    run_id = first.stderr.split("run ", 1)[1].split(":", 1)[0]
    ledger_file = workdir / ".sleuth" / "runs" / run_id / "ledger.json"
    ledger = json.loads(ledger_file.read_text())
    forged = ledger[0]
    forged["quote"] = forged["quote"].replace("percent", "per cent of every")
    forged["pinned"] = True
    ledger_file.write_text(json.dumps(ledger))
    report = json.loads(
        run(["research", "--resume", run_id, "--index", str(workdir / "index"), "--json"], cwd=workdir).stdout
    )
    assert forged["id"] not in {e["id"] for e in report["evidence"]}
    assert report["metrics"]["guards"].get("non_verbatim", 0) >= 1


def test_report_files_and_the_run_list(workdir: Path) -> None:
    out = workdir / "out"
    result = run(
        [
            "research",
            "Kessel Cells factory",
            "--template",
            "brief",
            "--index",
            str(workdir / "index"),
            "--offline",
            "--out",
            str(out),
        ],
        cwd=workdir,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(out / "report.md"), str(out / "report.json")]
    markdown = (out / "report.md").read_text()
    assert "| section | status | evidence |" in markdown and "## Sources" in markdown
    report = json.loads((out / "report.json").read_text())
    check_report(report, ["answer", "key_findings", "details", "open_questions"])
    listed = run(["runs"], cwd=workdir)
    assert report["run_id"] in listed.stdout


def test_clear_errors(workdir: Path, tmp_path: Path) -> None:
    unknown = run(["research", "x", "--template", "nope", "--index", str(workdir / "index")], cwd=workdir)
    assert (
        unknown.returncode == 2
        and "unknown template 'nope'" in unknown.stderr
        and "market_brief" in unknown.stderr
    )
    assert len(unknown.stderr.strip().splitlines()) == 1
    missing = run(["research", "x", "--template", "brief", "--index", str(tmp_path / "none")], cwd=workdir)
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1
    assert "sleuth ingest" in missing.stderr
    nothing = run(
        [
            "research",
            "quantum chromodynamics of neutron stars",
            "--template",
            "brief",
            "--index",
            str(workdir / "index"),
            "--offline",
        ],
        cwd=workdir,
    )
    assert nothing.returncode == 1 and "nothing found" in nothing.stderr
    bad = tmp_path / "templates"
    bad.mkdir()
    (bad / "broken.yaml").write_text(
        "title: Broken\nsections:\n  - id: Bad-Id\n    title: X\n    description: y\n"
    )
    broken = run(["templates", "broken"], cwd=workdir, env={"SLEUTH_TEMPLATES_DIR": str(bad)})
    assert broken.returncode == 2 and "broken.yaml" in broken.stderr and "sections.0.id" in broken.stderr


def test_templates_are_listed_and_shown() -> None:
    listed = run(["templates"])
    names = [line.split()[0] for line in listed.stdout.splitlines()]
    assert names == [
        "brief",
        "investment_memo",
        "literature_review",
        "market_brief",
        "technical_due_diligence",
    ]
    shown = json.loads(run(["templates", "investment_memo", "--json"]).stdout)
    ids = {s["id"]: s for s in shown["sections"]}
    assert list(ids) == [
        "thesis",
        "bull_base_bear",
        "competitors",
        "funding_landscape",
        "risks",
        "other_findings",
    ]
    assert ids["other_findings"]["default"] and not ids["other_findings"]["required"]
    assert ids["risks"]["required"] and ids["risks"]["min_evidence"] == 0
    assert not ids["funding_landscape"]["required"]


def test_research_on_a_real_corpus_is_grounded(sample: Path) -> None:
    corpus, tmp_path = sample / "sample", sample
    for question, template in (
        ("Which companies make smartphones and chips?", "market_brief"),
        ("How is electricity generated from renewable sources?", "brief"),
    ):
        result = run(
            [
                "research",
                question,
                "--template",
                template,
                "--index",
                str(tmp_path / "index"),
                "--offline",
                "--json",
            ],
            cwd=tmp_path,
        )
        assert result.returncode == 0, result.stderr
        report = json.loads(result.stdout)
        assert {s["status"] for s in report["sections"]} <= STATUSES
        assert report["evidence"], report["metrics"]
        for e in report["evidence"]:
            # Verbatim in the document as a reader sees it (a quote may take in the heading it stands under).
            assert e["quote"] in visible_text((corpus / f"{e['document_id']}.md").read_text()).text
        for section in report["sections"]:
            assert all(c["evidence_ids"] for c in section["claims"])


def test_the_event_log_replays_the_run(workdir: Path) -> None:
    from sleuth.agent.runs import SqliteRunStore as RunStore  # noqa: PLC0415

    report = _research(workdir, "Kessel Cells and Voltra Energy", "--template", "brief")
    store = RunStore(workdir / ".sleuth" / "runs")
    try:
        events = list(store.events(report["run_id"]))
        assert events[0]["type"] == "run_started" and events[-1]["type"] == "complete"
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        kinds = {e["type"] for e in events}
        assert {"plan", "question_started", "question_finished", "evidence", "section_status"} <= kinds
        assert events[-1]["report"] == report
        # One synthesis event per section, saying what the report holds (and what guards and bounds left out).
        written = {e["section_id"]: e for e in events if e["type"] == "synthesis"}
        assert {k: e["claims"] for k, e in written.items()} == {
            s["id"]: len(s["claims"]) for s in report["sections"]
        }
        assert all(e["dropped"] >= 0 and e["bounded"] >= 0 for e in written.values())
        assert store.get(report["run_id"]).status == "complete"
        assert store.artifact(report["run_id"], "report") == report
        assert next(e["seq"] for e in store.events(report["run_id"], after=3)) == 4
    finally:
        store.close()


LONG_ON_TOPIC = (
    "Hello! I'm putting together a board pack for a small utility co-op in the north of the country and my "
    "manager wants a one-pager by Friday, sorry for the rush.\n\nWe currently buy most of our power from a "
    "coal plant that is closing in 2027. Which energy sources could replace it, and which of them are "
    "renewable? I also need to know what share of the world's electricity hydropower provides, and whether "
    "wind and solar need backup because they are variable.\n\nPlease act as an energy analyst and keep it "
    "short. Thanks, Jo"
)
LONG_OFF_TOPIC = (
    "Hi there, I'm a new platform engineer and our team lead asked me to sort out pod autoscaling before the "
    "holiday freeze.\n\nOur Kubernetes cluster runs on three bare-metal nodes and the checkout service falls "
    "over every Black Friday. How do I configure the HorizontalPodAutoscaler with custom Prometheus metrics, "
    "and what should the stabilization window be? We must not exceed twelve replicas because of licence "
    "limits.\n\nPlease answer as an SRE with YAML examples. Cheers, Sam"
)


def test_a_long_request_knows_at_least_what_its_search_shows(sample: Path) -> None:
    """A long, chatty request cites every one of the top ten documents a plain search of the same text shows
    (the report never knows less than a search), and one about nothing in the corpus is empty and says why."""
    index, tmp_path = sample / "index", sample

    def research(request: str) -> dict[str, Any]:
        done = run(
            ["research", request, "--template", "brief", "--index", str(index), "--offline", "--json"],
            cwd=tmp_path,
        )
        assert done.returncode in (0, 1), done.stderr  # 1: a required section is not found
        return dict(json.loads(done.stdout))

    report = research(LONG_ON_TOPIC)
    searched = run(["search", LONG_ON_TOPIC, "--index", str(index), "--json", "-k", "50"], cwd=tmp_path)
    top: list[str] = []
    for hit in json.loads(searched.stdout):
        if hit["document_id"] not in top:
            top.append(hit["document_id"])
    evidence = {e["id"]: e for e in report["evidence"]}
    cited = {
        evidence[i]["document_id"] for s in report["sections"] for c in s["claims"] for i in c["evidence_ids"]
    }
    assert set(top[:10]) <= cited, set(top[:10]) - cited
    # ... nor less than its first five hits: each is quoted, whatever its document (not only each document's
    # best quote: a page that fills the first hits holds the answer in its third).
    quoted = {
        evidence[i]["chunk_id"] for s in report["sections"] for c in s["claims"] for i in c["evidence_ids"]
    }
    first_hits = [hit["chunk_id"] for hit in json.loads(searched.stdout)[:5]]
    assert set(first_hits) <= quoted, [first_hits.index(h) for h in set(first_hits) - quoted]
    # ... nor less than the first hit of each of its asks' searches, however the cross-encoder scores it.
    asks = understand(LONG_ON_TOPIC).asks
    assert len(asks) >= 2
    for ask in asks:
        first = json.loads(
            run(["search", ask, "--index", str(index), "--json", "-k", "1"], cwd=tmp_path).stdout
        )
        assert first[0]["document_id"] in cited, (ask, first[0]["document_id"])
    # Each claim in one findings section only.
    findings = [c["text"] for s in report["sections"] if s["id"] != "answer" for c in s["claims"]]
    assert len(findings) == len(set(findings))
    # The key findings keep their best eight (brief.yaml: overflow: details); the rest are details.
    sections = {s["id"]: s for s in report["sections"]}
    assert len([c for c in sections["key_findings"]["claims"] if c["kind"] == "finding"]) <= 8
    assert len(findings) <= 8 or sections["details"]["claims"]

    empty = research(LONG_OFF_TOPIC)
    assert not any(s["claims"] for s in empty["sections"])
    assert "Nothing was found on this topic" in empty["executive_summary"]


def test_a_question_whose_search_finds_the_topic_is_never_empty(sample: Path) -> None:
    """The corpus has copper and cobalt but nothing on their prices: every quote scores under the judge's
    topic floor, yet the search found the topic, so the report cites the search's top documents (the first
    always), says no passage answers and calls every section thin; a question about nothing in the corpus
    stays empty and says why."""
    index = sample / "index"

    def research(question: str) -> dict[str, Any]:
        done = run(
            ["research", question, "--template", "brief", "--index", str(index), "--offline", "--json"],
            cwd=sample,
        )
        assert done.returncode in (0, 1), done.stderr
        return dict(json.loads(done.stdout))

    question = "What drives copper and cobalt prices?"
    report = research(question)
    searched = run(["search", question, "--index", str(index), "--json", "-k", "50"], cwd=sample)
    top = list(dict.fromkeys(h["document_id"] for h in json.loads(searched.stdout)))
    cited = {e["document_id"] for e in report["evidence"]}
    # The search's first page is cited (the research's own search ranks the tail a place or two apart).
    assert set(top[:3]) <= cited <= set(top[:20]), (top, cited)
    answer = next(s for s in report["sections"] if s["id"] == "answer")
    assert answer["claims"] and answer["status"] == "thin_evidence"
    assert all(s["status"] in ("thin_evidence", "not_found") for s in report["sections"])
    assert "No passage answers the request" in report["executive_summary"]
    assert "No passage answers the request" in (answer["note"] or "")
    for e in report["evidence"]:
        assert e["quote"] in (sample / "sample" / f"{e['document_id']}.md").read_text()

    empty = research("What is the best recipe for sourdough bread?")
    assert not any(s["claims"] for s in empty["sections"])
    assert "Nothing was found on this topic" in empty["executive_summary"]


def test_a_question_about_a_name_no_evidence_mentions_is_never_supported(sample: Path) -> None:
    """The corpus has cobalt but not Glencore: quotes about cobalt are close enough for the judge, yet no
    evidence names what the question is about, so no section is supported and the report says which name is
    missing; the same question without the name is answered as before."""

    def research(question: str) -> dict[str, Any]:
        index = str(sample / "index")
        done = run(
            ["research", question, "--template", "brief", "--index", index, "--offline", "--json"], cwd=sample
        )
        assert done.returncode in (0, 1), done.stderr
        return dict(json.loads(done.stdout))

    report = research("How is cobalt produced at Glencore's mines?")
    assert any(s["claims"] for s in report["sections"])
    assert all(s["status"] in ("thin_evidence", "not_found") for s in report["sections"])
    answer = next(s for s in report["sections"] if s["id"] == "answer")
    assert "Glencore" in (answer["note"] or "") and "Glencore" in report["executive_summary"]

    plain = research("How is cobalt produced?")
    answer = next(s for s in plain["sections"] if s["id"] == "answer")
    assert answer["status"] == "supported" and "Glencore" not in plain["executive_summary"]


IN_PART = (
    "Hello, our purchasing team is reviewing suppliers of electrical wire and my manager asked me for a "
    "short background note by Monday.\n\nPlease explain where copper is mined and which countries produce "
    "the most. Also, how should we word the penalty clause in our supplier contracts when a delivery is "
    "late? Thanks, Sam"
)


def test_a_request_answered_in_part_says_which_ask_found_no_answer(sample: Path) -> None:
    """The corpus says where copper is mined but nothing of supplier contracts: the summary answers the
    first ask, names the second as unanswered (in its note, after its answers in the executive summary and in
    the metrics) and is thin_evidence, not supported; the findings sections keep their own statuses."""
    done = run(
        ["research", IN_PART, "--template", "brief", "--index", str(sample / "index"), "--offline", "--json"],
        cwd=sample,
    )
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    asks = understand(IN_PART).asks
    assert len(asks) == 2 and "penalty clause" in asks[1]
    assert report["metrics"]["asks_unanswered"] == [asks[1]]
    answer = next(s for s in report["sections"] if s["id"] == "answer")
    assert answer["claims"] and answer["status"] == "thin_evidence"
    assert "penalty clause" in (answer["note"] or "") and "copper is mined" not in (answer["note"] or "")
    summary = report["executive_summary"]
    gap = summary.index("The cross-encoder judged no passage an answer to this ask")
    assert summary.index("Copper") < gap < summary.index("penalty")
    assert next(s for s in report["sections"] if s["id"] == "key_findings")["status"] == "supported"


def test_no_ask_is_said_unanswered_where_no_passage_answers_the_request() -> None:
    """Where no passage answers the request at all (``found_only``), that is said once: no note that the
    passages shown answer the rest of it."""
    asked = ["How do I word the clause?"]
    note = section_note(False, "thin_evidence", found_only=True, unanswered=asked, asks=2)
    assert note is not None and "No passage answers the request" in note and "the rest" not in note
    alone = section_note(False, "thin_evidence", unanswered=asked, asks=2)
    assert alone is not None and "answer the rest of the request" in alone and "word the clause" in alone


LEANING = (
    "Hello, our purchasing team is reviewing suppliers of electrical wire and my manager asked me for a "
    "short background note by Monday.\n\nPlease explain where copper is mined, what the main uses are, and "
    "which countries produce the most. Thanks, Sam"
)


def test_an_ask_that_names_nothing_is_asked_again_about_the_request(sample: Path) -> None:
    """ "What the main uses are" alone finds transistors; asked about the request's subject (copper), the
    copper page. The ask as written keeps what it found (its first hit is still cited), the ask in its new
    form is a question of the run whose answer stands in the direct answer."""
    from sleuth.agent.runs import SqliteRunStore as RunStore  # noqa: PLC0415

    done = run(
        ["research", LEANING, "--template", "brief", "--index", str(sample / "index"), "--offline", "--json"],
        cwd=sample,
    )
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    store = RunStore(sample / ".sleuth" / "runs")
    try:
        asked = [e["question"] for e in store.events(report["run_id"]) if e["type"] == "question_started"]
    finally:
        store.close()
    retried = [q for q in asked if q["text"].startswith("What the main uses are (")]
    assert retried and retried[0]["origin"] == "ask" and "copper" in retried[0]["text"]
    answer = next(s for s in report["sections"] if s["id"] == "answer")
    assert any(c["text"].startswith("Copper is used as a conductor") for c in answer["claims"])
    evidence = {e["id"]: e for e in report["evidence"]}
    cited = {
        evidence[i]["document_id"] for s in report["sections"] for c in s["claims"] for i in c["evidence_ids"]
    }
    first = json.loads(
        run(
            ["search", "What the main uses are", "--index", str(sample / "index"), "--json", "-k", "1"],
            cwd=sample,
        ).stdout
    )
    assert first[0]["document_id"] in cited


def test_what_a_request_rules_out_is_never_cited(sample: Path) -> None:
    """A request that says "don't suggest nuclear power or natural gas" gets a report that cites no passage
    about them (from their pages, or opening with them), says how many it left out, and still answers."""
    request = (
        "Our co-op buys most of its power from a coal plant that closes in 2027 and the board wants options."
        "\n\nWhich energy sources could replace it, and which of them are renewable? Please don't suggest "
        "nuclear power or natural gas; the members voted against both.\n\nThanks, Jo"
    )
    done = run(
        ["research", request, "--template", "brief", "--index", str(sample / "index"), "--offline", "--json"],
        cwd=sample,
    )
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    assert report["metrics"]["evidence_ruled_out"] > 0  # the corpus has them: they were found, then left out
    assert {e["document_id"] for e in report["evidence"]}.isdisjoint({"nuclear_power", "natural_gas"})
    for e in report["evidence"]:
        assert not e["quote"].casefold().startswith(("nuclear power", "natural gas")), e["quote"]
    summary = next(s for s in report["sections"] if s["id"] == "answer")
    assert "Left out as the request asks" in (summary["note"] or "")
    assert '"nuclear power"' in summary["note"] or '"natural gas"' in summary["note"]
    assert summary["claims"]
    # The report still names the sources the request may hear about.
    assert {"renewable_energy", "hydroelectricity"} & {e["document_id"] for e in report["evidence"]}


def test_a_manual_laid_out_as_preformatted_text_is_answered(tmp_path: Path) -> None:
    """A manual whose prose stands in ``<pre>`` blocks (HAProxy's layout) was all code blocks after
    conversion: nothing in it was quoted, and the report was empty although search found the answer. Its
    prose now reads as text, and a description is quoted with the command line above it."""
    manual = REPO / "tests" / "data" / "plaintext"
    done = run(["ingest", str(manual), "--index", str(tmp_path / "index")], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    question = "How do I take one server out of rotation for maintenance without restarting the proxy?"
    report = _research(tmp_path, question, "--template", "brief")
    summary = next(s for s in report["sections"] if s["id"] == "answer")
    assert summary["status"] == "supported", summary
    claims = [c["text"] for s in report["sections"] for c in s["claims"]]
    assert any(c.startswith("pause server <pool>/<server> — Put the server in maintenance.") for c in claims)
    assert not any(c.startswith("Put the server in maintenance") for c in claims)
    page = visible_text(convert_file(manual / "proxy-management.html").markdown).text
    for e in report["evidence"]:
        assert " ".join(e["quote"].split()) in " ".join(page.split())  # verbatim, as a reader sees the page
