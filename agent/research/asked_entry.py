"""The entry a question asks about by name, and the quotes that stand in it.

"What is the default value of the Timeout directive?", "What does the L flag do in a RewriteRule?", "What
does the AUTO_CD option do?": the question names one thing of a kind a manual gives an entry of its own (a
directive, a flag, an option, a filter, ...). That entry's section, headed by the name ("TimeOut Directive",
"L|last", "AUTO_CD", "truncate(s, length=255, ...)"), is the most direct answer whatever the judge scores:
it read "The default value of 30 seconds is recommended by RFC 1413" (IdentityCheckTimeout's) as a better
answer than Timeout's own record "Default: TimeOut 60". A quote is in the entry by its heading, as the
document labels it, never by its words (every timeout directive's text says "timeout").
"""

from __future__ import annotations

import re

from sleuth.agent.research.claim_names import heading_of
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.text import QUOTE_MARKS, STOPWORDS
from sleuth.ingest.term_lines import signature_name

__all__ = ["asked_entry", "in_entry"]

#: Kinds of things a manual gives an entry of their own, as a question names them after the name.
_KINDS = (
    "directive|flag|option|setting|parameter|command|function|variable|pragma|module|hook|macro|keyword|"
    "method|class|attribute|filter|handler|field|property|signal|tag|builtin|target"
)
#: "the <name> <kind>": one token between the article and the kind ("the default cascade setting" names no
#: one thing).
_ASKED = re.compile(rf"\bthe\s+([^\s,;:?!()]+)\s+(?:{_KINDS})s?\b", re.I)
#: A name in the form of code: a capital or a digit, a sign, an underscore, a bracket ("Timeout", "L",
#: "AUTO_CD", "sqlite3", "$?", "-j", "<Directory>"); a word in lower case is a word ("the water filter",
#: "the inflation target", "the security settings"), unless the question quotes it ("the `truncate`
#: filter").
_CODE_LIKE = re.compile(r"[A-Z0-9_$<>()|.@%-]")
#: Words that stand where a name would and are none ("the old directives", "the same option").
_NOT_NAMES = STOPWORDS | frozenset(
    "default old new same other first last main following right best whole next previous given".split()
)
#: A heading's closing kind word ("TimeOut Directive", "<Directory> Directive").
_KIND_WORD = re.compile(rf"\s+(?:{_KINDS})$", re.I)


def asked_entry(question: str) -> str | None:
    """The one name ``question`` asks about as an entry ("timeout" of "the Timeout directive", casefolded), or
    None (no such name, a word, or two different names)."""
    names: set[str] = set()
    for m in _ASKED.finditer(question):
        written = m.group(1)
        name = written.strip(QUOTE_MARKS)
        quoted = name != written
        if name and (quoted or (_CODE_LIKE.search(name) and name.casefold() not in _NOT_NAMES)):
            names.add(name.casefold())
    return names.pop() if len(names) == 1 else None


def in_entry(evidence: Evidence, name: str) -> bool:
    """Whether ``evidence`` stands in the entry of ``name``: the heading over it is the name, alone, with its
    kind ("TimeOut Directive"), among its forms ("L|last", "-j, --jobs") or as a signature's name
    ("truncate(s, length=255, ...)", "jinja2.Template(source, ...)")."""
    heading = heading_of(evidence).strip()
    if not heading:
        return False
    forms = {heading}
    signature = signature_name(heading)
    if signature is not None:
        forms |= {signature, signature.rsplit(".", 1)[-1]}
    bare = _KIND_WORD.sub("", heading)
    short = re.sub(r"\s+\([^()]*\)$", "", bare)  # "AUTO_CD (-J)": the option and its flag
    forms |= {bare, bare.strip("<>"), short}
    forms |= {part.strip().strip("<>") for part in re.split(r"[|,]|\s/\s", bare)}
    return name.casefold() in {f.casefold() for f in forms if f}
