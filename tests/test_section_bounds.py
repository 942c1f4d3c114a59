"""A findings section's bound as a pure function: its best claims, what is always cited beside them, the
overflow of a full section, and nothing else."""

from __future__ import annotations

from sleuth.agent.report import Claim
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.section_bounds import bound_sections, left_out
from sleuth.agent.templates import TemplateLibrary


def _piece(eid: str, *, always_cited: bool = False, backbone: bool = False, pinned: bool = False) -> Evidence:
    return Evidence(
        id=eid,
        kind="corpus",
        chunk_id=f"chunk-{eid}",
        url=None,
        document_id=f"doc-{eid}",
        title=f"Page {eid}",
        section_path=None,
        page=None,
        quote=f"Quote {eid}.",
        backbone=backbone or always_cited,
        always_cited=always_cited,
        pinned=pinned,
    )


def test_a_section_holds_its_answers_what_is_always_cited_and_far_backbone_only_where_there_is_room() -> None:
    """A brief's key findings keep their eight best and hand the rest to its details. The details hold their
    own answers and those handed over, what is always cited beside them (the search as written's backbone,
    an ask's first documents, a reviewer's pin) in the order written, and no backbone of an ask's farther
    documents: the answers fill the section's eight places."""
    brief = TemplateLibrary().load("brief")
    assert brief.section("key_findings").max_claims == 8 and brief.section("details").max_claims == 8
    pieces = {
        **{f"K{i}": _piece(f"K{i}") for i in range(10)},
        **{f"D{i}": _piece(f"D{i}") for i in range(8)},
        "KB": _piece("KB", backbone=True),  # an ask's ninth document, among the key findings' best
        "S1": _piece("S1", always_cited=True),  # the search as written's backbone, far down the details
        "S2": _piece("S2", always_cited=True),
        "A1": _piece("A1", backbone=True),  # an ask's seventh document: backbone, not always cited
        "P1": _piece("P1", pinned=True),
    }
    key = [
        *(Claim(text=f"Key {i}.", evidence_ids=[f"K{i}"]) for i in range(4)),
        Claim(text="Key backbone.", evidence_ids=["KB"]),
        *(Claim(text=f"Key {i}.", evidence_ids=[f"K{i}"]) for i in range(4, 10)),
    ]
    conflict = Claim(text="K0 and D0 disagree.", evidence_ids=["K0", "D0"], kind="conflict")
    details = [
        *(Claim(text=f"Detail {i}.", evidence_ids=[f"D{i}"]) for i in range(4)),
        Claim(text="Backbone far down.", evidence_ids=["S1"]),
        Claim(text="An ask's seventh document.", evidence_ids=["A1"]),
        *(Claim(text=f"Detail {i}.", evidence_ids=[f"D{i}"]) for i in range(4, 7)),
        Claim(text="Backbone, corroborated.", evidence_ids=["D7", "S2"]),
        Claim(text="Pinned.", evidence_ids=["P1"]),
        conflict,
    ]

    bounded = bound_sections(brief, {"key_findings": key, "details": details, "open_questions": []}, pieces)

    assert [c.text for c in bounded["key_findings"]] == [
        *(f"Key {i}." for i in range(4)),
        "Key backbone.",
        *(f"Key {i}." for i in range(4, 7)),
    ]
    assert [c.text for c in bounded["details"]] == [
        *(f"Detail {i}." for i in range(4)),
        "Backbone far down.",
        *(f"Detail {i}." for i in range(4, 7)),
        "Backbone, corroborated.",
        "Pinned.",
        "K0 and D0 disagree.",
        "Key 7.",  # handed over by the key findings: their answers are kept
        "Key 8.",
        "Key 9.",
    ]
    assert bounded["open_questions"] == []
    # The sections given are left as they were.
    assert len(key) == 11 and len(details) == 12
    # What the run's events count as left out: the ask's seventh document only (the three key findings
    # handed to the details are kept there).
    written = {"key_findings": key, "details": details, "open_questions": []}
    assert left_out(written, bounded) == {"key_findings": 0, "details": 1, "open_questions": 0}


def test_far_backbone_fills_the_places_answers_leave() -> None:
    """A technical due diligence's section with two answers takes an ask's farther documents up to its
    bound, in the order written, and no more."""
    template = TemplateLibrary().load("technical_due_diligence")
    spec = next(s for s in template.sections if s.kind == "findings" and s.overflow is None)
    pieces = {
        **{f"D{i}": _piece(f"D{i}") for i in range(2)},
        **{f"A{i}": _piece(f"A{i}", backbone=True) for i in range(spec.max_claims + 3)},
    }
    claims = [
        Claim(text="Answer 0.", evidence_ids=["D0"]),
        *(Claim(text=f"Far {i}.", evidence_ids=[f"A{i}"]) for i in range(spec.max_claims + 3)),
        Claim(text="Answer 1.", evidence_ids=["D1"]),
    ]

    bounded = bound_sections(template, {spec.id: claims}, pieces)

    assert [c.text for c in bounded[spec.id]] == [
        "Answer 0.",
        *(f"Far {i}." for i in range(spec.max_claims - 2)),
        "Answer 1.",
    ]
