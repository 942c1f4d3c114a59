"""How the office samples here were made (run once; the files are committed): real text and tables from
documents in the development corpus, written with python-pptx and openpyxl.

    .venv/bin/python tests/data/office/generate.py /work/dev/corpus

``locked.xlsx`` (the first rows of ``strftime.csv``, password ``sleuth``) was encrypted once with
msoffcrypto-tool 6 (``msoffcrypto.format.ooxml.OOXMLFile(plain).encrypt("sleuth", out)``), which is not a
dependency of sleuth.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from lxml import html
from openpyxl import Workbook
from pptx import Presentation
from pptx.util import Inches, Pt

HERE = Path(__file__).parent


def html_table(page: Path, first_header: str) -> list[list[str]]:
    """The first table of a Python documentation page whose header starts with ``first_header``."""
    root = html.parse(str(page)).getroot()
    for table in root.iter("table"):
        rows = [[" ".join(c.text_content().split()) for c in tr.iter("th", "td")] for tr in table.iter("tr")]
        if rows and rows[0] and rows[0][0] == first_header:
            return rows
    raise SystemExit(f"no table headed {first_header!r} in {page}")


def deck(corpus: Path) -> None:
    """Slides on the R FAQ's 'R Basics' chapter (tests/data/docs/R-FAQ.pdf, GPL-2): titles, bullets, notes,
    and a table slide with the stdtypes comparison operators (Python docs, PSF)."""
    slides = [
        (
            "What is R?",
            [
                "R is a system for statistical computation and graphics.",
                "It consists of a language plus a run-time environment with graphics, a debugger, access to "
                "certain system functions, and the ability to run programs stored in script files.",
                "The design of R has been heavily influenced by two existing languages: S and Scheme.",
            ],
            "R was initially written by Ross Ihaka and Robert Gentleman at the Department of Statistics of "
            "the University of Auckland in Auckland, New Zealand.",
        ),
        (
            "What machines does R run on?",
            [
                "R is being developed for the Unix-like, Windows and Mac families of operating systems.",
                "Support for Mac OS Classic ended with R 1.7.1.",
            ],
            "The current version of R will configure and build under a number of common Unix-like platforms.",
        ),
        (None, ["A slide without a title still has its text."], None),
    ]
    presentation = Presentation()
    presentation.core_properties.title = "R Basics"
    title_slide = presentation.slides.add_slide(presentation.slide_layouts[0])
    title_slide.shapes.title.text = "R Basics"
    title_slide.placeholders[1].text = "From the R FAQ, chapter 2"
    for title, bullets, notes in slides:
        layout = presentation.slide_layouts[1] if title else presentation.slide_layouts[6]
        slide = presentation.slides.add_slide(layout)
        if title:
            slide.shapes.title.text = title
            frame = slide.placeholders[1].text_frame
        else:
            frame = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(8), Inches(4)).text_frame
        for k, text in enumerate(bullets):
            paragraph = frame.paragraphs[0] if k == 0 else frame.add_paragraph()
            paragraph.text = text
        if notes:
            slide.notes_slide.notes_text_frame.text = notes
    rows = html_table(corpus / "html" / "stdtypes.html", "Operation")[:7]
    slide = presentation.slides.add_slide(presentation.slide_layouts[5])
    slide.shapes.title.text = "Comparison operators"
    shape = slide.shapes.add_table(len(rows), len(rows[0]), Inches(0.5), Inches(1.5), Inches(9), Inches(4))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            shape.table.cell(r, c).text = text
            shape.table.cell(r, c).text_frame.paragraphs[0].font.size = Pt(14)
    presentation.save(str(HERE / "r-basics.pptx"))


def workbook(corpus: Path) -> None:
    """Two sheets: the strftime directives of the datetime docs (PSF) as a table, and Wikipedia lead
    sections (CC BY-SA 4.0, via the development corpus) whose long extracts make rows too wide for a table."""
    book = Workbook()
    sheet = book.active
    sheet.title = "strftime"
    for row in html_table(corpus / "html" / "datetime.html", "Directive")[:16]:
        sheet.append(row)
    wiki = json.loads((corpus / "wiki" / "summaries_en-us.json").read_text())
    leads = book.create_sheet("Wikipedia leads")
    leads.append(["Title", "Description", "Topic", "Extract"])
    for entry in list(wiki.values())[:12]:
        leads.append([entry["title"], entry.get("description", ""), entry.get("topic", ""), entry["extract"]])
    book.properties.title = "Reference tables"
    book.save(str(HERE / "reference.xlsx"))
    with (HERE / "strftime.csv").open("w", newline="") as fh:
        csv.writer(fh).writerows(html_table(corpus / "html" / "datetime.html", "Directive")[:16])


if __name__ == "__main__":
    root = Path(sys.argv[1])
    deck(root)
    workbook(root)
