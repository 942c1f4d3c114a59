"""Report templates: YAML files validated on load, each section's typed fields a Pydantic model at run time.

Built-in templates ship in ``configs/templates/`` (installed with the package); a user's own folder
(``templates_dir``) is searched first, so a user may also override a built-in by name. A template file that
does not validate is one clear error naming the file and the offending field.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, field_validator

from sleuth.ingest.errors import ConfigurationError, InputError

_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_JSON_TYPES: dict[str, type] = {"string": str, "number": float, "integer": int, "boolean": bool}


class TemplateError(ConfigurationError, ValueError):
    """A template that cannot be used; ``str()`` is one line naming it and the reason."""


class UnknownTemplateError(TemplateError, InputError):
    """A template name that names no template (the user's input, not the server's configuration)."""


class SectionSpec(BaseModel):
    """One section of a report: what it covers, how much evidence it needs, how to look for it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="Stable key of the section in report.json (snake_case).")
    title: str = Field(min_length=1)
    description: str = Field(min_length=1, description="What the section answers; seeds its questions.")
    required: bool = True
    min_evidence: int = Field(1, ge=0, le=50, description="Distinct evidence for `supported`.")
    questions: list[str] = Field(default_factory=list, description="Guiding questions ({query} allowed).")
    keywords: list[str] = Field(
        default_factory=list,
        description="Words of the section's aspect (kept for templates that have them; evidence is routed by "
        "the section's purpose, its questions and description, not by shared words).",
    )
    max_claims: int = Field(
        8,
        ge=1,
        le=30,
        description="At most this many answers in the section, besides what is always cited beside them (the "
        "backbone of the search as written and of each ask's first documents, pinned evidence) and those "
        "a full section hands over; an ask's farther documents only fill places the answers leave. A long "
        "request's summary holds one answer per ask.",
    )
    kind: Literal["findings", "summary"] = Field(
        "findings", description="summary: written last, from the other sections' findings."
    )
    default: bool = Field(
        False,
        description="The findings section that takes on-topic evidence no other section's purpose claims "
        '(at most one per template; without one, a findings section asked only the request, "{query}", '
        "with no keywords takes it, else it stays with the summary).",
    )
    overflow: str | None = Field(
        None,
        description="A findings section that takes this section's claims beyond max_claims, the ones that "
        "answer least (a brief's key findings spill into its supporting details), where they are kept.",
    )
    fields: dict[str, Any] | None = Field(None, description="JSON schema (object) of typed facts to extract.")
    cue: bool = Field(
        False,
        description="Evidence routed here must say one of the section's keywords, as a word: a section "
        "whose purpose is a way of speaking (what is unknown, unclear or disputed) takes only quotes "
        "that speak that way, never a fact that shares a word with its question "
        '("smtp_max_unknown_commands is 3").',
    )

    def says_cue(self, text: str) -> bool:
        """Whether ``text`` says one of the keywords as a word (never inside a name: ``max_unknown_x``), and
        says it of what it states: "an unknown hostname", "content of unknown length", "unspecified literal
        values" name a kind of thing, and "when in doubt", "if you're unsure" advise the reader; neither
        says that something is not known ("Whether it helps remains unclear")."""
        return any(
            not _spoken_of_a_thing(text, m.start(), m.end())
            for k in self.keywords
            for m in re.finditer(rf"(?<![\w-]){re.escape(k)}(?![\w-])", text, re.I)
        )

    @field_validator("id")
    @classmethod
    def _snake_case(cls, value: str) -> str:
        if not _ID.match(value):
            raise ValueError(f"{value!r} is not a snake_case id")
        return value

    @field_validator("fields")
    @classmethod
    def _object_schema(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is not None:
            fields_model("check", value)  # raises ValueError with the reason
        return value

    def fields_model(self) -> type[BaseModel] | None:
        """The section's typed facts as a Pydantic model (None when the section declares none)."""
        return fields_model(f"{self.id.title().replace('_', '')}Facts", self.fields) if self.fields else None


class Template(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    title: str = Field(min_length=1)
    description: str = ""
    sections: list[SectionSpec] = Field(min_length=1)
    stale_after_days: int | None = Field(
        None,
        ge=1,
        description="Evidence older than this makes a section stale; null (written out): never stale, as "
        "for a literature review; absent: the stale_days setting.",
    )

    def staleness(self, default: int | None) -> int | None:
        """Days after which this template's evidence is stale (None: never)."""
        return self.stale_after_days if "stale_after_days" in self.model_fields_set else default

    @field_validator("sections")
    @classmethod
    def _unique_ids(cls, value: list[SectionSpec]) -> list[SectionSpec]:
        ids = [s.id for s in value]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate section ids {dupes}")
        defaults = [s.id for s in value if s.default]
        if len(defaults) > 1 or any(s.default and s.kind == "summary" for s in value):
            raise ValueError(f"at most one findings section may be the default (here: {defaults})")
        findings = {s.id for s in value if s.kind == "findings" and s.overflow is None}
        for s in value:
            if s.overflow is not None and (
                s.overflow not in findings or s.overflow == s.id or s.kind != "findings"
            ):
                raise ValueError(
                    f"{s.id}: overflow must name another findings section without an overflow of its own "
                    f"(not {s.overflow!r})"
                )
        return value

    def section(self, section_id: str) -> SectionSpec:
        return next(s for s in self.sections if s.id == section_id)

    @cached_property
    def required_ids(self) -> list[str]:
        return [s.id for s in self.sections if s.required]


#: Words that say something is not known, which also name a kind of thing ("an unknown hostname").
_NOT_KNOWN = frozenset("unknown unspecified undefined unclear uncertain undocumented".split())
#: A word before such a word that makes it a thing's attribute ("an unknown backend", "in undefined ...").
_BEFORE_A_THING = frozenset("a an the any some no of in with for".split())
#: Words after it that go on saying what is not known ("unknown whether", "unclear how", "unknown.").
_GOES_ON = frozenset(
    "and or whether if how why what who when where which to about at as but yet until".split()
)
#: The noun such a word is said of ("the query file is unknown", "options are undefined").
_SAID_OF = re.compile(r"([\w-]+)\s+(?:is|are|was|were)\s+(?:\w+ly\s+)?$", re.I)
#: Things a program names, which it finds "unknown" or "undefined" when it does not recognise them; a fact,
#: a cause or a date is unknown when no one knows it.
_NAMED_THINGS = frozenset(
    "file option command key host hostname user variable name method directive parameter field "
    "flag module package format request header argument function property target policy path id "
    "identifier code character encoding attribute table column element tag server client protocol port "
    "address domain scheme setting keyword macro symbol label extension feature mode signal".split()
)
#: The reader's condition, not the evidence's: "when in doubt", "if you're unsure", "if unclear".
_CONDITION = re.compile(r"\b(?:if|when|unless|whenever)\s+(?:[\w']+\s+){0,2}$", re.I)


def _spoken_of_a_thing(text: str, start: int, end: int) -> bool:
    """Whether the cue at ``text[start:end]`` names a kind of thing or the reader's condition rather than
    saying what is not known (see ``SectionSpec.says_cue``)."""
    if _CONDITION.search(text[:start]):
        return True
    if text[start:end].isupper():
        return True  # a value written in capitals, as a table cell or a constant ("UNKNOWN", "NOT YET")
    word = text[start:end].casefold()
    if word not in _NOT_KNOWN:
        return False
    said_of = _SAID_OF.search(text[max(0, start - 60) : start])
    if said_of is not None and _singular(said_of.group(1).casefold()) in _NAMED_THINGS:
        return True  # "an error message indicating that the query file is unknown": not recognised
    before = re.findall(r"[\w']+", text[:start])[-1:]
    after = re.match(r"\s*(?:(?:and|or)\s+[\w-]+\s+)?([A-Za-z][\w-]*)", text[end:])
    return bool(before and before[0].casefold() in _BEFORE_A_THING) or bool(
        after and after.group(1).casefold() not in _GOES_ON
    )


def _singular(word: str) -> str:
    """A plural noun's singular, as far as the names of things need it ("properties", "addresses")."""
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    return word.removesuffix("s")


def fields_model(name: str, schema: dict[str, Any]) -> type[BaseModel]:
    """A Pydantic model from a small JSON schema: an object of string, number, integer, boolean, enum and
    array-of-those properties. Every field is optional: evidence may support some facts and not others."""
    if schema.get("type") != "object" or not isinstance(schema.get("properties"), dict):
        raise ValueError("fields must be a JSON schema with type: object and properties")
    definitions: dict[str, Any] = {}
    for key, prop in schema["properties"].items():
        if not isinstance(prop, dict) or not _ID.match(str(key)):
            raise ValueError(f"field {key!r}: needs a snake_case name and a schema object")
        annotation = _annotation(str(key), prop)
        definitions[str(key)] = (annotation | None, Field(None, description=prop.get("description")))
    return create_model(name, __config__=ConfigDict(extra="forbid"), **definitions)


def _annotation(key: str, prop: dict[str, Any]) -> Any:
    if "enum" in prop:
        values = prop["enum"]
        if not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values):
            raise ValueError(f"field {key!r}: enum must be a list of strings")
        return Literal[tuple(values)]
    kind = prop.get("type")
    if kind == "array":
        items = prop.get("items")
        if not isinstance(items, dict):
            raise ValueError(f"field {key!r}: an array needs items")
        return list[_annotation(key, items)]  # type: ignore[misc]
    if kind not in _JSON_TYPES:
        raise ValueError(f"field {key!r}: type {kind!r} is not one of {sorted([*_JSON_TYPES, 'array'])}")
    return _JSON_TYPES[kind]


#: A template's name: what its file is called in a template folder, without ``.yaml``.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")


def builtin_dir() -> Path:
    """The templates shipped with sleuth (``configs/templates`` in the repository)."""
    return Path(str(resources.files("sleuth.configs") / "templates"))


class TemplateLibrary:
    """Templates by name: the user's folder first, then the built-in ones."""

    def __init__(self, user_dir: Path | None = None) -> None:
        self.folders = [d for d in (user_dir.expanduser() if user_dir else None, builtin_dir()) if d]

    def names(self) -> list[str]:
        found = {p.stem for folder in self.folders if folder.is_dir() for p in folder.glob("*.yaml")}
        return sorted(name for name in found if _NAME.fullmatch(name))

    def path(self, name: str) -> Path:
        """The file of the template called ``name`` in the template folders. A name is never a path: one that
        could leave the folders (a separator, ``..``, an absolute path, a leading dot) names no template, so a
        client of the server cannot make it read a file of its choosing."""
        if not _NAME.fullmatch(name):
            raise UnknownTemplateError(
                f"unknown template {name[:100]!r}: a template name is letters, digits, '_', '-' and '.' "
                f"(known: {', '.join(self.names()) or 'none'})"
            )
        for folder in self.folders:
            candidate = folder / f"{name}.yaml"
            if candidate.is_file():
                return candidate
        known = ", ".join(self.names()) or "none"
        raise UnknownTemplateError(f"unknown template {name!r} (known: {known})")

    def load(self, name: str) -> Template:
        return load_template(self.path(name))

    def __iter__(self) -> Iterator[Template]:
        for name in self.names():
            yield self.load(name)


def load_template(path: Path) -> Template:
    """Read and validate one template file; every problem is one ``TemplateError`` line."""
    try:
        data = yaml.safe_load(path.read_text())
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or _first_line(exc)
        raise TemplateError(f"template {path}: cannot read it{where} ({problem})") from exc
    if not isinstance(data, dict):
        raise TemplateError(f"template {path}: expected a mapping with name, title and sections")
    data.setdefault("name", path.stem)
    try:
        return Template.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "template"
        raise TemplateError(f"template {path}: {where}: {err['msg']}") from exc


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
