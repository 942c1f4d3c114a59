"""History: passages that say how a thing changed, not how it is.

A manual's change log and release notes ("Version 0.29.0 (2015-12-13)", "Notes for BIND 9.18.48 > Bug
Fixes", "Release Notes", "What's New", SQLite's "Release History > 2015-01-20 (3.8.8.1)") share every word
with a question about an option: "changed the default --lock-wait from infinity to 1 second", "create
--compression none (default, ...)" (borg's 2015 change log, since superseded), "Fix a crash triggered by
rndc modzone". The cross-encoder reads them as answers. They are evidence, and stay in the report; but unless
the request asks what changed (a version, an upgrade, a deprecation), the direct answer and each findings
section take the passages that say how things are first.

Such a passage is recognised by the document's own labels (its title or a heading of its section path),
not by words that merely mention a change: the document says it is a history of changes. A passage that
says of the form it describes that it is kept for compatibility or deprecated ("The LINK_PUBLIC and
LINK_PRIVATE modes ... This signature is for compatibility only.", CMake's target_link_libraries) says how
things were too: it comes after the forms to use, unless the request asks about deprecation. A manual's
exercises (a section headed "Exercises") say neither how things are nor how they were, and come last too.
"""

from __future__ import annotations

import re

from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.text import path_parts

__all__ = ["asks_about_changes", "in_change_log", "is_history", "release_of"]

_VERSION = r"v?\d+(?:\.\d+)+[a-z0-9]*"
_EXERCISES_PATTERN = r"^(?:[\dA-Z]{1,3}(?:\.\d+)*\.?\s+)?(?:exercises?|problems)$"
_EXERCISES = re.compile(_EXERCISES_PATTERN, re.I)
_DATE = r"(?:19|20)\d\d-\d\d-\d\d"
_LABEL = re.compile(
    r"\b(?:change\s?log|release\s+notes?|what'?s\s+new)\b|^(?:release|version)\s+history\b"
    # A release's own heading, its date then its version: SQLite's "Release History > 2015-01-20 (3.8.8.1)"
    # (a version then its date is ``_DATED``'s).
    rf"|^{_DATE}\s*\(\s*{_VERSION}\s*\)$"
    rf"|\b(?:changes|news|notes)\s+(?:in|for)\b.*?\b{_VERSION}"
    r"|^(?:changes|news|change\s+log)$"
    # A history of a program's features, which version added what ("A.6 History of gawk Features", "Feature
    # History"), not the history of a place or a people.
    r"|\bfeatures?\s+history\b|\bhistory\s+of\s+(?:[\w-]+\s+){0,3}features\b"
    # A manual's exercises ask the reader to do something ("4.15 Exercises": "Using the FIELDWIDTHS variable
    # ..., write a program to read election data"): like a change log, no statement of how things are.
    rf"|{_EXERCISES_PATTERN}"
    rf"|^(?:version|release)\s+{_VERSION}(?:\s*\(.*\))?$",
    re.I,
)
_DATED = re.compile(r"\(\s*(?:19|20)\d\d-\d\d-\d\d\b")
#: A request asks what changed when it names a version or release a change is in ("What changed in 1.2",
#: "changes between Django 3.2 and 4.0"), not when it asks what to change ("what do we have to change in
#: the Flask app itself").
_CHANGE_ASKED = re.compile(
    r"\b(?:chang(?:e|ed|es)\s+(?:in|since|between|from)\s+(?:[\w.-]+\s+){0,2}?"
    rf"(?:{_VERSION}|(?:the\s+)?(?:versions?|releases?)\b)|what\s+changed|when\s+did\b.*\bchange|new\s+in|"
    r"which\s+version|(?:added|removed|introduced|dropped)\s+in\b|release\s+notes?|deprecat\w*|upgrad\w*|"
    r"regression|change\s?log|since\s+version|backwards?[- ]incompatible|released\b|(?:release|version)\s+"
    r"history)",
    re.I,
)


#: The document's own word that the form a passage describes is superseded.
_SUPERSEDED = re.compile(
    r"\b(?:for\s+(?:backwards?\s+)?compatibility\s+only|(?:is|are|has\s+been|have\s+been)\s+deprecated|"
    r"deprecated\s+(?:since|in|as\s+of)|(?:is|are)\s+obsolete|no\s+longer\s+(?:recommended|supported))\b",
    re.I,
)


def is_history(evidence: Evidence) -> bool:
    """Whether the passage stands in a history of changes, by its title or a heading above it, or says that
    the form it describes is superseded."""
    return in_change_log(evidence) or bool(_SUPERSEDED.search(evidence.quote))


def in_change_log(evidence: Evidence) -> bool:
    """Whether the passage stands in a history of changes (or a manual's exercises), by its title or a
    heading above it: what it says was so in a release, not what the program is or does today."""
    labels = [evidence.title or "", *path_parts(evidence.section_path)]
    return any(_LABEL.search(label.strip()) or _DATED.search(label) for label in labels if label.strip())


def asks_about_changes(request: str) -> bool:
    """Whether the request asks what changed (a version's news, an upgrade, a deprecation)."""
    return bool(_CHANGE_ASKED.search(request))


#: A heading that names a release: a version or a date in it ("Release 1.5 (released Dec 5, 2016)",
#: "2015-01-20 (3.8.8.1)", "What's new in Django 3.2").
_RELEASE = re.compile(rf"(?<![\w.]){_VERSION}(?![\w.])|{_DATE}")
#: A heading of at most this many words is a release's part a claim may name ("Bugs fixed", "Incompatible
#: changes").
_PART_WORDS = 4


def release_of(evidence: Evidence) -> str | None:
    """The release a change log's passage stands in, as its headings say ("Release 1.5 (released Dec 5,
    2016), Bugs fixed"), when the quote does not say it: read alone, "#3195: Can not build in parallel" is a
    limitation of today's program, when the change log says it was fixed in 1.5. None for any other passage
    (a superseded form, an exercise) and for a release's own opening words."""
    if not in_change_log(evidence):
        return None
    parts = path_parts(evidence.section_path)
    at = max((k for k, p in enumerate(parts) if _RELEASE.search(p)), default=None)
    if at is None:
        return None
    release = parts[at].strip()
    if _EXERCISES.search(release):
        return None  # "4.15 Exercises": a section's number, no release
    if any(v in evidence.quote for v in _RELEASE.findall(release)):
        return None  # the quote names its release
    below = parts[-1].strip() if at < len(parts) - 1 else ""
    return f"{release}, {below}" if below and len(below.split()) <= _PART_WORDS else release
