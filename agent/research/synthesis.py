"""Writing sections from evidence. Without an LLM (``ExtractiveSynthesizer``) every claim is a quote.

Per findings section: the evidence routed to it, best first (pinned first of all, then the backbone of the
request's own search, then by how well each quote answers its question), near-duplicates merged into one
claim that cites them all (the same fact in two documents is one claim with two anchors), distinct documents
before second quotes from one document: every piece of backbone evidence (a report never knows less than a
search) and ``max_claims`` claims besides, shown by how well each answers. Numbers that disagree across
documents about the same thing become a conflict claim citing both sides.

Summary sections are written once, last, from what the findings sections say (``summarize``): the most
direct answers to the request first, then the evidence no findings section took.

The LLM synthesizer (``sleuth.agent.llm.steps``) implements the same ``Synthesizer`` protocol for findings
sections; whatever writes the text, the guards run afterwards, and the summary is written from the guarded
claims either way.

A claim's text is its quote as one line (``claim_text``), named first by the heading that says what it is
about when the quote does not (``claim_names``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from sleuth.agent.report import Claim
from sleuth.agent.research.asked_entry import in_entry
from sleuth.agent.research.claim_names import heading_of, person_named, pointed_at
from sleuth.agent.research.claim_text import OVERLAP_WORDS, SENTENCE_BREAK, one_line
from sleuth.agent.research.code_lines import INTRO_WORDS
from sleuth.agent.research.evidence import ASIDE_ORIGINS, Evidence
from sleuth.agent.research.history import asks_about_changes, is_history, release_of
from sleuth.agent.research.request import Request
from sleuth.agent.research.text import (
    measures,
    named_things,
    numbers,
    term_set,
    years,
)
from sleuth.agent.templates import SectionSpec, Template

#: Two quotes state the same thing when the shorter shares this much of its content words with the longer
#: and its numbers are among the longer's (the longer may add a detail: "according to a survey of 40").
DUPLICATE_SHARE = 0.75
#: Two quotes from different documents about the same thing: this many shared content words, and half of
#: the shorter quote's words.
CONFLICT_SHARED = 3
#: What a document's quote loses (cross-encoder logits) for each quote of that document already chosen.
DOCUMENT_REPEAT = 2.0
#: Each further document stating a fact multiplies its weight by this.
CORROBORATION = 1.15
#: Change-log claims a section answers with at most, when the request does not ask what changed.
HISTORY_CLAIMS = 2


class Synthesizer(Protocol):
    def write(
        self, template: Template, routed: Mapping[str, Sequence[Evidence]], request: Request
    ) -> dict[str, list[Claim]]:
        """Claims of every findings section, from the evidence routed to it."""
        ...


@dataclass
class Group:
    """Quotes that state one thing; the first is the best and gives the claim its text."""

    items: list[Evidence]
    terms: frozenset[str]
    #: What the group is chosen by (pinned and backbone groups first).
    score: float
    documents: set[str] = field(default_factory=set)
    #: How well it answers (the best quote's judge score, raised by corroboration): what it is shown by.
    weight: float = 0.0

    @property
    def ids(self) -> list[str]:
        return _cited(self.items)

    @property
    def backbone(self) -> bool:
        return any(e.backbone for e in self.items)


class ExtractiveSynthesizer:
    def write(
        self, template: Template, routed: Mapping[str, Sequence[Evidence]], request: Request
    ) -> dict[str, list[Claim]]:
        claims: dict[str, list[Claim]] = {}
        history_last = not asks_about_changes(request.text)
        for section in template.sections:
            if section.kind == "summary":
                continue
            candidates = groups(routed.get(section.id, []), section=section.id)
            picked = select(candidates, section.max_claims, history_last=history_last)
            claims[section.id] = [*map(claim_of, picked), *conflicts(picked, candidates)]
        return claims


def summarize(
    section: SectionSpec,
    findings: Mapping[str, Sequence[Claim]],
    own: Sequence[Evidence],
    evidence: Mapping[str, Evidence],
    *,
    asks: Sequence[str] = (),
    floor: float = float("-inf"),
    history_last: bool = False,
    answers: Mapping[str, Mapping[str, float]] | None = None,
    entry: str | None = None,
    first_page: int | None = None,
) -> list[Claim]:
    """A summary section's claims: the evidence routed to it (the direct answers no findings section took),
    then the findings claims that answer the request most directly, ``max_claims`` in all, raised to hold
    every piece of backbone evidence that is cited nowhere else and the asked entry's claim.

    ``asks``: a long request's questions, or the parts of a short question that joins two. The summary
    answers each of them first, one claim per ask in the order asked (the claim that answers that ask best,
    when it reaches ``floor``), then the most direct of the rest: three asks are not answered by three
    quotes on the first one, and four asks have room for four answers whatever ``max_claims`` says.

    ``answers``: how well each piece of evidence answers an ask, by ask and id, as the judge read them
    (``Citation.answers_to``): each ask is answered by its best piece whichever search found it (a short
    question's parts too); an ask not in it is answered by the evidence its own search found.

    ``history_last``: the request does not ask what changed, so a claim from a change log or release notes
    (``history.is_history``) comes after those that say how things are, each ask's answer too.

    ``entry``: the name the question asks about as an entry of a manual ("the Timeout directive":
    ``asked_entry``); the best claim that stands in that entry, reaches ``floor`` and is no change log's
    (with ``history_last``) opens the summary.

    ``first_page``: how many of the first hits of the search as written a user reads (a short question's;
    None for a long request, whose asks are answered one by one): the best claim among theirs that reaches
    ``floor`` stands in the summary, in the place of its least relevant claim of the rest."""
    homeless = groups(own, section=section.id)
    must = sum(1 for g in homeless if g.backbone)
    first = [
        claim_of(g) for g in select(homeless, max(0, section.max_claims - must), history_last=history_last)
    ]
    have = {i for c in first for i in c.evidence_ids}
    pool = [
        c
        for claims in findings.values()
        for c in claims
        if c.kind == "finding" and not set(c.evidence_ids) & have
    ]

    def relevance(claim: Claim, ask: str | None = None) -> float:
        return claim_relevance(claim, evidence, ask, answers)

    def current(claim: Claim) -> bool:
        known = [evidence[i] for i in claim.evidence_ids if i in evidence]
        return not history_last or not known or not all(is_history(e) for e in known)

    def of_entry(claim: Claim) -> bool:
        return entry is not None and any(
            i in evidence and in_entry(evidence[i], entry) for i in claim.evidence_ids
        )

    pool.sort(key=lambda c: (not current(c), -relevance(c)))
    opening = max(
        (c for c in [*first, *pool] if of_entry(c) and current(c) and relevance(c) >= floor),
        key=relevance,
        default=None,
    )
    room = max(0, max(section.max_claims, len(asks)) - len(first))
    # (the entry's claim takes a slot of its own, one more where the routed claims fill the section)
    chosen: list[Claim] = [opening] if opening is not None and opening in pool else []
    room = max(room, len(chosen))
    if len(asks) > 1:
        for ask in asks:
            # An ask the routed claims answer already has its slot, unless a findings claim answers it
            # better (a tutorial's "You can run the full test suite ..." is no answer to "which hook aborts
            # the push" beside githooks' "pre-push — If this hook exits with a non-zero status, ..."); it is
            # then answered beyond the section's room, as when its own search found a routed claim.
            routed = max((relevance(c, ask) for c in first), default=float("-inf"))
            owned = any(i in evidence and evidence[i].question == ask for c in first for i in c.evidence_ids)
            best = max(
                (c for c in pool if c not in chosen),
                key=lambda c: (current(c) and relevance(c, ask) >= floor, relevance(c, ask)),
                default=None,
            )
            if best is None or relevance(best, ask) < max(floor, routed) or relevance(best, ask) == routed:
                continue
            if len(chosen) < room or owned:
                chosen.append(best)
    fill = [c for c in pool if c not in chosen][: max(0, room - len(chosen))]
    if first_page is not None:
        # The best answer on the search's first page stands in the summary: the judge ranks a manual's answer
        # below a walkthrough that repeats the question's words (GNU m4's "-s, --synclines — Source file name
        # and line number information is conveyed by directives of the form '#line linenum "file"'", the
        # search's second hit, ninth by the judge), and a report never knows less than a search.
        page = [
            c
            for c in [*first, *pool]
            if _on_first_page(c, evidence, first_page) and current(c) and relevance(c) >= floor
        ]
        best = max(page, key=relevance, default=None)
        # (in the place of one: never beyond the summary's room)
        if best is not None and fill and not any(c in page for c in [*first, *chosen, *fill]):
            fill = [*fill[:-1], best]
    chosen += fill
    # The summary reads best first: the asked entry's claim, the per-ask answers in the order asked, then the
    # rest by relevance.
    out = [*first, *chosen]
    return out if opening is None else [opening, *(c for c in out if c is not opening)]


def claim_relevance(
    claim: Claim,
    evidence: Mapping[str, Evidence],
    ask: str | None = None,
    answers: Mapping[str, Mapping[str, float]] | None = None,
) -> float:
    """How directly a claim answers ``ask`` (the judge's score of its best piece, ``answers``; else the
    score its pieces were admitted with, when that ask's own search found them), or the request as a whole
    (``ask`` None)."""
    if ask is not None and answers is not None and ask in answers:
        scores = answers[ask]
        return max((scores[i] for i in claim.evidence_ids if i in scores), default=float("-inf"))
    # (a constraint's quote answers the constraint, not the request: "I only want what GNU m4 itself
    # offers, with each point tied to the manual" found the manual's licence, and its score had put
    # "Secondarily, this License preserves for the author ..." among a build engineer's direct answers)
    return max(
        (
            evidence[i].relevance
            for i in claim.evidence_ids
            if i in evidence
            and (ask is None or evidence[i].question == ask)
            and evidence[i].origin != "constraint"
        ),
        default=float("-inf") if ask is not None or _constrained(claim, evidence) else 0.0,
    )


def unanswered(
    asks: Sequence[str],
    claims: Sequence[Claim],
    evidence: Mapping[str, Evidence],
    *,
    answers: Mapping[str, Mapping[str, float]] | None,
    floor: float,
) -> list[int]:
    """The asks (by index) that no claim of the report answers: none reaches ``floor``, the score at which
    the summary takes a claim as an ask's answer. A long request whose corpus covers one of its three asks
    ("which Valgrind tool finds data races" over a manual that only names Helgrind) got quotes on the other
    two by shared words (MPI's wrappers for "our own mutex wrappers") and called itself supported; the
    summary now says which asks found no answer, by the same measure that picks the answers it gives."""
    return [
        k
        for k, ask in enumerate(asks)
        if max((claim_relevance(c, evidence, ask, answers) for c in claims), default=float("-inf")) < floor
    ]


def _on_first_page(claim: Claim, evidence: Mapping[str, Evidence], hits: int) -> bool:
    """Whether a claim cites a quote of one of the first ``hits`` hits of the search as written."""
    ranks = (evidence[i].search_rank for i in claim.evidence_ids if i in evidence)
    return any(rank is not None and rank < hits for rank in ranks)


def _constrained(claim: Claim, evidence: Mapping[str, Evidence]) -> bool:
    """Whether every piece of evidence a claim cites was found by a constraint's search only."""
    known = [evidence[i] for i in claim.evidence_ids if i in evidence]
    return bool(known) and all(e.origin == "constraint" for e in known)


def groups(items: Sequence[Evidence], *, section: str | None = None) -> list[Group]:
    """Quotes that state one thing grouped, best first (weighed for ``section``, when given: ``_weight``)."""
    # Best first: pinned, then backbone, then how well the quote answers (its question or the request),
    # then the newer evidence (a 2024 figure before the 2015 one).
    ordered = sorted(
        (e for e in items if not e.dropped),
        key=lambda e: (not e.pinned, not e.backbone, -round(_weight(e, section), 3), _newest_first(e)),
    )
    out: list[Group] = []
    for item in ordered:
        # Compared by what the judge chose (a backbone quote takes in the sentence after it: the same fact
        # with another one after it is still the same fact).
        core = item.core or item.quote
        terms = term_set(core)
        if not terms:
            continue
        for group in out:
            head = group.items[0]
            if any(_stands_in(item, o) or _stands_in(o, item) for o in group.items) or (
                _same(terms, group.terms)
                and _nothing_more(core, head.core or head.quote)
                # ... and one of the two quotes names every name in code the other does: borg's "Every key in
                # authorized_keys has a forced command ...: command=... borg serve --restrict-to-path ..."
                # shares "key" and "client" with "There is only one ssh key per client allowed. Keys are
                # added for web01.srv.local ...", names other things, and was hidden under it.
                and (
                    _code_names(core) <= _code_names(head.quote)
                    or _code_names(head.quote) <= _code_names(item.quote)
                )
                # ... and what it took in after that sentence names no value or name in code the group's
                # best lacks: "... turned off by default. To enable it, run PRAGMA foreign_keys=ON" is not
                # said by another document's "... turned off by default in SQLite." (its text would be lost
                # under the other's).
                and _adds_nothing(item.quote.replace(core, "", 1), head.quote)
                # ... nor words: the sandbox page's "The Jinja sandbox can be used to render untrusted
                # templates. Access to attributes, method calls, operators, mutating data structures, and
                # string formatting can be intercepted and prohibited." says its first sentence as an
                # introduction's list does ("A sandboxed environment can safely render untrusted
                # templates"), and then how: under the list, the how was never read.
                and _words_said(item.quote.replace(core, "", 1), head.quote)
                # ... and both are about the same thing where a heading names it ("If this hook exits with
                # a non-zero status, git push will abort" under pre-push is not git-push's "If any commits
                # are missing the push will be aborted and exit with non-zero status"), every quote of the
                # group, not only its best: Apache's "Require ip" and "Require forward-dns" sections had met
                # under a caption of a third page ("An IP address of a host allowed access") that both share.
                and all(_about_the_same(item, o) for o in group.items)
                # ... and the claim the group shows then still says what each of its quotes says.
                and _all_said([*group.items, item])
            ):
                group.items.append(item)
                if item.document_key not in group.documents:
                    group.documents.add(item.document_key)
                    group.score += abs(group.score) * (CORROBORATION - 1)  # another document says it too
                    group.weight += abs(group.weight) * (CORROBORATION - 1)
                break
        else:
            shown = _weight(item, section)
            weight = shown + (100.0 if item.pinned else 0.0) + (50.0 if item.backbone else 0.0)
            out.append(Group([item], terms, weight, {item.document_key}, weight=shown))
    return _overlaps_merged(out)


def _overlaps_merged(out: list[Group]) -> list[Group]:
    """Groups one of whose quotes stands whole in a quote of another group made one: a quote that takes in
    two others ("For agent checks, use ... before removal. It may be possible ...") joins the group of the
    first it meets, and the other one's group would repeat its sentences as a claim of its own."""
    merged: list[Group] = []
    for group in out:
        into = next((g for g in merged if _overlap(g, group)), None)
        if into is None:
            merged.append(group)
            continue
        # The fuller quote leads the merged group, and its claim shows it: two quotes of one passage that
        # share a sentence each say more than it ("pause server <pool>/<server> Put the server in maintenance.
        # ... A server in maintenance is shown with the "PAUSED" state ..." and that sentence with the next
        # paragraph's "This command is restricted ..."); the one that says more is the one to read.
        first, second = _fuller_first(into, group)
        into.items = [*first.items, *second.items]
        into.terms = first.terms
        into.score, into.weight = max(into.score, group.score), max(into.weight, group.weight)
        into.documents |= group.documents
    return merged


def _fuller_first(a: Group, b: Group) -> tuple[Group, Group]:
    """The group whose best quote says more first: the one that names every number and name in code the
    other does and more (SQLite's "... limited to SQLITE_MAX_LIKE_PATTERN_LENGTH bytes. The default value of
    this limit is 50000. ..." over the paragraph's next sentences, which name neither), else the one with
    more content words, else the better scored."""
    x, y = a.items[0].quote, b.items[0].quote
    if _says_more(x, y) or _says_more(y, x):
        return (a, b) if _says_more(x, y) else (b, a)
    return max((a, b), (b, a), key=lambda pair: (len(term_set(pair[0].items[0].quote)), pair[0].score))


def _overlap(a: Group, b: Group) -> bool:
    """Whether two groups' claims (the quotes they show) say the same words: one stands whole in the other,
    or one runs into the other. Only the quotes shown are compared: a group's other quotes joined it for
    what they share with its best, and comparing them chains unrelated claims (Apache's MaxKeepAliveRequests
    record merged into an answer about H2MaxSessionStreams). The shown quote, not the best: a group whose
    claim shows "Tests can be run in parallel by passing -j arguments to ctest(1): $ ctest -R Qt -j8 The
    environment variable CTEST_PARALLEL_LEVEL can alternatively be set ..." says the other group's claim
    "The environment variable CTEST_PARALLEL_LEVEL can alternatively be set ..." again (CMake's guide)."""
    x, y = _shown(a.items), _shown(b.items)
    if _named_apart(x, y):
        return False
    short, long = (x, y) if len(x.quote) <= len(y.quote) else (y, x)
    if len(short.quote.split()) >= OVERLAP_WORDS and _stands_in(short, long, core=False):
        return True
    return _share_a_sentence(x, y)


def _share_a_sentence(a: Evidence, b: Evidence) -> bool:
    """Two overlapping quotes of one passage: one ends with the sentence (of a few words at least) the other
    opens with ("For agent checks, ... before removal." and "The agent should be first deactivated ...
    before removal. It may be possible ..."). Two quotes that merely end on the same sentence ("This
    command is restricted ...") are two things said."""
    if a.chunk_id != b.chunk_id or a.id == b.id or _named_apart(a, b):
        return False
    first = SENTENCE_BREAK.split(" ".join(a.quote.split()))
    second = SENTENCE_BREAK.split(" ".join(b.quote.split()))
    # ... or with the sentences the other opens with (GNU Bison's "... exactly n, and Bison will report an
    # error if there is a different number. See Suppressing Conflict Warnings. However, we don't recommend
    # the use of %expect ..." and the quote that opens on that pointer: both stood in the direct answer).
    return any(
        x[k:] == y[: len(x) - k]
        and sum(len(t.split()) for t in x[k:]) >= OVERLAP_WORDS
        and (len(x) > 1 or len(y) > 1)
        for x, y in ((first, second), (second, first))
        for k in range(len(x))
    )


def _named_apart(a: Evidence, b: Evidence) -> bool:
    """Two quotes that each name the term they describe, two different terms: two terms' descriptions may
    end on one sentence and still be about two things (zsh's SAVEHIST and HISTSIZE)."""
    named_a, named_b = subject_named(a), subject_named(b)
    if named_a is None or named_b is None:
        return False
    x, y = named_a.casefold(), named_b.casefold()
    return x not in y and y not in x


def _about_the_same(a: Evidence, b: Evidence) -> bool:
    """Whether two quotes are about one thing as far as their names say: two terms' descriptions are about
    two things however alike their words ("SAVEHIST — The maximum number of history events to save in the
    history file" and "HISTSIZE — The maximum number of events stored in the internal history list"); a
    quote about a named thing is about another thing than a quote that does not name it. Two sections of
    one document are about two things ("Require ip" and "Require forward-dns" of mod_authz_host: "When
    Require ip ip-address is specified, then the request is allowed access if the IP address matches" shares
    its words with the next section's "When Require forward-dns host-name is specified, all IP addresses
    ... are allowed access")."""
    if (
        a.document_key == b.document_key
        and a.section_path
        and b.section_path
        and heading_of(a).casefold() != heading_of(b).casefold()
    ):
        return False
    named_a, named_b = subject_named(a) or _opening_name(a), subject_named(b) or _opening_name(b)
    if named_a is not None and named_b is not None:
        x, y = named_a.casefold(), named_b.casefold()
        return x in y or y in x
    for named, other in ((named_a, b), (named_b, a)):
        if named is not None and named.casefold() not in other.quote.casefold():
            return False
    return True


def _opening_name(evidence: Evidence) -> str | None:
    """The name in code a quote opens with, its subject ("H2MaxSessionStreams limits the number of parallel
    requests ..."): a quote that does not name it is about something else, however alike their words
    ("Number of requests allowed on a persistent connection" is MaxKeepAliveRequests')."""
    first = evidence.quote.split(None, 1)[:1]
    if not first or not _CODE_TOKEN.fullmatch(first[0].rstrip(".,;:")):
        return None
    name = first[0].rstrip(".,;:")
    return None if _NOT_CODE.fullmatch(name.casefold()) else name


def subject_named(evidence: Evidence) -> str | None:
    """The thing a quote is about, where a name says it: the term it describes ("SAVEHIST" over its
    description) or the heading it points back at."""
    term, dash, _ = one_line(evidence.quote).partition(" — ")
    return term if dash else pointed_at(evidence)


def _within(quote: str, other: str) -> bool:
    """A quote (or the sentence judged in it) that stands whole in another (a quote takes in the sentences
    after it in its paragraph, a sentence pointing back the one before it): one claim, the fuller quote its
    text, never two overlapping quotes of one paragraph."""
    return " ".join(quote.split()) in " ".join(other.split())


def _stands_in(a: Evidence, b: Evidence, *, core: bool = True) -> bool:
    """Whether ``a``'s quote (or, with ``core``, the sentence judged in it) stands whole in ``b``'s as the
    same claim: in one document, always; across documents only when what stands in the other is a statement
    of its own, a sentence of ``OVERLAP_WORDS`` words at least. A caption two manuals share ("An IP address
    of a host allowed access", under mod_access_compat's Allow examples and mod_authz_host's Require ip
    examples) is no claim both make, and had joined Require ip's quote to a claim about Require
    forward-dns."""
    said = (a.core or a.quote) if core else a.quote
    if not _within(said, b.quote):
        return False
    if a.document_key == b.document_key:
        return True
    flat_said = " ".join(said.split())
    closed = flat_said.rstrip("\"'”’)]")  # a sentence that ends in a quotation or a bracket
    return len(flat_said.split()) >= OVERLAP_WORDS and closed.endswith((".", "!", "?"))


def _inside(a: Evidence, b: Evidence) -> bool:
    return a.id != b.id and a.chunk_id == b.chunk_id and len(a.quote) < len(b.quote) and a.quote in b.quote


#: Origins of the questions a template asks for its sections.
TEMPLATE_ORIGINS = frozenset({"plan", "guard"})


def _weight(evidence: Evidence, section: str | None = None) -> float:
    """How well a quote answers in ``section`` (any, when ``None``): the better of its score for the question
    it was found for and its relevance to the request; for a lead's evidence, its relevance alone. A lead's
    question is made of a name and the query's words, and a quote that answers it well ("Its capital ... is
    Paris" for the lead "Capital of France" of a question on the most populous cities of the United States)
    may say nothing the request asks: weighed by that score, it had taken Houston's "... fourth-most populous
    city in the United States" place in the key findings. Likewise a template's question speaks for its own
    section only: a quote that answers "What is unknown, disputed or uncertain about ...?" well and the
    request not at all, routed to the key findings, counts there by its relevance. So does a constraint's:
    it answers the background ("Our manual is maintained in Sphinx (reStructuredText, Alabaster theme)"),
    and by that score the reST primer and the Alabaster theme had led a technical writer's key findings on
    PDF output."""
    if evidence.origin in ASIDE_ORIGINS:
        return evidence.relevance
    if section is not None and evidence.origin in TEMPLATE_ORIGINS and section not in evidence.found_for:
        return evidence.relevance
    return max(evidence.score, evidence.relevance)


def _same(a: frozenset[str], b: frozenset[str]) -> bool:
    return len(a & b) >= DUPLICATE_SHARE * min(len(a), len(b))


def _nothing_more(a: str, b: str) -> bool:
    """Whether the quote with fewer content words says nothing the other does not: its numbers and its names
    in code are all in the other. "The default maximum trigger recursion depth is 1000." is not said by a
    longer quote about the same limit without the 1000; a URI of one quote is not in the other's."""
    short, long = (a, b) if len(term_set(a)) <= len(term_set(b)) else (b, a)
    return _adds_nothing(short, long)


def _words_said(quote: str, by: str) -> bool:
    """Whether ``by`` says most of ``quote``'s content words (``DUPLICATE_SHARE`` of them; an empty quote
    says nothing new)."""
    terms = term_set(quote)
    return len(terms & term_set(by)) >= DUPLICATE_SHARE * len(terms)


def _adds_nothing(quote: str, to: str) -> bool:
    """Whether ``quote`` names no number and no name in code that ``to`` does not."""
    return numbers(quote) <= numbers(to) and _code_names(quote) <= _code_names(to)


def _says_more(quote: str, than: str) -> bool:
    """Whether ``quote`` names every number and name in code that ``than`` does, and more."""
    return _adds_nothing(than, quote) and not _adds_nothing(quote, than)


def _code_names(text: str) -> set[str]:
    """Names written as code (``file::memory:?cache=shared``, ``SQLITE_MAX_LENGTH``, ``keepdb``): a token with
    an underscore, a colon, an equals sign, a dot or a capital inside it, or a double dash before it."""
    found = {m.group(0).casefold().rstrip(".,;:") for m in _CODE_TOKEN.finditer(text)}
    return {t for t in found if not _NOT_CODE.fullmatch(t)}


#: Abbreviations ("e.g", "i.e") and numbers ("2.5": compared as numbers) are no names.
_NOT_CODE = re.compile(r"(?:[a-z]\.)+[a-z]?|[\d.,]+")
_CODE_TOKEN = re.compile(r"(?<!\S)(?:--?\w[\w-]*|\S*\w[_:=./][\w:=?&./-]*\w|\w*[a-z][A-Z]\w*)")


def _newest_first(evidence: Evidence) -> str:
    """A sort key that puts later ISO dates first (unknown dates last)."""
    date = evidence.date or ""
    return "".join(chr(0x10FFFF - ord(c)) for c in date) if date else "\U0010ffff"


def select(candidates: list[Group], limit: int, *, history_last: bool = False) -> list[Group]:
    """Every pinned or backbone group, and the ``limit`` best of the others, each document's later quotes
    counting for less (several documents say more than one document twice, but a document's second answer
    is worth more than another's quote that barely touches the question); backbone evidence never takes an
    answer's place (the search's top documents are cited beside the answers, not instead of them).

    Shown pinned first, then by how well each answers: a top document the search ranked high but whose best
    quote barely touches the question stands below the answers. ``history_last``: the request does not ask
    what changed, so a claim that only a change log says (``history.is_history``) comes after those that say
    how things are, and is the first to spill over into the section that takes a full section's rest
    (SQLite's "Bug fix: Fix column default values expressions ..." had stood among the key findings on
    rejecting values of the wrong type)."""
    ordered = sorted(candidates, key=lambda g: -g.score)
    kept = [g for g in ordered if g.backbone or any(e.pinned for e in g.items)]
    rest = [g for g in ordered if g not in kept]
    if history_last:
        # ... and a request that does not ask what changed reads at most ``HISTORY_CLAIMS`` of a change log's
        # entries among a section's answers: Sphinx's ten "Release 1.5.4 ... Bugs fixed — #3445: ... leads to
        # failed PDF build" had filled the details of a question on failing CI on warnings.
        logged = [g for g in rest if all(is_history(e) for e in g.items)]
        rest = [g for g in rest if g not in logged[HISTORY_CLAIMS:]]
    picked: list[Group] = []
    said: dict[str, int] = {}
    while rest and len(picked) < limit:
        # A document's next quote counts for less by each it already gave: another document's answer comes
        # first when about as good, a far better second answer of one document still does.
        best = max(rest, key=lambda g: g.score - DOCUMENT_REPEAT * max(said.get(d, 0) for d in g.documents))
        rest.remove(best)
        picked.append(best)
        for d in best.documents:
            said[d] = said.get(d, 0) + 1
    chosen = [*kept, *picked]
    return sorted(
        chosen,
        key=lambda g: (
            not any(e.pinned for e in g.items),
            history_last and all(is_history(e) for e in g.items),
            -g.weight,
        ),
    )


def _same_subject(a: Evidence, b: Evidence) -> bool:
    """Two quotes are about the same thing when the names in one (companies, directives, places) are all in
    the other: 60 seconds of ``LDAPTimeout`` and 10 of ``SSLStaplingResponderTimeout`` do not disagree. A
    name in code in a quote's title counts as the quote's (the page documents it): "-d[number] ... defaults
    to 20 processes" under "Starting imap4d" and "... all pop3d command line options ... defaults to 10
    processes" are two programs' options, no disagreement (GNU Mailutils)."""
    na = _names(a.quote) | _title_names(a.title or "")
    nb = _names(b.quote) | _title_names(b.title or "")
    return na <= nb or nb <= na


def _names(text: str) -> set[str]:
    found = {n.casefold() for n in named_things(text)}
    found |= {w.casefold() for w in _NAME_TOKEN.findall(text)}
    return found


def _title_names(title: str) -> set[str]:
    """The names in code of a title, as a program or a setting is written ("Starting imap4d", "The
    max_connections setting", "mod_ssl"); never its words, an acronym or a brand ("Freedonia Graphene
    Battery Market Report 2025", "Global EV Outlook 2024 | IEA", "McKinsey: battery market insights" name
    their publishers, and publishers disagreeing is what ``conflicts`` is for)."""
    return {w.casefold() for w in _TITLE_CODE.findall(title)}


#: A name written as code: capitals inside a word ("LDAPTimeout"), an underscore ("max_children"), or digits
#: between letters ("imap4d", "pop3d").
_NAME_TOKEN = re.compile(r"\b[A-Za-z]+[A-Z][A-Za-z0-9_]*\b|\b\w+_\w+\b|\b[a-z]+\d+[a-z]+\b")
#: A name in code in a title: an underscore, digits between letters, or a dot or a capital inside a word
#: that opens in lower case ("max_children", "imap4d", "mod.rewrite", "fetchMail").
_TITLE_CODE = re.compile(r"\b\w+_\w+\b|\b[a-z]+\d+[a-z]+\b|\b[a-z]+[.A-Z]\w+\b")


def claim_of(group: Group) -> Claim:
    """A quote as a claim: one line (the rows of a table or the items of a list separated by semicolons).

    The group's quotes say the same thing; the claim is the best one, or the fullest quote that holds it
    (a table row repeated in a quick reference joins the directive's whole table, and the table is what
    answers) or that names every value and name in code the best does and more ("limited to
    SQLITE_MAX_ATTACHED which is set to 10 by default ... cannot be increased above 125" over "There is a
    limit, set using sqlite3_limit() and SQLITE_LIMIT_ATTACHED"), never another quote that merely shares
    its words ("Savepoints aren't especially useful if you are using autocommit, the default behavior of
    Django" is no fuller form of "Django's default behavior is to run in autocommit mode")."""
    fullest = _shown(group.items)
    text = one_line(fullest.quote, fullest.code_at)
    named = pointed_at(fullest) or _term_of(fullest) or person_named(fullest) or release_of(fullest)
    return Claim(text=f"{named} — {text}" if named else text, evidence_ids=group.ids)


def _spliced(shown: Evidence, items: Sequence[Evidence], ids: Sequence[str]) -> Evidence:
    """The quote a claim shows, joined with another of its group from the same passage that it overlaps by
    a sentence or more: the two read as their author wrote them, one verbatim span (the group cites both).
    São Paulo's "São Paulo is the capital city of the state ..., as well as the most populous city in
    Brazil, .... The city exerts international influence ..." and the window that opens on that second
    sentence had made one claim showing the fuller one, "The city exerts ...": whose city, and Brazil,
    were cited and never read. ``ids``: the group's cited quotes (``_cited``)."""
    for other in items:
        if (
            other.id not in ids
            or other.chunk_id != shown.chunk_id
            or other.quote in shown.quote
            or None not in (shown.code_at, other.code_at)
        ):
            continue
        # (code_at: where the quote's code starts; a quote with code keeps it at its end, so only the
        # later of the two may have it)
        for first, then in ((other, shown), (shown, other)):
            if first.code_at is not None:
                continue
            cut = _run_on(first, then)
            if cut is not None:
                code_at = None if then.code_at is None else cut + then.code_at
                joined = first.quote[:cut] + then.quote
                return first.model_copy(update={"quote": joined, "code_at": code_at, "core": ""})
    return shown


def _run_on(first: Evidence, then: Evidence) -> int | None:
    """Where, in ``first``'s quote, ``then``'s starts, where ``then`` opens with the sentences ``first`` ends
    with (of ``OVERLAP_WORDS`` words at least) at that very place of the source (``Evidence.start``: the
    sentence a man page repeats under every option joins no two options' quotes); None otherwise."""
    if first.start is None or then.start is None:
        return None
    for m in SENTENCE_BREAK.finditer(first.quote):
        tail = first.quote[m.end() :]
        if (
            then.start == first.start + m.end()
            and len(tail.split()) >= OVERLAP_WORDS
            and then.quote.startswith(tail)
        ):
            return m.end()
    return None


def _term_of(evidence: Evidence) -> str | None:
    """The term lines a quote's description stands under, as a claim names them ("option http-check
    disable-on-404 — When this option is set, ..."), where the quote's one line does not open with a term
    already."""
    if evidence.term is None or " — " in one_line(evidence.quote, evidence.code_at).split("\n")[0]:
        return None
    return ", ".join(" ".join(line.split()) for line in evidence.term.splitlines() if line.strip()) or None


def _cited(items: Sequence[Evidence]) -> list[str]:
    """The evidence a group's claim cites: a quote that stands whole inside another quote of the same chunk
    (a sentence another question's quote took in after its own) says nothing the longer one does not, and
    is left out unless it is backbone evidence (always cited)."""
    return [e.id for e in items if e.backbone or not any(_inside(e, o) for o in items)]


def _shown(items: Sequence[Evidence]) -> Evidence:
    """The quote a group's claim shows (see ``claim_of``), run on into each of the group's quotes that it
    overlaps (``_spliced``, until none is left: a group merged from three windows of one paragraph shows
    all three)."""
    ids = _cited(items)  # (once: ``_shown`` runs for every pair of groups ``_overlaps_merged`` compares)
    shown = _fullest(items, ids)
    while (grown := _spliced(shown, items, ids)) is not shown:
        shown = grown
    return shown


def _fullest(items: Sequence[Evidence], ids: Sequence[str]) -> Evidence:
    """The quote of a group that holds what its best says, and names the most, of the cited ones (``ids``)."""
    head = items[0]
    said = head.core or head.quote
    return max(
        (
            e
            for e in items
            if e.id in ids
            and (_within(said, e.quote) or (_says_more(e.quote, head.quote) and _about_the_same(e, head)))
        ),
        key=lambda e: len(term_set(e.quote)),
        default=head,
    )


def _all_said(items: Sequence[Evidence]) -> bool:
    """Whether the quote a group's claim would show says what each of its quotes says: a reader sees that
    one quote, and a quote hidden under it may be the one that answers. Apache's "An IP address of a host
    allowed access" (a table's caption) drew in "When Require ip ip-address is specified, then the request
    is allowed access if the IP address matches" and a quote about blocking a domain, and the claim showed
    the blocking: the answer to "allow only a few IP addresses" was cited, never read."""
    shown = _shown(items)
    return all(
        e is shown
        or (_said_by(e.core or e.quote, shown.quote) and _within(_introduced(e.quote), shown.quote))
        for e in items
    )


def _said_by(quote: str, by: str) -> bool:
    """Whether ``by`` says what ``quote`` says: most of its content words, or its figures (two numbers at
    least) and half its words: "The market was valued at 4.2 billion florins in 2024, according to the
    survey of 40 manufacturers" is the fact "The market was worth 4.2 billion florins in 2024. Sales grew
    by 18 percent ..." states, with its source."""
    if _words_said(quote, by):
        return True
    terms = term_set(quote)
    return len(numbers(quote) & numbers(by)) >= 2 and len(terms & term_set(by)) >= len(terms) / 2


def _introduced(quote: str) -> str:
    """What a quote's sentence ending in a colon introduces (a command, a list, an example): shown by the
    claim the quote stands under, or said by no one. Django's "In the command prompt, ensure your virtual
    environment is active, and execute the following command: ...\\> py -m pip install Django" shares its
    words with "After setting up and activating the virtual environment, run the following command: ...
    py -m pip install -e django\\", another command."""
    lines = quote.split("\n")
    for k, line in enumerate(lines):
        if line.rstrip().endswith(":") and len(line.split()) >= INTRO_WORDS:
            return " ".join(" ".join(lines[k + 1 :]).split())
    return ""


def conflicts(picked: Sequence[Group], candidates: Sequence[Group] = ()) -> list[Claim]:
    """Pairs of quotes from different documents that give the same measure different values: a chosen quote
    against every candidate of its section (a disagreement is worth saying even when the other side did not
    make the cut on its own).

    Same measure: the quotes share most of their subject words, and each has a number with the same unit
    word after it ("38 percent" / "31 percent"), no value of that unit in common. Different years in the two
    quotes make a time series, not a disagreement ("0.6 billion in 2015" / "4.2 billion in 2024").
    """
    out: list[Claim] = []
    pairs: list[tuple[Group, Group]] = [(a, b) for i, a in enumerate(picked) for b in picked[i + 1 :]]
    pairs += [(a, b) for a in picked for b in candidates if b not in picked]
    for a, b in pairs:
        if a.documents & b.documents:
            continue
        qa, qb = a.items[0].quote, b.items[0].quote
        ya, yb = years(qa), years(qb)
        if ya and yb and ya != yb:
            continue
        ma, mb = measures(qa), measures(qb)
        # Values in common are agreement: "the default is 30 minutes" and "increased the default interval to
        # 30 minutes (was 5 minutes)" say the same thing, one with its history.
        clash = {unit for unit in ma.keys() & mb.keys() if not ma[unit] & mb[unit]}
        if not clash:
            continue
        shared = a.terms & b.terms
        if not _same_subject(a.items[0], b.items[0]):
            continue
        if len(shared) >= CONFLICT_SHARED and len(shared) >= 0.5 * min(len(a.terms), len(b.terms)):
            out.append(
                Claim(
                    text=f"“{' '.join(qa.split())}” versus “{' '.join(qb.split())}”",
                    evidence_ids=[a.items[0].id, b.items[0].id],
                    kind="conflict",
                )
            )
    return out
