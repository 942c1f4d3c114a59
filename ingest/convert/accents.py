"""Accents that a PDF's text layer gives as separate spacing characters, put back on their letters.

TeX fonts without precomposed accented glyphs (OT1, the default encoding of many LaTeX documents) typeset
``í`` as an acute accent drawn over a dotless i; the text layer then reads ``Cap´ıtulo``, ``Gonz´ alez``,
``espa˜nol``. A spacing accent directly before a letter (a space between them is the glyph gap, not a word
break) is that letter's accent: the two compose into one character, by Unicode's own composition.
"""

from __future__ import annotations

import re
import unicodedata

#: Spacing accents and the combining marks they stand for.
_COMBINING = {
    "´": "\u0301",
    "`": "\u0300",
    "¨": "\u0308",
    "˜": "\u0303",
    "ˆ": "\u0302",
    "ˇ": "\u030c",
    "˘": "\u0306",
    "¸": "\u0327",
    "˚": "\u030a",
    "˝": "\u030b",
}
#: The accent, then its letter; inside a word (after a letter) the glyph gap may have put a space between.
#: The grave accent doubles as a backquote in code and quotes: only directly before a vowel.
_ACCENTED = re.compile(r"(?:(?<=[^\W\d_])([´¨˜ˆˇ˘¸˚˝]) ?|([´¨˜ˆˇ˘¸˚˝]))([^\W\d_])|(`)([aeiouAEIOU])")


def repair(text: str) -> str:
    """``text`` with every spacing accent that precedes a letter composed with it (``´ı`` -> ``í``)."""
    if not any(ch in _COMBINING for ch in text):
        return text
    return _ACCENTED.sub(_compose, text)


def _compose(m: re.Match[str]) -> str:
    accent = m.group(1) or m.group(2) or m.group(4)
    letter = m.group(3) or m.group(5)
    base = "i" if letter == "ı" else "j" if letter == "ȷ" else letter
    composed = unicodedata.normalize("NFC", base + _COMBINING[accent])
    # Only a real accented letter replaces the pair; an accent no letter takes stays as it was.
    return composed if len(composed) == 1 else m.group(0)


__all__ = ["repair"]
