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
#: Modules of the chunker's own command line (and the entry points that start it); every other ingest module
#: is the library core.
INGEST_CLI = {"chunk.py", "options.py", "runner.py", "convert.py", "progress.py", "__main__.py"}


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
        if path.parent.name == "cli" or path.name in ("chunk.py", "__main__.py"):
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


#: Front ends: the command lines, the HTTP API and the MCP server. They use the layers through their faces.
FRONT_ENDS = ("agent/cli", "agent/api", "agent/mcp", "ingest/cli")
FACES = {"sleuth.ingest", "sleuth.retrieval", "sleuth.agent"}


@pytest.mark.parametrize("folder", FRONT_ENDS)
def test_front_ends_import_only_the_faces(folder: str) -> None:
    """A front end uses the layers' faces, its own modules and the other front ends (``sleuth serve`` starts
    the API), nothing behind a face."""
    fronts = tuple("sleuth." + f.replace("/", ".") for f in FRONT_ENDS)
    # The chunker's command line is the ingest layer's own front end: it may use that layer's modules.
    own_layer = "sleuth.ingest." if folder == "ingest/cli" else "\0"
    for path in (REPO / folder).rglob("*.py"):
        deep = {
            m
            for m in _imports(path)
            if m.startswith("sleuth.")
            and m not in FACES
            and not m.startswith(fronts)
            and not m.startswith(own_layer)
        }
        assert not deep, f"{path.relative_to(REPO)} imports {deep} (import them from the layer's face)"


@pytest.mark.parametrize("package", ["sleuth.ingest", "sleuth.retrieval", "sleuth.agent"])
def test_faces_declare_what_they_export(package: str) -> None:
    module = __import__(package, fromlist=["__all__"])
    exported = set(module.__all__)
    assert exported and all(hasattr(module, name) for name in exported)


def test_library_code_imports_no_front_end() -> None:
    """Library modules receive what they need; only front ends may import a command-line or web stack."""
    for layer in LAYERS:
        for path in (REPO / layer).rglob("*.py"):
            rel = path.relative_to(REPO).as_posix()
            if rel.startswith(FRONT_ENDS) or rel in ("ingest/chunk.py", "ingest/__main__.py"):
                continue
            roots = {m.split(".")[0] for m in _imports(path)}
            assert not roots & {"click", "rich", "fastapi", "uvicorn"}, f"{rel} imports {roots}"
            front = {m for m in _imports(path) if m.startswith(("sleuth.agent.cli", "sleuth.agent.api"))}
            assert not front, f"{rel} imports {front}"


def test_research_does_not_import_the_llm_package() -> None:
    for path in (REPO / "agent" / "research").rglob("*.py"):
        bad = {m for m in _imports(path) if m.startswith("sleuth.agent.llm")}
        assert not bad, f"{path.relative_to(REPO)} imports {bad}"
