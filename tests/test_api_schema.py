"""Property tests of the HTTP API against its own OpenAPI schema (schemathesis), on a real server on
loopback: generated requests to every read endpoint and to ingest never get a server error, and every
answer matches the schema. The research-starting endpoints are exercised in tests/test_api.py (each
generated call would start a run)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from tests.test_api import Server
from tests.test_cli import run
from tests.test_research import FIXTURE


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("schema")
    result = run(["ingest", str(FIXTURE), "--index", str(folder / "index")], cwd=folder)
    assert result.returncode == 0, result.stderr
    (folder / "root").mkdir()
    s = Server(folder, "schema")
    yield s
    s.close()


def test_api_matches_its_schema(api: Server) -> None:
    # Driven through hypothesis directly: schemathesis's pytest plugin does not run on this pytest. The
    # examples are derandomized so that CI is repeatable; run with another seed to explore further.
    schema = schemathesis.openapi.from_url(f"{api.base}/openapi.json")
    tested = []
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.method.upper() == "POST" and operation.path in ("/v1/research", "/v1/research/stream"):
            continue
        tested.append(f"{operation.method.upper()} {operation.path}")

        @given(case=operation.as_strategy())
        @settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
        def check(case: schemathesis.Case) -> None:
            case.call_and_validate(base_url=api.base, timeout=60)

        check()
    assert {"GET /v1/search", "POST /v1/ingest", "GET /v1/research/{run_id}/events"} <= set(tested)
