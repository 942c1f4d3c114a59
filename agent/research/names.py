"""The names a question is about, and whether any passage the searches returned mentions them.

A question about something the corpus never mentions ("How do I configure Mercurial hooks?" over git's
manual) still gets quotes the cross-encoder finds on topic: git's hooks are close in meaning. Such a report
must not call itself supported. A name the question is about (a proper noun, "Mercurial", "Kantar"; a term
in code form, "gc.auto", "max_connections", "HTTP/2", "FTS5") that stands in no passage any of the run's
searches returned is a part of the question the corpus does not cover: the report says so, and no section
is more than ``thin_evidence``. This holds by construction, whatever the judge's scores: it asks only
whether the words are there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["asked_names", "mentioned"]

_TOKEN = re.compile(r"[A-Za-z][\w.+/#-]*[\w+#]|[A-Za-z]")
#: Capitalised words that are not names when they stand inside a question.
_NOT_NAMES = frozenset(
    """i a an the and or but if in on at of to for by with from what which who whom whose why how
    when where is are was were do does did can could should would will may might must has have had""".split()
)
#: An abbreviation written with stops ("e.g", "i.e", "U.S", "a.k.a"): no name.
_ABBREVIATION = re.compile(r"(?:[A-Za-z]{1,2}\.)+[A-Za-z]{1,2}")
_CODE_SHAPE = re.compile(r"[A-Za-z]_[A-Za-z0-9]|[A-Za-z0-9]\.[A-Za-z]|[a-z][A-Z]|[A-Za-z]\d|/\d|\+\+|#")
#: What a question sets aside just before a name: "without editing haproxy.cfg", "instead of Lua".
_SET_ASIDE = re.compile(
    r"\b(?:without|instead\s+of|rather\s+than|other\s+than|except(?!\s+(?:when|if|where|while)\b))"
    r"\s+(?:(?:\w+ing|the|a|an|any|our|my)\s+){0,2}$",
    re.I,
)
_SENTENCE_START = re.compile(r"(?:^|[.!?:;][\"'”’)\]]*\s+|\n\s*)[\"'“‘(\[*•-]*$")
#: A capitalised name made into a word by plain ones ("DER-encoded", "Python-based", "Ruby-on-rails"): the
#: name is its head; the manual writes "DER encoding", "in Python". (A name in lower case keeps its parts:
#: "python3-dev", "log4j-core" are package names.)
_NAME_AND_WORD = re.compile(r"(?P<head>[A-Z][^-]*?)(?:-[a-z]+)+")


def asked_names(question: str) -> list[str]:
    """The names ``question`` is about, in order, each once: capitalised words that do not open a sentence
    (and are not "I"), and words in the form of code; single letters, two capitals and numbers are not
    names. A name joined to a plain word by a hyphen is the name alone ("DER-encoded": "DER")."""
    out: list[str] = []
    for m in _TOKEN.finditer(question):
        word = m.group(0).rstrip(".-/")
        compound = _NAME_AND_WORD.fullmatch(word)
        if compound:
            word = compound["head"]
        if _ABBREVIATION.fullmatch(word):
            continue
        if len(word) < 2 or word.lower() in _NOT_NAMES or (len(word) == 2 and word.isupper()):
            continue  # two capitals ("US", "UK") are written as many ways as they are short
        if _SET_ASIDE.search(question[: m.start()]):
            continue  # what the question does without ("without editing haproxy.cfg") is not its topic
        code = bool(_CODE_SHAPE.search(word))
        proper = word[:1].isupper() and not _SENTENCE_START.search(question[: m.start()])
        if (code or proper) and word not in out:
            out.append(word)
    return out


def _pattern(name: str) -> re.Pattern[str]:
    """A name as a passage may write it: any case, and a plain word in any number ("Senators" / "senator",
    "IDs" / "ID"); an attribute named with its object ("request.remote_addr") also by its own name when that
    is a name in code ("remote_addr — The address of the client sending the request", under the request
    object's heading), never by a plain word ("gc.auto" is not named by "auto")."""
    if name.isalpha() and name.endswith("s") and (len(name) > 3 or name[:-1].isupper()):
        stem = re.escape(name[:-2] if name.lower().endswith("es") else name[:-1])
        return re.compile(rf"(?<!\w){stem}\w{{0,3}}(?!\w)", re.I)
    last = name.rsplit(".", 1)[-1]
    if last != name and _CODE_SHAPE.search(last):
        return re.compile(rf"(?<!\w)(?:{re.escape(name)}|{re.escape(last)})(?!\w)", re.I)
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.I)


def mentioned(names: Iterable[str], texts: Iterable[str]) -> set[str]:
    """Which of ``names`` stand in any of ``texts``."""
    wanted = {n: _pattern(n) for n in names}
    found: set[str] = set()
    for text in texts:
        for name, pattern in wanted.items():
            if name not in found and pattern.search(text):
                found.add(name)
        if len(found) == len(wanted):
            break
    return found
