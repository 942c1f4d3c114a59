"""Shared fixtures. Nothing here reaches a model hub: the tokenizer comes from the provisioned models."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from ingest.tokens import TokenCounter, default_tokenizer_dir

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def counter() -> TokenCounter:
    return TokenCounter.from_dir(default_tokenizer_dir())


@pytest.fixture(scope="session")
def real_markdown() -> dict[str, str]:
    return {p.stem: p.read_text() for p in sorted((DATA / "markdown").glob("*.md"))}
