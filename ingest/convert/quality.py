"""Structure quality of a conversion: how many of a PDF's own outline headings came out as headings."""

from __future__ import annotations

import re

from sleuth.ingest.convert.text_keys import match_key

_HEADING = re.compile(r"^#{1,6}\s+(.*)$", re.M)


_norm = match_key


def heading_recall(outline_titles: list[str], markdown: str) -> float:
    """Share of outline titles found inside some Markdown heading (numbering and punctuation ignored)."""
    titles = [t for t in (_norm(t) for t in outline_titles) if t]
    if not titles:
        return 1.0
    headings = [_norm(h) for h in _HEADING.findall(markdown)]
    found = sum(1 for t in titles if any(t in h for h in headings))
    return found / len(titles)
