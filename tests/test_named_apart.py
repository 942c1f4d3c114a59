"""Claims that read alike but stand in different places are told apart by their place."""

from __future__ import annotations

from sleuth.agent.report import Claim
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.named_apart import named_apart

ALPN = (
    "This enables the TLS ALPN extension and advertises the specified protocol list as supported on top of "
    "ALPN."
)


def _evidence(id: str, path: str, quote: str) -> Evidence:
    return Evidence(
        id=id, chunk_id=id, document_id="configuration", title="HAProxy", section_path=path, quote=quote
    )


def test_claims_that_read_alike_are_named_by_their_heading_or_page() -> None:
    evidence = {
        "E1": _evidence("E1", "HAProxy > 5.1. Bind options", f"{ALPN} ALPN is required to enable HTTP/2."),
        "E2": _evidence("E2", "HAProxy > 5.2. Server and default-server options", f"{ALPN} To connect."),
        "E3": _evidence("E3", "HAProxy > 5.1. Bind options", "This enables the NPN TLS extension."),
        "E4": _evidence("E4", "Management Guide > Examples", "Use the stats socket."),
        "E5": _evidence("E5", "Configuration Manual > Examples", "Use the stats socket."),
        "E6": _evidence("E6", "HAProxy > 5.1. Bind options", "Another sentence."),
    }
    bind = Claim(text=f"alpn <protocols> — {ALPN} ALPN is required to enable HTTP/2.", evidence_ids=["E1"])
    server = Claim(text=f"alpn <protocols> — {ALPN} To connect.", evidence_ids=["E2"])
    npn = Claim(text="npn <protocols> — This enables the NPN TLS extension.", evidence_ids=["E3"])
    guide = Claim(text="Use the stats socket.", evidence_ids=["E4"])
    manual = Claim(text="Use the stats socket .", evidence_ids=["E5"])  # (one stop apart: the same words)
    again = Claim(text="npn <protocols> — Another sentence.", evidence_ids=["E6"])  # the same heading
    answer, findings = named_apart([[bind], [bind, server, npn, guide, manual, again]], evidence)
    # The same name under two headings: each named by its heading, without the section's number, the same
    # way in every section (the summary's "As in ... above" compares texts).
    assert answer[0].text.startswith("alpn <protocols> (Bind options) — This enables")
    assert findings[0].text == answer[0].text
    assert findings[1].text.startswith("alpn <protocols> (Server and default-server options) — This enables")
    # Under one heading, nothing tells them apart: as they were; so is a claim that reads like no other.
    assert findings[2] == npn and findings[5] == again
    # The same text under the same heading of two pages: named by the page.
    assert findings[3].text == "Management Guide — Use the stats socket."
    assert findings[4].text == "Configuration Manual — Use the stats socket ."
    assert [c.evidence_ids for c in findings] == [["E1"], ["E2"], ["E3"], ["E4"], ["E5"], ["E6"]]


def test_labels_tell_every_place_apart_and_a_claim_of_two_places_has_none() -> None:
    evidence = {
        "E1": _evidence("E1", "Release notes > 1.2 Changes", "Fixed a crash on reload."),
        "E2": _evidence("E2", "Release notes > 1.3 Changes", "Fixed a crash on reload."),
        "E3": _evidence("E3", "Guide > Set", "timeout sets the settings' timeout."),
        "E4": _evidence("E4", "Guide > Get", "timeout sets the settings' timeout."),
        "E5": _evidence("E5", "Guide > Usage", "timeout sets the settings' timeout."),
    }
    fixed = [Claim(text="Fixed a crash on reload.", evidence_ids=[i]) for i in ("E1", "E2")]
    # (the heading without its number says "Changes" twice: the number is what tells them apart)
    assert [c.text for c in named_apart([fixed], evidence)[0]] == [
        "1.2 Changes — Fixed a crash on reload.",
        "1.3 Changes — Fixed a crash on reload.",
    ]
    timeout = [Claim(text="timeout — The settings' timeout.", evidence_ids=[i]) for i in ("E3", "E4")]
    both = Claim(text="timeout — The settings' timeout.", evidence_ids=["E4", "E5"])  # two places: no label
    (named,) = named_apart([[*timeout, both]], evidence)
    # ("Set" is a word of its own, not the start of "settings")
    assert [c.text for c in named] == [
        "timeout (Set) — The settings' timeout.",
        "timeout (Get) — The settings' timeout.",
        "timeout — The settings' timeout.",
    ]


def test_a_page_is_named_without_its_site() -> None:
    site = "Django 3.2.25 documentation > runserver"
    evidence = {
        "E1": _evidence("E1", f"The staticfiles app — {site}", "Use --insecure."),
        "E2": _evidence("E2", f"django-admin and manage.py — {site}", "Log."),
    }
    claims = [Claim(text="runserver — Use the --insecure option.", evidence_ids=["E1"]),
              Claim(text="runserver — Logging of each request.", evidence_ids=["E2"])]  # fmt: skip
    assert [c.text for c in named_apart([claims], evidence)[0]] == [
        "runserver (The staticfiles app) — Use the --insecure option.",
        "runserver (django-admin and manage.py) — Logging of each request.",
    ]
