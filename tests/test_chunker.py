"""The chunker on specific structures, pathological input and real Markdown."""

from __future__ import annotations

import pytest

from sleuth.ingest import TokenCounter, chunk_markdown, document_tree, page_marker
from tests.invariants import check_chunks


def test_overlap_stays_inside_its_section(counter: TokenCounter) -> None:
    # The design note's example: context never crosses into a following section of the same or higher level.
    body_a = " ".join(f"Alpha sentence number {i} talks about apples." for i in range(30))
    body_b = " ".join(f"Beta sentence number {i} talks about bananas." for i in range(30))
    md = f"# Header A\n\n{body_a}\n\n# Header B\n\n{body_b}\n"
    chunks = chunk_markdown(md, counter, max_tokens=64, overlap_tokens=20)
    check_chunks(md, chunks, counter, 64)
    in_a = [c for c in chunks if c.section_path == "Header A"]
    in_b = [c for c in chunks if c.section_path == "Header B"]
    assert len(in_a) > 1 and len(in_b) > 1
    assert in_a[-1].context_after == "", "the last chunk of A must not look into B"
    assert in_b[0].context_before == "", "the first chunk of B must not look back into A"
    assert all("bananas" not in c.context_after for c in in_a)
    # Inside a section, neighbours do overlap, taken verbatim from the neighbour's edge.
    assert in_a[0].context_after and in_a[1].content.startswith(in_a[0].context_after)
    assert in_a[1].context_before and in_a[0].content.endswith(in_a[1].context_before)


def test_context_may_descend_into_subsections(counter: TokenCounter) -> None:
    md = "# A\n\n" + "Intro words here. " * 40 + "\n\n## A.1\n\nDetail of A one.\n"
    chunks = chunk_markdown(md, counter, max_tokens=48, overlap_tokens=8)
    last_of_a = [c for c in chunks if c.section_path == "A"][-1]
    assert "A.1" in last_of_a.context_after


def test_setext_and_atx_headings_build_the_path(counter: TokenCounter) -> None:
    md = "Title\n=====\n\nIntro.\n\nPart\n----\n\nBody.\n\n### Deep\n\nDeeper text.\n\nNext\n====\n\nEnd.\n"
    chunks = chunk_markdown(md, counter, max_tokens=64)
    paths = {c.content.split()[-1]: c.section_path for c in chunks}
    assert paths["Intro."] == "Title"
    assert paths["Body."] == "Title > Part"
    assert paths["text."] == "Title > Part > Deep"
    assert paths["End."] == "Next"
    deep = next(c for c in chunks if "Deeper" in c.content)
    assert deep.parent_section == "Deep" and deep.section_level == 3


def test_heading_only_section_leads_into_its_subsection(counter: TokenCounter) -> None:
    chunks = chunk_markdown("# Guide\n\n## Install\n\nRun pip.\n", counter, max_tokens=64)
    assert len(chunks) == 1
    assert chunks[0].content == "# Guide\n\n## Install\n\nRun pip."
    assert chunks[0].section_path == "Guide > Install"


def test_small_neighbours_merge_but_types_stay_apart(counter: TokenCounter) -> None:
    # A tiny list or code block is read with the prose around it (one thing to find, not two tiny chunks);
    # tables of more than one record stand alone, and code or lists of any size keep their type.
    md = "# S\n\nOne.\n\nTwo.\n\n- a\n- b\n\n| x |\n|---|\n| 1 |\n| 2 |\n\n```\ncode\n```\n\nThree.\n"
    chunks = chunk_markdown(md, counter, max_tokens=128)
    assert [c.chunk_type for c in chunks] == ["text", "table", "text"]
    assert chunks[0].content == "# S\n\nOne.\n\nTwo.\n\n- a\n- b"
    assert chunks[2].content == "```\ncode\n```\n\nThree."
    # A table of one record (Exim's option tables) reads with the description after it, and joins the
    # prose before it only when that description fits too.
    record = "| server_prompts | Use: plaintext | Type: string list | Default: unset |\n|---|---|---|---|"
    about = "The contents of this option must be a colon-separated list of prompt strings."
    one = chunk_markdown(f"# S\n\nIntro.\n\n{record}\n\n{about}\n", counter, max_tokens=128)
    assert [c.chunk_type for c in one] == ["text"] and record in one[0].content and about in one[0].content
    filler = " ".join(["Some words of prose here."] * 16)
    apart = chunk_markdown(f"# S\n\n{filler}\n\n{record}\n\n{about}\n", counter, max_tokens=128)
    assert apart[-1].content == f"{record}\n\n{about}"
    # So does a term line over its description (a manual page's "-q", HAProxy's commands); a title does not.
    described = "Attempt to deliver all queued mail. This is implemented by executing the postqueue command."
    longer = " ".join(["Some words of prose here."] * 19)
    term = chunk_markdown(f"# S\n\n{longer}\n\n-q\n\n{described}\n", counter, max_tokens=128)
    assert term[-1].content == f"-q\n\n{described}"
    titled = chunk_markdown(f"# S\n\n{longer}\n\nDelivery\n\n{described}\n", counter, max_tokens=128)
    assert titled[-1].content == described
    code = "```\n" + "\n".join(f"run step {i} --with-option value{i}" for i in range(12)) + "\n```"
    items = "\n".join(f"- item number {i} of the list" for i in range(12))
    bigger = chunk_markdown(f"# S\n\nIntro.\n\n{code}\n\n{items}\n\nOutro.\n", counter, max_tokens=128)
    assert [c.chunk_type for c in bigger] == ["text", "code", "list", "text"]


def test_option_lists_do_not_become_dozens_of_tiny_chunks(counter: TokenCounter) -> None:
    # As PDF manuals come out: each option a one-line code block followed by its description.
    md = "# Options\n\n" + "\n\n".join(
        f"```\n--option-{i}\n```\n\nTurns feature {i} on for the current session." for i in range(20)
    )
    chunks = chunk_markdown(md, counter, max_tokens=128)
    assert len(chunks) <= 4 and all(c.chunk_type == "text" for c in chunks)


def test_page_markers_fill_pages_and_leave_content(counter: TokenCounter) -> None:
    md = f"{page_marker(3)}\n\n# T\n\nOn page three.\n\n{page_marker(4)}\n\nOn page four.\n"
    chunks = chunk_markdown(md, counter, max_tokens=8)
    assert all("<!--" not in c.content for c in chunks)
    pages = {c.content.split()[-1]: (c.page_start, c.page_end) for c in chunks}
    assert pages["three."] == (3, 3)
    assert pages["four."] == (4, 4)
    merged = chunk_markdown(md, counter, max_tokens=64)
    assert (merged[0].page_start, merged[0].page_end) == (3, 4)


def test_long_unpunctuated_sentence(counter: TokenCounter) -> None:
    md = " ".join(f"word{i % 97}" for i in range(3000))
    chunks = chunk_markdown(md, counter, max_tokens=128)
    check_chunks(md, chunks, counter, 128)
    assert len(chunks) > 10
    assert chunks[0].split_sequence == f"1/{len(chunks)}"


def test_one_long_line_without_spaces(counter: TokenCounter) -> None:
    md = "Intro.\n\n" + "https://example.org/" + "a1b2c3" * 330 + "\n\n```\n" + "x" * 2000 + "\n```\n"
    chunks = chunk_markdown(md, counter, max_tokens=128)
    check_chunks(md, chunks, counter, 128)


def test_table_of_300_rows_repeats_its_header(counter: TokenCounter) -> None:
    rows = "\n".join(f"| {i} | item {i} | {i * 3.5:.1f} |" for i in range(300))
    md = f"## Prices\n\n| id | name | price |\n|---:|:-----|------|\n{rows}\n"
    chunks = chunk_markdown(md, counter, max_tokens=128)
    check_chunks(md, chunks, counter, 128)
    tables = [c for c in chunks if c.chunk_type == "table"]
    assert len(tables) > 5
    assert all(c.content.split("\n")[-1].startswith("| ") for c in tables)
    for chunk in tables[1:]:
        assert chunk.content.startswith("| id | name | price |\n|---:|:-----|------|\n| ")
    assert tables[0].content.startswith("## Prices"), "the heading leads into the first piece"


def test_code_block_of_400_lines_is_split_by_lines_with_fences(counter: TokenCounter) -> None:
    code = "\n".join(f"    result_{i} = compute(alpha={i}, beta='{i * 7}')" for i in range(400))
    md = f"```python\ndef main():\n{code}\n```\n"
    chunks = chunk_markdown(md, counter, max_tokens=128)
    check_chunks(md, chunks, counter, 128)
    assert len(chunks) > 10
    for chunk in chunks:
        lines = chunk.content.split("\n")
        assert lines[0] == "```python" and lines[-1] == "```"
        assert all(line.startswith("    result_") for line in lines[1:-1] if "def main" not in line)


def test_deeply_nested_list_keeps_children_with_parents(counter: TokenCounter) -> None:
    lines = []
    for i in range(40):
        lines.append(f"- item {i} with some words")
        lines.extend(f"{'  ' * d}- child {i}.{d} nested at depth {d}" for d in range(1, 6))
    md = "\n".join(lines) + "\n"
    chunks = chunk_markdown(md, counter, max_tokens=96)
    check_chunks(md, chunks, counter, 96)
    assert all(c.chunk_type == "list" for c in chunks)
    for chunk in chunks:  # every piece starts at a top-level item and keeps its whole subtree
        assert chunk.content.startswith("- item ")
        assert chunk.content.count("- item ") * 6 == chunk.content.count("- ")


def test_cjk_text(counter: TokenCounter) -> None:
    md = "# 概要\n\n" + "東京は日本の首都であり、世界最大の都市圏の一つです。" * 60 + "\n"
    chunks = chunk_markdown(md, counter, max_tokens=64)
    check_chunks(md, chunks, counter, 64)
    assert all(c.section_path == "概要" for c in chunks)


def test_link_reference_definitions_are_not_lost(counter: TokenCounter) -> None:
    md = "See [the docs][d].\n\n[d]: https://example.org/docs\n\nEnd.\n"
    chunks = chunk_markdown(md, counter, max_tokens=64)
    check_chunks(md, chunks, counter, 64)
    assert "https://example.org/docs" in chunks[0].content


def test_empty_and_blank_documents_give_no_chunks(counter: TokenCounter) -> None:
    assert chunk_markdown("", counter) == []
    assert chunk_markdown(" \n\n\t\n", counter) == []
    assert chunk_markdown(page_marker(1) + "\n", counter) == []


def test_ids_depend_on_document_and_content(counter: TokenCounter) -> None:
    md = "# A\n\nSame.\n\n# B\n\nSame.\n\n# A\n\nSame.\n"
    ids = [c.id for c in chunk_markdown(md, counter, document_id="doc")]
    assert len(set(ids)) == 3
    assert ids == [c.id for c in chunk_markdown(md, counter, document_id="doc")]
    edited = md.replace("# B\n\nSame.", "# B\n\nChanged.")
    new_ids = [c.id for c in chunk_markdown(edited, counter, document_id="doc")]
    assert new_ids[0] == ids[0] and new_ids[1] != ids[1]


def test_invalid_limits_are_refused(counter: TokenCounter) -> None:
    with pytest.raises(ValueError, match="max_tokens"):
        chunk_markdown("text", counter, max_tokens=0)
    with pytest.raises(ValueError, match="overlap_tokens"):
        chunk_markdown("text", counter, overlap_tokens=-1)


def test_tree_shape() -> None:
    md = "Before.\n\n# A\n\n- x\n  - y\n\n| h | i |\n|---|---|\n| 1 | 2 |\n\n## B\n\n```sh\nls\n```\n"
    tree = document_tree(md).model_dump()
    assert tree["level"] == 0 and tree["heading"] is None
    assert tree["content_elements"][0]["type"] == "paragraph"
    a = tree["subsections"][0]
    assert (a["level"], a["heading"]) == (1, "A")
    listing, table = a["content_elements"]
    assert listing["items"][0]["children"][0]["text"] == "- y"
    assert table["header"] == ["h", "i"] and table["rows"] == [["1", "2"]]
    b = a["subsections"][0]
    assert b["heading"] == "B" and b["content_elements"][0]["language"] == "sh"


@pytest.mark.parametrize("limit", [32, 128, 512])
def test_real_markdown(counter: TokenCounter, real_markdown: dict[str, str], limit: int) -> None:
    assert len(real_markdown) >= 5
    for name, md in real_markdown.items():
        chunks = chunk_markdown(md, counter, document_id=name, max_tokens=limit, overlap_tokens=16)
        check_chunks(md, chunks, counter, limit)
        types = {c.chunk_type for c in chunks}
        assert "text" in types, name


def test_a_table_with_a_padded_rule_is_split_between_rows(counter: TokenCounter) -> None:
    # Docling pads a table's rule to its columns' width: hundreds of dashes, a token a dash. Repeated as it
    # is, that header left no room for rows and the table was cut as text, rows cut in two.
    wide = 120
    rows = "\n".join(
        f"| stmt-{i:<{wide}} | Sets limit number {i} of the server. | server |" for i in range(60)
    )
    rule = f"|{'-' * (wide + 7)}|{'-' * 40}|{'-' * 8}|"
    md = f"## Statements\n\n| Statement{' ' * (wide - 2)} | Description | Tags |\n{rule}\n{rows}\n"
    chunks = chunk_markdown(md, counter, max_tokens=256)
    check_chunks(md, chunks, counter, 256)
    tables = [c for c in chunks if c.chunk_type == "table"]
    assert len(tables) > 1
    for chunk in tables:
        lines = [line for line in chunk.content.split("\n") if not line.startswith("#") and line.strip()]
        assert lines[1] == "|---|---|---|"
        assert all(line.startswith("| ") and line.endswith(" |") for line in lines[2:])  # whole rows only
