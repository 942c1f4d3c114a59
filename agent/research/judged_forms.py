"""What of an ask the cross-encoder judges a quote against: the whole, and the part that asks.

An ask is often asked with what it leans on: the background of its item ("Last thing: during a load test
the service failed with too many open files. We run it under supervisord. ..."), the sentence before it
("Our plain-text e-mails are full of stray blank lines ... Which settings remove those lines?"), or a clause
that sets the scene ("... the coordinators want folders they create to be writable by their Unix group;
what decides the file permissions of mailboxes created over IMAP?"). The cross-encoder, trained on short
web queries, scores the answer low under the whole text (the mailbox-mode sentence at -9.9) and high under
the part that asks (2.7); the searches read the whole, and so does the judge, the better score counting:
alone, a part that leans on what comes before loses what it is about ("can that survive the restarts?").

Judging by the part alone was tried (docs/BENCHMARKS.md, stop 58): it also ranks first what answers the
question when the background's words pull a passage that only repeats them above it (GNU Mailutils' "Run as
a standalone daemon" at 2.9 under the whole, over "max-children ... The default is 20 clients" at 0.5
under the part), but a review of the 296 unseen requests found a tenth of their asked parts meaningless
alone, and no test of the words says which.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from sleuth.agent.research.request import by_default, classify, leans_back, sentences
from sleuth.agent.research.text import NAMES_CODE, content_terms, named_things, words

__all__ = ["Judge", "judged", "judged_forms", "question_asked"]

#: The cross-encoder: a question and quotes in context to one score each.
Judge = Callable[[str, list[str]], list[float]]


def question_asked(text: str) -> str | None:
    """The part of ``text`` that asks, when ``text`` holds more (what the ask leans on) and that part stands
    alone, else None: its last sentence when that one asks (a question, or a need: "I need to know how many
    ..."), and of that sentence the question after its last semicolon ("...; what decides the file
    permissions ...?"; a colon opens what a question asks about: "Which is faster: COPY or INSERT?"). It
    is judged besides the whole, never instead (``judged_forms``): the last of several questions ("How do I
    build shared libraries? What about static libraries?") adds what it asks alone, and takes nothing."""
    said = sentences(text)
    if not said:
        return None
    last = said[-1]
    asks = last.rstrip().endswith("?") or classify(last) == "ask"
    asked = last if len(said) >= 2 and asks else None
    if asked is None and len(said) >= 2:
        return None
    closing = _closing_question(asked or text)
    if closing is not None and not leans_back(closing):
        # (a closing clause of a few words that points back is no question alone: "They keep a running
        # counter of pages per collection inside the spider; can that survive the restarts?")
        asked = closing
    return asked if asked is not None and _stands_alone(asked) else None


def judged_forms(text: str) -> list[str]:
    """What a quote is judged against for ``text``: the whole, and the part that asks (``question_asked``)
    where there is one; and, where it asks what happens when nothing is set, the same in a manual's words
    (``by_default``). The whole stays: alone, a part that leans on what comes before it loses what it is
    about ("Postgres keeps running out of connections. How do we raise the limit?")."""
    asked = question_asked(text)
    return [text, *filter(None, [asked, by_default(asked or text)])]


def judged(judge: Judge, text: str, contexts: Sequence[str]) -> list[float]:
    """Each context's best score under ``judged_forms(text)``."""
    if not contexts:
        return []
    best = [float("-inf")] * len(contexts)
    for form in judged_forms(text):
        best = [max(a, b) for a, b in zip(best, judge(form, list(contexts)), strict=True)]
    return best


def _closing_question(sentence: str) -> str | None:
    """The question after the last semicolon of ``sentence``, when it closes it with "?" (the clauses
    before set the scene)."""
    clauses = re.split(r"(?<=;)\s+", sentence.strip())
    if len(clauses) < 2 or not clauses[-1].endswith("?"):
        return None
    return clauses[-1]


def _stands_alone(asked: str) -> bool:
    """A question judged on its own says something ("Why?" does not) and names something besides the kind
    of thing it asks for ("Which setting does that?" does not: judged alone, any sentence about a setting
    answers it, and DOWNLOAD_DELAY's had answered Scrapy's "we need a hard stop ... Which setting does
    that?"; "What does SIGHUP do?" names what it asks about)."""
    if len(words(asked)) < QUESTION_WORDS:
        return False
    own = set(content_terms(asked)) - _KINDS - _ASKING
    return len(own) >= QUESTION_TERMS or bool(named_things(asked)) or bool(NAMES_CODE.search(asked))


#: The kinds of thing a question asks for, which name none of them ("Which setting controls that?").
_KINDS = frozenset(
    content_terms(
        "setting settings option options parameter parameters directive directives variable variables flag "
        "flags command commands value values function functions method methods config configuration key keys "
        "field fields attribute attributes property properties module modules class classes hook hooks event "
        "events part parts way ways thing things one"
    )
)
#: Words that ask, which name nothing asked about ("What do we need to raise, and where?": raise what?).
_ASKING = frozenset(content_terms("need needs want wants like know tell find way"))
#: A question judged on its own has at least this many words ("Why?" alone says nothing) ...
QUESTION_WORDS = 3
#: ... and names at least this many things besides the kind it asks for ("Which settings remove those
#: lines?", not "Which setting controls that?"), or a name.
QUESTION_TERMS = 2
