"""The ``sleuth`` command line as users and scripts drive it: real subprocesses, real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from sleuth.agent.cli.progress import ResearchDisplay
from sleuth.agent.events import PlannedQuestion, PlanReady, QuestionFinished
from sleuth.ingest import Chunk, TokenCounter
from tests.invariants import check_chunks

REPO = Path(__file__).resolve().parents[1]
SLEUTH = [sys.executable, "-m", "sleuth.agent.cli"]


def run(
    args: list[str], cwd: Path = REPO, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [*SLEUTH, *args], cwd=cwd, env=full_env, capture_output=True, text=True, timeout=900, check=False
    )


def test_help_lists_commands() -> None:
    result = run(["--help"])
    assert result.returncode == 0
    assert "chunk" in result.stdout
    assert "Usage: sleuth" in result.stdout


def test_chunk_jsonl_matches_the_contract(tmp_path: Path, counter: TokenCounter) -> None:
    doc = tmp_path / "Quarterly Report.md"
    md = (
        "# Results\n\n"
        + "Revenue grew strongly in every region. " * 80
        + "\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    )
    doc.write_text(md)
    result = run(["chunk", str(doc), "--max-tokens", "64", "--overlap-tokens", "8", "--jsonl"])
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    keys = {
        "id", "document_id", "source", "chunk_type", "section_path", "parent_section", "prev_chunk_id",
        "next_chunk_id", "content", "context_before", "context_after", "token_count", "split_sequence",
        "page_start", "page_end",
    }  # fmt: skip
    assert all(keys <= set(r) for r in records)
    assert {r["document_id"] for r in records} == {"Quarterly Report"}
    assert {r["source"] for r in records} == {str(doc)}
    assert records[-1]["chunk_type"] == "table"
    assert records[0]["split_sequence"] == f"1/{len(records) - 1}"
    check_chunks(md, [Chunk(**r) for r in records], counter, 64)


def test_chunk_array_output_and_folder_walk(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.md").write_text("# A\n\nalpha\n")
    (tmp_path / "sub" / "b.markdown").write_text("# B\n\nbeta\n")
    (tmp_path / "notes.bin").write_bytes(b"\0\1")
    (tmp_path / ".hidden.md").write_text("# H\n\nhidden\n")
    result = run(["chunk", str(tmp_path)])
    assert result.returncode == 0, result.stderr
    records = json.loads(result.stdout)
    assert [r["document_id"] for r in records] == ["a", "sub/b"]  # relative to the folder named


def test_tree_output(tmp_path: Path) -> None:
    doc = tmp_path / "t.md"
    doc.write_text("# Top\n\ntext\n\n## Sub\n\n- item\n")
    result = run(["chunk", "--tree", str(doc)])
    assert result.returncode == 0, result.stderr
    (tree,) = json.loads(result.stdout)
    assert set(tree) == {"level", "heading", "content_elements", "subsections"}
    assert tree["subsections"][0]["subsections"][0]["heading"] == "Sub"


def test_bad_inputs_are_one_line_each_and_the_batch_goes_on(tmp_path: Path) -> None:
    good = tmp_path / "good.md"
    good.write_text("# Fine\n\ncontent\n")
    empty = tmp_path / "empty.md"
    empty.write_text("")
    binary = tmp_path / "binary.md"
    binary.write_bytes(b"\0\1\2binary\0")
    latin = tmp_path / "latin.md"
    latin.write_bytes("caf\xe9".encode("latin-1"))
    huge = tmp_path / "huge.md"
    huge.write_text("word " * 300_000)
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(b"%PDF-1.4 truncated")
    missing = tmp_path / "missing.md"
    args = [
        "chunk",
        "--jsonl",
        "--max-file-mb",
        "1",
        *map(str, [empty, binary, good, latin, huge, pdf, missing]),
    ]
    result = run(args)
    assert result.returncode == 1
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 6, errors
    for path, reason in [
        (empty, "empty"),
        (binary, "binary"),
        (latin, "UTF-8"),
        (huge, "too large"),
        (pdf, "corrupt or unreadable PDF"),
        (missing, "no such file"),
    ]:
        assert any(str(path) in e and reason in e for e in errors), (path, errors)
    assert "Traceback" not in result.stderr
    assert [json.loads(line)["document_id"] for line in result.stdout.splitlines()] == ["good"]


def test_settings_file_env_and_flags_in_order(tmp_path: Path) -> None:
    doc = tmp_path / "d.md"
    doc.write_text(" ".join(f"w{i}" for i in range(400)))
    config = tmp_path / "s.toml"
    config.write_text("max_tokens = 100\n")

    def sizes(args: list[str], env: dict[str, str] | None = None) -> int:
        result = run([*args, "chunk", "--jsonl", str(doc)], env=env)
        assert result.returncode == 0, result.stderr
        return max(json.loads(line)["token_count"] for line in result.stdout.splitlines())

    assert sizes(["--config", str(config)]) <= 100
    assert sizes(["--config", str(config)], {"SLEUTH_MAX_TOKENS": "40"}) <= 40
    flags = ["--config", str(config), "chunk", "--jsonl", "--max-tokens", "20", str(doc)]
    result = run(flags, env={"SLEUTH_MAX_TOKENS": "40"})
    assert max(json.loads(line)["token_count"] for line in result.stdout.splitlines()) <= 20


@pytest.mark.parametrize(
    ("setting", "env", "message"),
    [
        ("max_tokens = 'many'\n", {}, "invalid setting max_tokens"),
        ("", {"SLEUTH_OVERLAP_TOKENS": "-3"}, "invalid setting overlap_tokens"),
        ("max_tokenz = 5\n", {}, "max_tokenz"),
        ("max_tokens = [\n", {}, "cannot read config"),
    ],
)
def test_invalid_settings_are_one_line_and_exit_2(
    tmp_path: Path, setting: str, env: dict[str, str], message: str
) -> None:
    config = tmp_path / "bad.toml"
    config.write_text(setting)
    doc = tmp_path / "d.md"
    doc.write_text("text")
    result = run(["--config", str(config), "chunk", str(doc)], env=env)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines


def test_usage_errors_exit_2() -> None:
    result = run(["chunk", "--max-tokens", "zero", "x.md"])
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert run(["no-such-command"]).returncode == 2


def test_missing_tokenizer_is_a_clear_error(tmp_path: Path) -> None:
    doc = tmp_path / "d.md"
    doc.write_text("text")
    result = run(["chunk", str(doc), "--tokenizer", str(tmp_path / "nowhere")])
    assert result.returncode == 2
    assert "make models" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_python_m_ingest_chunk_runs_on_its_own(tmp_path: Path) -> None:
    doc = tmp_path / "d.md"
    doc.write_text("# T\n\nbody\n")
    result = subprocess.run(
        [sys.executable, "-m", "sleuth.ingest.chunk", "--jsonl", str(doc)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["section_path"] == "T"


def test_research_progress_never_counts_more_questions_done_than_asked() -> None:
    """An ask asked again is a question the plan did not list: the status line says "3/3", never "3/2"."""
    display = ResearchDisplay(Console(file=StringIO()))
    planned = [PlannedQuestion(id=f"q{k}", text="t", sections=[], depth=0, origin="plan") for k in range(2)]
    display.update(PlanReady(run_id="r", questions=planned))
    for k in range(3):
        display.update(
            QuestionFinished(run_id="r", question_id=f"q{k}", hits=1, new_evidence=0, leads=0, seconds=0)
        )
    assert "3/3 questions" in display.status_line()
