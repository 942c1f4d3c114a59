"""Conversion with real Docling, real PDFs (committed and generated) and every kind of bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import docx
import pytest

from sleuth.ingest import TokenCounter, chunk_markdown
from sleuth.ingest.convert import ConvertOptions, Format, convert_file
from sleuth.ingest.convert.cache import ConversionCache
from sleuth.ingest.convert.pdf_layout import read_outline
from sleuth.ingest.convert.pool import convert_files
from sleuth.ingest.convert.quality import heading_recall
from sleuth.ingest.sources import SourceError
from tests import pdf_fixtures
from tests.test_cli import run

DOCS = Path(__file__).parent / "data" / "docs"


def headings(markdown: str) -> list[str]:
    return re.findall(r"^#{1,6} (.+)$", markdown, re.M)


def test_pdf_with_outline_keeps_every_bookmark_as_heading() -> None:
    result = convert_file(DOCS / "R-FAQ.pdf")
    _, outline = read_outline(DOCS / "R-FAQ.pdf")
    assert result.converter == "sleuth-pdf-text" and result.details["heading_source"] == "outline"
    assert heading_recall([e.title for e in outline], result.markdown) == 1.0
    assert result.pages == 52
    assert result.markdown.count("<!-- page: ") == 52


def test_a_pdf_without_a_title_in_its_metadata_is_named_by_its_cover() -> None:
    # R's FAQ and OUP's template name nothing in their information dictionaries; their first headings are
    # "1 Introduction" and "Introduction", no names for documents. Their first pages set the title in their
    # largest type. (ctable's dictionary names it: that stays.)
    assert convert_file(DOCS / "R-FAQ.pdf").title == "R FAQ"
    assert convert_file(DOCS / "oup-authoring-template.pdf").title == "Article Title"
    assert convert_file(DOCS / "ctable.pdf").title == "The ctable package"


def test_a_sideways_stamp_or_a_drop_cap_is_no_title(tmp_path: Path) -> None:
    # An archive's identifier set sideways in the margin is the page's tallest line, a drop cap's line its
    # tallest type: neither names the document.
    paper = convert_file(pdf_fixtures.stamped_paper(tmp_path / "preprint.pdf"))
    assert paper.title == "Sparse Attention for Long Documents"
    assert convert_file(pdf_fixtures.drop_cap(tmp_path / "essay.pdf")).title == "Introduction"


def test_texinfo_margin_labels_are_not_read_into_signatures(tmp_path: Path) -> None:
    # libtasn1's manual had "int asn1_der_decoding (asn1 node * element, const void * ider, [Function]" over
    # its parameters' second line, read as a paragraph of its own.
    markdown = convert_file(pdf_fixtures.texinfo_entries(tmp_path / "reference.pdf")).markdown
    assert "[Function]" not in markdown
    assert "int parse_tree (const char * file, node * definitions, char * error_desc)" in markdown
    assert "int delete_tree (node * structure)" in markdown


def test_font_heuristics_recover_headings_without_the_outline() -> None:
    # Judged against the outline the heuristics were not allowed to see.
    _, outline = read_outline(DOCS / "R-FAQ.pdf")
    result = convert_file(DOCS / "R-FAQ.pdf", ConvertOptions(use_outline=False))
    assert result.details["heading_source"] == "fonts"
    assert heading_recall([e.title for e in outline], result.markdown) >= 0.8


def test_pdf_without_outline_gets_numbered_sections_with_levels() -> None:
    result = convert_file(DOCS / "booktabs.pdf")
    found = headings(result.markdown)
    for title in [
        "1 Introduction",
        "2 The layout of formal tables",
        "5 Booktabs and longtables",
        "9 The code",
    ]:
        assert title in found
    assert "## 1.1 A note on terminology" in result.markdown
    assert "## 9.1 Full width rules" in result.markdown


def test_ruled_tables_become_markdown_tables() -> None:
    result = convert_file(DOCS / "booktabs.pdf")
    tables = [b for b in result.markdown.split("\n\n") if b.startswith("| ")]
    assert len(tables) >= 2
    assert any("Gnat" in t and "13.65" in t and "|---|" in t for t in tables)


def test_generated_ruled_table(tmp_path: Path) -> None:
    md = convert_file(pdf_fixtures.ruled_table(tmp_path / "t.pdf")).markdown
    table = next(b for b in md.split("\n\n") if b.startswith("| "))
    rows = table.split("\n")
    assert rows[0] == "| Region | Revenue | Growth |"
    assert "| Asia | 20.1 | 7% |" in rows


def test_page_of_a_known_phrase_survives_into_chunks(counter: TokenCounter) -> None:
    phrase = "R is a system for statistical computation and graphics"
    md = convert_file(DOCS / "R-FAQ.pdf").markdown
    chunks = chunk_markdown(md, counter, document_id="R-FAQ", max_tokens=128)
    hits = [c for c in chunks if phrase in " ".join(c.content.split())]
    assert hits and hits[0].page_start == 7  # the page pdfium reports for the phrase


def test_running_headers_and_page_numbers_are_dropped() -> None:
    md = convert_file(DOCS / "R-FAQ.pdf").markdown
    assert not re.search(r"^\d{1,3}$", md, re.M), "lone page numbers"
    assert md.count("R FAQ") < 10  # the running header appears on every page of the PDF


def test_two_column_reading_order(tmp_path: Path) -> None:
    md = convert_file(pdf_fixtures.two_column(tmp_path / "paper.pdf")).markdown
    assert md.index("A Study of Column Order") < md.index("Leftword0")
    assert md.index("Leftword39") < md.index("Rightword0"), "left column first, then right"
    left_para = next(p for p in md.split("\n\n") if "Leftword0" in p)
    assert "Leftword39" in left_para and "Rightword" not in left_para


def test_hyphenation_is_undone(tmp_path: Path) -> None:
    md = convert_file(pdf_fixtures.hyphenated(tmp_path / "h.pdf")).markdown
    assert "discussed the example carefully before the final vote and adjourned at noon." in md


def test_html_and_docx_go_through_docling(tmp_path: Path) -> None:
    html = convert_file(DOCS / "csv.html")
    assert html.converter == "docling-html" and html.format is Format.HTML
    assert any("CSV File Reading and Writing" in h for h in headings(html.markdown))

    document = docx.Document()
    document.add_heading("Market Brief", level=1)
    document.add_paragraph("Revenue grew in every region.")
    document.add_heading("Numbers", level=2)
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Region", "Revenue"
    table.cell(1, 0).text, table.cell(1, 1).text = "Asia", "20.1"
    document.add_paragraph("first point", style="List Bullet")
    document.save(str(tmp_path / "brief.docx"))
    result = convert_file(tmp_path / "brief.docx")
    assert result.converter == "docling-docx"
    assert "# Market Brief" in result.markdown and "## Numbers" in result.markdown
    assert "| Region" in result.markdown and "- first point" in result.markdown


@pytest.mark.parametrize(
    ("name", "make", "reason"),
    [
        ("empty.pdf", lambda p: p.write_bytes(b""), "empty file"),
        (
            "corrupt.pdf",
            lambda p: p.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 40),
            "corrupt or unreadable PDF",
        ),
        ("locked.pdf", pdf_fixtures.encrypted, "encrypted PDF"),
        ("scan.pdf", pdf_fixtures.image_only, "no text layer"),
        ("fake.pdf", lambda p: p.write_text("just some words, not a PDF"), "content is text, not PDF"),
        ("archive.docx", lambda p: p.write_bytes(b"PK\x03\x04broken"), "corrupt ZIP"),
        ("photo.md", lambda p: p.write_bytes(b"GIF89a" + b"\0" * 100), "image format"),
    ],
)
def test_bad_input_is_one_clear_error(tmp_path: Path, name: str, make: object, reason: str) -> None:
    path = tmp_path / name
    make(path)  # type: ignore[operator]
    with pytest.raises(SourceError) as info:
        convert_file(path)
    assert info.value.path == str(path) and reason in info.value.reason


def test_mislabeled_html_is_converted_as_what_it_is(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    path.write_text("<!DOCTYPE html><html><body><h1>Error page</h1><p>Not found.</p></body></html>")
    result = convert_file(path)
    assert result.format is Format.HTML and result.details["named_as"] == "pdf"
    assert "# Error page" in result.markdown


def test_limits_refuse_huge_files(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="too large"):
        convert_file(DOCS / "R-FAQ.pdf", ConvertOptions(max_bytes=100_000))
    with pytest.raises(SourceError, match="too many pages"):
        convert_file(DOCS / "R-FAQ.pdf", ConvertOptions(max_pages=10))


def test_worker_timeout_and_the_batch_goes_on(tmp_path: Path) -> None:
    good = tmp_path / "ok.md"
    good.write_text("# Fine\n\ntext\n")
    # With OCR on, a PDF may also spend the OCR budget (ocr_timeout); without it, the timeout is all it gets.
    options = ConvertOptions(ocr=False)
    results = list(convert_files([DOCS / "R-FAQ.pdf", good], options, workers=1, timeout=0.05))
    assert isinstance(results[0][1], SourceError) and "timed out" in results[0][1].reason
    assert not isinstance(results[1][1], SourceError) and results[1][1].markdown.startswith("# Fine")


def test_cache_reuses_unchanged_files_and_redoes_changed_ones(tmp_path: Path) -> None:
    cache = ConversionCache(tmp_path / "cache")
    doc = tmp_path / "a.html"
    doc.write_text("<html><body><h1>One</h1><p>first</p></body></html>")
    options = ConvertOptions()
    ((_, first),) = convert_files([doc], options, cache=cache)
    ((_, second),) = convert_files([doc], options, cache=cache)
    assert not isinstance(first, SourceError) and not isinstance(second, SourceError)
    assert not first.cached and second.cached and second.markdown == first.markdown
    doc.write_text("<html><body><h1>Two</h1><p>second</p></body></html>")
    ((_, third),) = convert_files([doc], options, cache=cache)
    assert not isinstance(third, SourceError) and not third.cached and "Two" in third.markdown


def test_cli_convert_and_chunk_a_mixed_folder(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "booktabs.pdf").write_bytes((DOCS / "booktabs.pdf").read_bytes())
    (folder / "csv.html").write_bytes((DOCS / "csv.html").read_bytes())
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\n garbage")
    (folder / "notes.md").write_text("# Notes\n\nplain\n")
    cache = ["--cache-dir", str(tmp_path / "cache")]
    out = tmp_path / "b.md"
    result = run(["convert", str(folder / "booktabs.pdf"), "-o", str(out), *cache])
    assert result.returncode == 0, result.stderr
    assert out.read_text().startswith("<!-- page: 1 -->")
    result = run(["convert", str(folder / "broken.pdf"), *cache])
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0 and "broken.pdf" in result.stderr
    result = run(["convert", str(folder), *cache])
    assert result.returncode == 1 and "docs: a folder; convert takes one file" in result.stderr
    result = run(["chunk", "--jsonl", "--max-tokens", "128", str(folder), *cache])
    assert result.returncode == 1
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 1 and "broken.pdf" in errors[0]
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert {r["document_id"] for r in records} == {"booktabs", "csv", "notes"}
    pdf = [r for r in records if r["document_id"] == "booktabs"]
    assert min(r["page_start"] for r in pdf) == 1 and max(r["page_end"] for r in pdf) == 18
    assert all(r["page_start"] is None for r in records if r["document_id"] == "notes")


def test_the_last_resort_reads_a_pdfs_text_with_pdfium_page_by_page(tmp_path: Path) -> None:
    """What the worker pool falls back to when the structure path's native parser crashes on a PDF."""
    from sleuth.ingest.convert.pdf_plain import plain_pdf  # noqa: PLC0415

    result = plain_pdf(DOCS / "llncsdoc.pdf", "converter process died (exit code -11)")
    assert result.converter == "pdfium-text"
    assert result.details["fallback"] == "converter process died (exit code -11)"
    assert result.pages == 7
    assert result.markdown.count("<!-- page:") == 7
    assert "Springer" in result.markdown
    with pytest.raises(SourceError, match="no text layer either"):
        plain_pdf(pdf_fixtures.image_only(tmp_path / "scan.pdf"), "converter process died")
