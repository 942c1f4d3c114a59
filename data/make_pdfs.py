"""Build the demo corpus's PDFs from Wikipedia lead sections (CC BY-SA 4.0), one article per page.

Real PDFs with a text layer, bookmarks and metadata, so that the demo's report cites pages. Reproducible:

    python data/make_pdfs.py corpus-dev/wiki/summaries_en-us.json data/pdf

needs ReportLab (a dev dependency) and the development corpus (``../shared/corpus/fetch.sh``).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer

PRIMERS = {
    "battery-materials-primer.pdf": (
        "Battery materials: a primer",
        ["Electric battery", "Graphite", "Nickel", "Manganese", "Sodium", "Mining"],
    ),
    "electronics-primer.pdf": (
        "Electronics and memory: a primer",
        ["Electronics", "Consumer electronics", "Semiconductor device", "Random-access memory",
         "Read-only memory", "Memory card", "IBM", "Silicon Valley"],
    ),
}  # fmt: skip
EPOCH = 1761955200  # 2025-11-01T00:00:00Z
ATTRIBUTION = (
    "Text: lead sections of the English Wikipedia articles named on each page, by Wikipedia's authors, "
    "licensed CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/). Compiled for the sleuth demo."
)


def build(leads: dict[str, dict[str, str]], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    styles = getSampleStyleSheet()
    for name, (title, articles) in PRIMERS.items():
        story = [Paragraph(title, styles["Title"]), Paragraph(ATTRIBUTION, styles["Italic"]), PageBreak()]
        for article in articles:
            entry = leads[article]
            heading = Paragraph(f'<a name="{article}"/>{article}', styles["Heading1"])
            heading.outline = article  # type: ignore[attr-defined]
            story += [heading, Paragraph(entry.get("description") or "", styles["Italic"]), Spacer(1, 8)]
            story += [Paragraph(p, styles["BodyText"]) for p in entry["extract"].split("\n") if p.strip()]
            story.append(PageBreak())

        doc = SimpleDocTemplate(
            str(out / name), pagesize=A4, title=title, author="Wikipedia contributors (CC BY-SA 4.0)"
        )
        doc.afterFlowable = _outline(doc)  # type: ignore[method-assign]
        doc.build(story)


def _outline(doc: SimpleDocTemplate) -> object:
    def after(flowable: object) -> None:
        title = getattr(flowable, "outline", None)
        if title:
            canvas = doc.canv
            canvas.bookmarkPage(title)
            canvas.addOutlineEntry(title, title, level=0)

    return after


def main() -> None:
    # Reproducible output with a fixed, recent creation date (ReportLab honours SOURCE_DATE_EPOCH).
    os.environ.setdefault("SOURCE_DATE_EPOCH", str(EPOCH))
    leads = json.loads(Path(sys.argv[1]).read_text())
    build(leads, Path(sys.argv[2]))


if __name__ == "__main__":
    main()
