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


def options_list(path: Path) -> Path:
    """An options list (a short term, then a sentence about it) without rules, and below it a ruled,
    captioned table whose second column holds sentences too: the first reads as a list, the second is a
    table."""
    c = canvas.Canvas(str(path), pagesize=A4)
    options = [
        ("center", "Center the table on the page."),
        ("left", "Align the table with the margin."),
        ("notespar", "Typeset footnotes as one paragraph."),
        ("sidecap", "Put the caption beside the float."),
    ]
    y = 760
    c.setFont("Helvetica", 10)
    c.drawString(72, y, "The package understands the following options.")
    for term, text in options:
        y -= 18
        c.setFont("Courier", 10)
        c.drawString(72, y, term)
        c.setFont("Helvetica", 10)
        c.drawString(160, y, text)
    y -= 40
    c.drawString(72, y, "Table 1. Settings and what they do.")
    y -= 10
    c.line(72, y, 500, y)
    settings = [
        ("Setting", "Effect"),
        ("width", "Sets the width of the whole table."),
        ("pos", "Sets the float position of the table."),
        ("label", "Labels the float for cross references."),
    ]
    for k, (term, text) in enumerate(settings):
        y -= 16
        c.drawString(72, y, term)
        c.drawString(160, y, text)
        if k == 0:
            c.line(72, y - 5, 500, y - 5)
    c.line(72, y - 6, 500, y - 6)
    c.save()
    return path


def figure_labels(path: Path) -> Path:
    """A framed plot: tick labels and callouts inside the frame line up in columns, yet are not a table."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, "Figure 3 shows the regions of a plot and the margins around them.")
    c.rect(60, 400, 460, 330)
    rows: list[list[tuple[float, str]]] = [
        [(70, "3.0"), (450, "mar[3]")],
        [(70, "2.0")],
        [(70, "1.5")],
        [(70, "1.0"), (250, "Plot region")],
        [(70, "0.0")],
        [(70, "-1.0")],
        [(70, "-2.0")],
        [(70, "-3.0"), (170, "-1.5"), (270, "0.0"), (370, "1.5"), (460, "3.0")],
        [(270, "x"), (450, "Margin")],
    ]
    for k, cells in enumerate(rows):
        for x, text in cells:
            c.drawString(x, 700 - 32 * k, text)
    c.drawString(72, 360, "The margins of a plot are set with the function par.")
    c.save()
    return path


def wide_table_between_columns(path: Path) -> Path:
    """A two-column paper page with a ruled table as wide as the page, whose group headers sit one on
    each side of the gutter."""
    styles = getSampleStyleSheet()
    width, height = A4
    margin, gutter = 50, 20
    column = (width - 2 * margin - gutter) / 2
    top = Frame(margin, height - 300, column, 240, id="top-left")
    top_right = Frame(margin + column + gutter, height - 300, column, 240, id="top-right")
    wide = Frame(margin, height - 480, width - 2 * margin, 170, id="wide")
    left = Frame(margin, 60, column, height - 550, id="left")
    right = Frame(margin + column + gutter, 60, column, height - 550, id="right")
    doc = BaseDocTemplate(str(path), pagesize=A4)
    doc.addPageTemplates([PageTemplate(id="paper", frames=[top, top_right, wide, left, right])])
    prose = " ".join(f"Sentence {i} of the running text belongs to a column of the paper." for i in range(14))
    data = [
        ["", "", "Element 1", "", "", "Element 2", ""],
        ["Project", "Energy", "Mean", "Spread", "Energy", "Mean", "Spread"],
        ["Alpha", "990", "1168", "12", "780", "1166", "100"],
        ["Beta", "500", "961", "10", "900", "1268", "40"],
        ["Gamma", "450", "902", "11", "870", "1208", "35"],
    ]
    table = Table(data, colWidths=[(width - 2 * margin) / 7] * 7)
    table.setStyle(
        TableStyle(
            [("LINEABOVE", (0, 0), (-1, 0), 1.0, "black"), ("LINEBELOW", (0, 1), (-1, 1), 0.5, "black"),
             ("LINEBELOW", (0, -1), (-1, -1), 1.0, "black")]
        )
    )  # fmt: skip
    story = [
        Paragraph(prose, styles["BodyText"]),
        FrameBreak(),
        Paragraph(prose, styles["BodyText"]),
        FrameBreak(),
        table,
        FrameBreak(),
        Paragraph(prose, styles["BodyText"]),
        FrameBreak(),
        Paragraph(prose, styles["BodyText"]),
    ]
    doc.build(story)
    return path


def tight_words(path: Path) -> Path:
    """Words set by positioning instead of space characters (as justified TeX lines and many generators
    do), with gaps of 0.2 em: narrower than a space, wider than any kern. Also a letter-spaced heading
    (every gap wide) and a word followed by a kerned full stop."""
    c = canvas.Canvas(str(path), pagesize=A4)

    def tj(x: float, y: float, font: str, size: float, array: str) -> None:
        text = c.beginText(x, y)
        text.setFont(font, size)
        text._code.append(f"{array} TJ")
        c.drawText(text)

    words = "[(see) -200 (Section) -220 (2 for the) -200 (System) -200 (management) -60 (.)]"
    tj(72, 760, "Times-Roman", 10, words)
    tj(72, 740, "Helvetica-Bold", 12, "[(O) -200 (V) -200 (E) -200 (R) -200 (V) -200 (I) -200 (E) -200 (W)]")
    c.save()
    return path


def joined_cells_table(path: Path) -> Path:
    """A ruled table whose cells are placed by positioning inside one text run per row (so the text layer
    reads each row as one line), with its caption under the last row, inside the rules."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 770, "The archive tools below are the ones most systems install.")
    rows = [
        "[(package) -1900 (popcon) -2600 (size) -1400 (description)]",
        "[(zip) -1900 (V:47, I:398) -1200 (623) -1500 (InfoZIP: DOS archive tool)]",
        "[(unzip) -1600 (V:100, I:772) -1200 (385) -1500 (InfoZIP: DOS unarchive tool)]",
        "[(tar) -1900 (V:902, I:999) -1200 (3152) -1000 (GNU version of the tar archiver)]",
    ]
    y = 740
    c.line(72, y + 14, 520, y + 14)
    for k, row in enumerate(rows):
        text = c.beginText(72, y)
        text.setFont("Helvetica", 10)
        text._code.append(f"{row} TJ")
        c.drawText(text)
        if k == 0:
            c.line(72, y - 4, 520, y - 4)
        y -= 16
    c.drawString(150, y - 4, "Table 10.1: List of archive and compression tools")
    c.line(72, y - 10, 520, y - 10)
    c.drawString(72, y - 40, "Each of them reads the formats of the others.")
    c.save()
    return path


def two_column_contents(path: Path) -> Path:
    """A paper without bookmarks whose printed contents are set in two columns under a centred title block,
    and a table of yields whose last column happens to ascend (it is not a table of contents)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica-Bold", 14)
    c.drawCentredString(297, 790, "A Field Guide to Sampling Wetlands and Their Margins")
    c.setFont("Helvetica", 10)
    c.drawCentredString(297, 772, "Regional Survey Office, 12 Harbour Road, Portville")
    left = [
        ("I. Introduction", 2),
        ("I.1. Scope of the guide", 2),
        ("II. Methods", 3),
        ("II.1. Sampling plan", 3),
        ("II.2. Field equipment", 3),
    ]
    right = [
        ("III. Results", 4),
        ("III.1. Seasonal yields", 4),
        ("IV. Discussion", 5),
        ("V. Conclusions", 5),
        ("VI. Further reading", 5),
    ]
    c.setFont("Helvetica-Bold", 10)
    c.drawString(60, 740, "CONTENTS")
    c.setFont("Helvetica", 10)
    for k, ((lt, lp), (rt, rp)) in enumerate(zip(left, right, strict=True)):
        y = 720 - 16 * k
        c.drawString(80 if ".1." in lt or ".2." in lt else 60, y, lt)
        c.drawRightString(280, y, str(lp))
        c.drawString(340 if ".1." in rt else 320, y, rt)
        c.drawRightString(540, y, str(rp))
    c.showPage()
    pages = [[t for t, p in left + right if p == n] for n in (2, 3, 4, 5)]
    for n, titles in enumerate(pages, 2):
        y = 770
        for title in titles:
            c.setFont("Helvetica-Bold", 11)
            c.drawString(60, y, title)
            y -= 20
            c.setFont("Helvetica", 10)
            for line in range(4):
                c.drawString(
                    60,
                    y,
                    f"On page {n}, line {line} of {title.split()[-1]}: each plot was marked and walked.",
                )
                y -= 13
            y -= 14
        if n == 4:
            c.drawString(60, y, "Yields by plot, in grams per square metre:")
            yields = [("North marsh", 12, 14), ("East reeds", 9, 17), ("South pool", 7, 21)]
            for k, (plot, a, b) in enumerate([*yields, ("West bank", 11, 26), ("Centre flats", 8, 30)]):
                yy = y - 16 * (k + 1)
                c.drawString(60, yy, plot)
                c.drawRightString(260, yy, str(a))
                c.drawRightString(360, yy, str(b))
        c.showPage()
    c.save()
    return path


def chapter_label_above_title(path: Path) -> Path:
    """A thesis chapter: a ``Capítulo 1`` line (its accent drawn as a separate glyph, as OT1-encoded TeX
    fonts do) set above the chapter title the outline names."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.bookmarkPage("ch1")
    c.addOutlineEntry("Acerca de este estilo", "ch1", level=0)
    c.setFont("Helvetica", 14)
    c.drawString(72, 760, "Cap\u00b4itulo 1")
    c.setFont("Helvetica-Bold", 20)
    c.drawString(72, 730, "Acerca de este estilo")
    c.setFont("Helvetica", 10)
    c.drawString(72, 700, "Este documento muestra el paquete y su uso en una tesis.")
    c.save()
    return path


def two_column_index(path: Path) -> Path:
    """A back-of-book index in two columns (entries with page numbers, alphabetical, so the numbers jump
    about), under a bookmarked ``Concept index`` heading: an index, not printed contents."""
    c = canvas.Canvas(str(path), pagesize=A4)
    for n in range(1, 4):
        c.setFont("Helvetica", 10)
        c.drawString(72, 760, f"Page {n} of the manual explains sampling step {n} in detail.")
        c.showPage()
    c.bookmarkPage("index")
    c.addOutlineEntry("Concept index", "index", level=0)
    c.setFont("Helvetica-Bold", 16)
    c.drawString(60, 790, "Concept index")
    c.setFont("Helvetica", 10)
    words = ["acid", "basin", "cores", "delta", "estuary", "fen", "grass", "heath", "inlet", "jetty"]
    pages = [3, 1, 2, 1, 3, 2, 1, 3, 2, 1]
    for k, (word, page) in enumerate(zip(words, pages, strict=True)):
        x, y = (60, 760 - 16 * k) if k < 5 else (320, 760 - 16 * (k - 5))
        c.drawString(x, y, f"{word} " + " ." * 12)
        c.drawRightString(x + 220, y, str(page))
    c.save()
    return path


def cell_grid_and_framed_session(path: Path) -> Path:
    """A grid table drawn cell by cell (each column's borders its own segments, as DocBook's PDF tools
    draw them) with a wrapped cell, its rows in two stacked pieces; then a terminal session in a frame."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(60, 790, "The archive tools below are the ones most systems install.")
    columns = [60, 160, 250, 330, 540]
    rows = [
        ["package", "popcon", "size", "description"],
        ["tar", "V:920, I:999", "3144", "the standard archiver"],
        ["cpio", "V:416, I:998", "1141", ["Unix System V style archiver,", "use with find(1)"]],
        ["zip", "V:47, I:398", "623", "InfoZIP: DOS archive tool"],
        ["unzip", "V:100, I:772", "385", "InfoZIP: DOS unarchive tool"],
    ]
    y = 770.0
    for k, row in enumerate(rows):
        height = 30.0 if any(isinstance(cell, list) for cell in row) else 18.0
        gap = 4.0 if k == 3 else 0.0  # the last rows are drawn as a second piece, just below the first
        for left, right, cell in zip(columns[:-1], columns[1:], row, strict=True):
            c.line(left, y - gap, right, y - gap)
            c.line(left, y - height, right, y - height)
            texts = cell if isinstance(cell, list) else [cell]
            for n, text in enumerate(texts):
                c.drawString(left + 4, y - gap - 13 - 12 * n, text)
        y -= height + gap
    c.drawString(60, y - 30, "Table 1: List of archive tools")
    top = y - 60
    c.rect(60, top - 80, 480, 80)
    c.setFont(_mono_font(path.parent), 9)
    # Output columns placed where the terminal put them, as a typesetter positions them.
    session = [
        [(66, "$ ls -li foo bar baz")],
        [(66, "1449840 -rw-rw-r--"), (200, "2 penguin"), (300, "17 Oct 16 21:42 bar")],
        [(66, "1450180 lrwxrwxrwx"), (200, "1 penguin"), (300, "3 Oct 16 21:47 baz -> foo")],
        [(66, "1449840 -rw-rw-r--"), (200, "2 penguin"), (300, "17 Oct 16 21:42 foo")],
    ]
    for n, parts in enumerate(session):
        for x, text in parts:
            c.drawString(x, top - 15 - 15 * n, text)
    c.setFont("Helvetica", 10)
    c.drawString(60, top - 110, "The hard link shares the inode number of the file it names.")
    c.save()
    return path


def _mono_font(folder: Path) -> str:
    """A monospaced font embedded under a name of its own, as real PDFs carry them. (ReportLab's built-in
    Courier is one of the standard 14 fonts, which the text layer reports by resource name, ``F2``.)"""
    import re  # noqa: PLC0415

    import reportlab  # noqa: PLC0415
    from reportlab.pdfbase import pdfmetrics  # noqa: PLC0415

    name = "SleuthMono"
    if name in pdfmetrics.getRegisteredFontNames():
        return name
    fonts = Path(reportlab.__file__).parent / "fonts"
    afm = (fonts / "com_____.afm").read_text(encoding="latin-1")
    renamed = folder / "nimbus-mono.afm"
    renamed.write_text(re.sub(r"^FontName .*$", "FontName NimbusMonoPS-Regular", afm, flags=re.M), "latin-1")
    face = pdfmetrics.EmbeddedType1Face(str(renamed), str(fonts / "com_____.pfb"))
    pdfmetrics.registerTypeFace(face)
    pdfmetrics.registerFont(pdfmetrics.Font(name, face.name, "WinAnsiEncoding"))
    return name


def stretched_note(path: Path) -> Path:
    """A framed note whose justified lines are stretched (every word gap the same, wider than a column gap
    would need to be): prose, not a table."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(60, 790, "Groups can also be given at login time, as the note below explains.")
    c.rect(60, 680, 300, 90)
    c.drawString(66, 750, "Note")
    lines = [
        "[(Alternatively,) -1400 (you) -1400 (may) -1400 (add) -1400 (users) -1400 (to) -1400 (groups)]",
        "[(while) -1450 (they) -1450 (log) -1450 (in,) -1450 (with) -1450 (a) -1450 (module)]",
        "[(of) -1500 (the) -1500 (login) -1500 (stack) -1500 (for) -1500 (that) -1500 (purpose.)]",
    ]
    for n, array in enumerate(lines):
        text = c.beginText(110, 750 - 14 * n)
        text.setFont("Helvetica", 10)
        text._code.append(f"{array} TJ")
        c.drawText(text)
    c.drawString(60, 650, "Group changes take effect at the next login.")
    c.save()
    return path


def single_letter(path: Path) -> Path:
    """A figure exported as a one-page PDF whose only text is one large letter (a roman numeral, too)."""
    c = canvas.Canvas(str(path), pagesize=(200, 200))
    c.setFont("Helvetica-Bold", 96)
    c.drawString(70, 70, "C")
    c.save()
    return path


def _body(c: canvas.Canvas, top: float, lines: int, x: float = 72) -> None:
    c.setFont("Helvetica", 10)
    sentence = "The committee considers the proposal in detail before the vote on the budget of the year"
    for i in range(lines):
        c.drawString(x, top - 13 * i, f"{sentence} {i}.")


def _with_a_page_of_body(c: canvas.Canvas, path: Path) -> Path:
    """Ends the first page, adds a second of body text only (what the body's size is told from), saves."""
    c.showPage()
    _body(c, 780, 50)
    c.showPage()
    c.save()
    return path


def stamped_paper(path: Path) -> Path:
    """A preprint's first page: its title, authors, and the archive's identifier set sideways in the margin
    in larger type than the title; no title in the information dictionary."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setTitle("")
    c.setFont("Times-Bold", 17)
    c.drawString(120, 760, "Sparse Attention for Long Documents")
    c.setFont("Times-Roman", 11)
    c.drawString(200, 735, "Jane Doe and John Roe")
    c.saveState()
    c.translate(30, 250)
    c.rotate(90)
    c.setFont("Times-Roman", 20)
    c.drawString(0, 0, "arXiv:2101.00001v1 [cs.CL] 1 Jan 2021")
    c.restoreState()
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, 650, "1 Introduction")
    _body(c, 600, 30)
    return _with_a_page_of_body(c, path)


def drop_cap(path: Path) -> Path:
    """A first page whose first paragraph opens on a 48-point initial; no title anywhere."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setTitle("")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, 760, "Introduction")
    c.setFont("Times-Bold", 48)
    c.drawString(72, 700, "T")
    _body(c, 720, 40, x=110)
    return _with_a_page_of_body(c, path)


def texinfo_entries(path: Path) -> Path:
    """A Texinfo manual's function reference as its PDFs set it: each entry's signature in the left column,
    running on to an indented second line when long, the entry's kind ("[Function]") in the right margin
    on its first line, the description indented below."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setTitle("Library reference")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, 780, "4 Function reference")
    y = 750.0
    entries = [
        ("int parse_tree (const char * file, node * definitions,", "char * error_desc)", "Parses the file."),
        ("int delete_tree (node * structure)", None, "Deletes the structure and sets it to NULL."),
    ]
    for first, second, description in entries:
        c.setFont("Courier", 10)
        c.drawString(72, y, first)
        c.setFont("Times-Roman", 10)
        c.drawString(470, y, "[Function]")
        if second:
            y -= 12
            c.setFont("Courier", 10)
            c.drawString(100, y, second)
        y -= 12
        c.setFont("Times-Roman", 10)
        c.drawString(100, y, description)
        y -= 24
    _body(c, y - 20, 20)
    return _with_a_page_of_body(c, path)
