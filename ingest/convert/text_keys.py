"""One comparison key for titles, headings and lines: what two renderings of the same words share.

Letters and digits only, lower-cased, accents and styles folded (``Û`` and ``U``, a mathematical bold ``𝛚``
and ``ω``): an outline title typed by hand and the heading line the text layer reads differ in spacing,
punctuation, accents drawn as separate glyphs and math alphabets, never in their letters.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=1 << 16)  # outline matching compares every line of a page with every entry on it
def match_key(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).lower()
    return "".join(ch for ch in folded if ch.isalnum())


__all__ = ["match_key"]
