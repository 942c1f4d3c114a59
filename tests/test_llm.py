"""The LLM path against an OpenAI-compatible server that lies (a real HTTP server on loopback speaking the
chat completions protocol): whatever it answers, report.json keeps every invariant and nothing it invented
(an id, a number, a name, a sentence) reaches a claim."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sleuth.agent.llm.client import repair_json
from tests.llm_servers import INVENTED, LyingLLM
from tests.test_cli import run
from tests.test_research import FIXTURE, _source_text, check_report

MARKET_BRIEF = ["executive_summary", "key_findings", "market_landscape", "data_notes"]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("llm")
    result = run(["ingest", str(FIXTURE), "--index", str(folder / "index")], cwd=folder)
    assert result.returncode == 0, result.stderr
    return folder


def _research(workdir: Path, llm: LyingLLM, timeout: float = 20) -> tuple[dict[str, Any], str]:
    env = {
        "SLEUTH_LLM_BASE_URL": llm.base_url,
        "SLEUTH_LLM_MODEL": "liar",
        "SLEUTH_LLM_TIMEOUT": str(timeout),
        "SLEUTH_LLM_MAX_CALLS": "20",
        "SLEUTH_LLM_REFINE": "1",
    }
    result = run(
        ["research", "How big is the Freedonian graphene battery market and who leads it?",
         "--template", "market_brief", "--no-web", "--depth", "1",
         "--index", str(workdir / "index"), "--json"],
        cwd=workdir, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), result.stderr


@pytest.fixture(params=["invented_ids", "unanchored", "invented_numbers", "invalid_json", "truncated_json",
                        "skip_required", "huge", "think_fenced", "no_tools",
                        "lying_refine"])  # fmt: skip
def liar(request: pytest.FixtureRequest) -> Iterator[LyingLLM]:
    server = LyingLLM(request.param)
    yield server
    server.close()


def test_lies_never_reach_the_report(workdir: Path, liar: LyingLLM) -> None:
    report, _ = _research(workdir, liar)
    check_report(report, MARKET_BRIEF)
    assert liar.calls > 0
    metrics = report["metrics"]["llm"]
    assert metrics["calls"] <= 20
    for section in report["sections"]:
        for claim in section["claims"]:
            for word in INVENTED:
                assert word not in claim["text"], (liar.behaviour, claim)
        if section["fields"] is not None:
            for fact in section["fields"].values():
                assert fact["value"] != "9.9 billion"
    for e in report["evidence"]:
        assert " ".join(e["quote"].split()) in " ".join(_source_text(e["document_id"]).split())
    assert report["sections"][1]["status"] != "not_found"  # key_findings is required and the corpus has it
    if liar.behaviour in ("invalid_json", "truncated_json", "huge"):
        assert metrics["failures"] and metrics["sections_written_extractively"] >= 1
    if liar.behaviour == "no_tools":  # switched to JSON mode, and the lies were caught there too
        assert metrics["calls"] >= 2
    if liar.behaviour == "think_fenced":
        assert metrics["repaired"] >= 1
    if liar.behaviour == "invented_numbers":  # its quotes and leads lie too
        assert metrics["quotes_not_verbatim"] >= 1 and metrics["leads_rejected"] >= 1
    if liar.behaviour == "lying_refine":  # a valid draft, then a rewrite that slips in a number and a name
        assert metrics["refinements_rejected"] >= 1 and metrics["refined_sections"] == 0
    if liar.behaviour == "invented_ids":
        assert metrics["invented_evidence_ids"] >= 1


def test_interactive_asks_one_question_and_keeps_a_brief_on_topic(workdir: Path) -> None:
    server = LyingLLM("invented_numbers")
    try:
        env = {**os.environ, "SLEUTH_LLM_BASE_URL": server.base_url, "SLEUTH_LLM_MODEL": "liar"}
        result = subprocess.run(
            [sys.executable, "-m", "sleuth.agent.cli", "research", "How big is the graphene battery market?",
             "--template", "brief", "--depth", "0", "--interactive",
             "--index", str(workdir / "index"), "--json"],
            input="Freedonia\n", capture_output=True, text=True, env=env, cwd=workdir, timeout=300,
            check=False,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        assert "Which country's battery market do you mean?" in result.stderr
        # The model's brief lost the request's terms: the request and the user's answer are the brief.
        assert "brief: How big is the graphene battery market? (Freedonia)" in result.stderr
        report = json.loads(result.stdout)
        check_report(report, ["answer", "key_findings", "details", "open_questions"])
    finally:
        server.close()


def test_a_server_that_hangs_times_out_and_the_run_goes_on(workdir: Path) -> None:
    server = LyingLLM("hang")
    try:
        started = time.monotonic()
        report, _ = _research(workdir, server, timeout=2)
        check_report(report, MARKET_BRIEF)
        assert report["metrics"]["llm"]["failures"].get("timeout", 0) >= 1
        assert time.monotonic() - started < 200
    finally:
        server.close()


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ('<think>let me {think}</think>{"a": 1}', {"a": 1}),
        ('Sure:\n```json\n{"a": [1, 2]}\n```\nDone.', {"a": [1, 2]}),
        ('prose {"a": 1} more {"b": 2}', {"a": 1}),
        ("no json at all", None),
        ("{" * 10, None),
    ],
)
def test_repair_takes_the_first_json_object(answer: str, expected: object) -> None:
    assert repair_json(answer) == expected
