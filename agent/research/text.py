"""Text the research agent reads: sentence spans in chunk Markdown, content terms, named things, numbers.

Everything here returns positions in the text it was given, so that a quote is always a slice of stored
text (verbatim by construction), never a rebuilt string.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from py_rust_stemmers import SnowballStemmer

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?%?")
SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z0-9])")
_ABBREVIATION = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|ca|no|nos|fig|figs|eq|al|inc|ltd|co|corp|dr|mr|mrs|(?<!\d\s)ms|prof|st|jr|sr|"
    r"u\.s|u\.k|e\.u|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)|\b[A-Z])\.$",
    re.I,
)
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_QUOTE_MARK = re.compile(r"^\s*(?:>\s*)+")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_MARKUP = re.compile(r"(\*\*|__|`|\[[^\]]*\]\([^)]*\))")
_EMPHASIS = re.compile(r"(?<![\w*])[*_]([^*_\n]+?)[*_](?![\w*])")

#: The marks a text sets a name or a phrase in (straight, typographic, a backtick): "'-n'", "‘--dry-run’",
#: "the `truncate` filter".
QUOTE_MARKS = "'‘’\"“”`"

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have having
    he her here hers herself him himself his how i if in into is it its itself just me more most my myself no
    nor not now of off on once only or other our ours ourselves out over own same she should so some such than
    that the their theirs them themselves then there these they this those through to too under until up very
    was we were what when where which while who whom why will with would you your yours yourself yourselves
    what's which whose within without may might must shall upon via per among amongst whether either neither
    one ones many much several every each etc vs its it's i.e e.g rather instead quite really even still
    already""".split()
)
#: Capitalised words that start sentences or name times, not things worth a question of their own.
_NOT_NAMES = frozenset(
    """The A An In On At By For From To Of And Or But If When While After Before As It Its This That These
    Those There Here They Their He She His Her We Our You Your I Is Are Was Were Be Been Has Have Had Do
    Does Did Not No Yes Also However Although Because Since Thus Therefore Moreover Furthermore
    Meanwhile Today Currently Some Many Most Several Each Every All Both Other Such Which What Who Whom
    Whose Where Why How Than Then January February March April May June July August September October
    November December Monday Tuesday Wednesday Thursday Friday Saturday Sunday Note See Figure Table
    Section Chapter Appendix Example Examples Unlike Like With Without Between Among During Until Under
    Over About Into Through Despite Within Upon According Following Including Based First Second Third
    Finally Later Earlier Early Late One Two Three""".split()
)
#: Words that open "X of the Y" without being part of a name ("None of the", "Instead of the").
_OF_OPENERS = frozenset(
    """None Neither Either Few Part Half Any Much Use Instead Most Some All Each One Both Many Several Out
    Because Outside Inside Ahead Members Made Top Bottom Rest Parts Front Back Side Sides""".split()
)
_CONNECTORS = frozenset({"of", "the", "and", "de", "du", "des", "la", "le", "von", "van", "der", "for", "&"})


@cache
def _stemmer() -> SnowballStemmer:
    return SnowballStemmer("english")


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def content_terms(text: str) -> list[str]:
    """Lower-cased, stemmed words of ``text`` that carry content (stop words and bare numbers dropped)."""
    kept = [w.lower() for w in words(text)]
    kept = [w for w in kept if w not in STOPWORDS and not w.isdigit() and len(w) > 1]
    return _stemmer().stem_words(kept) if kept else []


def term_set(text: str) -> frozenset[str]:
    return frozenset(content_terms(text))


def stems(words_: Iterable[str]) -> frozenset[str]:
    lowered = [w.lower() for w in words_ if w.strip()]
    out: set[str] = set()
    for phrase in lowered:
        out.update(_stemmer().stem_words(phrase.split()))
    return frozenset(out)


def numbers(text: str) -> set[str]:
    """Numbers written in ``text``, normalised (thousands separators dropped): 4,200 and 4200 are one."""
    return {m.group(0).lstrip("+").replace(",", "") for m in _NUMBER.finditer(text)}


_MEASURE = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*(%|[^\W\d_]+)", re.UNICODE)
_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d|2100)(?!\d)")


#: Words before a number that make it a name, not a quantity: "HTTP 403 error", "RFC 3339 date", "port 80",
#: "chapter 12". Two such names are two things, never two values of one measure.
_NAMED_BY_NUMBER = re.compile(
    r"\b(?:https?|status|code|rfc|port|version|chapter|section|rule|table|figure|bug|pep|iso|signal)\s*#?$",
    re.I,
)


#: How far before a number the word that names it may start ("version ").
_NAME_CHARS = 12


def measures(text: str) -> dict[str, set[str]]:
    """Numbers by the unit word after them: "38 percent" -> {"percent": {"38"}}; years are not measures, nor
    numbers that name a thing ("HTTP 403 error", "port 80 traffic": ``_NAMED_BY_NUMBER``)."""
    out: dict[str, set[str]] = {}
    for m in _MEASURE.finditer(text):
        value, unit = m.group(1).replace(",", ""), m.group(2).lower()
        before = text[max(0, m.start() - _NAME_CHARS) : m.start()]
        if _YEAR.fullmatch(value) or unit in STOPWORDS or _NAMED_BY_NUMBER.search(before):
            continue
        out.setdefault("%" if unit in ("%", "percent", "per") else unit, set()).add(value)
    return out


def years(text: str) -> set[str]:
    return set(_YEAR.findall(text))


@dataclass(frozen=True, slots=True)
class Span:
    """``text[start:end]`` of the text it was cut from; ``kind`` is sentence, item or row."""

    start: int
    end: int
    kind: str


def sentence_spans(markdown: str) -> list[Span]:
    """Quotable units of chunk Markdown: sentences of paragraphs, list items, table rows.

    Headings, fences, table rules and code are skipped; a span never starts with list or quote markup.
    """
    spans: list[Span] = []
    offset = 0
    in_code = False
    block: list[tuple[int, str]] = []

    def flush() -> None:
        if block:
            start = block[0][0]
            end = block[-1][0] + len(block[-1][1])
            spans.extend(_sentences(markdown, start, end))
            block.clear()

    for line in markdown.splitlines(keepends=True):
        start = offset
        offset += len(line)
        body = line.rstrip("\r\n")
        if _FENCE.match(body):
            flush()
            in_code = not in_code
            continue
        if in_code or not body.strip() or _HEADING.match(body) or _TABLE_RULE.match(body):
            flush()
            continue
        if body.lstrip().startswith("|"):
            flush()
            lead = len(body) - len(body.lstrip())
            spans.append(Span(start + lead, start + len(body.rstrip()), "row"))
            continue
        marker = _LIST_MARK.match(body) or _QUOTE_MARK.match(body)
        if marker:
            flush()
            block.append((start + marker.end(), body[marker.end() :]))
            continue
        if body.startswith("    ") and not block:
            continue  # indented code
        block.append((start + (len(body) - len(body.lstrip())), body.lstrip()))
    flush()
    return [s for s in spans if len(words(markdown[s.start : s.end])) >= (2 if s.kind == "row" else 3)]


def sentence_bounds(
    text: str, start: int, end: int, *, abbreviation: re.Pattern[str] = _ABBREVIATION
) -> list[tuple[int, int]]:
    """Where the sentences of ``text[start:end]`` stand, each with what closes it after its stop ("(Recall
    that ... code 034.)" keeps its bracket); a stop after an ``abbreviation`` ends none."""
    out: list[tuple[int, int]] = []
    cursor = start
    for m in SENTENCE_END.finditer(text, start, end):
        candidate = text[cursor : m.start() + len(m.group(0).rstrip())].rstrip()
        if abbreviation.search(candidate.rstrip("\"'”’)]")):
            continue
        out.append((cursor, cursor + len(candidate)))
        cursor = m.end()
    tail = text[cursor:end].rstrip()
    if tail:
        out.append((cursor, cursor + len(tail)))
    return out


def _sentences(text: str, start: int, end: int) -> list[Span]:
    return [Span(a, b, "sentence") for a, b in sentence_bounds(text, start, end)]


#: A placeholder "it", which points at nothing: "It is possible to nest array fields", "It's important to
#: realize that ..." (not "It is set to ON when ...", which says what the sentence before named).
PLACEHOLDER_IT = (
    r"it(?:'s|’s|\s+is|\s+was)\s+(?:(?:also|often|usually|generally|not|now|still|therefore|thus)\s+)?"
    r"(?:possible|impossible|important|useful|necessary|recommended|advisable|easy|easier|difficult|hard|"
    r"common|best|better|safe|safer|wise|sufficient|worth|likely|unlikely|clear|true|good|convenient|"
    r"preferable|essential|permissible|allowed|required|customary|typical|reasonable)\b"
)
#: The separator of a section path's headings ("Page title > Section > Subsection").
PATH_SEPARATOR = " > "


def path_parts(section_path: str | None) -> list[str]:
    """The headings of a section path, page title first, each on one line (headings may hold line breaks);
    ``[""]`` for a passage with no path, so that the first and the last part always exist."""
    return [" ".join(part.split()) for part in (section_path or "").split(PATH_SEPARATOR)]


#: A name in code or an option, in a sentence or a heading: "test --parallel", "ATOMIC_REQUESTS",
#: "on_commit()", "gc.auto", "manage.py", "maxConnections".
NAMES_CODE = re.compile(r"(?<![\w-])--?[a-z][\w-]*|\w_\w|\w\(\)|[a-z]\.[a-z]{2,}\b|[a-z][A-Z]")


def plain(text: str) -> str:
    """Text with inline Markdown markup (emphasis, code ticks, link targets) taken out, for reading only."""
    text = _MARKUP.sub(lambda m: _link_text(m.group(0)), text)
    return " ".join(_EMPHASIS.sub(r"\1", text).split())


def _link_text(markup: str) -> str:
    if markup.startswith("["):
        return markup[1 : markup.index("]")]
    return ""


def named_things(text: str) -> list[str]:
    """Proper names in ``text`` (runs of capitalised words, with connectors such as "of the"), in order.

    A single capitalised word at the start of a sentence counts only when it is not a common opener; names
    of months, days and document parts are not things worth researching on their own.
    """
    tokens = [(m.group(0), m.start()) for m in _WORD.finditer(text)]
    names: list[str] = []
    i = 0
    while i < len(tokens):
        word, pos = tokens[i]
        if not _capitalised(word) or word in _NOT_NAMES:
            i += 1
            continue
        run = [word]
        j = i + 1
        while j < len(tokens):
            nxt = tokens[j][0]
            gap = text[tokens[j - 1][1] + len(tokens[j - 1][0]) : tokens[j][1]]
            if gap not in (" ", "-", " & "):
                break
            if _capitalised(nxt) or (
                nxt in _CONNECTORS and j + 1 < len(tokens) and _capitalised(tokens[j + 1][0])
            ):
                run.append(nxt)
                j += 1
            elif (
                nxt == "of"
                and not (len(run) == 1 and run[0] in _OF_OPENERS)
                and j + 2 < len(tokens)
                and tokens[j + 1][0] == "the"
                and _capitalised(tokens[j + 2][0])
                and text[tokens[j][1] + 2 : tokens[j + 2][1]] == " the "
            ):
                run += [nxt, "the"]  # "Seven Wonders of the World", "Bank of the West": one name
                j += 2
            else:
                break
        sentence_start = pos == 0 or bool(re.search(r"[.!?:]\s*[\"'“(]?$", text[max(0, pos - 4) : pos]))
        if len(run) > 1 or not sentence_start:
            last_word, last_pos = tokens[j - 1]
            names.append(
                text[pos : last_pos + len(last_word)]
            )  # as written: "Godwin-Austen", not "Godwin Austen"
        i = j
    return names


def _capitalised(word: str) -> bool:
    return (word[:1].isupper() and not word.isupper()) or (word.isupper() and 2 <= len(word) <= 6)


def acronyms(text: str) -> list[str]:
    return re.findall(r"\b[A-Z][A-Z0-9]{1,5}s?\b", text)
