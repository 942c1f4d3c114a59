"""Files a documentation build carries besides its pages, told by where they stand in the build.

Sphinx writes each page's source next to the HTML (``_sources/<page>.rst.txt``, or ``.md.txt``, ``.txt``)
for its "Show source" link, its theme's images and scripts under ``_static``, and a search page that is a
form for its script. A folder walk over a built
manual finds them among the pages: the sources are every page a second time, in markup (`` ``code`` ``,
``:ref:`...```), and the theme's icons are images without text. A source whose page the build does not hold
is a document like any other (someone copied the sources alone); nothing outside a Sphinx build is touched,
and a file named on the command line is never skipped (only what a folder walk finds).
"""

from __future__ import annotations

from pathlib import Path

#: What a theme keeps under ``_static`` besides scripts and styles (a PDF put there is a document).
_THEME_IMAGES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".svg", ".ico", ".tif", ".tiff", ".bmp", ".webp"})
#: Files only a Sphinx HTML build writes at its root.
_SPHINX_MARKERS = ("searchindex.js", "objects.inv")


def build_file(path: Path, root: Path) -> str | None:
    """Why ``path`` (found walking ``root``) is a Sphinx build's page source (its page is beside it), its
    search page or an image of its theme, not a document; None when it is a document. Only folders below
    ``root`` count: a walk of ``_sources`` itself is a walk of sources someone asked for."""
    if path.name == "search.html" and (path.parent / "searchindex.js").is_file():
        return "the Sphinx build's search page (a form for its script, no text of its own)"
    for folder in path.parents:
        if folder == root:
            break
        if folder.name == "_sources":
            return _page_of(path, folder)
        if (
            folder.name == "_static"
            and path.suffix.lower() in _THEME_IMAGES
            and any((folder.parent / m).is_file() for m in _SPHINX_MARKERS)
        ):
            return "an image of the Sphinx build's theme (_static)"
    return None


def _page_of(path: Path, sources: Path) -> str | None:
    """Why a file under a build's ``_sources`` is no document: the page it is the source of, where the build
    holds it (an "html" build writes ``usage/crypto.html``, a "dirhtml" one ``usage/crypto/index.html``)."""
    if path.suffix.lower() != ".txt":
        return None
    page = path.relative_to(sources)
    base = page.name[: -len(path.suffix)]  # crypto.rst.txt -> crypto.rst; release-3.1.txt -> release-3.1
    stems = [base, base.rsplit(".", 1)[0]] if "." in base else [base]
    for stem in stems:
        for twin in (
            page.parent / f"{stem}.html",
            page.parent / f"{stem}.htm",
            page.parent / stem / "index.html",
        ):
            if (sources.parent / twin).is_file():
                return f"the source text of the Sphinx page {twin.as_posix()}"
    return None
