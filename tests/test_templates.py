"""Templates: every built-in one loads, typed fields become Pydantic models, bad files are one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from sleuth.agent.templates import (
    TemplateError,
    TemplateLibrary,
    UnknownTemplateError,
    fields_model,
    load_template,
)
from sleuth.ingest import InputError
from tests.test_cli import run


def test_builtin_templates_validate_and_cover_the_contract() -> None:
    library = TemplateLibrary()
    assert library.names() == [
        "brief",
        "investment_memo",
        "literature_review",
        "market_brief",
        "technical_due_diligence",
    ]
    for template in library:
        assert template.required_ids, template.name
        for section in template.sections:
            model = section.fields_model()
            if section.fields:
                assert model is not None and set(model.model_fields) == set(section.fields["properties"])
    market = library.load("market_brief")
    assert [(s.id, s.required, s.min_evidence) for s in market.sections] == [
        ("executive_summary", True, 1),
        ("key_findings", True, 1),
        ("market_landscape", False, 1),
        ("data_notes", False, 1),
    ]


def test_fields_become_a_typed_model() -> None:
    model = fields_model(
        "Facts",
        {
            "type": "object",
            "properties": {
                "market_size": {"type": "string"},
                "growth": {"type": "number"},
                "leaders": {"type": "array", "items": {"type": "string"}},
                "trend": {"enum": ["up", "down"]},
            },
        },
    )
    facts = model(market_size="4.2 billion florins", growth=0.18, leaders=["Voltra"], trend="up")
    assert facts.model_dump()["leaders"] == ["Voltra"]
    assert model().model_dump() == {"market_size": None, "growth": None, "leaders": None, "trend": None}
    with pytest.raises(ValidationError):
        model(trend="sideways")
    with pytest.raises(ValueError, match="type 'date'"):
        fields_model("Bad", {"type": "object", "properties": {"when": {"type": "date"}}})


def test_a_user_folder_overrides_and_bad_files_are_named(tmp_path: Path) -> None:
    (tmp_path / "brief.yaml").write_text(
        "title: My brief\nsections:\n  - id: answer\n    title: Answer\n    description: The answer.\n"
    )
    (tmp_path / "dupes.yaml").write_text(
        "title: Dupes\nsections:\n"
        "  - {id: a, title: A, description: x}\n  - {id: a, title: B, description: y}\n"
    )
    library = TemplateLibrary(tmp_path)
    assert library.load("brief").title == "My brief"
    with pytest.raises(
        TemplateError, match=r"dupes.yaml: sections: Value error, duplicate section ids \['a'\]"
    ):
        library.load("dupes")
    with pytest.raises(
        TemplateError, match=r"unknown template 'nope' \(known: brief, dupes, investment_memo"
    ):
        library.load("nope")
    (tmp_path / "spill.yaml").write_text(
        "title: Spill\nsections:\n  - {id: a, title: A, description: x, overflow: nowhere}\n"
    )
    with pytest.raises(TemplateError, match=r"spill.yaml: .*a: overflow must name another findings section"):
        library.load("spill")
    (tmp_path / "bad.yaml").write_text("title: [unclosed\n")
    with pytest.raises(TemplateError, match=r"bad\.yaml: cannot read it at line"):
        load_template(tmp_path / "bad.yaml")


def test_template_names_never_reach_outside_the_folders(tmp_path: Path) -> None:
    user = tmp_path / "mine"
    user.mkdir()
    planted = tmp_path / "planted"
    planted.mkdir()
    (planted / "evil.yaml").write_text("title: Evil\nsections:\n  - {id: a, title: A, description: x}\n")
    library = TemplateLibrary(user)
    for name in (str(planted / "evil"), "../planted/evil", "/etc/passwd", ".hidden", "a/b", "a\\b", ""):
        with pytest.raises(UnknownTemplateError, match=r"unknown template .*a template name is letters"):
            library.load(name)
    assert isinstance(UnknownTemplateError("x"), InputError)  # a client's mistake: 400, a usage error


def test_one_broken_user_template_does_not_hide_the_others(tmp_path: Path) -> None:
    (tmp_path / "binary.yaml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe")
    (tmp_path / "bad.yaml").write_text("title: [unclosed\n")
    with pytest.raises(TemplateError, match=r"binary\.yaml: cannot read it \('utf-8' codec"):
        load_template(tmp_path / "binary.yaml")
    listed = run(["templates"], env={"SLEUTH_TEMPLATES_DIR": str(tmp_path)})
    assert listed.returncode == 1
    assert "market_brief" in listed.stdout and "brief" in listed.stdout
    problems = listed.stderr.strip().splitlines()
    assert len(problems) == 2 and "bad.yaml" in problems[0] and "binary.yaml" in problems[1]
    assert "Traceback" not in listed.stderr
