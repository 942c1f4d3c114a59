"""Font statistics of a PDF's lines: the body text style, and each font's typical size.

Headings are told from body text by font and size, paragraphs by changes of size; line boxes vary with
superscripts and accents, so each font's median size stands for it.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass

from sleuth.ingest.convert.pdf_layout import Line, Page, is_mono_font


@dataclass(frozen=True)
class Fonts:
    """Body text style, and each font's typical size (line boxes vary with superscripts and accents)."""

    body_font: str
    body_size: float
    sizes: dict[str, float]

    def size(self, line: Line) -> float:
        typical = self.sizes.get(line.font, line.size)
        return typical if abs(typical - line.size) < 0.25 * typical else line.size


def font_stats(pages: list[Page]) -> Fonts:
    chars: Counter[str] = Counter()
    heights: dict[str, list[float]] = {}
    for page in pages:
        for line in page.lines:
            chars[line.font] += len(line.text)
            heights.setdefault(line.font, []).append(line.size)
    sizes = {font: statistics.median(h) for font, h in heights.items()}
    prose = [f for f, _ in chars.most_common() if not is_mono_font(f)]
    if not chars:  # every line was a running header or footer
        return Fonts("", 10.0, sizes)
    body_font = prose[0] if prose else chars.most_common(1)[0][0]
    return Fonts(body_font, sizes[body_font], sizes)
