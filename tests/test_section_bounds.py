"""A findings section's bound as a pure function: its best claims, what is always cited beside them, the
overflow of a full section, and nothing else."""

from __future__ import annotations

from sleuth.agent.report import Claim
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.section_bounds import bound_sections
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


def test_a_section_holds_its_best_claims_and_what_is_always_cited_beside_them() -> None:
    """A brief's key findings keep their eight best and hand the rest to its details; the details hold their
    own eight best besides what is always cited (the search as written's backbone, an ask's first documents,
    a reviewer's pin), in the order written; an ask's far backbone and weak answers beyond the bound go."""
    brief = TemplateLibrary().load("brief")
    assert brief.section("key_findings").max_claims == 8 and brief.section("details").max_claims == 8
    pieces = {
        **{f"K{i}": _piece(f"K{i}") for i in range(10)},
        **{f"D{i}": _piece(f"D{i}") for i in range(12)},
        "S1": _piece("S1", always_cited=True),  # the search as written's backbone, far down the details
        "S2": _piece("S2", always_cited=True),
        "A1": _piece("A1", backbone=True),  # an ask's ninth document: backbone, not always cited
        "P1": _piece("P1", pinned=True),
    }
    key = [Claim(text=f"Key {i}.", evidence_ids=[f"K{i}"]) for i in range(10)]
    conflict = Claim(text="K0 and D0 disagree.", evidence_ids=["K0", "D0"], kind="conflict")
    details = [
        *(Claim(text=f"Detail {i}.", evidence_ids=[f"D{i}"]) for i in range(6)),
        Claim(text="Backbone far down.", evidence_ids=["S1"]),
        *(Claim(text=f"Detail {i}.", evidence_ids=[f"D{i}"]) for i in range(6, 12)),
        Claim(text="An ask's ninth document.", evidence_ids=["A1"]),
        Claim(text="Backbone, corroborated.", evidence_ids=["D11", "S2"]),
        Claim(text="Pinned.", evidence_ids=["P1"]),
        conflict,
    ]

    bounded = bound_sections(brief, {"key_findings": key, "details": details, "open_questions": []}, pieces)

    assert [c.text for c in bounded["key_findings"]] == [f"Key {i}." for i in range(8)]
    assert [c.text for c in bounded["details"]] == [
        *(f"Detail {i}." for i in range(6)),
        "Backbone far down.",
        "Detail 6.",
        "Detail 7.",  # the eighth answer: the rest of the section's own, the spill and the far backbone go
        "Backbone, corroborated.",
        "Pinned.",
        "K0 and D0 disagree.",
    ]
    assert bounded["open_questions"] == []
    # The sections given are left as they were.
    assert len(key) == 10 and len(details) == 17
