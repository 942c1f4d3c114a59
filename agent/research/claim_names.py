"""What a claim is named by when its quote does not name what it is about.

Read alone, "If this hook exits with a non-zero status, git push will abort" names no hook, "The domain to be
used when setting the CSRF cookie." no setting, "Musk has been the wealthiest person in the world since 2025"
a surname only, and "This Multi-Processing Module (MPM) implements a non-threaded, pre-forking web server"
no module. The heading the quote stands under (the section's, or the page's title) says it; the claim names
it first ("pre-push — If this hook exits ..."). The guards accept these headings as the source's words
(``guards._page_and_heading``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sleuth.agent.research.claim_text import SENTENCE_BREAK, one_line
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.quotes import YES_OR_NO
from sleuth.agent.research.text import NAMES_CODE, PLACEHOLDER_IT, STOPWORDS, path_parts, words
from sleuth.ingest.term_lines import defined_name, signature_name

__all__ = ["NAME_WORDS", "PAGE_DEPTH", "SECTION_NUMBER", "heading_of", "person_named", "pointed_at"]

#: A quote that opens by pointing back ("If this hook exits with a non-zero status, git push will abort",
#: "This directive sets the timeout ...", "It defaults to ...").
_POINTS_BACK = re.compile(
    # (not a placeholder "it": "It is useful to illustrate the use of FIELDWIDTHS:")
    rf"^(?!{PLACEHOLDER_IT})(?:[\w'-]+\s+){{0,3}}(?:this|these|it|its|they|their)\b",
    re.I,
)
#: A heading that is one name in code: "CSRF_COOKIE_DOMAIN", "yy_scan_string()", "gc.auto", "pre-push",
#: "--mainline", "maxConnections", "SSLSessionCacheTimeout", an identifier of capitals and digits (CMake's
#: policy "CMP0032": "The NEW behavior for this policy is to issue a FATAL_ERROR" says which only with it).
_CODE_NAME = re.compile(
    r"^(?:\w*_\w*|[\w.]+\(\)|-{1,2}\w[\w-]*|[a-z][a-z0-9]*(?:[.-][a-z0-9]+)+|[a-z]+[A-Z]\w*|"
    r"(?:[A-Z]{2,}[a-z]|[A-Z][a-z]+[A-Z])\w*|[A-Z]{2,}\d+[A-Za-z]?)$"
)
#: A heading that names a thing: a name in code or in the form of one ("pre-push", "mod_ssl",
#: "SSLSessionCacheTimeout Directive", "yy_scan_string()", an option's forms "-P, --pool <pool>"), not a
#: section's title ("DESCRIPTION", "Examples").
_A_NAME = re.compile(
    # (a hyphen joins a name's parts, "pre-push", or a title's English words, "Fixed-Width Data": it names
    # only in a heading of one word, or next to a digit, "HTTP-2")
    r"\w[_.]\w|\w\(\)|[a-z][A-Z]|[A-Z]{2,}[a-z]|^-{1,2}[A-Za-z]|^\S*\w-\w\S*$|\d-\w|\w-\d|^[A-Z]{2,}\d+[A-Za-z]?$"
)
#: A section's number before its title ("10.5 ", "4.6.1 ", "2.1. ").
SECTION_NUMBER = re.compile(r"^\d+(?:\.\d+)*\.?\s+(?=\S)")
#: A heading that is one word in lower case names a thing in code (rsyslog's parameters "output",
#: "template"; a section's title is capitalised: "Purpose", "Examples").
_LOWER_NAME = re.compile(r"^[a-z][a-z0-9]*$")
#: A page titled by the name of what it documents, a colon and what that is ("omprog: Program integration
#: Output module", "imfile: Text File Input Module").
_PAGE_NAME = re.compile(r"^([a-z][\w.-]*):\s+\S")
#: ... or by that name, a dash and what it does ("sphinx.ext.autodoc - Include documentation from docstrings",
#: "os.path — Common pathname manipulations"): the name is one in code (a dot or an underscore in it).
_PAGE_CODE_NAME = re.compile(r"^([a-z][\w-]*(?:[._][\w-]+)+)\s+[-–—]\s+\S")
#: A heading of at most this many words is a name a claim may take.
NAME_WORDS = 5


def heading_of(evidence: Evidence) -> str:
    """The heading a quote stands under (the last part of its section path)."""
    return path_parts(evidence.section_path)[-1]


#: A quote that opens by answering yes or no.
_AN_ANSWER = re.compile(YES_OR_NO, re.I)
#: Words of a definition's line that are no name: C's types, a directive's keyword.
_TYPES = frozenset(
    "int char void long short unsigned signed const struct double float bool size_t %define".split()
)


def pointed_at(evidence: Evidence) -> str | None:
    """The thing a quote is about when only its heading names it: the chunk began after the sentence that
    did (the pre-push hook's "If this hook exits with a non-zero status, git push will abort without pushing
    anything" under "HOOKS > pre-push"), or the section describes the thing its heading names without naming
    it again (Django's "The domain to be used when setting the CSRF cookie." under "CSRF_COOKIE_DOMAIN"). Its
    claim names it first, as a term's claim does ("pre-push — If this hook exits ..."): read alone, "this
    hook" is no answer to "which hook", nor "the domain" to "which setting"."""
    path = path_parts(evidence.section_path)
    heading = path[-1]
    if heading.rstrip().endswith("?") and _AN_ANSWER.match(evidence.quote.lstrip()):
        # A FAQ's answer says yes or no to the question its heading asks ("Does Scrapy support IPv6
        # addresses?" over "Yes, by setting DNS_RESOLVER to scrapy.resolver.CachingHostnameResolver."):
        # alone, "Yes" answers nothing.
        return heading.strip()
    # An API reference's signature as the heading ("class jinja2.Template(source, block_start_string='{%',
    # ...)" over "A compiled template that can be rendered."): its name, not its parameters. Empty brackets
    # are a name's own form ("yy_scan_string()"), named as written below.
    name = signature_name(heading)
    if name is not None and f"{name}()" not in heading:
        parameter = _PARAMETER.match(evidence.quote.lstrip())
        default = rf"[(,]\s*{re.escape(parameter.group(1))}\s*=\s*(?!None\b)" if parameter else None
        if default is not None and re.search(default, heading):
            # ... but the whole signature over a parameter's description when it gives the parameter's
            # default, which only the signature says: "cache_timeout (int) - the cache timeout in seconds
            # for the headers." under "class ...SharedDataMiddleware(app, exports, disallow=None, cache=True,
            # cache_timeout=43200, ...)"; a default of None says too little for a signature of twenty
            # parameters ("request(method, url, ..., verify=None, ...)").
            return heading
        if " — " in one_line(evidence.quote):
            return None  # the quote opens with the term it describes ("keep_trailing_newline — Preserve ...")
        last = re.escape(name.rsplit(".", 1)[-1])
        return None if re.search(rf"(?<![\w.-]){last}(?![\w-])", evidence.quote) else name
    # A definition's line as the heading (Texinfo's "Macro: YYABORT ;" over "Return immediately from yyparse,
    # indicating failure."): named whole, its kind with it, unless the quote names what it defines.
    defined = defined_name(heading)
    if defined is not None:
        if " — " in one_line(evidence.quote):
            return None
        # (the name is its first word that is no type: "yyparse" of "int yyparse (void)", not the
        # arguments after it, "type" of "%define lr.type type")
        name = next((t for t in re.findall(r"[%\w][\w.%-]*", defined) if t.casefold() not in _TYPES), "")
        return None if name and _names_itself(evidence.quote, name) else heading.rstrip(" ;")
    # A section's number is no part of a name ("10.5 Reading the User Database" is a title, "10.5" no
    # dotted name).
    heading = SECTION_NUMBER.sub("", heading)
    named = 0 < len(heading.split()) <= NAME_WORDS and (_A_NAME.search(heading) or _LOWER_NAME.match(heading))
    listed = _listed_name(path)
    page = _PAGE_NAME.match(path[0]) if len(path) == PAGE_DEPTH else None
    if " — " in one_line(evidence.quote):
        return None  # the quote opens with the term it describes
    quote = " ".join(evidence.quote.split())
    if not (named or listed or page):
        top = _PAGE_CODE_NAME.match(path[0]) if len(path) == 1 else None
        if top is not None and (_THIS_KIND.match(quote) or _WITH_THIS_KIND.match(quote)):
            # At the top of a page titled by a name in code, "this <kind>" is the page's thing: "This
            # extension can import the modules you are documenting" under "sphinx.ext.autodoc - Include
            # documentation from docstrings" is autodoc, whatever kind the title says.
            name = top.group(1)
            last = re.escape(re.split(r"[._]", name)[-1])  # ("This extension (autodoc) ..." names it)
            return None if re.search(rf"(?<![\w.-]){last}(?![\w-])", quote, re.I) else name
        return _kind_named(quote, path)  # no heading is a name, but one may say the kind "this" points at
    if (named or listed) and _names_itself(quote, heading):
        return None
    if listed or (
        named
        and (
            _POINTS_BACK.match(quote)
            or _CODE_NAME.match(heading)
            or NAMES_CODE.search(heading)  # "Run manage.py check --deploy", "The cache_size pragma"
            or _LOWER_NAME.match(heading)
        )
    ):
        return heading
    # A section's title ("Long-term trends", "2.1. Caching", "Purpose") is no thing a claim is about; the
    # page's may be ("omprog: Program integration Output module" over "Purpose": "Executes the configured
    # program and feeds log messages to that binary via stdin" is omprog's purpose).
    # Only directly under the page's own sections: deeper, the section is a part of the thing (rsyslog's
    # "impstats: ... > Module Parameters > Severity": "Default is 6 (info)." is no default of impstats).
    if page is not None and page.group(1).casefold() not in quote.casefold():
        return page.group(1)
    return _kind_named(quote, path)


#: Verbs that end the kind's words ("This module implements ...").
_KIND_VERBS = frozenset(
    "is are was were implements provides allows lets can cannot will adds defines enables contains "
    "describes handles uses makes supports returns creates gives should must may has have does do offers "
    "sets specifies controls determines configures changes causes takes accepts works only means".split()
)
#: A quote that opens on the kind of thing it is about and a verb: "This directive allows access ...",
#: "This Multi-Processing Module (MPM) implements ..."; the group is the kind's words. ("These ..." points
#: at several things, which no one heading names.)
_THIS_KIND = re.compile(
    rf"^this\s+((?:[\w-]+\s+){{0,2}}[\w-]+(?:\s+\([\w-]+\))?)\s+(?:{'|'.join(sorted(_KIND_VERBS))})\b", re.I
)


#: ... or after a preposition, the kind then followed by the clause's subject or a comma: "With this option
#: you can configure the maximum amount of resident memory ...".
_WITH_THIS_KIND = re.compile(
    r"^(?:with|for|in|using|by|through)\s+this\s+((?:[\w-]+\s+)?[\w-]+)(?:\s*,|\s+(?:you|we|it|one|the)\b)",
    re.I,
)
#: Kinds a manual uses for one another: Celery's "Max memory per child setting" opens "With this option ...".
_ALIKE = (
    frozenset("option setting parameter directive variable".split()),
    frozenset("function method".split()),
)


def _kind_named(quote: str, path: Sequence[str]) -> str | None:
    """The heading that names what a quote's opening "this <kind>" points at: the section's heading when it
    says the kind ("Deny Directive": "This directive allows access to the server to be restricted ..."), or,
    in a page's own sections ("Summary"), the page's title when it does ("Apache MPM prefork": "This
    Multi-Processing Module (MPM) implements a non-threaded, pre-forking web server"). Read alone, "this
    directive" names nothing, and "this module" is no answer to "which MPM". A kind no heading says ("This
    method is similar to clean_fields()" under "Validating objects") points at a sentence before, not at a
    heading: the quote is read as it stands."""
    opening = _THIS_KIND.match(quote) or _WITH_THIS_KIND.match(quote)
    said = re.findall(r"[\w-]+", opening.group(1).casefold()) if opening else []
    if not said or said[0] in _KIND_VERBS or STOPWORDS.intersection(said):
        return None  # "This means the directive is ignored": a verb after "this" points at a sentence before
    kind = {_singular(w) for w in said}
    kind |= {w for alike in _ALIKE if kind & alike for w in alike}
    for heading in [path[-1], *(path[:1] if len(path) == PAGE_DEPTH else [])]:
        if not 0 < len(heading.split()) <= NAME_WORDS or heading.casefold() in quote.casefold():
            continue
        if _LISTING.search(heading):
            continue  # a section that lists such things ("Module Parameters") is none of them
        if kind & {_singular(w) for w in re.findall(r"[\w-]+", heading.casefold())}:
            return heading
    return None


def _singular(word: str) -> str:
    """A word without its plural's "s" ("filters", "directives"), enough to match a kind with a heading."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


#: A quote that describes a parameter by its name (and type): "cache_timeout (int) - the cache timeout ...".
_PARAMETER = re.compile(r"(\w+)(?:\s*\([^()]*\))?\s+[-–—]\s")
#: A section that lists named things, each under its own heading ("Module Parameters", "Action
#: Parameters", "Configuration Options").
_LISTING = re.compile(
    r"\b(?:parameters|options|settings|directives|arguments|attributes|fields|variables|properties)$", re.I
)


def _listed_name(path: Sequence[str]) -> bool:
    """Whether a quote's heading (the last of its section path) is one word under a section that lists named
    things: rsyslog's "Severity" and "Port" under "Module Parameters" are parameters' names, capitalised
    ("Default is 6 (info)." is the default of Severity)."""
    return len(path) >= PAGE_DEPTH + 1 and len(path[-1].split()) == 1 and bool(_LISTING.search(path[-2]))


#: The depth of a section of a page (the page's title, the section's heading).
PAGE_DEPTH = 2
#: A word before a name that makes it a common noun ("the output of the program" is not the "output"
#: parameter).
_DETERMINER = frozenset("a an the this that these those its their your our any each every no".split())


def _names_itself(quote: str, heading: str) -> bool:
    """Whether the quote names what its heading names: the heading in it; a name in lower case as a word of
    its own not used as a common noun after an article ("django-admin collectstatic", "maxbytes specifies"
    name it; "the output of the external program" does not name the "output" parameter)."""
    if _LOWER_NAME.match(heading) is None:
        # as a name of its own: "CMAKE_INSTALL_PREFIX_INITIALIZED_TO_DEFAULT" does not name
        # "CMAKE_INSTALL_PREFIX"
        return re.search(rf"(?<![\w-]){re.escape(heading)}(?![\w-])", quote, re.I) is not None
    said = [w.casefold() for w in re.findall(r"[\w-]+", quote)]
    return any(w == heading and (k == 0 or said[k - 1] not in _DETERMINER) for k, w in enumerate(said))


#: A pronoun that stands for a person.
_PERSON = re.compile(r"\b(?:he|she|him|his|her|hers|himself|herself)\b", re.I)
#: A thing's pronoun, in a quote's first sentence ("..., it is the oldest institution of higher learning").
_IT = re.compile(r"\b(?:it|its)\b", re.I)
#: A heading that is a proper name ("Carlos Slim", "John D. Rockefeller", "Li Ka-shing", "Amazon (company)"),
#: its words capitalised but for the particles of names.
_PROPER_NAME = re.compile(
    r"^(?:(?:[A-Z0-9][\w'.-]*|of|de|da|del|van|von|der|du|la|le|bin|ibn|al)\s+)*[A-Z0-9][\w'.-]*(?:\s+\([^()]+\))?$"
)


def person_named(evidence: Evidence) -> str | None:
    """Whom or what a quote speaks of without naming it in full, when its heading is that name and the whole
    document is about it: "As of July 2025, the Bloomberg Billionaires Index ranked him as the 18th-richest
    person in the world" is, read alone, about nobody; "Musk has been the wealthiest person in the world
    since 2025" names a surname only, and a report on the five richest people lists people, not surnames;
    "Founded in 1636, and named Harvard College in 1639 ..., it is the oldest institution of higher learning
    in the United States" says "it". The claim names the subject first ("Carlos Slim — As of July 2025,
    ..."), from the heading the quote stands under (the source's own words, which the guards accept). A
    quote that names it in full in its first sentence, or names someone in a pronoun's sentence before the
    pronoun ("Mary Ann Evans, known by her pen name George Eliot"), is read as it stands."""
    heading = heading_of(evidence)
    if not 0 < len(heading.split()) <= NAME_WORDS or not _PROPER_NAME.match(heading) or heading.isupper():
        return None
    if heading.casefold() != (evidence.title or "").strip().casefold():
        return None  # a heading is a subject's name only as what the whole document is about ("Early Life")
    if any(w.casefold() in STOPWORDS and w[0].isupper() for w in heading.split()[1:]):
        return None  # title case ("Distinctive Features Of SQLite") is no name ("University of Oxford")
    name = [
        w.casefold() for w in words(heading.split("(")[0]) if len(w) > 2 and w.casefold() not in STOPWORDS
    ]
    if not name:
        return None
    quote = " ".join(evidence.quote.split())
    stop = SENTENCE_BREAK.search(quote)
    opening = quote[: stop.start() if stop else len(quote)]
    first = _said(opening)
    if all(w in first for w in name):
        return None
    if len(name) > 1 and name[-1] in first:
        return heading  # "Musk has been ...", "Buffett's estimated net worth ..." under "Elon Musk" ...
    pronoun = _PERSON.search(quote) or _IT.search(opening)
    if pronoun is None:
        return None
    # ... or a pronoun whose sentence does not name it in full ("Forbes magazine ranked him ... . Gates
    # became ..."; "When these efforts failed, Fidel Castro and his brother led an assault on a Cuban post"
    # under "Cuban Revolution": someone else's "his", but the quote is still about the revolution).
    stop = SENTENCE_BREAK.search(quote, pronoun.end())
    said = _said(quote[: stop.start() if stop else len(quote)])
    return None if all(w in said for w in name) else heading


def _said(text: str) -> set[str]:
    """The words of a text, casefolded, a possessive's "'s" dropped ("Buffett's" says Buffett)."""
    return {re.sub(r"['’]s$", "", w.casefold()) for w in words(text)}
