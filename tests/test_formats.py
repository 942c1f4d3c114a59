"""Slides, spreadsheets, scanned PDFs and images: real files, real Docling, openpyxl and Tesseract.

The decks and sheets in tests/data/office were made from real documents (see its generate.py); scans are
rendered at test time from a committed PDF whose text is known. OCR is kept to a few pages.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from sleuth.ingest import TokenCounter, chunk_markdown
from sleuth.ingest.convert import CONVERTIBLE_SUFFIXES, ConvertOptions, Format, convert_bytes, convert_file
from sleuth.ingest.convert.pool import convert_files
from sleuth.ingest.sources import SourceError
from tests.test_cli import run

DATA = Path(__file__).parent / "data"
OFFICE = DATA / "office"
R_FAQ = DATA / "docs" / "R-FAQ.pdf"
#: R FAQ pages 7 and 8: chapter 2 "R Basics", sections 2.1 and 2.2, then 2.3 on the next page.
SCANNED = (7, 8)


def headings(markdown: str) -> list[str]:
    return re.findall(r"^#{1,6} (.+)$", markdown, re.M)


def page_image(number: int, dpi: int = 200, turn: float = 0.0) -> Any:
    """A page of the R FAQ as a scanner would give it: grey pixels, possibly a little turned."""
    import pypdfium2 as pdfium  # noqa: PLC0415
    from PIL import Image  # noqa: PLC0415

    pdf = pdfium.PdfDocument(str(R_FAQ))
    image = pdf[number - 1].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
    pdf.close()
    if turn:
        image = image.rotate(turn, resample=Image.Resampling.BICUBIC, fillcolor=255)
    return image


def scanned_pdf(path: Path) -> Path:
    """Two R FAQ pages as an image-only PDF, the second turned by two degrees."""
    images = [page_image(SCANNED[0]), page_image(SCANNED[1], turn=2.0)]
    images[0].save(path, "PDF", resolution=200, save_all=True, append_images=images[1:])
    return path


def test_a_scanned_pdf_is_read_by_ocr_into_the_same_structure(tmp_path: Path, counter: TokenCounter) -> None:
    result = convert_file(scanned_pdf(tmp_path / "scan.pdf"))
    assert result.format is Format.PDF and result.converter == "sleuth-pdf-ocr"
    assert result.details["ocr_pages"] == [1, 2] and str(result.details["ocr_engine"]).startswith("tesseract")
    assert result.pages == 2 and result.markdown.count("<!-- page: ") == 2
    found = headings(result.markdown)
    assert "2 R Basics" in found[0]
    assert any("What is R?" in h for h in found) and any("What machines does R run on?" in h for h in found)
    assert any("What is the current version of R?" in h for h in found)
    text = " ".join(result.markdown.split())
    assert "R is a system for statistical computation and graphics." in text
    # Page provenance survives into chunks: the turned second page is page 2.
    chunks = chunk_markdown(result.markdown, counter, document_id="scan", max_tokens=128)
    current = next(c for c in chunks if "What is the current version of R?" in c.section_path)
    assert current.page_start == 2


def test_only_the_scanned_page_of_a_born_digital_pdf_is_read_by_ocr(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica-Bold", 16)
    c.drawString(72, 780, "Cover note")
    c.setFont("Helvetica", 11)
    c.drawString(72, 750, "The scanned FAQ page follows on the next page of this file.")
    c.showPage()
    width, height = A4
    c.drawImage(ImageReader(page_image(SCANNED[0], dpi=150)), 0, 0, width, height)
    c.showPage()
    c.save()
    result = convert_file(path)
    assert result.converter == "sleuth-pdf-ocr" and result.details["ocr_pages"] == [2]
    pages = result.markdown.split("<!-- page: 2 -->")
    assert "The scanned FAQ page follows" in pages[0]
    assert "statistical computation and graphics" in pages[1]


def test_ocr_switched_off_refuses_a_scan_with_one_clear_reason(tmp_path: Path) -> None:
    path = scanned_pdf(tmp_path / "scan.pdf")
    with pytest.raises(SourceError, match="switched off") as info:
        convert_file(path, ConvertOptions(ocr=False))
    assert info.value.path == str(path) and "\n" not in str(info.value)


def test_ocr_has_a_time_budget_of_its_own(tmp_path: Path) -> None:
    path = scanned_pdf(tmp_path / "scan.pdf")
    with pytest.raises(SourceError, match=r"OCR timed out after 0\.01s \(0 of 2 scanned pages read\)"):
        convert_file(path, ConvertOptions(ocr_timeout=0.01))


def test_an_image_is_a_one_page_document(tmp_path: Path) -> None:
    path = tmp_path / "page.png"
    page_image(SCANNED[0], dpi=150, turn=-1.5).save(path)
    result = convert_file(path)
    assert result.format is Format.IMAGE and result.converter == "sleuth-image-ocr"
    assert result.pages == 1 and result.markdown.startswith("<!-- page: 1 -->")
    assert "2 R Basics" in headings(result.markdown)[0]
    assert "statistical computation and graphics" in result.markdown
    assert {".png", ".jpg", ".jpeg", ".tif", ".tiff"} <= CONVERTIBLE_SUFFIXES


def test_slides_are_sections_with_notes_tables_and_slide_numbers() -> None:
    result = convert_file(OFFICE / "r-basics.pptx")
    assert result.format is Format.PPTX and result.converter == "docling-pptx"
    assert result.pages == 5 and result.title == "R Basics"
    md = result.markdown
    for number in range(1, 6):
        assert f"<!-- page: {number} -->" in md
    assert headings(md) == [
        "R Basics",
        "What is R?",
        "What machines does R run on?",
        "Slide 4",
        "Comparison operators",
    ]
    slide2 = md.split("<!-- page: 2 -->")[1].split("<!-- page: 3 -->")[0]
    assert "- R is a system for statistical computation and graphics." in slide2
    assert "**Notes:** R was initially written by Ross Ihaka and Robert Gentleman" in slide2
    table = next(b for b in md.split("\n\n") if b.startswith("| Operation"))
    assert len(table.splitlines()) == 2 + 3 and "| not x" in table


def test_sheets_are_sections_with_tables_and_wide_rows_as_records(counter: TokenCounter) -> None:
    result = convert_file(OFFICE / "reference.xlsx")
    assert result.format is Format.XLSX and result.converter == "sleuth-xlsx"
    assert result.pages == 2 and result.title == "Reference tables"
    md = result.markdown
    assert headings(md) == ["strftime", "Wikipedia leads"]
    first, second = md.split("<!-- page: 2 -->")
    assert "| Directive | Meaning | Example | Notes |" in first and "| %Y | Year with century" in first
    records = [line for line in second.splitlines() if line.startswith("- ")]
    assert len(records) == 12 and records[1].startswith(
        "- **Title:** 2001: A Space Odyssey; **Description:**"
    )
    # The chunker splits the sheet's table by rows, the header repeated in every piece.
    chunks = chunk_markdown(md, counter, document_id="reference", max_tokens=96)
    pieces = [c for c in chunks if c.chunk_type == "table"]
    assert len(pieces) >= 2
    assert all("| Directive | Meaning | Example | Notes |\n|---|" in c.content for c in pieces)
    assert {c.page_start for c in pieces} == {1}


def test_csv_is_one_table() -> None:
    result = convert_file(OFFICE / "strftime.csv")
    assert result.format is Format.CSV and result.converter == "sleuth-csv" and result.pages is None
    rows = [line for line in result.markdown.splitlines() if line.startswith("| ")]
    assert rows[0] == "| Directive | Meaning | Example | Notes |" and len(rows) == 16
    weekday = "| %a | Weekday as locale’s abbreviated name. | Sun, Mon, …, Sat (en_US); So, Mo, …, Sa (de_DE)"
    assert f"{weekday} | (1) |" in rows


def _corrupt_pptx(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("ppt/presentation.xml", "<not a presentation")


def _blank_png(path: Path) -> None:
    from PIL import Image  # noqa: PLC0415

    Image.new("L", (1200, 1600), 255).save(path)


@pytest.mark.parametrize(
    ("name", "make", "reason"),
    [
        ("deck.pptx", _corrupt_pptx, "PPTX conversion failed"),
        ("locked.xlsx", lambda p: p.write_bytes((OFFICE / "locked.xlsx").read_bytes()), "encrypted Office"),
        ("blank.png", _blank_png, "no text found in the image"),
        (
            "broken.png",
            lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 100),
            "cannot be read as an image",
        ),
        (
            "legacy.xls",
            lambda p: p.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600),
            "legacy binary",
        ),
        ("photo.md", lambda p: p.write_bytes(b"GIF89a" + b"\0" * 100), "image format"),
        ("sheet.xlsx", lambda p: p.write_text("name,value\n"), "content is text, not XLSX"),
    ],
)
def test_what_cannot_be_read_is_one_clear_error(tmp_path: Path, name: str, make: Any, reason: str) -> None:
    path = tmp_path / name
    make(path)
    with pytest.raises(SourceError) as info:
        convert_file(path)
    assert info.value.path == str(path) and reason in info.value.reason and "\n" not in str(info.value)


def test_office_content_from_the_web_is_named_not_crashed_on() -> None:
    with pytest.raises(SourceError, match="pptx is not a web page format"):
        convert_bytes((OFFICE / "r-basics.pptx").read_bytes(), "https://example.org/files/deck")


def test_a_mixed_folder_loses_nothing_but_what_cannot_be_read(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("r-basics.pptx", "reference.xlsx", "strftime.csv", "locked.xlsx"):
        (folder / name).write_bytes((OFFICE / name).read_bytes())
    _corrupt_pptx(folder / "broken.pptx")
    _blank_png(folder / "blank.png")
    results = dict(convert_files(sorted(folder.iterdir()), ConvertOptions(), workers=2))
    failed = {path.name for path, r in results.items() if isinstance(r, SourceError)}
    assert failed == {"blank.png", "broken.pptx", "locked.xlsx"}
    result = run(["chunk", "--jsonl", "--max-tokens", "128", "--no-cache", str(folder)])
    assert result.returncode == 1
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 3 and all(any(n in e for n in failed) for e in errors)
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert {r["document_id"] for r in records} == {"r-basics", "reference", "strftime"}
    slides = [r for r in records if r["document_id"] == "r-basics"]
    assert {r["page_start"] for r in slides} == {1, 2, 3, 4, 5}


def test_sniffing_looks_inside_office_containers(tmp_path: Path) -> None:
    from sleuth.ingest.convert.sniff import detect_format  # noqa: PLC0415

    for name, fmt in (("r-basics.pptx", Format.PPTX), ("reference.xlsx", Format.XLSX)):
        data = (OFFICE / name).read_bytes()
        renamed = tmp_path / "upload.bin"
        renamed.write_bytes(data)
        assert detect_format(renamed, data[:8192]) is fmt
        assert detect_format(Path("x"), data[:8192], io.BytesIO(data).getvalue()) is fmt
