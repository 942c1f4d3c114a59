"""HTML manuals: navigation kept in chunks, and headings recovered, before and after main-content cleaning.

Pages from Debian's documentation packages, in two sets: the manuals the cleaning rules were developed on
(PostgreSQL 15, DocBook; the Python 3.11 Library Reference, Sphinx) and manuals never looked at while writing
them (Apache httpd, Git, SQLite, Beautiful Soup's Sphinx docs, aptitude's DocBook manual); a second held-out
set came later (Debian Handbook, Debian Reference, Sphinx, zsh, Postfix), after the first had been looked at.
Navigation chunks are counted among what search sees (tables of contents are typed ``toc`` and left out).

- navigation chunks: chunks that are mostly links (over half the text, three links or more) or that link to
  two or more of prev/previous/next/up/home/contents/index;
- heading recall: the page's own h1-h6 (outside nav, header/footer, sidebars and admonitions) found as a
  Markdown heading.

    python -m benchmarks.html_extraction DOCS_ROOT   (DOCS_ROOT: /usr/share/doc of the unpacked packages)
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from lxml import html as lxml_html

from benchmarks.report import write_section
from sleuth.ingest import TokenCounter, chunk_markdown
from sleuth.ingest.convert import ConvertOptions, convert_file
from sleuth.ingest.convert.docling_backend import convert_with_docling
from sleuth.ingest.tokens import default_tokenizer_dir

MANUALS = {
    "tuned on": {
        "PostgreSQL 15 (DocBook)": "postgresql-doc-15/html",
        "Python 3.11 Library Reference (Sphinx)": "python3.11-doc/html/library",
    },
    "held out": {
        "Apache httpd 2.4 (XSLT)": "apache2-doc/manual/en/mod",
        "Git (AsciiDoc)": "git-doc",
        "SQLite (hand-written)": "sqlite3",
        "Beautiful Soup (Sphinx, alabaster)": "python-bs4-doc/html",
        "aptitude (DocBook)": "aptitude/html/en",
    },
    "held out, second set": {
        "Debian Handbook (Publican)": "debian-handbook/html/en-US",
        "Debian Reference (DocBook)": "debian-reference-en/docs",
        "Sphinx 5 (Sphinx)": "sphinx-doc/html/usage/extensions",
        "zsh manual (texi2html)": "zsh-common/html",
        "Postfix (hand-written)": "postfix/html",
    },
    "held out, third set": {
        "GNU Octave (Texinfo 6.8)": "octave/octave.html",
        "Octave C++ classes (Texinfo 6.8)": "octave/liboctave.html",
    },
}
PAGES_PER_MANUAL = 30
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_NAV_WORDS = {"prev", "previous", "next", "up", "home", "contents", "index", "top"}
_HEADING = re.compile(r"^#{1,6}\s+(.*)$", re.M)
_SKIP = re.compile(
    r"nav|sidebar|quickview|toc|breadcrumb|footer|header|menu|related|admonition|note|tip|warning|caution"
)


def is_navigation(content: str) -> bool:
    links = _LINK.findall(content)
    text = _LINK.sub(lambda m: m.group(1), content)
    linked = sum(len(t) for t in links)
    if len(links) >= 3 and linked >= 0.5 * max(len(text.strip()), 1):
        return True
    return len({t.strip().lower() for t in links} & _NAV_WORDS) >= 2


def page_headings(raw: bytes) -> list[str]:
    tree = lxml_html.document_fromstring(raw)
    out = []
    for h in tree.iter("h1", "h2", "h3", "h4", "h5", "h6"):
        context = " ".join(
            f"{a.tag} {a.get('class') or ''} {a.get('id') or ''}" for a in [h, *h.iterancestors()]
        ).lower()
        if re.search(r"\b(nav|aside|footer|header)\b", context) or _SKIP.search(context):
            continue
        text = " ".join(h.text_content().replace("¶", "").split())
        if text:
            out.append(text)
    return out


def _norm(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def measure(pages: list[Path], counter: TokenCounter, clean: bool) -> dict[str, float]:
    nav = chunks = found = wanted = 0
    started = time.perf_counter()
    for page in pages:
        if clean:
            markdown = convert_file(page, ConvertOptions()).markdown
        else:
            markdown = convert_with_docling(page, ".html")[0]
        cut = chunk_markdown(markdown, counter, max_tokens=256)
        chunks += len(cut)
        # What search sees: tables of contents (typed toc) are left out of it.
        nav += sum(is_navigation(c.content) for c in cut if c.chunk_type != "toc")
        headings = [_norm(h) for h in _HEADING.findall(markdown)]
        for title in page_headings(page.read_bytes()):
            wanted += 1
            found += any(_norm(title) in h for h in headings if h)
    return {
        "pages": len(pages),
        "chunks": chunks,
        "nav": nav,
        "recall": found / wanted if wanted else 1.0,
        "seconds": time.perf_counter() - started,
    }


def _sample(folder: Path) -> list[Path]:
    pages = sorted(
        p for p in folder.glob("*.html") if not p.name.startswith(("genindex", "search", "py-modindex"))
    )
    step = max(1, len(pages) // PAGES_PER_MANUAL)
    return pages[::step][:PAGES_PER_MANUAL]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("docs_root", type=Path)
    args = parser.parse_args()
    counter = TokenCounter.from_dir(default_tokenizer_dir())
    rows = []
    for group, manuals in MANUALS.items():
        for name, rel in manuals.items():
            pages = _sample(args.docs_root / rel)
            if not pages:
                continue
            before = measure(pages, counter, clean=False)
            after = measure(pages, counter, clean=True)
            rows.append(
                f"| {group} | {name} | {len(pages)} | {before['nav']} / {before['chunks']} | "
                f"{after['nav']} / {after['chunks']} | {before['recall']:.2f} | {after['recall']:.2f} |"
            )
            print(rows[-1], flush=True)
    write_section(
        "html",
        """### HTML manuals: navigation chunks and heading recall, before and after main-content cleaning

Up to 30 pages per manual (every n-th page), from Debian's documentation packages. Navigation chunks: mostly
links, or linking to prev/next/up/home/contents. Heading recall: the page's own headings (outside navigation,
sidebars and admonitions) found as Markdown headings. "Before" is Docling on the raw page, "after" is sleuth's
conversion (main content located and cleaned, then Docling). Command:
`python -m benchmarks.html_extraction DOCS_ROOT`.

| set | manual | pages | nav chunks before | nav chunks after | heading recall before | after |
|---|---|---|---|---|---|---|
"""
        + "\n".join(rows),
    )


if __name__ == "__main__":
    main()
