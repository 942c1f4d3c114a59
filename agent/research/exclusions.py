"""What a request rules out, and the evidence that names it.

A requester who writes "don't suggest Cyrus SASL, Dovecot or GNU SASL authenticators" or "don't tell me to
change DNS, add backup MX records or route through a smarthost" has said what the report must leave out.
That is enforced here, in code (a prompt could be ignored and the extractive writer reads none): the things
ruled out are read from the request's negated directives, and a piece of evidence that names one of them (in
its quote, its heading or its document's title) is not cited; the report says how many were left out and why.

Only explicit directives are read (a negated "suggest", "recommend", "use", "mention", "tell me to", "we
can't use", "avoid"); "without downtime" or "not slower than" are conditions on the answer, not things to
leave out, and stay constraints to search.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from sleuth.agent.research.text import QUOTE_MARKS, STOPWORDS, named_things, path_parts, words

__all__ = ["Exclusions", "Ruled", "excluded_things", "not_asked_about", "remainder", "ruled_out"]

#: Words that make a kind of thing one from outside what the requester has ("third-party plugins",
#: "external services"): ruled out by a bare "no", and said of each thing of the list they open ("no
#: third-party themes or plugins" rules out third-party plugins, not every plugin).
_OUTSIDE = r"third[- ]party|external|commercial|paid|proprietary|non-free"
_OUTSIDE_WORD = re.compile(rf"^(?:{_OUTSIDE})$", re.I)
#: A directive that rules out what follows it, up to the end of its clause (a "." between digits, as in
#: "Exim 4.97", ends nothing).
_RULES_OUT = re.compile(
    r"\b(?:(?:please\s+)?(?:do\s+not|don't|dont|never|no\s+need\s+to)\s+(?:need\s+to\s+)?"
    r"(?:suggest(?:ing)?|recommend(?:ing)?|propose|mention|use|include|consider|advise|tell\s+(?:me|us)\s+to|"
    r"want\s+to\s+use|bother\s+with|cover|go\s+into)"
    r"|(?:we|i)\s+(?:can't|cannot|can\s+not|won't|will\s+not|are\s+not\s+allowed\s+to|may\s+not)\s+"
    r"(?:use|add|install|adopt|bring\s+in)"
    # a bare "no" opening a clause rules out a kind of thing from outside ("..., no third-party themes or
    # plugins"); elsewhere it asks for an outcome ("no downtime", "and no tiny last page")
    r"|no(?=\s+(?:" + _OUTSIDE + r")\b)"
    r"|avoid\s+(?:suggesting|recommending)"
    r"|(?:also\s+)?(?:(?:we|i)(?:'re|'m|\s+are|\s+am)\s+(?:also\s+)?)?not\s+interested\s+in"
    r"|(?:we|i)\s+(?:do\s+not|don't|dont)\s+need(?!\s+to\b)"
    r"|(?P<soft>(?:please\s+)?(?:skip|leave\s+out|omit)|please\s+(?:ignore|exclude)))"
    r"\s+(?P<things>(?:(?!\s[-–—]\s)[^.;:!?]|(?<=\d)\.(?=\d))+)",
    re.I,
)
#: A thing ruled out after it is named: "Writing a custom converter is out of scope for now", "UDP is also not
#: an option for us", "..., but that is not relevant right now". The thing is its clause's subject.
_OUT_OF_SCOPE = re.compile(
    r"(?:^|[,;:—–(]\s*)(?P<things>[^,;:—–()]+?)\s+(?:is|are)\s+(?:also\s+|simply\s+)?"
    r"(?:out\s+of\s+(?:the\s+)?scope|not\s+an\s+option|not\s+relevant|irrelevant)"
    r"(?:\s+(?:for\s+(?:us|me|now|this|them)|here|now|right\s+now|anyway))*",
    re.I,
)
#: An ask after a list of things ruled out ("..., and tell me which pages to read"); not a thing named so
#: ("don't suggest list comprehensions").
_ASKS_ON = re.compile(
    r"(?:tell|show|point|explain|give|let|help|describe|list|recommend|suggest)\s+"
    r"(?:me|us|how|which|what|the|whether|why|where|when)\b",
    re.I,
)
#: Words that open what is wanted after what is not ("..., only Linux", "..., but Postfix").
_CONTRARY = frozenset("only just but except instead rather".split())
#: "Leave X out", its things between the verb and "out" ("please leave RabbitMQ-specific advice out").
_LEAVE_OUT = re.compile(r"(?:please\s+)?leave\s+(?P<things>(?:(?!\bout\b)[^.;:!?])+?)\s+out\b", re.I)
#: A kind of advice about a thing, named by it ("RabbitMQ-specific", "Windows-related"): the thing.
_ABOUT_IT = re.compile(r"-(?:specific|related|based|only|centric)$", re.I)
#: What a requester looked at before ruling it out by "them" ("We have looked at message priorities and do
#: not want to use them"): the words after the verb or preposition, up to the clause's end.
_LOOKED_AT = re.compile(
    r"\b(?:at|into|considered|tried|evaluated|tested|about)\s+"
    r"(?P<thing>(?:(?!(?:and|but|so)\b)[\w-]+\s+){0,3}(?!(?:and|but|so)\b)[\w-]+)"
    r"\s*(?:,\s*)?(?:\b(?:and|but|so)\s+)?(?:we\s+|i\s+)?$",
    re.I,
)
#: Words that join a clause to the one before, no part of its subject ("but that is not relevant").
_JOINING = frozenset("and but so also then though however".split())
#: What may stand before a directive: nothing (it opens the sentence), a clause's punctuation, or a word that
#: joins clauses ("..., so please don't suggest X"). "Why does git never use my SSH key" is a question, and
#: "We never use transactions explicitly" a description: neither is a directive.
_CLAUSE_START = re.compile(r"(?:^|[,;:—–(\"“]|\s-|\b(?:please|and|but|so|also))$", re.I)
#: Little words a ruled-out phrase opens with that are no part of the thing ("a pipe transport").
_ARTICLES = frozenset("a an the any some our your my their its".split())
#: Words that point back: "skip those options" rules out what the sentence named before it.
_DEMONSTRATIVES = frozenset("those these that this them it".split())
#: Verbs (and the little words after them) a ruled-out action opens with: "change DNS", "route through a
#: smarthost" rule out an action on the thing, not every passage about it (see ``Exclusions.about``).
_VERBS = frozenset(
    """change add route use using install set enable run configure switch move deploy buy upgrade migrate
    rewrite call send write build replace edit touch modify suggest recommend propose mention""".split()
)
_AFTER_VERB = frozenset("to through via with into on in onto for by of up".split())
#: The -ing forms of the verbs that propose a thing ("running dnssec-keygen", "setting up a second
#: server"); not those that take it away ("disabling DNSSEC validation" wants it), nor a noun ("string").
_GERUNDS = frozenset(
    """running using setting installing adding enabling configuring deploying switching moving migrating
    buying writing building calling sending routing""".split()
)
#: Words that open how, where or when after a thing ("by hand", "from cron", "in production").
_HOW = frozenset("by from in on at via through with without during within".split())
_PARENTHESES = re.compile(r"\([^()]*\)")
#: What says why, or which, after the things ruled out.
_REASON = re.compile(
    r"\s+(?:because|since|unless|which|that|who|due\s+to|so|as|when|if|given|for\s+(?:this|that|our|the))\b",
    re.I,
)
_CLAUSE = re.compile(r"^(?:it|this|that|they|we|i|you|he|she)\b|\b(?:is|are|was|were|has|have|had)\b", re.I)
#: The separators of a list of things: "A, B or C", "A, B, and C".
_SEPARATOR = re.compile(r"(\s*,\s*(?:(?:or|and|nor)\s+)?|\s+(?:or|and|nor)\s+)", re.I)
#: Two names joined by a slash ("systemd/udev"): two things; not a path, not a pair of opposites.
_SLASHED = re.compile(r"(?<![\w/.~-])([a-z]{3,})/([a-z]{3,})(?![\w/])")
_PAIRS = frozenset({("read", "write"), ("input", "output"), ("client", "server"), ("on", "off")})


def _slashes_apart(text: str) -> str:
    """``text`` with the slash of two lower-case names a comma (same length: positions stay)."""
    return _SLASHED.sub(
        lambda m: m.group(0) if (m.group(1), m.group(2)) in _PAIRS else f"{m.group(1)},{m.group(2)}", text
    )


#: A quote that names a ruled-out thing within this many characters of its start opens with it.
OPENING_CHARS = 40
#: A "how" after a thing acted on of at most this many words is cut ("by hand", "from cron"; not "in a
#: container": "running BIND in a container" rules out the container, not BIND).
HOW_WORDS = 2
#: A ruled-out thing of more words than this is a clause, not a name.
MAX_WORDS = 4


#: Words after a thing that are no part of it, written in lower case: adverbs, and what a requester calls the
#: pages about it ("the systemd material"; not "GitHub Pages").
_NOT_THINGS = frozenset(
    "details answer rest introduction intro background theory basics explanation fluff".split()
)
_TRAILING = frozenset(
    "either too also instead please entirely completely altogether "
    "material materials stuff bits parts part content docs documentation section sections pages "
    "advice tips recommendations suggestions options instructions snippets examples".split()
)

#: A phrase after a thing that says where or for what it is ruled out, no part of it ("for them", "in
#: production").
_PLACING = frozenset("for in on at with".split())
#: Where, after a thing: "on these boxes", "in our cluster".
_OURS = frozenset("these those our my".split())
#: Words that name any kind of thing, too general to leave out alone ("we cannot install any server-side hooks
#: or software" rules out the hooks; every passage that speaks of software is no suggestion of it).
_KINDS = frozenset(
    "software tool tools package packages library libraries dependency dependencies service services "
    "program programs thing things anything something".split()
)
#: When, after a thing: "this quarter", "next year".
_THIS = frozenset("this next that".split())
_PERIODS = frozenset("quarter year month week sprint release cycle".split())
_PLACED = frozenset("them it this that these those us here there now production prod".split())


@dataclass(frozen=True)
class Ruled:
    """A thing a request rules out; ``action``: it was the object of a verb ("change DNS")."""

    thing: str
    action: bool = False


#: What may stand before "skip", "omit", "leave out": they also ask how to do a thing ("back up /home but skip
#: the cache directories?"), and rule something out only as a request's own instruction.
_SOFT_START = re.compile(r"(?:^|[;:—–(\"“]|\b(?:please|so))$", re.I)


def _soft_directive(sentence: str, m: re.Match[str]) -> bool:
    """Whether "skip X" (matched by ``m``) is the request's instruction, not something asked for: not in a
    question, opening the sentence or after "please", "so" or a clause's punctuation other than a comma,
    and no "from ..." after its things ("Please exclude node_modules from the archives" asks how)."""
    if sentence.rstrip().endswith("?") or re.search(r"\bfrom\b", m.group("things"), re.I):
        return False
    return bool(_SOFT_START.search(sentence[: m.start()].rstrip()))


def _directives(sentence: str) -> list[tuple[int, int, list[Ruled]]]:
    """Each directive of ``sentence`` that rules something out: where it starts, where the last thing it rules
    out ends (a list stops at its first item that is no thing: "Don't suggest Dovecot, explain how to ..."
    rules out Dovecot and asks the rest), and the things."""
    out: list[tuple[int, int, list[Ruled]]] = []
    found = _RULES_OUT.search(sentence)
    while found is not None:
        m = found
        # (the next directive may stand inside this one's run of words: "..., and don't suggest dnsdist")
        found = _RULES_OUT.search(sentence, m.start("things"))
        if not _CLAUSE_START.search(sentence[: m.start()].rstrip()):
            continue
        if m.group("soft") and not _soft_directive(sentence, m):
            continue
        # An aside in brackets is no item of the list ("separate internal and external (bastion host) name
        # servers"); blanked, not cut, so that where the things end stays where it is in the sentence.
        text = _PARENTHESES.sub(lambda b: " " * len(b.group()), m.group("things"))
        # ... but a bracket left open or closed here ends the directive ("Dovecot (we tried it) and ...",
        # "(please don't suggest a second one) and need views").
        text = text[: min((i for i in (text.find("("), text.find(")")) if i >= 0), default=len(text))]
        reason = _REASON.search(text)
        parts = _SEPARATOR.split(_slashes_apart(text[: reason.start()] if reason else text))
        ruled: list[Ruled] = []
        start, end, offset = m.start(), m.start("things"), m.start("things")
        for k in range(0, len(parts), 2):
            opening = parts[k].split()[:1]
            # A verb governs the items after it ("running dnssec-keygen and dnssec-signzone by hand").
            acting = bool(ruled) and ruled[-1].action
            if k == 0 and opening and opening[0].casefold() in _DEMONSTRATIVES:
                # "We do not use Apache or mod_wsgi anywhere, so please skip those options": the names before
                # the directive, never "options".
                # The clause that named them speaks of them only to rule them out: none of it is asked.
                start = _clause_start(sentence, m.start())
                ruled.extend(r for r in _named_before(sentence[start : m.start()]) if r not in ruled)
                looked = _LOOKED_AT.search(sentence[start : m.start()]) if not ruled else None
                if looked and (thing := _thing(looked.group("thing"))) is not None:
                    ruled.append(thing)  # "We have looked at message priorities and do not want to use them"
                end = offset + len(parts[k].rstrip())
                break
            if k > 0 and _ASKS_ON.match(parts[k].strip()):
                break  # "no third-party plugins, and tell me which pages to read": the rest asks
            item = None if opening and opening[0].casefold() in _HOW else _thing(parts[k], acting=acting)
            if (
                item is None
                and not (opening and opening[0].casefold() in _HOW and ruled)
                and not (_kind(parts[k]) or _when(parts[k]))
            ):
                break  # the list ends at what is no thing: the rest of the sentence is the rest
            if item is not None:  # (not "or from cron": another how of the thing before it)
                ruled.append(item)
            end = offset + len(parts[k].rstrip())
            offset += len(parts[k]) + (len(parts[k + 1]) if k + 1 < len(parts) else 0)
        else:
            # every item a thing: why they are ruled out goes with them
            end = m.start("things") + len(text) if len(text) < len(m.group("things")) else m.end("things")
        if ruled:
            out.append((start, end, _outside_each(ruled)))
    for m in _LEAVE_OUT.finditer(sentence):
        if _soft_directive(sentence, m) and (thing := _thing(m.group("things"))) is not None:
            out.append((m.start(), m.end(), [thing]))
    for m in _OUT_OF_SCOPE.finditer(sentence):
        subject = m.group("things").split()
        start = m.start("things") + len(m.group("things")) - len(m.group("things").lstrip())
        while subject and subject[0].casefold() in _JOINING:
            start = sentence.index(subject[0], start) + len(subject[0])
            subject = subject[1:]
        if not subject or any(a <= start < b for a, b, _ in out):
            continue  # "... don't suggest RELP - ... and it is out of scope": ruled out already
        if subject[0].casefold() in _DEMONSTRATIVES and len(subject) == 1:
            # "A colleague wants Kafka next year, but that is not relevant right now": the sentence up to
            # here speaks of the thing, and none of it is asked.
            clause = _clause_start(sentence, start)
            ruled, start = _named_before(sentence[clause:start])[-1:], clause
        else:
            thing = _thing(" ".join(subject))
            ruled, start = [thing] if thing is not None else [], sentence.index(subject[0], start)
        if ruled:
            out.append((start, m.end(), ruled))
    return sorted(out, key=lambda d: d[0])


def _kind(item: str) -> bool:
    """Whether ``item`` names only a kind of thing ("any software"): no thing, but no end of the list."""
    kept = [w for w in item.casefold().split() if w not in _ARTICLES]
    return len(kept) == 1 and kept[0] in _KINDS


def _when(item: str) -> bool:
    """Whether ``item`` says only when ("next year" of "Redis this quarter or next year"): no thing, but no
    end of the list."""
    kept = item.casefold().split()
    return len(kept) == 2 and kept[0] in _THIS and kept[1] in _PERIODS


def _outside_each(ruled: list[Ruled]) -> list[Ruled]:
    """A list opened by a thing from outside ("third-party themes or plugins"): the one-word things after it
    are from outside too ("third-party plugins"; the requester's own plugins are not ruled out)."""
    first = ruled[0].thing.split()
    if len(first) < 2 or not _OUTSIDE_WORD.match(first[0]):
        return ruled
    return [
        ruled[0],
        *(
            Ruled(f"{first[0]} {r.thing}", r.action) if r.thing.islower() and " " not in r.thing else r
            for r in ruled[1:]
        ),
    ]


def _clause_start(sentence: str, at: int) -> int:
    """Where the clause that holds ``at`` begins: after the last ";" or ":" before it, else the sentence's
    start (a comma joins the parts of one clause: "We tried Redis Sentinel, but do not want to use it")."""
    return max(sentence.rfind(";", 0, at), sentence.rfind(":", 0, at)) + 1


_CODE_WORD = re.compile(r"(?<![\w-])[A-Za-z][\w.-]*[_.][\w.-]*[A-Za-z0-9]")


def _named_before(text: str) -> list[Ruled]:
    """The names ``text`` holds, proper names and names in code ("Apache", "mod_wsgi"), in order."""
    found = [(text.find(n), n) for n in named_things(text)] + [
        (m.start(), m.group()) for m in _CODE_WORD.finditer(text)
    ]
    return [Ruled(n) for _, n in sorted(found) if len(n) >= 3]


def _thing(item: str, *, acting: bool = False) -> Ruled | None:
    if _RULES_OUT.search(item):
        return None  # "... and don't suggest dnsdist": a directive of its own
    kept = item.split()
    if kept and kept[0].casefold() in _CONTRARY:
        return None  # "not interested in Windows, only Linux": what is wanted ends the list
    action = acting
    while kept and (
        kept[0].casefold() in _ARTICLES | _VERBS | _GERUNDS | _AFTER_VERB
        and (len(kept) > 1 or kept[0].casefold() in _ARTICLES | _AFTER_VERB)
    ):
        action = action or kept[0].casefold() in _VERBS | _GERUNDS
        kept = kept[1:]
    while len(kept) > 1 and kept[-1] in _TRAILING and kept[-2].casefold() not in _ARTICLES:
        kept = kept[:-1]  # "don't suggest dnsdist either", "skip the systemd material entirely"
    if len(kept) > 2 and kept[-2].casefold() in _PLACING and kept[-1].casefold().rstrip(".,;") in _PLACED:
        kept = kept[:-2]  # "we cannot use HTML autoescaping for them", "Kafka in production"
    if len(kept) > 3 and kept[-3].casefold() in _PLACING and kept[-2].casefold() in _OURS:
        kept = kept[:-3]  # "we cannot install RELP on these boxes"
    if len(kept) > 2 and kept[-2].casefold() in _THIS and kept[-1].casefold() in _PERIODS:
        kept = kept[:-2]  # "we cannot add third-party plugins this quarter"
    if _when(" ".join(kept)):
        return None  # "... this quarter or next year": when, no thing
    how = next((k for k, w in enumerate(kept) if k > 0 and w.casefold() in _HOW), None)
    if action and how is not None and len(kept) - how <= HOW_WORDS:
        kept = kept[:how]  # "dnssec-signzone by hand": how is no part of the thing acted on
    if not kept or len(kept) > MAX_WORDS or _CLAUSE.search(" ".join(kept)):
        return None  # "compctl, it is deprecated": the second is a clause, not a thing
    if len(kept) > 2 and kept[1].casefold() in _ARTICLES:
        return None  # "explain the plaintext authenticator": a verb and its object, the rest of the request
    if len(kept) == 1:
        kept[0] = _ABOUT_IT.sub("", kept[0])  # "RabbitMQ-specific (advice)": RabbitMQ
    thing = " ".join(kept).strip(" " + QUOTE_MARKS)
    if thing.casefold() in _NOT_THINGS | _KINDS:
        return None  # "Omit the details, just tell me how": what to leave out of the answer, not a thing
    if len(thing) < 3 or not any(w.casefold() not in STOPWORDS for w in words(thing)):
        return None  # "C", "Go": too short to tell from ordinary words
    return Ruled(thing, action)


def remainder(sentence: str) -> str:
    """``sentence`` without what rules things out ("We do not want an external daemon: don't suggest Cyrus
    SASL; everything should be done with Exim's own authenticator" keeps its first and last clauses): what is
    left is what may be searched; searching the things ruled out finds exactly what must not be cited."""
    kept = sentence
    for start, end, _ in reversed(_directives(sentence)):
        kept = f"{kept[:start]} {kept[end:]}"
    kept = re.sub(r"\s+([,;:.!?])", r"\1", " ".join(kept.split()))
    kept = re.sub(r",\s*(?:and|or|but|so)(?=\s*[,;:])", "", kept)  # "service, so; everything"
    kept = re.sub(r"[,;:]+(?=[,;:.!?])", "", kept)  # "daemon:; everything" reads "daemon; everything"
    kept = re.sub(r"(^|[,;:])\s*[-–—]\s+", r"\1 ", kept).strip()  # "Constraints: - our ..."
    kept = re.sub(r"\s+[-–—]\s*(?=[.!?]?$)", "", kept)  # "We keep our servers - don't suggest X."
    kept = re.sub(r"\s*\(\s*\)", "", kept)  # "We have one server (please don't suggest ...) and ..."
    kept = re.sub(r"^[,;:.!?\s]+|[,;:\s]+(?:(?:and|or|but|so)\s*)?(?=[.!?]?$)", "", kept).strip()
    if re.fullmatch(r"(?:and|or|but)?[.!?]?", kept, re.I):
        return ""  # nothing left but a conjunction
    return kept[:1].upper() + kept[1:]


def ruled_out(sentence: str) -> list[Ruled]:
    """The things ``sentence`` rules out, as written ("Cyrus SASL", "Dovecot", "GNU SASL authenticators";
    "DNS" and "smarthost" as actions)."""
    return list(dict.fromkeys(r for _, _, things in _directives(sentence) for r in things))


def not_asked_about(ruled: Sequence[Ruled], rest: str) -> list[Ruled]:
    """The things ruled out that the rest of the request (``rest``: its text without the directives) does not
    name: a thing it asks about is no thing to leave out ("Do not suggest running BIND in a container" in a
    request about configuring BIND rules out the container, never every passage about BIND). A thing the
    request names only as absent ("they run Devuan, so there is no systemd and no udev hooks") is not asked
    about."""
    text = _normal(rest)
    names = {w for r in ruled for form in Exclusions._forms_of(r.thing) for w in form.split()}
    return [
        r
        for r in ruled
        if not any(_named_present(text, form, names) for form in Exclusions._forms_of(r.thing))
    ]


#: Words that say a thing is absent ("t": "don't", "can't" as the words of ``_normal``).
_NEGATIONS = frozenset("no not never without nor cannot t".split())
#: Words that may stand between such a word and the thing: "do not use Apache or mod_wsgi", "we cannot
#: install RELP on these boxes".
_BETWEEN = frozenset(
    "use using have run want need or and any the a an either install installing add adding enable enabling "
    "deploy deploying move moving switch switching migrate migrating go going to".split()
)


def _named_present(text: str, form: str, names: set[str]) -> bool:
    """Whether normalised ``text`` names ``form`` somewhere it is not said to be absent ("no systemd", "we do
    not use Apache or mod_wsgi", "don't use Ansible or Salt": a negation, then only verbs of use, connectors
    and the other things ruled out)."""
    for m in re.finditer(re.escape(f" {form} "), text):
        absent = False
        for word in reversed(text[: m.start()].split()[-6:]):
            if word in _NEGATIONS:
                absent = True
                break
            if word not in _BETWEEN and word not in names:
                break
        if not absent:
            return True
    return False


def excluded_things(sentence: str) -> list[str]:
    """The things ``sentence`` rules out, as written."""
    return [r.thing for r in ruled_out(sentence)]


def _normal(text: str) -> str:
    """Words only, case-folded, ``_`` and ``-`` read as spaces ("cyrus_sasl" names "Cyrus SASL")."""
    return " " + " ".join(w.casefold() for w in re.findall(r"[^\W_]+", text)) + " "


#: The first word of a name in code of three words or more ("Memcached" of "MemcachedBytecodeCache").
_CAMEL_CASE = re.compile(r"\b([A-Z][a-z]+)(?=(?:[A-Z][a-z0-9]+){2,}\b)")

_PROMPT = re.compile(r"^\s*(?:[#$%>]\s*)?")


def _runs(quote: str, forms: Sequence[str]) -> bool:
    """A line of the quote opens with the thing: its example runs it ("# dnssec-signzone -t -N INCREMENT
    ...") or sets it, whatever the sentence before the example says."""
    lines = quote.splitlines()[1:]
    return any(_normal(_PROMPT.sub("", line)).startswith(f" {form} ") for line in lines for form in forms)


_SITE = re.compile(r"\s+(?:[—–|]|-)\s+.*$")


def _labels(heading: str | None, title: str | None) -> list[str]:
    """What says what a passage is about: its own heading, its page's first heading, and its document's
    title without the site's name after it ("Apache httpd — Flask Documentation (2.2.x)": Apache httpd)."""
    path = path_parts(heading) if heading else []
    out = [path[-1], path[0]] if path else []
    if title:
        out.append(_SITE.sub("", title))
    return [label for label in dict.fromkeys(out) if label]


class Exclusions:
    """The things a request rules out, and which evidence is about one of them."""

    def __init__(self, ruled: Sequence[Ruled | str], *, subject: str = "") -> None:
        """``subject``: what the request is about ("HAProxy two client counter HTTP"): a heading that names
        a thing ruled out and the request's own subject ("How Lua runs in HAProxy") is about the thing."""
        items = [r if isinstance(r, Ruled) else Ruled(r) for r in ruled]
        self.subject = _normal(subject)
        self.ruled = list(dict.fromkeys(items))
        self.things = [r.thing for r in self.ruled]
        self._forms = [(r, self._forms_of(r.thing)) for r in self.ruled]

    def __bool__(self) -> bool:
        return bool(self.ruled)

    @staticmethod
    def _forms_of(thing: str) -> list[str]:
        """The thing, and without its last word when that is a common noun after a name ("GNU SASL
        authenticators" is named by "GNU SASL", "pipe transport" is not by "pipe"), not an activity ("HTML
        autoescaping" is not all of HTML); a common noun in the singular and the plural alike (a name as
        written: "Windows" is no window)."""
        base = _normal(thing).strip()
        forms = {base}
        parts, written = base.split(), thing.split()
        if (
            len(parts) > 1
            and written[-1].islower()
            and not written[-1].endswith("ing")
            and any(not w.islower() for w in written[:-1])
        ):
            forms.add(" ".join(parts[:-1]))
        out = set()
        for form in forms:
            out.add(form)
            if written[-1].islower():
                out.add(form[:-1] if form.endswith("s") and len(form) > 3 else f"{form}s")
        return sorted(out, key=len, reverse=True)

    def named_in(self, *texts: str | None) -> str | None:
        """The first ruled-out thing one of ``texts`` names, else None."""
        joined = " ".join(_normal(t) for t in texts if t)
        for ruled, forms in self._forms:
            if any(f" {form} " in joined for form in forms):
                return ruled.thing
        return None

    def about(self, quote: str, *, heading: str | None = None, title: str | None = None) -> str | None:
        """The ruled-out thing a piece of evidence is about: one its heading or its document's title is about
        (names, and names nothing else: "The dovecot authenticator", not "Migrating from MySQL to
        PostgreSQL"), or its quote opens with or names more than once ("dovecot_plain: driver = dovecot"); a
        passage that names it in passing is about something else ("Hydropower supplies 15% of the world's
        electricity ... more than nuclear power" is no suggestion of nuclear power). An action ruled out
        ("don't tell me to change DNS") rules out the passages that open with it or name it twice, never a
        whole chapter about DNS."""
        text = _normal(quote)
        # ... and with a name in code of three words and more read with its first word apart:
        # "MemcachedBytecodeCache" names Memcached (not "JavaScript" Java, nor "FetchFromCacheMiddleware"
        # a cache)
        parts = _normal(_CAMEL_CASE.sub(r"\1 ", quote))
        named: list[str] = []
        for ruled, forms in self._forms:
            if not ruled.action and any(
                self._is_about(label, ruled, forms) for label in _labels(heading, title)
            ):
                return ruled.thing
            found = [
                {m.start() for form in forms for m in re.finditer(re.escape(f" {form} "), said)}
                for said in (text, parts)
            ]
            at = found[0]  # how often: as written (a name in code is named once)
            first = min((min(f) for f in found if f), default=None)
            if len(at) >= 2 or (first is not None and first < OPENING_CHARS) or _runs(quote, forms):
                return ruled.thing
            if at:
                named.append(ruled.thing)
        # Two things ruled out, each named once, are what the passage is about ("using the tools
        # dnssec-keygen to create the keys and dnssec-signzone to sign the zone").
        return named[0] if len(named) >= 2 else None

    def _is_about(self, label: str | None, ruled: Ruled, forms: Sequence[str]) -> bool:
        if not label:
            return False
        last = path_parts(label)[-1]
        if not any(f" {form} " in _normal(last) for form in forms):
            return False
        names = {n.casefold() for n in named_things(last) if f" {_normal(n).strip()} " not in self.subject}
        own = _normal(ruled.thing).strip()
        return all(_normal(n).strip() in own or own in _normal(n).strip() for n in names)
