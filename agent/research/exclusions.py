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

from sleuth.agent.research.text import STOPWORDS, words

__all__ = ["Exclusions", "excluded_things", "remainder"]

#: A directive that rules out what follows it, up to the end of its clause.
_RULES_OUT = re.compile(
    r"\b(?:(?:please\s+)?(?:do\s+not|don't|dont|never|no\s+need\s+to)\s+"
    r"(?:suggest(?:ing)?|recommend(?:ing)?|propose|mention|use|include|consider|advise|tell\s+(?:me|us)\s+to|"
    r"want\s+to\s+use|bother\s+with)"
    r"|(?:we|i)\s+(?:can't|cannot|can\s+not|won't|will\s+not|are\s+not\s+allowed\s+to|may\s+not)\s+use"
    r"|avoid\s+(?:suggesting|recommending))"
    r"\s+(?P<things>[^.;:!?()]+)",
    re.I,
)
#: Verbs and little words a ruled-out phrase opens with that are no part of the thing ("change DNS", "route
#: through a smarthost", "a pipe transport").
_LEADING = frozenset(
    """a an the any some our your my their its of to through via with into on in onto for by
    change add route use using install set enable run configure switch move deploy buy upgrade migrate rewrite
    call send write build replace edit touch modify""".split()
)
#: What says why, or which, after the things ruled out.
_REASON = re.compile(
    r"\s+(?:because|since|unless|which|that|who|due\s+to|so|as|when|if|given|for\s+(?:this|that|our|the))\b",
    re.I,
)
_CLAUSE = re.compile(r"^(?:it|this|that|they|we|i|you|he|she)\b|\b(?:is|are|was|were|has|have|had)\b", re.I)
#: A quote that names a ruled-out thing within this many characters of its start opens with it.
OPENING_CHARS = 40
#: A ruled-out thing of more words than this is a clause, not a name.
MAX_WORDS = 4


def remainder(sentence: str) -> str:
    """``sentence`` without what rules things out ("We do not want an external daemon: don't suggest Cyrus
    SASL; everything should be done with Exim's own authenticator" keeps its first and last clauses): what is
    left is what may be searched; searching the things ruled out finds exactly what must not be cited."""
    kept = _RULES_OUT.sub(" ", sentence)
    kept = re.sub(r"\s+([,;:.!?])", r"\1", " ".join(kept.split()))
    kept = re.sub(r"[,;:]+(?=[,;:.!?])", "", kept)  # "daemon:; everything" reads "daemon; everything"
    return re.sub(r"^[,;:.!?\s]+|[,;:\s]+(?=[.!?]?$)", "", kept).strip()


def excluded_things(sentence: str) -> list[str]:
    """The things ``sentence`` rules out, as written ("Cyrus SASL", "Dovecot", "GNU SASL authenticators",
    "DNS", "backup MX records", "smarthost")."""
    out: list[str] = []
    for m in _RULES_OUT.finditer(sentence):
        things = _REASON.split(m.group("things"), maxsplit=1)[0]  # "MySQL because of licensing"
        for item in re.split(r",|\s+(?:or|and|nor)\s+", things):
            kept = item.split()
            while kept and kept[0].casefold() in _LEADING:
                kept = kept[1:]
            if not kept or len(kept) > MAX_WORDS or _CLAUSE.search(" ".join(kept)):
                continue  # "compctl, it is deprecated": the second is a clause, not a thing
            thing = " ".join(kept).strip(" \"'“”‘’")
            if thing and any(w.casefold() not in STOPWORDS for w in words(thing)):
                out.append(thing)
    return list(dict.fromkeys(out))


def _normal(text: str) -> str:
    """Words only, case-folded, ``_`` and ``-`` read as spaces ("cyrus_sasl" names "Cyrus SASL")."""
    return " " + " ".join(w.casefold() for w in re.findall(r"[^\W_]+", text)) + " "


class Exclusions:
    """The things a request rules out, and which text names one of them."""

    def __init__(self, things: Sequence[str]) -> None:
        self.things = list(dict.fromkeys(things))
        self._forms = [(thing, self._forms_of(thing)) for thing in self.things]

    def __bool__(self) -> bool:
        return bool(self.things)

    @staticmethod
    def _forms_of(thing: str) -> list[str]:
        """The thing, and without its last word when that is a common noun after a name ("GNU SASL
        authenticators" is named by "GNU SASL", "pipe transport" is not by "pipe"); singular and plural
        alike."""
        base = _normal(thing).strip()
        forms = {base}
        parts, written = base.split(), thing.split()
        if len(parts) > 1 and written[-1].islower() and any(not w.islower() for w in written[:-1]):
            forms.add(" ".join(parts[:-1]))
        out = set()
        for form in forms:
            out.add(form)
            out.add(form[:-1] if form.endswith("s") and len(form) > 3 else f"{form}s")
        return sorted(out, key=len, reverse=True)

    def named_in(self, *texts: str | None) -> str | None:
        """The first ruled-out thing one of ``texts`` names, else None."""
        joined = " ".join(_normal(t) for t in texts if t)
        for thing, forms in self._forms:
            if any(f" {form} " in joined for form in forms):
                return thing
        return None

    def about(self, quote: str, *, heading: str | None = None, title: str | None = None) -> str | None:
        """The ruled-out thing a piece of evidence is about: one its document's title or its heading names
        (the Dovecot authenticator's chapter), or its quote opens with or names more than once
        ("dovecot_plain: driver = dovecot"); a passage that names it in passing is about something else
        ("Hydropower supplies 15% of the world's electricity ... more than nuclear power" is no suggestion of
        nuclear power)."""
        named = self.named_in(heading, title)
        if named is not None:
            return named
        text = _normal(quote)
        for thing, forms in self._forms:
            at = [m.start() for form in forms for m in re.finditer(re.escape(f" {form} "), text)]
            if len(set(at)) >= 2 or (at and min(at) < OPENING_CHARS):
                return thing
        return None
