"""The lines of code a quote ends with, kept as lines.

A quote is joined into one line for a claim (a list's items, a table's rows set apart by semicolons), but
code joined so is other code: a ``#`` comment swallows the lines after it, a semicolon lands inside an
argument list (rsyslog's ``module(load="imuxsock" # needs to be done just once SysSock.RateLimit.Interval=
"0")``). The code a sentence introduces is therefore split off and shown as a block, by the claim and in the
report's list of evidence. Its own module because both the claims (``synthesis``) and the report's Markdown
(``sleuth.agent.report``, which ``synthesis`` imports) need it.
"""

from __future__ import annotations

import re
import textwrap

__all__ = ["INTRO_WORDS", "code_tail", "fenced", "split_code"]

#: A line introduces what follows when it has at least this many words.
INTRO_WORDS = 4

_NUMBERED = re.compile(r"^\s*\d+[.)]\s+[A-Za-z]")
#: What marks a line as code rather than prose: assignment, brackets, a variable's sigil, a comment, a
#: statement's end, a redirection, a glob.
_CODE_MARK = re.compile(r"[=(){}\[\]$#@;<>*\\]")


def code_tail(quote: str) -> tuple[str, str]:
    """``quote`` split before the lines of code that end it, those lines dedented; else ``(quote, "")``.

    Code ends a quote after a sentence that introduces it with a colon (lines set apart by single line
    breaks, neither list items nor table rows), or after a sentence and a blank line when the lines read as
    code ("The following sample is used to turn off input rate limiting on the system log socket." over
    ``module(load="imuxsock" ...)``): most of them carry a mark of code, and they are not all sentences."""
    raw = quote.rstrip().split("\n")
    intro = next(
        (k for k in range(len(raw) - 1, -1, -1) if raw[k].rstrip().endswith(":") and _introduces(raw[k])),
        None,
    )
    if intro is not None:
        code = raw[intro + 1 :]
        if code and not code[0].strip():
            code = code[1:]  # a blank line between the sentence and its code
        if len(code) >= 2 and all(line.strip() and _code_like(line) for line in code):
            return "\n".join(raw[: intro + 1]), _dedented(code)
    blank = next((k for k in range(len(raw) - 1, 0, -1) if not raw[k].strip()), None)
    if blank is None or not _introduces(raw[blank - 1]):
        return quote, ""
    code = raw[blank + 1 :]
    if len(code) < 2 or not all(line.strip() and _code_like(line) for line in code):
        return quote, ""
    if not _reads_as_code(code):
        return quote, ""
    return "\n".join(raw[:blank]).rstrip(), _dedented(code)


def split_code(quote: str, code_at: int | None) -> tuple[str, str]:
    """``quote`` split before the code it ends with, where the source said it starts (``code_at``: the
    example fenced in its Markdown); else as ``code_tail`` tells it from the text."""
    if code_at is not None and 0 < code_at < len(quote):
        return quote[:code_at].rstrip(), _dedented(quote[code_at:].rstrip("\n").split("\n"))
    return code_tail(quote)


def _dedented(code: list[str]) -> str:
    return textwrap.dedent("\n".join(line.rstrip() for line in code))


def _introduces(line: str) -> bool:
    """A sentence, not a line of code that ends on a colon ("class PrimaryReplicaRouter:", "fixed_login:")."""
    return not line[:1].isspace() and len(line.split()) >= INTRO_WORDS


def _code_like(line: str) -> bool:
    """Not a list item (bulleted or numbered) and not a table row."""
    return not line.lstrip().startswith("• ") and " | " not in line and not _NUMBERED.match(line)


def _reads_as_code(lines: list[str]) -> bool:
    """Lines that are code, not a paragraph broken into lines: every one carries a mark of code (or is
    indented), or the first is a shell prompt or a comment (a console session: "$ gunicorn -w 4
    'hello:create_app()'" and what the program prints, "Booting worker with pid: x"); and none is a
    sentence that introduces or ends ("This is shaping up well. Let's add some search capability:" stands
    between two blocks of a tutorial's code)."""
    session = bool(_SESSION.match(lines[0])) if lines else False
    return all(
        (session or _CODE_MARK.search(line) or line[:1].isspace())
        and not (_introduces(line) and line.rstrip().endswith((":", ".", "!", "?")))
        for line in lines
    )


#: A console session's first line: a shell or Python prompt, or a comment.
_SESSION = re.compile(r"^(?:\$|#|>>>|\.\.\.\\>|C:\\.*>)\s")


def fenced(code: str) -> list[str]:
    """``code`` as the lines of a Markdown code block, its fence longer than any run of backticks in it."""
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", code)), default=0))
    return [fence, *code.split("\n"), fence]
