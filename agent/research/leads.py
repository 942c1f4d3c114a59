"""Leads: what the evidence mentions without explaining, turned into questions one level deeper.

Three kinds, found in the quotes of new evidence:
- named things (people, companies, places, products: runs of capitalised words) that the question did not
  name and that no document in the ledger is about (acronyms are not: a text usually explains its own);
- quoted or defined terms (“...”, "...") of a few words;
- cross-references ("see Section 4.2", "described in Chapter 3"), looked up inside the same document;
- links a quote carries to another document of the corpus ("run the [VACUUM](lang_vacuum.html) command"):
  the question that found the quote is asked again inside the page it points to (``find_links``).

A lead's priority grows with how many pieces of evidence mention it and how relevant they were; the
discovery loop takes the best leads first, within its question budget, and never asks the same thing twice.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import unquote

from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.text import content_terms, named_things, term_set

_QUOTED = re.compile(r"[“\"]([^”\"\n]{3,60})[”\"]")
_CROSS_REF = re.compile(
    r"\b(?:see(?: also)?|cf\.|described in|discussed in|explained in|defined in|detailed in|refer to|"
    r"as shown in|given in|listed in)\s+((?:the\s+)?(?:section|chapter|appendix|part|table|figure)\s+"
    r"[\dA-Z][\w.]*(?:\s+[\"“][^\"”]{3,60}[\"”])?)",
    re.I,
)


#: A Markdown link: its text and its target (an inline link, as the converters write HTML's <a href>).
_LINK = re.compile(r"(?<!!)\[([^\[\]\n]{1,80})\]\(([^()\s]+)\)")  # (an image, "![alt](src)", is none)
#: A target outside the corpus: a scheme ("https:", "mailto:") or a path from the root of a site.
_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|/)", re.I)


@dataclass(frozen=True, slots=True)
class Lead:
    text: str
    #: Where the question is asked: a document to stay in (cross-references), else the whole corpus.
    document_id: str | None
    sections: tuple[str, ...]
    priority: float
    kind: str


def find_leads(
    evidence: Iterable[Evidence], *, asked: Iterable[str], known_documents: Iterable[str], focus: str
) -> list[Lead]:
    """Leads in ``evidence``, best first; ``asked``: questions already asked; ``focus``: the user's query.

    A name is a lead when the evidence mentions it but is not about it: not the document's own subject
    under another spelling ("Franklin Delano Roosevelt" in the article "Franklin D. Roosevelt"), not a thing
    a document of the ledger is about, not already asked. One-word names need two quotes mentioning them
    ("American" in one sentence is an adjective, not a subject). Priority: the relevance to the query of the
    evidence that mentions it.
    """
    items = list(evidence)
    asked_terms: set[str] = set()
    for question in asked:
        asked_terms |= term_set(question)
    known = {_key(d) for d in known_documents}
    focus_words = " ".join(_focus_words(focus))
    scores: dict[str, float] = defaultdict(float)
    mentions: dict[str, int] = defaultdict(int)
    spelling: dict[str, str] = {}
    sections: dict[str, set[str]] = defaultdict(set)
    refs: list[Lead] = []
    for item in items:
        quote = item.quote
        own = term_set(f"{item.document_id or ''} {item.title or ''}")
        for name in dict.fromkeys([*named_things(quote), *_QUOTED.findall(quote)]):
            if not _followable(name):
                continue
            key = _key(name)
            terms = term_set(name)
            if not key or not terms or key in known or terms <= asked_terms:
                continue
            if len(terms & own) >= 0.5 * len(terms):
                continue
            scores[key] += 0.5 + max(item.relevance, 0.0)
            mentions[key] += 1
            spelling.setdefault(key, name.strip())
            sections[key].update(item.sections)
        for ref in _CROSS_REF.findall(quote):
            if item.document_id:
                refs.append(
                    Lead(ref.strip(), item.document_id, tuple(item.sections), 2.0 + item.relevance, "ref")
                )
    leads = [
        Lead(f"{spelling[key]} {focus_words}".strip(), None, tuple(sorted(sections[key])), score, "name")
        for key, score in scores.items()
        if len(key.split()) > 1 or mentions[key] >= 2
    ]
    return sorted([*refs, *leads], key=lambda lead: -lead.priority)


def _followable(name: str) -> bool:
    """A name or term a person would look up: words, not an identifier, an anchor or a file name."""
    stripped = name.strip()
    if any(c in stripped for c in "_/\\<>{}[]=#@") or sum(c.isdigit() for c in stripped) > 4:
        return False
    letters = [c for c in stripped if c.isalpha()]
    if not letters:
        return False
    shouting = all(c.isupper() for c in letters)
    return not (shouting and (len(letters) > 6 or "-" in stripped))


def _key(text: str) -> str:
    return " ".join(content_terms(text))


def _focus_words(query: str) -> list[str]:
    """The query's content words that are not names: what a lead about some named thing should ask."""
    names = {w for name in named_things(query) for w in name.split()}
    seen: list[str] = []
    for word in re.findall(r"[^\W\d_]+", query):
        lowered = word.lower()
        if word in names or lowered in seen or len(word) < 3:
            continue
        if term_set(lowered):
            seen.append(lowered)
    return seen[:6]


def linked_document(target: str, document_id: str) -> str | None:
    """The document id a link in ``document_id`` points to ("../topics/http/sessions.html#std-setting-X"
    from "ref/settings" is "topics/http/sessions"), as ingest names documents: the path relative to the
    folder ingested, without its extension. None for a link outside the corpus, to the same page or above
    the folder's root."""
    path = unquote(target.split("#", 1)[0].split("?", 1)[0])  # ("a%20b.html" is the file "a b.html")
    if not path or _EXTERNAL.match(path):
        return None
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(document_id), path))
    if resolved.startswith("../") or resolved == "..":
        return None
    stem, _ = posixpath.splitext(resolved)
    return None if stem in ("", ".", document_id) else stem


def find_links(
    evidence: Iterable[Evidence],
    markdown: Mapping[str, str],
    *,
    asked_by: Mapping[str, str],
    floor: float = float("-inf"),
) -> list[Lead]:
    """Links the quotes carry to other documents, as leads, best first: the page a reader of the quote would
    open next. A FAQ's "run the VACUUM command" links to the page on VACUUM, where "VACUUM with an INTO
    clause" answers "can I write the compacted copy to a new file?", which no search of the question's own
    words found. The lead asks the question that found the quote (``asked_by``, by evidence id) inside the
    linked page, named by the link's text; each page once, by its most relevant quote.

    ``markdown``: the stored text of the chunks the evidence was cut from, by chunk id (its links are gone
    from the quote: a link counts when its text stands in the quote as words of its own, two letters or
    more). ``floor``: the score a quote must reach for the question that found it, to send its reader on (a
    quote that does not answer points nowhere worth reading: the "sqlite3_result()" of a page on aggregate
    callbacks, found for a running total). The score, not ``relevance``: during discovery only the
    request's own searches have judged that yet."""
    best: dict[str, Lead] = {}
    for item in evidence:
        source = markdown.get(item.chunk_id or "")
        question = asked_by.get(item.id)
        if item.kind != "corpus" or not item.document_id or not source or not question or item.score < floor:
            continue
        for text, target in _LINK.findall(source):
            shown = " ".join(text.replace("`", "").replace("*", "").replace("\\", "").split())
            document = linked_document(target, item.document_id)
            # (a name in code is what a manual's links name most: "SESSION_COOKIE_AGE" is followed too)
            if document is None or sum(c.isalpha() for c in shown) < 2 or not _stands_in(shown, item.quote):
                continue
            priority = 2.0 + item.score
            if document not in best or priority > best[document].priority:
                lead = Lead(f"{shown}: {question}", document, tuple(item.sections), priority, "link")
                best[document] = lead
    return sorted(best.values(), key=lambda lead: -lead.priority)


def _stands_in(words: str, text: str) -> bool:
    """Whether ``words`` stand in ``text`` as words of their own ("SQL" is not in "SQLite")."""
    return re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", text) is not None
