"""Small PDFs made on the spot with ReportLab, each showing one thing real documents do."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.pdfgen import canvas
from reportlab.platypus import BaseDocTemplate, Frame, FrameBreak, PageTemplate, Paragraph, Table, TableStyle


def two_column(path: Path) -> Path:
    """A paper-like page: a full-width title, then two columns of text."""
    styles = getSampleStyleSheet()
    width, height = A4
    margin, gutter = 50, 20
    column = (width - 2 * margin - gutter) / 2
    title = Frame(margin, height - 120, width - 2 * margin, 60, id="title")
    left = Frame(margin, 60, column, height - 190, id="left")
    right = Frame(margin + column + gutter, 60, column, height - 190, id="right")
    doc = BaseDocTemplate(str(path), pagesize=A4)
    doc.addPageTemplates([PageTemplate(id="paper", frames=[title, left, right])])

    left_text = " ".join(f"Leftword{i} belongs to the first column of the paper." for i in range(40))
    right_text = " ".join(f"Rightword{i} belongs to the second column of the paper." for i in range(40))
    story = [
        Paragraph("A Study of Column Order", styles["Title"]),
        FrameBreak(),
        Paragraph(left_text, styles["BodyText"]),
        FrameBreak(),
        Paragraph(right_text, styles["BodyText"]),
    ]
    doc.build(story)
    return path


def ruled_table(path: Path) -> Path:
    styles = getSampleStyleSheet()
    doc = BaseDocTemplate(str(path), pagesize=A4)
    doc.addPageTemplates([PageTemplate(id="p", frames=[Frame(60, 60, A4[0] - 120, A4[1] - 120)])])
    data = [
        ["Region", "Revenue", "Growth"],
        ["Europe", "12.5", "3%"],
        ["Asia", "20.1", "7%"],
        ["Americas", "15.0", "4%"],
    ]
    table = Table(data, colWidths=[120, 90, 90])
    table.setStyle(
        TableStyle(
            [("LINEABOVE", (0, 0), (-1, 0), 1.0, "black"), ("LINEBELOW", (0, 0), (-1, 0), 0.5, "black"),
             ("LINEBELOW", (0, -1), (-1, -1), 1.0, "black")]
        )
    )  # fmt: skip
    story = [Paragraph("Quarterly results by region are shown below.", styles["BodyText"]), table]
    doc.build(story)
    return path


def hyphenated(path: Path) -> Path:
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 11)
    lines = [
        "The committee discussed the exam-",
        "ple carefully before the final vote",
        "and adjourned at noon.",
    ]
    for i, text in enumerate(lines):
        c.drawString(72, 700 - 14 * i, text)
    c.save()
    return path


def encrypted(path: Path) -> Path:
    c = canvas.Canvas(str(path), pagesize=A4, encrypt="secret-password")
    c.drawString(72, 700, "Confidential text")
    c.save()
    return path


def image_only(path: Path) -> Path:
    c = canvas.Canvas(str(path), pagesize=A4)
    c.rect(72, 400, 300, 300, fill=1)
    c.showPage()
    c.rect(72, 400, 200, 200, fill=1)
    c.save()
    return path


def contents_without_outline(path: Path) -> Path:
    """A report with a printed table of contents and no bookmarks; its headings are in the body font's size
    (only the contents say they are headings), and a build-log line in bold that must not become one."""
    c = canvas.Canvas(str(path), pagesize=A4)
    entries = [("1 Introduction", 2), ("2 Methods", 2), ("2.1 Sampling plan", 3), ("3 Results", 3)]
    c.setFont("Helvetica-Bold", 16)
    c.drawString(72, 780, "Contents")
    c.setFont("Helvetica", 11)
    for i, (title, page) in enumerate(entries):
        y = 740 - 20 * i
        c.drawString(72, y, title)
        c.drawString(200, y, " ." * 60)
        c.drawRightString(520, y, str(page))
    c.showPage()
    body = "The survey covered every district and the figures were checked twice by the team."
    for page_entries in (entries[:2], entries[2:]):
        y = 760
        for title, _ in page_entries:
            c.setFont("Helvetica-Bold", 11)
            c.drawString(72, y, title)
            y -= 20
            c.setFont("Helvetica", 11)
            for _ in range(4):
                c.drawString(72, y, body)
                y -= 14
            y -= 12
        c.setFont("Helvetica-Bold", 16)
        c.drawString(72, y, "SCons 4.2.0a0 ./src/stroke.os")
        y -= 20
        c.setFont("Helvetica", 11)
        c.drawString(72, y, body)
        c.showPage()
    c.save()
    return path
