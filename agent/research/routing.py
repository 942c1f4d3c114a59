"""Routing: each piece of evidence goes to the one section whose purpose it serves.

A section's purpose is what it asks: its guiding questions about the request's topic ("What are the
limitations, known problems and technical risks of WAL?"), else its title and description. The
cross-encoder reads those questions with each quote (in its context) and scores how well the quote answers
them; a quote goes to the findings section it answers best, when it answers it at all (``route_floor``) and
about as well as it answers the request itself (within ``route_lift``): a fact that is merely on the topic
("the market was worth 4.2 billion") answers the request better than any aspect's question, and is a
general finding, not a risk or a price. A quote that serves no section's purpose goes to the template's
``default`` section (the key findings of a brief, the main findings of a review) where there is one, and
otherwise stays with the summary, which takes the most direct answers. So a claim stands in one findings
section only, by construction, and a risk goes under risks because it is a risk, not because it shares a
word with the section's name. A section whose purpose is a way of speaking (``cue``: what is unknown or
unclear) takes only quotes that say one of its keywords: the cross-encoder reads "smtp_max_unknown_commands
is 3" as an answer to "What is unknown ...?".

A reviewer's pin with sections named goes where the reviewer said.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.plan import section_questions
from sleuth.agent.research.quotes import in_context
from sleuth.agent.research.request import Request
from sleuth.agent.research.synthesis import Group, groups
from sleuth.agent.templates import SectionSpec, Template

#: Cross-encoder scores of (question, texts).
Judge = Callable[[str, list[str]], list[float]]
#: Where evidence that no findings section takes ends up, when the template has no default section.
SUMMARY = "__summary__"


def purposes(section: SectionSpec, request: Request) -> list[str]:
    """What a section asks, as questions about the request's topic (a quote serves it by answering one).
    A section asked only the request itself ("{query}": a due diligence's other findings) has no aspect of
    its own: it takes what no other section does, never what one serves."""
    asked = section_questions(section, request)
    if asked or section.questions:
        return asked
    return [f"{section.title}: {section.description}"]


def _asks_only_the_request(section: SectionSpec) -> bool:
    """A findings section asked nothing but the request ("{query}") and given no keywords serves no aspect:
    in a template without a default section, it takes what no other section does (as a due diligence's
    other findings; else it could never take anything)."""
    return (
        bool(section.questions)
        and all(q.strip() == "{query}" for q in section.questions)
        and not (section.keywords)
    )


def route(
    template: Template,
    evidence: Sequence[Evidence],
    request: Request,
    judge: Judge,
    *,
    route_floor: float,
    route_lift: float,
    cue_floor: float = float("-inf"),
) -> dict[str, list[Evidence]]:
    """Evidence by the id of the one section it goes to (summary sections get what has no findings home)."""
    routed: dict[str, list[Evidence]] = {s.id: [] for s in template.sections}
    findings = [s for s in template.sections if s.kind != "summary"]
    summary = next((s.id for s in template.sections if s.kind == "summary"), None)
    default = next((s.id for s in findings if s.default), None) or next(
        (s.id for s in findings if _asks_only_the_request(s)), None
    )
    fallback = default or summary
    summaries = _summaries(template)
    # Near-duplicates (one fact in two documents) travel together: one claim, one section.
    bundles = groups([e for e in evidence if not e.dropped])
    heads = [g.items[0] for g in bundles]
    contexts = [in_context(e.quote, title=e.title, section_path=e.section_path) for e in heads]
    scores: dict[str, list[float]] = {}
    for section in findings:
        best = [float("-inf")] * len(heads)
        # A section takes only what speaks as it asks (a cue section: its keywords): the rest is not judged
        # for it (a brief's open questions: a third of routing's pairs, and most of them could never go).
        eligible = [k for k, bundle in enumerate(bundles) if _speaks_for(section, bundle, cue_floor)]
        for question in purposes(section, request) if eligible else []:
            for k, score in zip(eligible, judge(question, [contexts[k] for k in eligible]), strict=True):
                best[k] = max(best[k], score)
        scores[section.id] = best
    for k, bundle in enumerate(bundles):
        pins = [s for e in bundle.items if e.pinned for s in e.sections if s in routed and s not in summaries]
        if pins:
            home = pins[0]
        else:
            ranked = sorted(
                (s for s in findings if _speaks_for(s, bundle, cue_floor)), key=lambda s: -scores[s.id][k]
            )
            best_section = ranked[0] if ranked else None
            top = scores[best_section.id][k] if best_section is not None else float("-inf")
            # It serves the section when it answers the section's question, and about as well as it answers
            # the request itself: a fact that is merely on topic answers the request better than any aspect.
            if (
                best_section is not None
                and top >= route_floor
                and top >= bundle.items[0].relevance - route_lift
            ):
                home = best_section.id
            elif fallback is not None:
                home = fallback
            else:
                continue
        routed[home].extend(e.model_copy(update={"sections": [home]}) for e in bundle.items)
    _fill_required(template, routed, bundles, scores, floor=route_floor, lift=route_lift, cue_floor=cue_floor)
    return routed


def _fill_required(
    template: Template,
    routed: dict[str, list[Evidence]],
    bundles: Sequence[Group],
    scores: dict[str, list[float]],
    *,
    floor: float,
    lift: float,
    cue_floor: float,
) -> None:
    """A required findings section left with less than it needs takes bundles that serve its purpose
    (``floor``) about as well as where they are (at most ``lift`` worse) from sections that can
    spare them (they keep their own minimum), those that lose least by the move first: moved, never copied.
    A risk is never moved under "architecture" only because that section was empty: it is not found."""
    home_of = {e.id: sid for sid, items in routed.items() for e in items}
    for section in template.sections:
        if section.kind == "summary" or not section.required:
            continue
        need = max(section.min_evidence, 1) - len({e.document_key for e in routed[section.id]})
        if need <= 0:
            continue

        target = scores[section.id]
        # What moving a bundle here costs: how much better it serves where it is now (in a section with no
        # aspect of its own, other findings: the request itself, which it answers better than any aspect).
        losses = {
            k: _serves(scores[home_of[bundles[k].items[0].id]][k], bundles[k]) - target[k]
            if home_of.get(bundles[k].items[0].id) in scores
            else float("inf")
            for k in range(len(bundles))
        }
        ranked = sorted(
            (
                k
                for k in losses
                if target[k] >= floor and losses[k] <= lift and _speaks_for(section, bundles[k], cue_floor)
            ),
            key=losses.__getitem__,
        )
        for k in ranked:
            if need <= 0:
                break
            bundle = bundles[k]
            origin = home_of.get(bundle.items[0].id)
            if origin is None or origin == section.id:
                continue
            spec = template.section(origin)
            if spec.kind == "summary" or any(e.pinned for e in bundle.items):
                continue
            remaining = [e for e in routed[origin] if e.id not in {i.id for i in bundle.items}]
            if len({e.document_key for e in remaining}) < max(spec.min_evidence, 1):
                continue
            routed[origin] = remaining
            routed[section.id].extend(e.model_copy(update={"sections": [section.id]}) for e in bundle.items)
            for e in bundle.items:
                home_of[e.id] = section.id
            need -= 1


def _serves(score: float, bundle: Group) -> float:
    """How well a bundle serves the section it is in: its score for the section's purpose, or, in a section
    asked nothing of its own (``-inf``), its relevance to the request."""
    return bundle.items[0].relevance if score == float("-inf") else score


def _speaks_for(section: SectionSpec, bundle: Group, cue_floor: float) -> bool:
    """Whether a bundle's quotes speak as the section asks (a ``cue`` section's keywords; any other: yes).

    A cue section's quote must also answer the request (``cue_floor``): the judge reads its keyword as an
    answer to the section's question whatever the quote is about ("it's unclear where the test runner's
    code was at the time", from a history of the project, under a request on flaky tests in CI)."""
    if not section.cue:
        return True
    relevant = max(e.relevance for e in bundle.items) >= cue_floor
    return relevant and section.says_cue(" ".join(e.quote for e in bundle.items))


def _summaries(template: Template) -> set[str]:
    return {s.id for s in template.sections if s.kind == "summary"}
