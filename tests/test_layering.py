"""Dependencies flow one way: agent -> retrieval -> ingest; everything is imported as ``sleuth.*``."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LAYERS = ("ingest", "retrieval", "agent")
FORBIDDEN = {"ingest": {"retrieval", "agent"}, "retrieval": {"agent"}, "agent": set()}
#: Modules of the chunker's own command line; every other ingest module is the library core.
INGEST_CLI = {
    "chunk.py", "cli_options.py", "cli_runner.py", "convert_command.py", "progress.py", "__main__.py"
}  # fmt: skip


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "sleuth" else None


@pytest.mark.parametrize("package", LAYERS)
def test_no_upward_imports(package: str) -> None:
    for path in (REPO / package).rglob("*.py"):
        bad = {m for m in _imports(path) if _layer(m) in FORBIDDEN[package]}
        assert not bad, f"{path.relative_to(REPO)} imports {bad}"


@pytest.mark.parametrize("folder", [*LAYERS, "tests", "benchmarks"])
def test_project_code_is_imported_by_its_installed_name(folder: str) -> None:
    """A bare ``import agent`` works only from the repository root, never once installed."""
    for path in (REPO / folder).rglob("*.py"):
        bare = {m for m in _imports(path) if m.split(".")[0] in LAYERS}
        assert not bare, f"{path.relative_to(REPO)} imports {bare} (use sleuth.<layer>)"


def test_chunker_core_imports_no_command_line_library() -> None:
    for path in (REPO / "ingest").rglob("*.py"):
        if path.name in INGEST_CLI:
            continue
        roots = {m.split(".")[0] for m in _imports(path)}
        assert not roots & {"click", "rich"}, f"{path.relative_to(REPO)} imports {roots & {'click', 'rich'}}"


def test_importing_ingest_loads_nothing_above_it() -> None:
    code = (
        "import sys, sleuth.ingest, sleuth.ingest.chunk; "
        "print(sorted(m for m in sys.modules if m.startswith(('sleuth.retrieval', 'sleuth.agent'))))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
