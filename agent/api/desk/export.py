"""The report as files an analyst can send on: report.md and report.json as the run wrote them, a standalone
HTML page (styles inline, no script, no outside request: it opens from an e-mail attachment as it does here)
and a DOCX document (python-docx, which the install already has through Docling).

The DOCX keeps the report's shape: the question as title, the coverage table, each section with its status and
its Markdown turned into Word paragraphs (bullets, bold, italics, code), citations as ``[n]``, then the
numbered evidence with where each quote stands, then the sources.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from docx import Document
from docx.shared import Pt, RGBColor
from markdown_it.token import Token

from sleuth.agent import is_title, title
from sleuth.agent.api.desk.markdown import parse
from sleuth.agent.api.desk.view import ReportView

DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
_STATUS_COLOUR = {
    "supported": RGBColor(0x1E, 0x6B, 0x34),
    "thin_evidence": RGBColor(0x8A, 0x4B, 0x00),
    "not_found": RGBColor(0xA1, 0x1D, 0x1A),
    "stale": RGBColor(0x55, 0x55, 0x55),
}


def _inline(paragraph: Any, children: Sequence[Token]) -> None:
    """Inline tokens as runs: bold, italics and code kept, links as their text."""
    bold = italic = False
    for token in children:
        kind = token.type
        if kind == "strong_open":
            bold = True
        elif kind == "strong_close":
            bold = False
        elif kind == "em_open":
            italic = True
        elif kind == "em_close":
            italic = False
        elif kind in ("softbreak", "hardbreak"):
            paragraph.add_run(" ")
        elif kind == "code_inline":
            run = paragraph.add_run(token.content)
            run.font.name = "Courier New"
        elif kind in ("text", "html_inline"):
            run = paragraph.add_run(token.content)
            run.bold, run.italic = bold or None, italic or None
        elif kind == "image":
            paragraph.add_run(f"[image: {token.content}]")


def _markdown(doc: Any, text: str) -> None:
    """Block Markdown into the document: paragraphs, bullet and numbered items, headings, code, tables."""
    style: list[str] = []
    tokens = parse(text)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        kind = token.type
        if kind == "bullet_list_open":
            style.append("List Bullet")
        elif kind == "ordered_list_open":
            style.append("List Number")
        elif kind in ("bullet_list_close", "ordered_list_close"):
            style.pop()
        elif kind == "heading_open":
            para = doc.add_paragraph(style="Heading 3")
            _inline(para, tokens[i + 1].children or [])
            i += 2
        elif kind == "inline" and tokens[i - 1].type == "paragraph_open":
            para = doc.add_paragraph(style=style[-1] if style else None)
            _inline(para, token.children or [])
        elif kind in ("fence", "code_block"):
            para = doc.add_paragraph()
            run = para.add_run(token.content.rstrip("\n"))
            run.font.name = "Courier New"
            run.font.size = Pt(9)
        elif kind == "table_open":
            i = _table(doc, tokens, i)
        i += 1


def _table(doc: Any, tokens: list[Token], start: int) -> int:
    rows: list[list[list[Token]]] = []
    i = start
    while tokens[i].type != "table_close":
        if tokens[i].type == "tr_open":
            rows.append([])
        elif tokens[i].type == "inline":
            rows[-1].append(tokens[i].children or [])
        i += 1
    if rows:
        width = max(len(r) for r in rows)
        table = doc.add_table(rows=len(rows), cols=width)
        table.style = "Table Grid"
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                _inline(table.cell(r, c).paragraphs[0], cell)
    return i


def docx_bytes(view: ReportView) -> bytes:
    report = view.report
    doc = Document()
    doc.add_heading(title(report.query), level=0)
    if not is_title(report.query):
        for line in report.query.strip().splitlines():
            doc.add_paragraph(line, style="Quote")
    meta = doc.add_paragraph()
    meta.add_run(f"Template {report.template} · run {report.run_id} · {report.created_at}").italic = True
    table = doc.add_table(rows=1, cols=3)
    table.style = "Table Grid"
    for cell, text in zip(table.rows[0].cells, ("Section", "Status", "Evidence"), strict=True):
        cell.paragraphs[0].add_run(text).bold = True
    for s in view.sections:
        cells = table.add_row().cells
        cells[0].text = s.section.title
        status = cells[1].paragraphs[0].add_run(s.label)
        status.font.color.rgb = _STATUS_COLOUR[s.section.status]
        cells[2].text = str(s.cited)
    for s in view.sections:
        doc.add_heading(s.section.title, level=1)
        status = doc.add_paragraph().add_run(s.label + (" · required" if s.section.required else ""))
        status.italic = True
        status.font.color.rgb = _STATUS_COLOUR[s.section.status]
        if s.section.note:
            doc.add_paragraph(s.section.note)
        if s.section.content.strip():
            _markdown(doc, s.section.content)
        elif not s.section.note:  # the note already says nothing was found
            doc.add_paragraph("No evidence found.")
    doc.add_heading("Evidence", level=1)
    for e in view.evidence:
        para = doc.add_paragraph()
        para.add_run(f"[{e.number}] ").bold = True
        para.add_run(e.where)
        extra = [f"page {e.record.page}"] if e.record.page else []
        extra += [e.record.url] if e.record.url else []
        extra += [e.record.date[:10]] if e.record.date else []
        if extra:
            para.add_run(" · " + " · ".join(extra))
        quote = doc.add_paragraph(style="Quote")
        quote.add_run(" ".join(e.record.quote.split()))
    doc.add_heading("Sources", level=1)
    for src in view.sources:
        para = doc.add_paragraph(style="List Bullet")
        para.add_run(src.title).bold = True
        tail = f" ({src.where})" if src.where and src.where != src.title else ""
        tail += f", {src.date}" if src.date else ""
        tail += f": evidence {', '.join(map(str, src.numbers))}" if src.numbers else ""
        para.add_run(tail)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()
