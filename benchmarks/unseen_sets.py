"""Research on small sets over documents a helper session had never seen, next to one search.

Each set (benchmarks/judged/unseen/*.jsonl) was written before any report on its corpus was read: short
questions (ids ``s...``) and long requests (``l...``), each with answer strings that stand verbatim in the
manual and gold pages (document ids); a question without answers (one the corpus does not cover) is not
scored. Corpora: Debian's git-doc 2.39.5 (222 HTML pages of usr/share/doc/git: the command pages, the user
manual, the howtos), bash-doc 5.2.15 (bashref.html cut at each chapter and section ``<div>`` into one
page per section, named by its anchor, e.g. ``Bash-Variables.html``; the contents, the six index pages and
the licence left out: 134 pages) and flex-doc 2.6.4-8.2 (its HTML manual as Debian ships it,
usr/share/doc/flex-doc/html: 222 pages, 49 of them one-line redirects) and zsh-doc 5.9-4 (its HTML manual,
usr/share/doc/zsh-doc: 186 pages, 144 of them redirects and 7 indexes, which ingest skips since stop 32)
and exim4-doc-html 4.96-1 (the Exim specification and filter guide, usr/share/doc/exim4-doc-html/spec_html:
its 68 chapter pages and the two contents pages, 70 files; the chNN.html links to them left out),
bind9-doc 9.18 (the BIND 9 Administrator Reference Manual: 15 content pages), postfix-doc 3.7 (136 HTML
pages, 80 of them manual pages) and borgbackup-doc 1.2.4 (its Sphinx manual: 44 of its 48 content pages,
flattened, ``usage/create.html`` as ``usage-create.html``; the contents pages book.html and deployment.html,
the redirect usage.html and the script page paperkey.html left out) and python-flask-doc 2.2.2 (Flask's
Sphinx manual: 73 of its 77 pages, flattened as borg's; search, genindex, py-modindex and 404 left out)
and rsyslog-doc 8.2302.0 (its Sphinx manual, 133 of about 316 pages, flattened as borg's: the
configuration reference, 45 of its 85 modules, the legacy ``rsconf1_*`` directive pages, RainerScript and
eight of its functions, five concept, four troubleshooting and five tutorial pages, one FAQ; contents pages,
proposals, development and history pages left out) and python-jinja2-doc 3.1.2 (Jinja's Sphinx manual,
usr/share/doc/python-jinja2-doc/html: its 12 content pages; index.html, genindex, search, py-modindex and 404
left out) and python-werkzeug-doc 2.2.2 (Werkzeug's Sphinx manual: 39 pages flattened with ``__`` for ``/``,
``deployment/nginx.html`` as ``deployment__nginx.html``; search, genindex, py-modindex, 404, _static and
_sources left out; ingest skips index.html, the contents page) and python-celery-doc 5.2.6 (Celery's Sphinx
manual: 118 of its 220 pages flattened as Werkzeug's; the 27 changelog pages under history/ and 71 of the
internals/ pages left out; ingest skips three contents pages) and python-sqlalchemy-doc 1.4.46 (SQLAlchemy's
Sphinx manual: 129 pages flattened as Werkzeug's, all of core/, orm/, tutorial/ and faq/, errors, glossary,
intro and the index, PostgreSQL and SQLite dialect pages; changelog/, _modules/ and the other dialects left
out; ingest skips 14 contents pages: 9,736 chunks) and make-doc 4.3-2 (Debian non-free: the GNU make 4.3
manual as per-chapter HTML, usr/share/doc/make-doc/make.html: its 16 chapters, appendices A-C and the GFDL
page, 20 files; the 143 one-line redirect pages, the contents and the two index pages left out: 889
chunks) and gawk-doc 5.2.1-1 (Debian non-free: the GNU Awk manual's node pages, 379 of its 490, the
Dynamic-Extensions, Installation, Notes, Index, Copying and GFDL subtrees left out; ingest skips 28 redirect
and index pages: 2,444 chunks) and cmake-doc 3.25.1-1 (CMake's Sphinx manual: all 1,906 content pages
flattened with ``__`` for ``/``, ``command/install.html`` as ``command__install.html``; release/, genindex,
search and index.html left out; ingest skips the 7 contents pages: 8,933 chunks) and bison-doc 3.8.2 (Debian
non-free: the GNU Bison manual's node pages, usr/share/doc/bison-doc/html, 251 of them flat, the index of
terms left out; ingest skips 32 redirects and the contents page) and m4-doc 1.4.19-3 (the GNU m4 manual's
node pages, usr/share/doc/m4, 105 files flat; ingest skips the two index pages: 662 chunks) and
python-pytest-doc 7.2.1-2 (pytest's Sphinx manual flattened with ``__`` for ``/``, ``how-to/cache.html`` as
``how-to__cache.html``: 64 pages, _modules/, announce/, search, genindex, py-modindex and 404 left out;
ingest skips 4 contents pages: 2,796 chunks) and python-scrapy-doc 2.8.0-2 (Scrapy's Sphinx manual,
usr/share/doc/python-scrapy-doc/html: 50 pages flattened with ``__`` for ``/``, ``topics/settings.html`` as
``topics__settings.html``; search, genindex, py-modindex, 404, news.html (the release notes), _modules/,
_static and _sources left out: 2,028 chunks) and sphinx-doc 5.3.0-4 (Sphinx's own manual,
usr/share/doc/sphinx-doc/html: 93 pages flattened as Scrapy's; search, genindex, py-modindex, changes.html,
_modules/, _static, _sources and _images left out; ingest skips 5 contents pages: 2,306 chunks) and
python-aiohttp-doc 3.8.4-1+deb12u1 (aiohttp's Sphinx manual: 34 pages; search, genindex, py-modindex,
changes.html (a stub in Debian) and the release notes whats_new_1_1 and whats_new_3_0 left out; ingest skips 5
contents pages: 1,215 chunks) and mailutils-doc 1:3.15-4 (the GNU Mailutils manual's makeinfo node pages,
usr/share/doc/mailutils/mailutils.html: 228 of its 306 files, the 72 redirect pages, the five index pages and
the contents page left out: 1,217 chunks) and python-tornado-doc 6.2.0-3+deb12u4 (Tornado's Sphinx manual
flattened as Scrapy's: 47 pages; search, genindex, py-modindex, releases.html and releases/, _modules/,
_static, _sources and _images left out; ingest skips 7 contents pages: 1,025 chunks) and ntpsec-doc
1.2.2+dfsg1-1+deb12u1 (NTPsec's Asciidoctor manual, usr/share/doc/ntpsec-doc/html: 84 pages flat; 404.html,
sitemap.html and the command index comdex.html left out: 1,616 chunks); ingest each with ``sleuth ingest
DIR --index IDX``.

For each question: ``sleuth research --template brief --offline`` and ``sleuth search -k 50``, scored as
benchmarks/research_sets.py scores them (answers in the report's claims / in the search's top N chunks at the
report's claim count, and in its first chunks cut to the claims' length; cited gold recall / the search's
top 10 documents; empty reports; repeated claims).

    python -m benchmarks.unseen_sets --index IDX --questions benchmarks/judged/unseen/bash-doc.jsonl --out DIR
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.research_sets import (
    answer_share,
    as_read,
    claim_texts,
    distinct_claims,
    is_empty,
    repeated_claims,
    same_length,
)

SEARCH_K = 50
TOP_DOCS = 10


def _sleuth(*args: str) -> str:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "sleuth.agent.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode not in (0, 1):  # 1: a required section is not found
        raise SystemExit(f"sleuth {args[0]} failed: {done.stderr.strip()}")
    return done.stdout


def score(question: dict[str, Any], index: Path, out: Path) -> dict[str, Any]:
    started = time.monotonic()
    report = json.loads(
        _sleuth(
            "research",
            question["question"],
            "--template",
            "brief",
            "--index",
            str(index),
            "--offline",
            "--json",
        )
    )
    seconds = time.monotonic() - started
    (out / f"{question['id']}.json").write_text(json.dumps(report, indent=1))
    hits = json.loads(
        _sleuth("search", question["question"], "--index", str(index), "--json", "-k", str(SEARCH_K))
    )
    claims = claim_texts(report)
    unique = distinct_claims(claims)
    n = max(1, len(unique))
    gold = set(question["gold_sources"])
    cited = {e["document_id"] for e in report["evidence"]}
    top = list(dict.fromkeys(h["document_id"] for h in hits))[:TOP_DOCS]
    repeated, _ = repeated_claims(report, frozenset({"answer"}))
    return {
        "id": question["id"],
        "claims": n,
        "answers_report": answer_share(question["answers"], claims)[1],
        "answers_direct": answer_share(question["answers"], claim_texts(report, frozenset({"answer"})))[1],
        "answers_search": answer_share(question["answers"], [as_read(h["content"]) for h in hits[:n]])[1],
        "answers_search_same_length": answer_share(
            question["answers"],
            same_length((h["content"] for h in hits), unique),
        )[1],
        "recall": len(gold & cited) / max(1, len(gold)),
        "search_recall_top10": len(gold & set(top)) / max(1, len(gold)),
        "empty": is_empty(report),
        "repeated": repeated,
        "seconds": round(seconds, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    questions = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
    rows = [score(q, args.index, args.out) for q in questions if q.get("answers")]
    for row in rows:
        print(json.dumps(row))
    print(
        "| kind | questions | answers report / search (same count) / search (same length) | cited recall / "
        "search top 10 | empty | s/question |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for kind, label in (("s", "short"), ("l", "long")):
        mine = [r for r in rows if r["id"].startswith(kind)]
        if not mine:
            continue

        def mean(key: str, rs: list[dict[str, Any]] = mine) -> float:
            return sum(float(r[key]) for r in rs) / len(rs)

        print(
            f"| {label} | {len(mine)} | {mean('answers_report'):.3f} / {mean('answers_search'):.3f} / "
            f"{mean('answers_search_same_length'):.3f} | "
            f"{mean('recall'):.3f} / {mean('search_recall_top10'):.3f} | {sum(r['empty'] for r in mine)} | "
            f"{mean('seconds'):.1f} |"
        )


if __name__ == "__main__":
    main()
