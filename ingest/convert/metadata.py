"""A document's title and date from what the file itself says: front matter, HTML meta tags, PDF info.

Reports cite documents by title and judge evidence ``stale`` by date, so every converter reports both when
the document has them. Dates are normalised to ISO 8601 (``2024-03-01`` or with a time and offset); the
file's modification time is the caller's last resort, not this module's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime
from email.utils import parsedate_to_datetime

_PDF_DATE = re.compile(r"^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?")
_FRONT_MATTER = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n(.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S)
_ATX_TITLE = re.compile(r"^ {0,3}# +(.+?)[ #]*$", re.M)
#: HTML meta names and properties that carry a date, best first (a modification beats a first publication:
#: staleness is about the information's age).
_HTML_DATE_KEYS = (
    "article:modified_time",
    "og:updated_time",
    "dcterms.modified",
    "last-modified",
    "datemodified",
    "article:published_time",
    "datepublished",
    "dcterms.date",
    "dcterms.created",
    "dc.date",
    "dc.date.issued",
    "date",
    "pubdate",
    "publish-date",
    "publication_date",
    "citation_publication_date",
    "citation_date",
)


@dataclass(frozen=True, slots=True)
class DocumentMeta:
    title: str | None = None
    date: str | None = None
    #: Where the date came from: front-matter, html-meta, json-ld, pdf-info, docx-core, http-header, ...
    date_source: str | None = None


def parse_date(value: object) -> str | None:
    """ISO 8601 text for the date forms documents use (ISO, PDF ``D:...``, RFC 2822 headers), else None."""
    if isinstance(value, datetime):
        return _iso(value)
    if isinstance(value, date):
        return value.isoformat()
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text:
        return None
    m = _PDF_DATE.match(text)
    if m:
        year, month, day = int(m.group(1)), int(m.group(2) or 1), int(m.group(3) or 1)
        try:
            return date(year, month, day).isoformat()
        except ValueError:
            return None
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        try:
            parsed = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
    if not 1900 <= parsed.year <= 2200:
        return None
    return _iso(parsed)


def _iso(moment: datetime) -> str:
    if moment.hour == moment.minute == moment.second == 0 and moment.tzinfo is None:
        return moment.date().isoformat()
    return moment.isoformat(timespec="seconds")


def file_date(mtime: float) -> str:
    return datetime.fromtimestamp(mtime, UTC).isoformat(timespec="seconds")


def split_front_matter(head: str) -> tuple[DocumentMeta, int]:
    """Title and date from YAML front matter at the start of Markdown, and its length (0 when absent)."""
    m = _FRONT_MATTER.match(head)
    if m is None:
        return DocumentMeta(title=_first_heading(head)), 0
    import yaml  # noqa: PLC0415 - only Markdown with front matter needs it

    try:
        data = yaml.safe_load(m.group(1))
    except yaml.YAMLError:
        return DocumentMeta(title=_first_heading(head)), 0
    if not isinstance(data, dict):
        return DocumentMeta(title=_first_heading(head[m.end() :])), m.end()
    lowered = {str(k).lower(): v for k, v in data.items()}
    title = lowered.get("title")
    when = None
    for key in ("updated", "last_modified", "lastmod", "modified", "date", "published"):
        when = parse_date(lowered.get(key))
        if when:
            break
    return (
        DocumentMeta(
            title=str(title).strip() if title else _first_heading(head[m.end() :]),
            date=when,
            date_source="front-matter" if when else None,
        ),
        m.end(),
    )


def _first_heading(text: str) -> str | None:
    m = _ATX_TITLE.search(text[:20_000])
    return m.group(1).strip() if m else None


def html_metadata(html: bytes) -> DocumentMeta:
    """``<title>`` (or og:title) and the best date from meta tags or JSON-LD of an HTML page."""
    from lxml import html as lxml_html  # noqa: PLC0415 - conversion workers only

    from sleuth.ingest.convert.html_main import decoded_html  # noqa: PLC0415 - imports lxml

    try:
        tree = lxml_html.fromstring(decoded_html(html))
    except (ValueError, TypeError, lxml_html.etree.ParserError):
        return DocumentMeta()
    found: dict[str, str] = {}
    for meta in tree.iter("meta"):
        key = meta.get("property") or meta.get("name") or meta.get("itemprop") or meta.get("http-equiv") or ""
        content = meta.get("content")
        if key and content:
            found.setdefault(key.strip().lower(), content)
    title = found.get("og:title")
    if not title:
        titles = tree.findall(".//title")
        title = titles[0].text_content() if titles else None
    for key in _HTML_DATE_KEYS:
        when = parse_date(found.get(key))
        if when:
            return DocumentMeta(_clean(title), when, "html-meta")
    for script in tree.iter("script"):
        if (script.get("type") or "").lower() == "application/ld+json":
            when = _json_ld_date(script.text or "")
            if when:
                return DocumentMeta(_clean(title), when, "json-ld")
    for node in tree.iter("time"):
        when = parse_date(node.get("datetime"))
        if when:
            return DocumentMeta(_clean(title), when, "html-time")
    return DocumentMeta(_clean(title))


def _json_ld_date(text: str) -> str | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    items = data if isinstance(data, list) else [data]
    for item in items:
        if isinstance(item, dict):
            graph = item.get("@graph")
            for node in [item, *(graph if isinstance(graph, list) else [])]:
                if isinstance(node, dict):
                    for key in ("dateModified", "datePublished", "dateCreated"):
                        when = parse_date(node.get(key))
                        if when:
                            return when
    return None


def _clean(title: str | None) -> str | None:
    if title is None:
        return None
    text = " ".join(title.split())
    return text or None
