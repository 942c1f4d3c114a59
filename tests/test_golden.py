"""Golden reports: the same questions on the same index give byte-identical report.json, run ids and times
aside.

A refactor of the research run must not change what a report says. These runs go through the real CLI (the
contract's path) over two small corpora copied to a temporary folder with a fixed file time (a document
without a date of its own is dated by its file, and a fresh clone's file times are its checkout time).
What varies between runs and is not behaviour is normalised: run ids, creation times, timings, the
temporary folder's path and the file time's date.

When a change of behaviour is intended, regenerate the files and review their diff like code:

    SLEUTH_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_golden.py
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from sleuth.ingest.convert.metadata import file_date
from tests.test_cli import REPO, run

GOLDEN = REPO / "tests" / "data" / "golden"
UPDATE = os.environ.get("SLEUTH_UPDATE_GOLDEN") == "1"
#: A file time one day ago: recent enough never to be stale, normalised away in the comparison.
MTIME = int(time.time()) - 86400
CORPORA = {
    "fixture": [REPO / "tests" / "data" / "research" / "docs"],
    "demo": [REPO / "data" / "sample", REPO / "data" / "pdf"],
}
CASES = [
    ("fixture-market", "fixture", "the Freedonian graphene battery market", "market_brief", []),
    (
        "fixture-memo",
        "fixture",
        "Should we invest in Freedonian graphene battery makers?",
        "investment_memo",
        [],
    ),
    (
        "fixture-tdd",
        "fixture",
        "graphene battery cells from Freedonia",
        "technical_due_diligence",
        ["--depth", "1"],
    ),
    (
        "demo-market",
        "demo",
        "Which companies lead the semiconductor and electronics industry, and what materials does it "
        "depend on?",
        "market_brief",
        [],
    ),
    ("demo-review", "demo", "How are transistors made from silicon?", "literature_review", []),
    ("demo-brief", "demo", "What drives copper and cobalt prices?", "brief", []),
]


@pytest.fixture(scope="module")
def indexes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("golden")
    out: dict[str, Path] = {}
    for name, folders in CORPORA.items():
        copies = []
        for folder in folders:
            copy = root / name / folder.name
            shutil.copytree(folder, copy)
            for path in copy.rglob("*"):
                os.utime(path, (MTIME, MTIME))
            copies.append(copy)
        index = root / name / "index"
        result = run(["ingest", *map(str, copies), "--index", str(index)], cwd=root)
        assert result.returncode == 0, result.stderr
        out[name] = index
    return out


def normalise(report: dict[str, Any], root: Path) -> str:
    """report.json as written, with what is not behaviour replaced by fixed markers."""
    data = json.loads(json.dumps(report))
    data["run_id"] = "<RUN>"
    data["created_at"] = "<CREATED>"
    data.get("metrics", {}).pop("seconds", None)
    text = json.dumps(data, ensure_ascii=False, indent=2)
    text = text.replace(str(root), "<ROOT>").replace(file_date(MTIME), "<MTIME>")
    return re.sub(r"eval-[\w-]+|\d{8}-\d{6}-[0-9a-f]{6}", "<RUN>", text) + "\n"


@pytest.mark.parametrize(
    ("name", "corpus", "question", "template", "extra"), CASES, ids=[c[0] for c in CASES]
)
def test_report_is_unchanged(  # noqa: PLR0917 - the parametrised case
    indexes: dict[str, Path], name: str, corpus: str, question: str, template: str, extra: list[str]
) -> None:
    index = indexes[corpus]
    root = index.parents[1]
    out = index.parent / f"out-{name}"
    result = run(
        [
            "research",
            question,
            "--template",
            template,
            "--index",
            str(index),
            "--offline",
            "--out",
            str(out),
            *extra,
        ],
        cwd=root,
    )
    assert result.returncode in (0, 1), result.stderr
    got = normalise(json.loads((out / "report.json").read_text()), root)
    path = GOLDEN / f"{name}.json"
    if UPDATE or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(got)
        if not UPDATE:
            pytest.fail(f"{path.name} did not exist; written now (review it and commit)")
    assert got == path.read_text(), (
        f"{name}: report.json differs from {path} (SLEUTH_UPDATE_GOLDEN=1 rewrites it)"
    )
