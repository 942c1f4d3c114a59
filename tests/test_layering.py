"""Dependencies flow one way: agent -> retrieval -> ingest. ingest imports neither of the others."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FORBIDDEN = {"ingest": {"retrieval", "agent"}, "retrieval": {"agent"}, "agent": set()}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_upward_imports(package: str) -> None:
    for path in (REPO / package).rglob("*.py"):
        bad = _imports(path) & FORBIDDEN[package]
        assert not bad, f"{path.relative_to(REPO)} imports {bad}"


def test_importing_ingest_loads_nothing_above_it() -> None:
    code = (
        "import sys, ingest, ingest.chunk; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('retrieval', 'agent')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
