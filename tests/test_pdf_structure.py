"""PDF structure on real PDFs: the outline is ground truth, tables are tables, printed contents are typed.

The outline test runs over every committed PDF with bookmarks and, when it is present (``corpus-dev/`` or
``$SLEUTH_DEV_CORPUS``, see ``../shared/corpus/fetch.sh``), over every PDF of the development corpus.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from sleuth.ingest import TokenCounter, chunk_markdown
from sleuth.ingest.convert import accents, convert_file
from sleuth.ingest.convert.ligatures import repair
from sleuth.ingest.convert.pdf_layout import read_outline
from sleuth.ingest.convert.quality import heading_recall
from tests import pdf_fixtures

DOCS = Path(__file__).parent / "data" / "docs"
_DEV = Path(os.environ.get("SLEUTH_DEV_CORPUS", Path(__file__).resolve().parents[1] / "corpus-dev")) / "pdf"
_WITH_OUTLINE = [p for p in sorted(DOCS.glob("*.pdf")) + sorted(_DEV.glob("*.pdf")) if read_outline(p)[1]]


def _headings(markdown: str) -> list[str]:
    return re.findall(r"^#{1,6} (.+)$", markdown, re.M)


@pytest.mark.parametrize("path", _WITH_OUTLINE, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_outline_entry_becomes_a_heading(path: Path) -> None:
    _, outline = read_outline(path)
    result = convert_file(path)
    assert result.details["heading_source"] == "outline"
    assert heading_recall([e.title for e in outline], result.markdown) == 1.0


def test_committed_pdfs_with_an_outline_are_tested() -> None:
    assert {p.name for p in _WITH_OUTLINE} >= {
        "R-FAQ.pdf",
        "ctable.pdf",
        "llncsdoc.pdf",
        "oup-authoring-template.pdf",
    }


def test_a_heading_beside_a_typeset_example_is_not_a_table_cell() -> None:
    # ctable's manual shows LaTeX source beside its output under ruled examples; the section title and the
    # prose that follow were once swallowed by a table spanning the page.
    markdown = convert_file(DOCS / "ctable.pdf").markdown
    assert "## 10.3 notespar, nonotespar" in _headings(markdown) or "10.3 notespar, nonotespar" in _headings(
        markdown
    )
    for line in markdown.splitlines():
        if line.startswith("|"):
            assert "10.3 notespar" not in line
            assert "By default, footnotes in ctable are typeset" not in line


def test_a_title_wrapped_over_two_lines_is_one_heading() -> None:
    markdown = convert_file(DOCS / "oup-authoring-template.pdf").markdown
    assert "This is an example for first level head - section head" in _headings(markdown)


def test_printed_contents_are_a_toc_list_typed_toc(counter: TokenCounter) -> None:
    result = convert_file(DOCS / "ctable.pdf")
    assert "- 10.3 notespar, nonotespar … 8" in result.markdown
    front = result.markdown.split("\n# 1 Introduction", 1)[0]
    assert not re.search(r"(\. ){10}", front), "dot leaders left in running text"
    chunks = list(chunk_markdown(result.markdown, counter, document_id="ctable"))
    toc = [c for c in chunks if c.chunk_type == "toc"]
    assert toc and all(
        "10.3 notespar" not in c.content for c in chunks if c.chunk_type != "toc" and "…" in c.content
    )


def test_without_an_outline_the_printed_contents_find_the_headings(tmp_path: Path) -> None:
    result = convert_file(pdf_fixtures.contents_without_outline(tmp_path / "report.pdf"))
    assert result.details["heading_source"] == "contents"
    headings = _headings(result.markdown)
    assert headings == ["1 Introduction", "2 Methods", "2.1 Sampling plan", "3 Results"]
    assert "## 2.1 Sampling plan" in result.markdown and "# 3 Results" in result.markdown
    assert "SCons 4.2.0a0 ./src/stroke.os" in result.markdown  # kept as text, never a heading


def test_printed_contents_in_two_columns_find_the_headings(tmp_path: Path) -> None:
    result = convert_file(pdf_fixtures.two_column_contents(tmp_path / "guide.pdf"))
    assert result.details["heading_source"] == "contents"
    titles = ["Introduction", "Scope of the guide", "Sampling plan", "Seasonal yields", "Further reading"]
    assert heading_recall(titles, result.markdown) == 1.0
    assert "## I.1. Scope of the guide" in result.markdown
    # The contents page itself reads column by column as a contents list.
    assert "- II.2. Field equipment … 3\n\n- III. Results … 4" in result.markdown
    # The contents page itself reads column by column as a contents list.
    assert "- II.2. Field equipment … 3\n\n- III. Results … 4" in result.markdown
    # The yields table's last column ascends, but beyond the last page: figures, not page numbers.
    assert "| North marsh | 12 | 14 |" in result.markdown


def test_an_index_in_two_columns_is_not_read_as_contents(tmp_path: Path) -> None:
    markdown = convert_file(pdf_fixtures.two_column_index(tmp_path / "manual.pdf")).markdown
    assert "# Concept index" in markdown
    assert "- acid … 3" not in markdown


def test_code_and_path_lines_never_become_headings_from_fonts(tmp_path: Path) -> None:
    from sleuth.ingest.convert import ConvertOptions  # noqa: PLC0415

    path = pdf_fixtures.contents_without_outline(tmp_path / "report.pdf")
    result = convert_file(path, ConvertOptions(use_outline=False))
    assert result.details["heading_source"] == "fonts"
    assert not any("stroke.os" in h for h in _headings(result.markdown))


def test_two_columns_of_prose_are_not_a_table(tmp_path: Path) -> None:
    result = convert_file(pdf_fixtures.two_column(tmp_path / "paper.pdf"))
    assert "|" not in result.markdown


def _tables(markdown: str) -> list[str]:
    return re.findall(r"(?m)^\|.*\|$(?:\n^\|.*\|$)*", markdown)


def test_an_options_list_reads_as_a_list_and_a_captioned_table_stays_a_table(tmp_path: Path) -> None:
    markdown = convert_file(pdf_fixtures.options_list(tmp_path / "options.pdf")).markdown
    assert "- center: Center the table on the page." in markdown
    assert "- sidecap: Put the caption beside the float." in markdown
    tables = _tables(markdown)
    assert len(tables) == 1
    assert "| Setting | Effect |" in tables[0]
    assert "| label | Labels the float for cross references. |" in tables[0]


def test_labels_scattered_over_a_figure_are_not_a_table(tmp_path: Path) -> None:
    markdown = convert_file(pdf_fixtures.figure_labels(tmp_path / "figure.pdf")).markdown
    assert not _tables(markdown)
    assert "Plot region" in markdown
    assert "mar[3]" in markdown


def test_a_ruled_table_as_wide_as_a_two_column_page_stays_whole(tmp_path: Path) -> None:
    markdown = convert_file(pdf_fixtures.wide_table_between_columns(tmp_path / "paper.pdf")).markdown
    tables = _tables(markdown)
    assert len(tables) == 1
    header, *_ = tables[0].splitlines()
    assert "Element 1" in header
    assert "Element 2" in header
    assert "| Gamma | 450 | 902 | 11 | 870 | 1208 | 35 |" in tables[0]


def test_table_cells_the_text_layer_joins_are_cut_at_their_gaps_and_a_caption_is_no_cell(
    tmp_path: Path,
) -> None:
    markdown = convert_file(pdf_fixtures.joined_cells_table(tmp_path / "tools.pdf")).markdown
    tables = _tables(markdown)
    assert len(tables) == 1
    assert "| package | popcon | size | description |" in tables[0]
    assert "| zip | V:47, I:398 | 623 | InfoZIP: DOS archive tool |" in tables[0]
    assert "| tar | V:902, I:999 | 3152 | GNU version of the tar archiver |" in tables[0]
    assert "Table 10.1" not in tables[0]
    assert "\nTable 10.1: List of archive and compression tools\n" in markdown


def test_a_chapter_label_above_its_title_joins_the_heading_with_its_accent_restored(tmp_path: Path) -> None:
    markdown = convert_file(pdf_fixtures.chapter_label_above_title(tmp_path / "tesis.pdf")).markdown
    assert "# Capítulo 1 Acerca de este estilo" in markdown


@pytest.mark.parametrize(
    ("broken", "fixed"),
    [
        ("Cap\u00b4\u0131tulo", "Capítulo"),
        ("Gonz\u00b4 alez", "González"),  # the accent's glyph gap read as a space
        ("espa\u02dcnol", "español"),
        ("na\u00a8\u0131ve", "naïve"),
        ("run `ls` now", "run `ls` now"),  # backquotes are not grave accents
        ("x ` y", "x ` y"),
    ],
)
def test_accents_set_as_separate_glyphs_are_composed(broken: str, fixed: str) -> None:
    assert accents.repair(broken) == fixed


def test_a_grid_drawn_cell_by_cell_is_one_table_and_a_framed_session_is_code(tmp_path: Path) -> None:
    markdown = convert_file(pdf_fixtures.cell_grid_and_framed_session(tmp_path / "tools.pdf")).markdown
    tables = _tables(markdown)
    assert len(tables) == 1
    assert "| package | popcon | size | description |" in tables[0]
    assert "| unzip | V:100, I:772 | 385 | InfoZIP: DOS unarchive tool |" in tables[0]
    # The wrapped cell's second line joins its row.
    assert "| cpio | V:416, I:998 | 1141 | Unix System V style archiver, use with find(1) |" in tables[0]
    assert "```\n$ ls -li foo bar baz\n1449840 -rw-rw-r--" in markdown
    rows = [line for line in markdown.splitlines() if line.startswith("| ")]
    assert len(rows) == len(set(rows))  # no row emitted twice


def test_a_stretched_justified_note_in_a_frame_is_prose_not_a_table(tmp_path: Path) -> None:
    markdown = convert_file(pdf_fixtures.stretched_note(tmp_path / "note.pdf")).markdown
    assert not _tables(markdown)
    assert "Alternatively, you may add users to groups" in markdown


def test_a_pages_only_line_is_its_content_not_a_page_number(tmp_path: Path) -> None:
    markdown = convert_file(pdf_fixtures.single_letter(tmp_path / "example-image-c.pdf")).markdown
    assert markdown.split() == ["<!--", "page:", "1", "-->", "C"]


def test_words_set_by_positioning_keep_their_spaces(tmp_path: Path) -> None:
    from sleuth.ingest.convert.pdf_layout import read_pages  # noqa: PLC0415

    lines = [line.text for line in read_pages(pdf_fixtures.tight_words(tmp_path / "tight.pdf"))[0].lines]
    assert "see Section 2 for the System management." in lines
    # Letter-spaced type: every gap is wide, so the gaps are tracking, not spaces between words.
    assert not any(re.fullmatch(r"(\w ){4,}\w", line) for line in lines)


@pytest.mark.parametrize(
    ("broken", "fixed"),
    [
        ("a\ufffdliation", "affiliation"),
        ("Di\ufffderences", "Differences"),
        ("\ufffdrst", "first"),
        ("e\ufffdcient", "efficient"),
        ("the \ufffdow of work", "the flow of work"),
        ("\ufffd \ufffd", "\ufffd \ufffd"),  # glyphs that are not inside a word stay as they are
    ],
)
def test_ligatures_lost_by_the_text_layer_are_restored(broken: str, fixed: str) -> None:
    assert repair(broken) == fixed
