"""Property-based tests: generated Markdown of every element type, the chunker's invariants on each."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sleuth.ingest import TokenCounter, chunk_markdown, page_marker
from tests.invariants import check_chunks

WORDS = st.sampled_from(
    [
        *"the of model data table value report market revenue growth 2024 Q3 €12.5m naïve café".split(),
        *"supercalifragilisticexpialidocious x=1 foo_bar() http://example.org/a/b?c=d 東京 数据 分析".split(),
    ]
)


@dataclass
class Doc:
    """Generated Markdown, and for each block marker the section path it must end up under."""

    lines: list[str] = field(default_factory=list)
    expected_path: dict[str, str] = field(default_factory=dict)
    stack: list[tuple[int, str]] = field(default_factory=list)
    count: int = 0

    def marker(self) -> str:
        self.count += 1
        name = f"blk{self.count}z"
        self.expected_path[name] = " > ".join(t for _, t in self.stack)
        return name


def _sentence(draw: st.DrawFn, lo: int = 1, hi: int = 25) -> str:
    words = draw(st.lists(WORDS, min_size=lo, max_size=hi))
    return " ".join(words) + draw(st.sampled_from([".", "!", "?", ",", ";", ""]))


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, Doc]:
    doc = Doc()
    page = 1
    if draw(st.booleans()):
        doc.lines += [page_marker(page), ""]
    for _ in range(draw(st.integers(1, 14))):
        kind = draw(
            st.sampled_from(
                ["atx", "setext", "para", "para", "list", "table", "code", "quote", "page", "long"]
            )
        )
        if kind in ("atx", "setext"):
            level = draw(st.integers(1, 4)) if kind == "atx" else draw(st.integers(1, 2))
            title = f"H{doc.count}{draw(WORDS)}"
            while doc.stack and doc.stack[-1][0] >= level:
                doc.stack.pop()
            doc.stack.append((level, title))
            if kind == "atx":
                doc.lines += ["#" * level + " " + title, ""]
            else:
                doc.lines += [title, "=" if level == 1 else "-", ""]
        elif kind == "para":
            sentences = [_sentence(draw) for _ in range(draw(st.integers(1, 8)))]
            doc.lines += [doc.marker() + " " + " ".join(sentences), ""]
        elif kind == "long":
            # No punctuation at all, or one unbroken "word": forces word and token level cuts.
            if draw(st.booleans()):
                doc.lines += [
                    doc.marker() + " " + " ".join(draw(st.lists(WORDS, min_size=50, max_size=400))),
                    "",
                ]
            else:
                doc.lines += [doc.marker() + " " + "ab" * draw(st.integers(50, 400)), ""]
        elif kind == "list":
            mark = doc.marker()
            items = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 30)), min_size=1, max_size=25))
            depth_ok = 0
            for n, (wanted_depth, size) in enumerate(items):
                depth = min(wanted_depth, depth_ok)
                words = " ".join(draw(st.lists(WORDS, min_size=size, max_size=size)))
                doc.lines.append("  " * depth + f"- {mark if n == 0 else ''} {words}".replace("  ", " ", 1))
                depth_ok = depth + 1
            doc.lines.append("")
        elif kind == "table":
            cols = draw(st.integers(1, 4))
            doc.lines.append("| " + " | ".join([doc.marker()] + [f"col{c}" for c in range(1, cols)]) + " |")
            doc.lines.append("|" + "---|" * cols)
            for _ in range(draw(st.integers(1, 60))):
                cells = [" ".join(draw(st.lists(WORDS, min_size=1, max_size=6))) for _ in range(cols)]
                doc.lines.append("| " + " | ".join(cells) + " |")
            doc.lines.append("")
        elif kind == "code":
            doc.lines.append("```python")
            doc.lines.append(f"# {doc.marker()}")
            for i in range(draw(st.integers(1, 80))):
                doc.lines.append(
                    f"value_{i} = compute({i}, " + " ".join(draw(st.lists(WORDS, max_size=8))) + ")"
                )
            doc.lines += ["```", ""]
        elif kind == "quote":
            doc.lines += ["> " + doc.marker() + " " + _sentence(draw, 5, 60), ""]
        elif kind == "page":
            page += 1
            doc.lines += [page_marker(page), ""]
    return "\n".join(doc.lines), doc


PROPERTY_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY_SETTINGS
@given(documents(), st.integers(min_value=12, max_value=160), st.integers(min_value=0, max_value=40))
def test_invariants_hold(counter: TokenCounter, generated: tuple[str, Doc], limit: int, overlap: int) -> None:
    markdown, doc = generated
    chunks = chunk_markdown(markdown, counter, document_id="gen", max_tokens=limit, overlap_tokens=overlap)
    check_chunks(markdown, chunks, counter, limit)
    # Section paths follow heading ancestry: every block lands under the headings above it.
    for chunk in chunks:
        for marker, path in doc.expected_path.items():
            if marker in chunk.content.split() or f"{marker}" in chunk.content:
                assert chunk.section_path == path, (marker, chunk.section_path, path)
    # Overlap stays within its budget.
    for chunk in chunks:
        assert counter.count(chunk.context_before) <= overlap
        assert counter.count(chunk.context_after) <= overlap


@PROPERTY_SETTINGS
@given(documents(), st.integers(min_value=12, max_value=160))
def test_ids_are_stable(counter: TokenCounter, generated: tuple[str, Doc], limit: int) -> None:
    markdown, _ = generated
    first = chunk_markdown(markdown, counter, document_id="gen", max_tokens=limit)
    again = chunk_markdown(markdown, counter, document_id="gen", max_tokens=limit)
    assert [c.id for c in first] == [c.id for c in again]
    other = chunk_markdown(markdown, counter, document_id="other", max_tokens=limit)
    assert not {c.id for c in first} & {c.id for c in other}
