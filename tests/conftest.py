"""Shared fixtures. Nothing here reaches a model hub: the tokenizer comes from the provisioned models."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from sleuth.ingest.tokens import TokenCounter, default_models_dir, default_tokenizer_dir
from sleuth.retrieval.encoders import Encoders

# Tests (and the CLI subprocesses they start) keep their conversion cache to themselves, and still find the
# provisioned models.
os.environ.setdefault("SLEUTH_MODELS_DIR", str(default_models_dir()))
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="sleuth-test-cache-")

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def counter() -> TokenCounter:
    return TokenCounter.from_dir(default_tokenizer_dir())


@pytest.fixture(scope="session")
def real_markdown() -> dict[str, str]:
    return {p.stem: p.read_text() for p in sorted((DATA / "markdown").glob("*.md"))}


@pytest.fixture(scope="session")
def encoders() -> Encoders:
    """The real offline models (BGE-small INT8 + SPLADE-tiny), loaded once per test session."""
    return Encoders(default_models_dir(), "offline", threads=2)
