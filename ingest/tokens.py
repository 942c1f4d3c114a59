"""Exact token counts with the dense embedding model's own tokenizer.

Chunk limits exist because the embedding model truncates its input; a chunk that is "about" under the limit
loses its tail silently. So counts come from the model's tokenizer itself (the `tokenizers` Rust library,
loaded from a local folder, never from a hub), and without special tokens, as the contract defines them.
"""

from __future__ import annotations

import bisect
import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tokenizers import Encoding, Tokenizer

from sleuth.ingest.errors import ConfigurationError

DENSE_MODEL_NAME = "bge-small-en-v1.5"
"""Folder name of the default dense model, whose tokenizer defines every token count."""


def default_models_dir() -> Path:
    """Where provisioned models live: ``$SLEUTH_MODELS_DIR``, else the user's cache folder."""
    explicit = os.environ.get("SLEUTH_MODELS_DIR")
    if explicit:
        return Path(explicit).expanduser()
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "sleuth" / "models"


def default_tokenizer_dir() -> Path:
    return default_models_dir() / DENSE_MODEL_NAME


class TokenizerNotFoundError(ConfigurationError, FileNotFoundError):
    """The tokenizer folder is missing or incomplete (models not provisioned yet)."""


@dataclass(frozen=True, slots=True)
class TokenSpans:
    """Character spans of the tokens of one text, for counting any slice of it without re-encoding.

    Counting a slice by the tokens that start inside it equals re-encoding that slice whenever the slice is
    cut where the tokenizer's pre-tokenizer would cut anyway (white space, punctuation): the splitter only
    cuts there, and the chunker re-counts every finished chunk exactly anyway.
    """

    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @classmethod
    def of(cls, encoding: Encoding) -> TokenSpans:
        return _spans(encoding)

    def __len__(self) -> int:
        return len(self.starts)

    def count(self, start: int, end: int) -> int:
        """Tokens that begin in ``text[start:end]``."""
        return bisect.bisect_left(self.starts, end) - bisect.bisect_left(self.starts, start)

    def index_at(self, offset: int) -> int:
        """Index of the first token starting at or after ``offset``."""
        return bisect.bisect_left(self.starts, offset)


class TokenCounter:
    """Counts tokens as the dense model sees them (no special tokens, no truncation, no padding)."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        tokenizer.no_truncation()
        tokenizer.no_padding()
        self._tokenizer = tokenizer
        self._identity: str | None = None

    @property
    def identity(self) -> str:
        """A digest of the whole tokenizer: counts (so chunk boundaries) change exactly when it changes."""
        if self._identity is None:
            self._identity = hashlib.sha256(self._tokenizer.to_str().encode()).hexdigest()[:16]
        return self._identity

    @classmethod
    def from_dir(cls, path: str | Path) -> TokenCounter:
        """Load ``tokenizer.json`` from a model folder."""
        file = Path(path).expanduser() / "tokenizer.json"
        if not file.is_file():
            raise TokenizerNotFoundError(
                f"no tokenizer.json in {Path(path).expanduser()} (run `make models` to provision the models)"
            )
        return cls(Tokenizer.from_file(str(file)))

    def count(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)

    def count_batch(self, texts: Sequence[str]) -> list[int]:
        return [len(e.ids) for e in self._encode_batch(texts)]

    def encode_batch(self, texts: Sequence[str]) -> list[Encoding]:
        """Encodings in one parallel call; ``TokenSpans.of`` turns the few that need offsets into spans.

        Reading offsets out of an encoding costs more than encoding itself, so callers take them lazily.
        """
        return self._encode_batch(texts)

    def _encode_batch(self, texts: Sequence[str]) -> list[Encoding]:
        if not texts:
            return []
        return self._tokenizer.encode_batch(list(texts), add_special_tokens=False)


def _spans(encoding: Encoding) -> TokenSpans:
    offsets = encoding.offsets
    return TokenSpans(tuple(s for s, _ in offsets), tuple(e for _, e in offsets))
