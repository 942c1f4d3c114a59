"""Ligature glyphs that a PDF's text layer could not map to letters (U+FFFD), mapped back.

Fonts embedded without a ToUnicode entry for their ligature glyphs come out as U+FFFD inside words
(``a\ufffdliation``, ``Di\ufffderences``). The glyph is one of a handful of Latin ligatures; which one is
decided by the word it completes: the candidate whose word the dense model's WordPiece vocabulary splits into
the fewest pieces (a real word is usually one piece; a misspelling is several). Without a tokenizer the most
common ligature, ``fi``, is the guess.
"""

from __future__ import annotations

import logging
import re
from functools import cache

from tokenizers import Tokenizer

from sleuth.ingest.tokens import default_tokenizer_dir

log = logging.getLogger(__name__)
#: Candidates in order of frequency in English text (the first wins a tie).
LIGATURES = ("fi", "ff", "fl", "ffi", "ffl", "ft", "st")
_BROKEN_WORD = re.compile(r"[^\W\d_]*\ufffd[^\W\d_]*(?:\ufffd[^\W\d_]*)*")


def repair(text: str) -> str:
    """``text`` with every U+FFFD in or at the edge of a word replaced by the ligature that makes a word."""
    if "\ufffd" not in text:
        return text
    return _BROKEN_WORD.sub(lambda m: _best(m.group(0)) if _has_letters(m.group(0)) else m.group(0), text)


def _has_letters(word: str) -> bool:
    return any(ch.isalpha() for ch in word)


@cache
def _best(word: str) -> str:
    tokenizer = _tokenizer()
    parts = word.split("\ufffd")
    if len(parts) > 3:  # not a word with a ligature or two: leave it as it is
        return word
    options = [""]
    for part in parts[1:]:
        options = [o + lig + part for o in options for lig in LIGATURES]
    options = [parts[0] + o for o in options]
    if tokenizer is None:
        return options[0]
    return min(
        options,
        key=lambda w: (len(tokenizer.encode(w.lower(), add_special_tokens=False).ids), options.index(w)),
    )


@cache
def _tokenizer() -> Tokenizer | None:
    path = default_tokenizer_dir() / "tokenizer.json"
    try:
        return Tokenizer.from_file(str(path))
    except Exception as exc:  # missing or unreadable: fall back to the commonest ligature
        log.debug("no tokenizer for ligature repair (%s): %s", path, exc)
        return None


__all__ = ["LIGATURES", "repair"]
