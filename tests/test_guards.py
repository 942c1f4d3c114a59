"""The grounding guards as pure functions: what they keep, what they drop, what they count."""

from __future__ import annotations

from sleuth.agent.report import Claim
from sleuth.agent.research.claim_text import one_line
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.guards import GuardCounts, guard_claims, verify_quotes
from sleuth.agent.research.text import measures, named_things, numbers, sentence_spans, years

SOURCE = (
    "The Freedonian graphene battery market was worth 4.2 billion florins in 2024.\n"
    "Voltra Energy holds 38 percent of it, according to   the survey."
)


def _evidence(eid: str, quote: str) -> Evidence:
    return Evidence(
        id=eid,
        kind="corpus",
        chunk_id="c1",
        url=None,
        document_id="report",
        title="Report",
        section_path=None,
        page=None,
        quote=quote,
    )


def test_quotes_must_stand_verbatim_in_their_source() -> None:
    counts = GuardCounts()
    items = [
        _evidence("E1", "The Freedonian graphene battery market was worth 4.2 billion florins in 2024."),
        _evidence("E2", "Voltra Energy holds 38 percent of it, according to the survey."),  # spacing differs
        _evidence("E3", "Voltra Energy holds 40 percent of it."),  # not in the source
        _evidence("E4", "anything"),  # its source cannot be read
    ]
    kept = verify_quotes(items, {"E1": SOURCE, "E2": SOURCE, "E3": SOURCE, "E4": None}, counts)
    assert [e.id for e in kept] == ["E1", "E2"]
    assert kept[1].quote in SOURCE  # repaired to the exact slice of the source
    assert counts == {"quote_repaired": 1, "non_verbatim": 1, "source_missing": 1}


def test_claims_need_known_anchors_and_supported_terms() -> None:
    evidence = {
        "E1": _evidence(
            "E1", "The Freedonian graphene battery market was worth 4.2 billion florins in 2024."
        ),
        "E2": _evidence("E2", "Voltra Energy holds 38 percent of the market."),
    }
    claims = [
        Claim(text="The market was worth 4.2 billion florins in 2024.", evidence_ids=["E1"]),
        Claim(text="An unanchored sentence.", evidence_ids=[]),
        Claim(
            text="Voltra Energy holds 38 percent of the market.", evidence_ids=["E9", "E2"]
        ),  # one invented id
        Claim(
            text="The market was worth 9.9 billion florins in 2024.", evidence_ids=["E1"]
        ),  # invented number
        Claim(text="Kessel Cells leads the graphene battery market.", evidence_ids=["E1"]),  # invented name
        Claim(
            text="Voltra Energy holds 38 percent of the market. It will double by 2030.", evidence_ids=["E2"]
        ),
        Claim(
            text="Analysts broadly expect sweeping consolidation, aggressive pricing wars, regulatory "
            "upheaval and unprecedented innovation across every segment of the worldwide graphene sector.",
            evidence_ids=["E1"],
        ),  # filler: says far more than its evidence
        Claim(text="Sources say “worth 4.2 billion florins”.", evidence_ids=["E1"]),  # quoted string present
        Claim(text="Sources say “worth 5 billion florins”.", evidence_ids=["E1"]),  # quoted string invented
    ]
    counts = GuardCounts()
    kept = guard_claims(claims, evidence, counts)
    texts = [c.text for c in kept]
    assert texts == [
        "The market was worth 4.2 billion florins in 2024.",
        "Voltra Energy holds 38 percent of the market.",
        "Voltra Energy holds 38 percent of the market.",  # cut back to its supported sentence
        "Sources say “worth 4.2 billion florins”.",
    ]
    assert kept[1].evidence_ids == ["E2"]
    assert counts["unanchored"] == 1 and counts["unknown_ids"] == 1
    assert counts["unsupported_terms"] == 3 and counts["claims_cut_back"] == 1 and counts["filler"] == 1


def test_text_helpers() -> None:
    assert numbers("Sales of 4,200 units rose 18% to 1.5 million") == {"4200", "18%", "1.5"}
    assert measures("Voltra holds 38 percent; Kessel 12 %") == {"%": {"38", "12"}}
    assert years("from 1998 to 2024, not 12345") == {"1998", "2024"}
    assert named_things("Voltra Energy competes with Kessel Cells in the Republic of Zenda.") == [
        "Voltra Energy",
        "Kessel Cells",
        "Republic of Zenda",
    ]
    assert named_things("The market grew. However it slowed.") == []
    text = "# Title\n\n- First item of a list here.\n- Second item here too.\n\n"
    text += "| a | b |\n|---|---|\n| 1 | 2 |\n"
    kinds = [(s.kind, text[s.start : s.end]) for s in sentence_spans(text)]
    assert kinds == [
        ("sentence", "First item of a list here."),
        ("sentence", "Second item here too."),
        ("row", "| a | b |"),
        ("row", "| 1 | 2 |"),
    ]
    prose = "Dr. Smith arrived at 3 p.m. on Monday. He left early. The U.S. team won."
    assert [prose[s.start : s.end] for s in sentence_spans(prose)] == [
        "Dr. Smith arrived at 3 p.m. on Monday.",
        "He left early.",
        "The U.S. team won.",
    ]


def test_a_quote_of_code_survives_as_its_own_one_line_claim() -> None:
    # Django's multi-db page: a sentence introducing a router class whose docstrings hold quotes. The claim is
    # the sentence, then the code on lines of its own, and the quotes it seems to hold are the source's own.
    code = (
        "And we also want a router that sends all other apps to the primary/replica configuration:\n\n"
        "class PrimaryReplicaRouter:\n"
        "    def db_for_read(self, model, **hints):\n"
        '        """\n        Reads go to a randomly-chosen replica.\n        """\n'
        "        return random.choice(['replica1', 'replica2'])\n"
        "    def db_for_write(self, model, **hints):\n"
        '        """\n        Writes always go to primary.\n        """\n'
        "        return 'primary'"
    )
    evidence = {"E1": Evidence(id="E1", quote=code, document_id="multi-db", chunk_id="c1")}
    counts = GuardCounts()
    claim = Claim(text=one_line(code), evidence_ids=["E1"])
    assert guard_claims([claim], evidence, counts) == [claim] and not counts
    assert claim.text.splitlines()[1:3] == [
        "class PrimaryReplicaRouter:",
        "    def db_for_read(self, model, **hints):",
    ]
    invented = Claim(text='The router says "Reads go to the primary."', evidence_ids=["E1"])
    assert guard_claims([invented], evidence, counts) == [] and counts["unsupported_terms"] == 1
