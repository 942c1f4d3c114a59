"""A term line: one short line that names a thing in code, set over the paragraph that describes it.

Manuals without a definition list's markup set a command or an option on a line of its own over its
description: HAProxy's "disable server <backend>/<server>" over "Mark the server DOWN for maintenance.",
a manual page's "-q" over "Attempt to deliver all queued mail.", "minimal_backoff_time (300s)", an API
reference's signature "class jinja2.PackageLoader(package_name, package_path='templates')" over "Load
templates from a directory in a Python package.". The
description read alone says nothing of which command it describes; the chunker keeps the line with it and
a quote takes the line along.
"""

from __future__ import annotations

import re

__all__ = ["TERM_WORDS", "TYPE_WORDS", "defined_name", "is_term_line", "signature_name"]

#: A term line has at most this many words ("set server <backend>/<server> state [ ready | drain | maint ]"),
#: its optional and alternative arguments aside (``_ARGUMENTS``).
TERM_WORDS = 12
#: A synopsis line (a name and its arguments in brackets) has at most this many characters.
SYNOPSIS_CHARS = 320
#: One argument group of a synopsis, innermost first: "[ hdr <name> <fmt> ]*", "{ if | unless }".
_ARGUMENTS = re.compile(r"\[[^\[\]\"']*\][*+]?|\{[^{}\"']*\}[*+]?")
#: Words of prose that no synopsis holds outside its argument groups.
_PROSE_WORDS = frozenset("the a an is are and of to between denotes means which that where for with".split())
#: A name in code in a term line: a placeholder, an underscore, a call, an option, a camel-case name.
_CODE_TERM = re.compile(r"<\w[\w-]*>|\w_\w|\w\(\)|(?<!\w)--?\w|[a-z][A-Z]")
#: A signature: the line opens with the name called (after "class", "def", ...) and ends with its brackets
#: (one level of brackets inside them: "bar()" as a default), a return type or Sphinx's "[source]" ("class
#: jinja2.PackageLoader(package_name, package_path='templates')", "Template.render(*args, **kwargs)"); not
#: a title or a pointer that names a call ("When to use include()", "See also: sqlite3_data_count()").
_SIGNATURE = re.compile(
    r"^(?:(?:class|def|async|method|function|classmethod|staticmethod|exception)\s+)*"
    r"([A-Za-z_][\w-]*(?:\.[A-Za-z_]\w*)*)"
    r"\((?:[^()]|\([^()]*\))*\)(?:\s*(?:→|->)\s*[^\s()]+)?(?:\s*\[source\])?$"
)
_STOPS = (".", "!", "?", ":", ";", ")", '"', "”", "’", "'", ",")
#: What a name in code may open with ("-q", "<file>", "$HOME", ".PHONY", "@", "%option").
_SIGNS = "-<$.@%"
_OPENING_QUOTES = "'‘\"“`"
_CLOSING_QUOTES = "'’\"”`"


#: A definition's line as Texinfo writes it (``@deffn``, ``@defun``, ``@defmac``, ``@defvar``, ...): the kind
#: of thing, a colon, then the name and its arguments: GNU Bison's "Macro: YYABORT ;", "Directive: %define
#: lr.type type", glibc's "Function: int pthread_mutex_lock (pthread_mutex_t *mutex)", GNU m4's "Builtin:
#: m4wrap (string, …)" and "Composite: forloop (...)". The group: the rest.
_DEFINITION = re.compile(
    r"^(?:(?:(?:User|Special|Instance|Class|Library|Built-in|Interactive|Static|Generic|Obsolete)\s+)?"
    r"(?:Function|Macro|Variable|Directive|Command|Option|Form|Constant|Hook|Signal|Keyword|Primitive|"
    r"Procedure|Method|Class|Structure|Parameter|Property|Event|Symbol|Builtin|Composite)"
    r"|Data Type|Method on \S+|Operation on \S+):\s+(\S.*)$"
)
#: ... and with a category of the manual's own (``@deffn {Pop3d Conf} login-delay duration``: GNU
#: Mailutils' "Pop3d Conf: login-delay duration", "Mail command: set ...", "mail: boolean nullbody"): up to
#: three words, then a name in code that opens in lower case or with a sign.
_OWN_CATEGORY = re.compile(r"^([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2}):\s+([a-z%@$.<-]\S*(?:\s.*)?)$")
#: Labels of a record's fields and of asides, which no category is ("Default: 0", "Type: int", "Context:
#: server config", "See also: sqlite3_data_count()", "Note: ..."). Compared lower case, the whole label.
_NO_CATEGORY = frozenset(
    """see also note notes warning warnings example examples tip tips hint important caution danger attention
    default defaults type types return returns raises parameters parameter value values usage context scope
    status module modules compatibility since deprecated changed new added version versions syntax override
    overrides summary description source author authors license copyright date platform platforms
    availability output input result results error errors answer question subject from to cc reply-to
    format requires required optional arguments argument options homepage units unit""".split()
)
#: Types a Texinfo definition names before the thing (``@deftypevr {mail} boolean nullbody``).
TYPE_WORDS = frozenset(
    "boolean bool string str number numeric int integer float double char long short unsigned signed void "
    "size list time duration const struct enum".split()
)
#: A name in code: a sign, a dot, an underscore, a bracket, a hyphen inside a word, or capitals.
_NAME_IN_CODE = re.compile(r"[%@$*_.()<>{}\[\];]|\w-\w|\b[A-Z][A-Z0-9]+\b")


def defined_name(line: str) -> str | None:
    """What a definition's line defines, its kind left out ("YYABORT ;" of "Macro: YYABORT ;"), or None when
    ``line`` is no such line."""
    line = " ".join(line.split())
    found = _DEFINITION.match(line)
    if found is None:
        own = _OWN_CATEGORY.match(line)
        label = own.group(1).casefold() if own is not None else ""
        if own is not None and label not in _NO_CATEGORY and label.split()[0] not in _NO_CATEGORY:
            rest = own.group(2)
            parts = rest.split()
            if (
                rest.endswith((".", "!", "?", ":", ","))
                or len(parts) > TERM_WORDS
                or "://" in rest
                or re.search(r"\S@\S+\.", rest)  # (a label's link or address: "Bug reports: bug-x@gnu.org")
            ):
                return None
            # A name in code ("login-delay duration", "alias [alias [address...]]"), or a type and a name
            # ("boolean nullbody"); not words after a label ("Python: pip install foo", "Units: seconds").
            typed = len(parts) >= 2 and parts[0].casefold() in TYPE_WORDS
            return rest if typed or _NAME_IN_CODE.search(rest) else None
    if (
        found is None
        or len(found.group(1).split()) > TERM_WORDS
        or found.group(1).endswith((".", "!", "?", ":"))
    ):
        return None  # (a sentence after a label: "Commands: see below.")
    rest = found.group(1)
    if len(rest.split()) > 1 and not _NAME_IN_CODE.search(rest):
        return None  # (words after a label: "Option: see the table", "Type: the login form")
    if len(rest.split()) == 1 and rest[:1].isupper() and rest[1:].islower():
        return None  # (a value after a label: "Option: Required")
    return rest


def signature_name(line: str) -> str | None:
    """The name a signature calls ("jinja2.PackageLoader" of "class jinja2.PackageLoader(package_name)"), or
    None when ``line`` is no signature."""
    found = _SIGNATURE.match(" ".join(line.split()))
    return found.group(1) if found else None


def _named(line: str) -> str:
    """``line`` without its argument groups: a synopsis names a command and its arguments in brackets
    (HAProxy's "http-request deny [ { status | deny_status } <code>] [content-type <type>] [ ... ]* [ { if |
    unless } <condition> ]" over "This stops the evaluation of the rules and immediately rejects the
    request"), and its words are the name's and the fixed arguments', however many the groups hold."""
    if "[" not in line and "{" not in line:
        return line  # (no groups: most lines, on the hot path of every passage's windows)
    whole = line
    while True:
        bare = _ARGUMENTS.sub(" ", line)
        if bare == line:
            break
        line = bare
    # (prose that says what brackets mean, "where [ ... ] denotes optional arguments", is no synopsis)
    return whole if {w.casefold() for w in line.split()} & _PROSE_WORDS else line


def is_term_line(text: str) -> bool:
    """Whether ``text`` (visible text, not Markdown) is one short line naming a thing, not a sentence nor a
    title: it opens in lower case or with a sign ("-q", "<file>", "$HOME"), or holds a name in code."""
    line = text.strip()
    if len(line) > 2 and line[0] in _OPENING_QUOTES and line[-1] in _CLOSING_QUOTES:
        line = line[1:-1].strip()  # Texinfo quotes its terms: "‘-n’", "'--just-print'"
    if "\n" in line or not line or len(line) > SYNOPSIS_CHARS or len(_named(line).split()) > TERM_WORDS:
        return False
    if defined_name(line) is not None:
        return True  # Texinfo's "Directive: %define lr.type type" over its description's list
    if len(line.split()) == 1 and line[0] in _SIGNS and len(line) > 1:
        return True  # one name that opens with a sign, whatever it ends with: make's "$?", "$^"
    if line.endswith(_STOPS) and not line.endswith(")"):
        return False
    if signature_name(line) is not None:
        return True
    if line.endswith(")") and not re.search(r"\(\S+\)$", line):
        return False  # a parenthesis closing a sentence, not a default in brackets ("(300s)")
    return line[0].islower() or line[0] in _SIGNS or _CODE_TERM.search(line) is not None
