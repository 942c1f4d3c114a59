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

#: Files only a Sphinx HTML build writes at its root.
_SPHINX_MARKERS = ("searchindex.js", "objects.inv")


def build_file(path: Path, root: Path) -> str | None:
    """Why ``path`` (found walking ``root``) is a Sphinx build's page source (its page is beside it) or a file
    of its theme, not a document; None when it is a document. Only folders below ``root`` count: a walk of
    ``_sources`` itself is a walk of sources someone asked for."""
    if path.name == "search.html" and (path.parent / "searchindex.js").is_file():
        return "the Sphinx build's search page (a form for its script, no text of its own)"
    for folder in path.parents:
        if folder == root:
            break
        if folder.name == "_sources":
            build = folder.parent
            page = path.relative_to(folder)
            if path.suffix.lower() != ".txt":
                return None
            base = page.name[
                : -len(path.suffix)
            ]  # crypto.rst.txt -> crypto.rst; release-3.1.txt -> release-3.1
            names = [f"{base}.html", f"{base.rsplit('.', 1)[0]}.html"] if "." in base else [f"{base}.html"]
            for name in names:
                twin = build / page.parent / name
                if twin.is_file():
                    return f"the source text of the Sphinx page {twin.relative_to(build)}"
            return None
        if folder.name == "_static" and any((folder.parent / m).is_file() for m in _SPHINX_MARKERS):
            return "a file of the Sphinx build's theme (_static)"
    return None
