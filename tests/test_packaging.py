"""What ``pip install sleuth`` installs: only ``sleuth.*``, and a chunker that needs no heavy stack."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from sleuth.ingest.tokens import default_tokenizer_dir

REPO = Path(__file__).resolve().parents[1]
HEAVY = (
    "docling", "docling_parse", "torch", "fastembed", "onnxruntime", "qdrant_client", "qdrant_edge", "pebble"
)  # fmt: skip


def _pyproject() -> dict[str, object]:
    return tomllib.loads((REPO / "pyproject.toml").read_text())


def test_every_package_folder_is_installed_under_sleuth() -> None:
    setuptools = _pyproject()["tool"]["setuptools"]  # type: ignore[index]
    listed = set(setuptools["packages"])
    found = set()
    for layer, folder in setuptools["package-dir"].items():
        for init in (REPO / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(REPO / folder)
            found.add(".".join([layer, *rel.parts]))
    assert listed == found


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    pip = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
    subprocess.run(
        [*pip, "-w", str(out), str(REPO)],
        check=True,
        capture_output=True,
        cwd=out,
    )
    (built,) = out.glob("sleuth-*.whl")
    return built


def test_wheel_installs_only_the_sleuth_namespace(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
        metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        requires = [
            Requirement(line.split(":", 1)[1].strip())
            for line in archive.read(metadata).decode().splitlines()
            if line.startswith("Requires-Dist:")
        ]
    assert {t for t in tops if not t.endswith(".dist-info")} == {"sleuth"}
    base = {r.name for r in requires if r.marker is None}
    assert base == {"markdown-it-py", "tokenizers", "pydantic"}


def _closure(names: list[str]) -> set[str]:
    """Distributions a plain ``pip install`` of ``names`` brings (no extras), from installed metadata."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = re.sub(r"[-_.]+", "-", todo.pop()).lower()
        if name in seen:
            continue
        seen.add(name)
        for line in importlib.metadata.requires(name) or []:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return seen


def _top_level_paths(dist_name: str) -> list[Path]:
    dist = importlib.metadata.distribution(dist_name)
    tops = {Path(str(f)).parts[0] for f in dist.files or []}
    return [
        Path(str(dist.locate_file(t)))
        for t in tops
        if not t.endswith((".dist-info", ".data")) and t != ".." and not t.startswith("__pycache__")
    ]


def test_chunker_runs_with_only_its_own_dependencies(wheel: Path, tmp_path: Path) -> None:
    """The base install's closure, and nothing else, on the path: chunk a real document."""
    site = tmp_path / "site"
    site.mkdir()
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    for dist in sorted(_closure(["markdown-it-py", "tokenizers", "pydantic"])):
        for path in _top_level_paths(dist):
            if path.exists() and not (site / path.name).exists():
                (site / path.name).symlink_to(path)
    heavy_present = [h for h in HEAVY if (site / h).exists()]
    assert not heavy_present, f"the base install pulls {heavy_present}"
    code = f"""
import sys
sys.path[:0] = [{str(site)!r}]
from sleuth.ingest import TokenCounter, chunk_markdown
text = open({str(REPO / "tests/data/markdown/rich.md")!r}).read()
chunks = chunk_markdown(text, TokenCounter.from_dir({str(default_tokenizer_dir())!r}), max_tokens=128)
assert len(chunks) > 20 and all(c.token_count <= 128 for c in chunks)
for name in {HEAVY!r}:
    try:
        __import__(name)
    except ImportError:
        continue
    raise SystemExit(name + " is importable")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("click", "rich"))
assert not loaded, loaded
print(len(chunks))
"""
    result = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) > 20
