"""Documents streamed through windows: same chunks where cuts fall at headings; memory bounded by a window."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.ingest import TokenCounter, chunk_markdown
from sleuth.ingest.chunker import iter_chunks
from sleuth.ingest.tokens import default_tokenizer_dir
from sleuth.ingest.windows import bounded_lines, markdown_windows
from tests.invariants import check_chunks

_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)", re.M)


def _longest_section(markdown: str) -> int:
    starts = [m.start() for m in _HEADING.finditer(markdown)]
    bounds = [0, *starts, len(markdown)]
    return max(b - a for a, b in itertools.pairwise(bounds))


@pytest.mark.parametrize("name", ["pydantic", "charset_normalizer", "python_dotenv", "semchunk"])
def test_cuts_at_headings_change_nothing(
    name: str, real_markdown: dict[str, str], counter: TokenCounter
) -> None:
    markdown = real_markdown[name]
    whole = chunk_markdown(markdown, counter, document_id=name, max_tokens=96, overlap_tokens=16)
    window = _longest_section(markdown) + 1  # every window then ends before a heading
    assert window < len(markdown) // 3, (
        "the document must span several windows for this test to mean anything"
    )
    streamed = list(
        iter_chunks(
            (markdown[i : i + 777] for i in range(0, len(markdown), 777)),
            counter,
            document_id=name,
            max_tokens=96,
            overlap_tokens=16,
            window_chars=window,
        )
    )
    assert [c.model_dump() for c in streamed] == [c.model_dump() for c in whole]


def test_page_numbers_and_sections_carry_across_windows(counter: TokenCounter) -> None:
    body = "Paragraph text that goes on for a while. " * 20
    markdown = "<!-- page: 3 -->\n\n# Manual\n\n## Setup\n\n" + "\n\n".join([body] * 12) + "\n"
    chunks = list(iter_chunks(markdown, counter, max_tokens=64, window_chars=1500))
    assert len(chunks) > 12
    assert {c.section_path for c in chunks} == {"Manual > Setup"}
    assert {c.page_start for c in chunks} == {3}
    check_chunks(markdown, chunks, counter, 64)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                ["# Top", "## Sub", "### Deep", "- item one\n- item two", "| a | b |\n|---|---|\n| 1 | 2 |"]
            ),
            st.sampled_from(["```\n# not a heading\ncode line\n```", "~~~~\ncode\n\n# still code\n~~~~"]),
            st.text(alphabet="abc de.\n", min_size=1, max_size=300),
        ),
        min_size=1,
        max_size=30,
    ),
    st.integers(min_value=20, max_value=400),
)
def test_small_windows_keep_every_invariant(blocks: list[str], window: int) -> None:
    counter = _COUNTER
    markdown = "\n\n".join(blocks) + "\n"
    if not markdown.strip():
        return
    chunks = list(iter_chunks(markdown, counter, max_tokens=32, overlap_tokens=4, window_chars=window))
    check_chunks(markdown, chunks, counter, 32)


_COUNTER = TokenCounter.from_dir(default_tokenizer_dir())


def test_windows_concatenate_to_the_input_and_never_cut_inside_a_fence() -> None:
    text = "intro\n\n```\n" + "# comment in code\n" * 50 + "```\n\n" + "# Real heading\n\nbody\n" * 20
    windows = list(markdown_windows(bounded_lines([text]), soft_chars=40))
    assert "".join(w.text for w in windows) == text
    assert len(windows) > 5
    for window in windows:
        assert window.text.count("```") % 2 == 0  # a fence never straddles a cut
        assert window.reopened_fence is None


def test_structureless_text_is_capped_and_fences_reopened() -> None:
    text = "```\n" + "x = 1\n" * 1000 + "```\n"
    windows = list(markdown_windows(bounded_lines([text]), soft_chars=100, hard_chars=1000))
    assert len(windows) > 3
    assert all(w.reopened_fence == "```\n" for w in windows[1:])
    assert "".join(w.text[len(w.reopened_fence or "") :] for w in windows) == text
    long_line = "word " * 100_000
    pieces = list(bounded_lines([long_line[i : i + 4096] for i in range(0, len(long_line), 4096)], 10_000))
    assert "".join(pieces) == long_line and max(len(p) for p in pieces) <= 10_000


_RSS_SCRIPT = """
import resource, sys
from sleuth.ingest import TokenCounter
from sleuth.ingest.chunker import iter_chunks
from sleuth.ingest.tokens import default_tokenizer_dir
counter = TokenCounter.from_dir(default_tokenizer_dir())
megabytes = int(sys.argv[1])
sentence = "The quarterly figures were reviewed by the board and found to be in order. "
def blocks():  # a file read in blocks: {kind}
    for i in range(megabytes * 1024 * 1024 // (len(sentence) * 100)):
        yield sentence * 100 + {sep!r}
n = sum(1 for _ in iter_chunks(blocks(), counter, max_tokens=256, overlap_tokens=32))
print(n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


@pytest.mark.parametrize(("kind", "sep"), [("paragraphs", "\n\n"), ("one endless line", " ")])
def test_peak_memory_does_not_grow_with_the_file(kind: str, sep: str) -> None:
    peaks = {}
    for megabytes in (2, 12):
        script = _RSS_SCRIPT.format(kind=kind, sep=sep)
        out = subprocess.run(
            [sys.executable, "-c", script, str(megabytes)], capture_output=True, text=True, check=True
        )
        chunks, peak_mb = (int(x) for x in out.stdout.split())
        assert chunks > megabytes * 100
        peaks[megabytes] = peak_mb
    assert peaks[12] < peaks[2] + 40, peaks  # six times the text, not six times the memory
