"""The judged research sets (benchmarks/judged/) stay well-formed and split as they were, and the scorer of
benchmarks/research_sets.py matches answers and counts repeated claims the way its docstring says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.fanout_research import flatten_answer
from benchmarks.judged.src.build import half
from benchmarks.research_sets import SETS, answer_share, as_read, is_empty, repeated_claims, summary_sections

JUDGED = Path(__file__).resolve().parents[1] / "benchmarks" / "judged"


def _rows(name: str) -> list[tuple[str, dict[str, object]]]:
    out = []
    for which in ("tune", "heldout"):
        for line in (JUDGED / name / f"questions-{which}.jsonl").read_text().splitlines():
            out.append((which, json.loads(line)))
    return out


@pytest.mark.parametrize("name", [s.name for s in SETS])
def test_question_files_are_complete_and_split_by_the_hash_of_the_id(name: str) -> None:
    rows = _rows(name)
    assert len(rows) >= 30
    ids = [str(row["id"]) for _, row in rows]
    assert len(ids) == len(set(ids)), "question ids are unique within a set"
    style = next(s.style for s in SETS if s.name == name)
    for which, row in rows:
        assert half(str(row["id"])) == which, f"{row['id']} is in the {which} half"
        assert row["style"] == style
        assert str(row["question"]).strip()
        gold = row["gold_sources"]
        assert isinstance(gold, list) and gold and all(isinstance(g, str) and g for g in gold)
        assert all(not g.endswith((".html", ".md")) for g in gold), "gold sources are document ids"
        answers = row["answers"]
        assert isinstance(answers, list) and all(isinstance(a, str) and a.strip() for a in answers)
        if style != "fanout":
            assert answers, f"{row['id']} has answer strings"


@pytest.mark.parametrize("path", sorted((JUDGED / "unseen").glob("*.jsonl")), ids=lambda p: p.stem)
def test_unseen_sets_are_complete(path: Path) -> None:
    """What benchmarks/unseen_sets.py reads: short questions and long requests, each with gold pages (document
    ids) and answer strings (a question the manual does not answer has none and is not scored)."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    assert rows and len({row["id"] for row in rows}) == len(rows)
    for row in rows:
        # ids say their kind: s1 short, l1 long, o1 a question the manual does not cover (no answers)
        kind = str(row["id"])[0]
        assert kind in "slo" and str(row["question"]).strip()
        assert kind == "o" or row.get("kind", "short" if kind == "s" else "long")[0] == kind
        assert kind != "o" or not row.get("answers")
        gold = row["gold_sources"]
        assert isinstance(gold, list)
        assert all(isinstance(g, str) and g and not g.endswith(".html") for g in gold)
        assert all(isinstance(a, str) and a.strip() for a in row.get("answers", []))


def test_both_halves_hold_a_fair_share_of_every_set() -> None:
    for judged in SETS:
        halves = [which for which, _ in _rows(judged.name)]
        assert 0.3 < halves.count("tune") / len(halves) < 0.7, judged.name


def test_fanout_answers_flatten_every_scalar_keys_included_without_repeats() -> None:
    answer = {"Pat Burrell": "Right", "Mark Mulder": "Left", "JD Drew": "left", "Years": [2006, 2012.0, True]}
    expected = ["Pat Burrell", "Right", "Mark Mulder", "Left", "JD Drew", "Years", "2006", "2012", "yes"]
    assert flatten_answer(answer) == expected
    assert flatten_answer("Paris") == ["Paris"]
    assert flatten_answer(4) == ["4"]


def test_answers_match_the_visible_text_of_markdown_claims() -> None:
    claims = [
        "Set the  SQLITE\\_MAX\\_LENGTH macro",
        "The default is 1,000,000,000 bytes.",
        "Use `-k graceful`",
        "run PRAGMA foreign_keys=ON",
    ]
    answers = ["sqlite_max_length", "1000000000", "absent", "use -k graceful", "PRAGMA foreign_keys = ON"]
    strict, loose = answer_share(answers, claims)
    assert strict == 0.0
    assert loose == pytest.approx(4 / 5)
    strict, loose = answer_share(["Set the SQLITE"], claims)
    assert strict == loose == 1.0
    # A search hit counts by its Markdown and by what it reads as (an entity, an escaped underscore).
    hit = as_read("Set `FETCHCONTENT\\_SOURCE\\_DIR\\_&lt;uppercaseName&gt;` to skip the download.")
    assert answer_share(["FETCHCONTENT_SOURCE_DIR_<uppercaseName>"], [hit])[1] == 1.0


def test_repeated_claims_count_findings_sections_only() -> None:
    summary = summary_sections("brief")
    assert summary == {"answer", "key_findings"}
    claim = {"text": "KeepAliveTimeout 5", "evidence_ids": ["e1"]}
    other = {"text": "Timeout 60", "evidence_ids": ["e2"]}
    report = {
        "sections": [
            {"id": "answer", "status": "supported", "claims": [claim]},
            {"id": "key_findings", "status": "supported", "claims": [claim]},
            {"id": "details", "status": "supported", "claims": [claim, other]},
            {
                "id": "open_questions",
                "status": "supported",
                "claims": [{**claim, "text": " keepalivetimeout  5"}],
            },
        ]
    }
    assert repeated_claims(report, summary) == (1, 2)
    assert not is_empty(report)
    assert is_empty({"sections": [{"id": "answer", "status": "not_found", "claims": []}]})
