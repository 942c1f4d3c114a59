"""Research reports against the judged sets of three question styles (benchmarks/judged/), next to one search.

For each set (FanOutQA multi-hop questions, questions about two software manuals, long multi-part requests)
and each half (tuning, held-out), ingests the set's corpus with the real command line, runs
``sleuth eval research`` offline with each of the set's templates, and scores what the reports say against
what one plain ``sleuth search`` of the question returns:

- answers in report: share of the gold answer strings found in the report's claims, against the share found
  in the top N chunks of one search, N being the number of distinct claims of that report (at least 1), so
  that a report wins only by choosing better text, not by saying more; and the share found in the search's
  first chunks, as they read, cut to as many characters as the report's distinct claims hold (a chunk is a
  dozen sentences, a claim one or two: at the same count the search shows several times the text);
- answers in the direct answer (``answers_direct``): the share found in the summary section's claims, what a
  reader meets first;
- cited-document recall and precision (the eval's own numbers, search at equal size) and the recall of the
  search's top 10 documents;
- empty reports (every section not_found) and, for those, whether the search's top 10 held a gold document;
- repeated claims: share of distinct claim texts that stand in more than one findings section (summary
  sections, which restate findings by design, left out);
- seconds per question.

Answer strings match case-insensitively with whitespace collapsed; a second try removes Markdown backslash
escapes (``\\_``), code and emphasis marks and thousands separators, since the gold strings are the visible
text (``answers_*_strict`` keep the first try only).

    python -m benchmarks.research_sets --corpora DEST --work WORKDIR [--sets S ...] [--limit N] [--reuse]
        [--write-doc]

DEST is what ``benchmarks/judged_corpora.sh DEST`` wrote. Indexes stay in WORKDIR/<set>/index (an index is
reused when WORKDIR/<set>/ingest.json exists), runs in WORKDIR/<set>/runs/<half>-<template>/<id>/, all
numbers in WORKDIR/results.json.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import re
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from benchmarks.report import write_section
from sleuth.ingest.visible import visible_text

log = logging.getLogger("research_sets")

ROOT = Path(__file__).resolve().parents[1]
JUDGED = ROOT / "benchmarks" / "judged"
TEMPLATES_DIR = ROOT / "configs" / "templates"
HALVES = ("tune", "heldout")
SEARCH_K = 50  # chunks fetched by the one plain search: enough for N chunks and for ten distinct documents
TOP_DOCS = 10
SUMMARY_IDS = frozenset({"executive_summary", "key_findings"})


@dataclass(frozen=True)
class JudgedSet:
    name: str
    style: str
    templates: tuple[str, ...]


SETS = (
    JudgedSet("fanout", "fanout", ("brief",)),
    JudgedSet("manual-apache", "manual", ("brief",)),
    JudgedSet("manual-sqlite", "manual", ("brief",)),
    JudgedSet("long-django", "long", ("brief", "technical_due_diligence")),
)

_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~&])")
_THOUSANDS = re.compile(r"(?<=\d)[,\u202f\u00a0](?=\d{3}\b)")
_AROUND_EQUALS = re.compile(r"\s*=\s*")


def normalise(text: str) -> str:
    return " ".join(text.casefold().split())


def loose(text: str) -> str:
    """The visible text of Markdown: backslash escapes, code and emphasis marks (backticks, asterisks),
    thousands separators and the spaces around "=" removed (applied to both sides, so an answer with such
    characters still matches: "PRAGMA foreign_keys = ON" is "PRAGMA foreign_keys=ON" in SQLite's FAQ)."""
    plain = _THOUSANDS.sub("", _ESCAPE.sub(r"\1", text).replace("`", "").replace("*", ""))
    return normalise(_AROUND_EQUALS.sub("=", plain))


def answer_share(answers: Sequence[str], texts: Iterable[str]) -> tuple[float, float]:
    """(strict, loose) share of ``answers`` found in ``texts``; strict compares normalised text only."""
    if not answers:
        return (float("nan"), float("nan"))
    pool = list(texts)
    strict = " \n ".join(normalise(t) for t in pool)
    relaxed = " \n ".join(loose(t) for t in pool)
    hits_strict = sum(1 for a in answers if normalise(a) in strict)
    hits_loose = sum(1 for a in answers if normalise(a) in strict or loose(a) in relaxed)
    return (hits_strict / len(answers), hits_loose / len(answers))


def as_read(content: str) -> str:
    """A search hit's stored Markdown and its visible text, both: an answer counts as found in the hit
    whichever way it is written (``FETCHCONTENT\\_SOURCE\\_DIR\\_&lt;uppercaseName&gt;`` in the Markdown reads
    "FETCHCONTENT_SOURCE_DIR_<uppercaseName>", which ``loose`` alone does not undo)."""
    return f"{content}\n{visible_text(content).text}"


def distinct_claims(claims: Iterable[str]) -> list[str]:
    """The report's claims once each (a claim in the summary and in a findings section is one)."""
    return list({normalise(c): c for c in claims}.values())


def same_length(contents: Iterable[str], claims: Sequence[str]) -> list[str]:
    """The search's chunks in rank order, as they read, cut to as many characters as ``claims`` hold."""
    budget = sum(len(c) for c in claims)
    out: list[str] = []
    for content in contents:
        if budget <= 0:
            break
        text = visible_text(content).text
        out.append(text[:budget])
        budget -= len(text)
    return out


def direct_sections(template: str) -> frozenset[str]:
    """The template's summary sections (kind summary): the direct answer a reader meets first."""
    spec = yaml.safe_load((TEMPLATES_DIR / f"{template}.yaml").read_text())
    return frozenset(s["id"] for s in spec.get("sections", []) if s.get("kind") == "summary")


def summary_sections(template: str) -> frozenset[str]:
    """Sections that restate findings by design: id executive_summary / key_findings, or kind summary."""
    spec = yaml.safe_load((TEMPLATES_DIR / f"{template}.yaml").read_text())
    return frozenset(
        s["id"] for s in spec.get("sections", []) if s["id"] in SUMMARY_IDS or s.get("kind") == "summary"
    )


def repeated_claims(report: dict[str, Any], summary: frozenset[str]) -> tuple[int, int]:
    """(claims standing in more than one findings section, distinct claims of the findings sections)."""
    where: dict[str, set[str]] = {}
    for section in report.get("sections", []):
        if section["id"] in summary:
            continue
        for claim in section.get("claims", []):
            where.setdefault(normalise(claim["text"]), set()).add(section["id"])
    return (sum(1 for ids in where.values() if len(ids) > 1), len(where))


def claim_texts(report: dict[str, Any], sections: frozenset[str] | None = None) -> list[str]:
    """The claims' text, of the sections named (all when None)."""
    return [
        c["text"]
        for s in report.get("sections", [])
        if sections is None or s.get("id") in sections
        for c in s.get("claims", [])
    ]


def is_empty(report: dict[str, Any]) -> bool:
    return all(s.get("status") == "not_found" for s in report.get("sections", []))


def _sleuth(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sleuth.agent.cli", *args], capture_output=True, text=True, check=False
    )


def ingest(corpus: Path, work: Path) -> dict[str, Any]:
    record = work / "ingest.json"
    if record.exists():
        return dict(json.loads(record.read_text()))
    work.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    done = _sleuth("ingest", str(corpus), "--index", str(work / "index"), "--json")
    if done.returncode not in (0, 1):  # 1: some files failed, each named on stderr; the rest is indexed
        raise SystemExit(f"ingest of {corpus} failed: {done.stderr.strip().splitlines()[-1:]}")
    if done.returncode == 1:
        log.warning("ingest of %s: some files failed:\n%s", corpus, done.stderr.strip())
    data = dict(json.loads(done.stdout))
    data["wall_seconds"] = round(time.monotonic() - started, 1)
    record.write_text(json.dumps(data, indent=2) + "\n")
    return data


def load_questions(path: Path, limit: int | None) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return rows[:limit] if limit else rows


def search(question: str, index: Path) -> list[dict[str, Any]]:
    done = _sleuth("search", question, "--index", str(index), "--json", "-k", str(SEARCH_K))
    if done.returncode != 0:
        raise SystemExit(f"search failed: {done.stderr.strip()}")
    return [{"document_id": h["document_id"], "content": h["content"]} for h in json.loads(done.stdout)]


def searches(questions: Sequence[dict[str, Any]], index: Path, cache: Path, *, reuse: bool) -> dict[str, Any]:
    """One plain search per question, kept in ``cache`` (a question's hits do not depend on the template)."""
    stored: dict[str, Any] = json.loads(cache.read_text()) if reuse and cache.exists() else {}
    for q in questions:
        if q["id"] not in stored:
            stored[q["id"]] = search(q["question"], index)
    cache.write_text(json.dumps(stored, ensure_ascii=False) + "\n")
    return stored


def run_eval(
    questions_file: Path, template: str, index: Path, out: Path, *, limit: int | None, reuse: bool
) -> Any:
    record = out / "eval.json"
    if reuse and record.exists():
        return json.loads(record.read_text())
    args = ["eval", "research", str(questions_file), "--template", template, "--index", str(index)]
    args += ["--offline", "--out", str(out), "--json"] + (["--limit", str(limit)] if limit else [])
    done = _sleuth(*args)
    if done.returncode != 0:
        raise SystemExit(f"eval research {questions_file} --template {template}: {done.stderr.strip()}")
    out.mkdir(parents=True, exist_ok=True)
    record.write_text(done.stdout)
    return json.loads(done.stdout)


def _mean(values: Sequence[float]) -> float | None:
    kept = [v for v in values if not math.isnan(v)]  # questions without gold answers left out
    return sum(kept) / len(kept) if kept else None


def score(
    questions: Sequence[dict[str, Any]],
    evaluation: dict[str, Any],
    hits: dict[str, Any],
    out: Path,
    summary: frozenset[str],
    *,
    direct: frozenset[str] = frozenset({"answer"}),
) -> dict[str, Any]:
    by_id = {q["id"]: q for q in questions}
    rows: list[dict[str, Any]] = []
    for row in evaluation["questions"]:
        q = by_id[row["id"]]
        report = json.loads((out / row["id"] / "report.json").read_text())
        claims = claim_texts(report)
        unique = distinct_claims(claims)
        n = max(1, len(unique))
        ranked = hits[row["id"]]
        top_docs = list(dict.fromkeys(h["document_id"] for h in ranked))[:TOP_DOCS]
        gold = set(q["gold_sources"])
        report_strict, report_loose = answer_share(q.get("answers", []), claims)
        search_strict, search_loose = answer_share(
            q.get("answers", []), [as_read(h["content"]) for h in ranked[:n]]
        )
        length = answer_share(q.get("answers", []), same_length((h["content"] for h in ranked), unique))[1]
        repeated, distinct = repeated_claims(report, summary)
        rows.append(
            {
                "id": row["id"],
                "claims": n,
                "answers_report": report_loose,
                "answers_report_strict": report_strict,
                # what the summary says of it: the answers a reader meets first
                "answers_direct": answer_share(q.get("answers", []), claim_texts(report, direct))[1],
                "answers_search": search_loose,
                "answers_search_strict": search_strict,
                "answers_search_same_length": length,
                "recall": row["recall"],
                "precision": row["precision"],
                "search_recall": row["baseline_recall"],
                "search_precision": row["baseline_precision"],
                "search_recall_top10": len(gold & set(top_docs)) / len(gold),
                "empty": is_empty(report),
                "empty_gold_in_search_top10": bool(gold & set(top_docs)) if is_empty(report) else None,
                "repeated_claims": repeated,
                "findings_claims": distinct,
                "seconds": row["seconds"],
                "statuses": row["statuses"],
            }
        )
    empties = [r for r in rows if r["empty"]]
    findings = sum(r["findings_claims"] for r in rows)
    return {
        "questions": len(rows),
        "answers_report": _mean([r["answers_report"] for r in rows]),
        "answers_report_strict": _mean([r["answers_report_strict"] for r in rows]),
        "answers_direct": _mean([r["answers_direct"] for r in rows]),
        "answers_search": _mean([r["answers_search"] for r in rows]),
        "answers_search_strict": _mean([r["answers_search_strict"] for r in rows]),
        "answers_search_same_length": _mean([r["answers_search_same_length"] for r in rows]),
        "claims_per_report": _mean([r["claims"] for r in rows]),
        "recall": evaluation["research"]["recall"],
        "precision": evaluation["research"]["precision"],
        "documents_cited": evaluation["research"]["documents"],
        "search_recall": evaluation["search"]["recall"],
        "search_precision": evaluation["search"]["precision"],
        "search_recall_top10": _mean([r["search_recall_top10"] for r in rows]),
        "empty_share": len(empties) / len(rows) if rows else None,
        "empty": len(empties),
        "empty_with_gold_in_search_top10": sum(1 for r in empties if r["empty_gold_in_search_top10"]),
        "repeated_claims_share": sum(r["repeated_claims"] for r in rows) / findings if findings else None,
        "seconds_per_question": evaluation["seconds_per_question"],
        "statuses": evaluation["statuses"],
        "rows": rows,
    }


def _fmt(value: Any, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def table(results: dict[str, Any]) -> str:
    head = (
        "| set | half | template | questions | answers in report / in search (same count) / in search (same "
        "length) | cited recall / precision | "
        "search recall / precision (same size) | search recall top 10 | empty reports (gold in search "
        "top 10) | repeated claims | s per question |\n"
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    )
    lines = []
    for key, m in results["runs"].items():
        name, half, template = key.split("/")
        lines.append(
            f"| {name} | {half} | {template} | {m['questions']} | {_fmt(m['answers_report'])} / "
            f"{_fmt(m['answers_search'])} / {_fmt(m.get('answers_search_same_length'))} | "
            f"{_fmt(m['recall'])} / {_fmt(m['precision'])} | "
            f"{_fmt(m['search_recall'])} / {_fmt(m['search_precision'])} | "
            f"{_fmt(m['search_recall_top10'])} | "
            f"{m['empty']} ({m['empty_with_gold_in_search_top10']}) | {_fmt(m['repeated_claims_share'])} | "
            f"{_fmt(m['seconds_per_question'], 2)} |"
        )
    return head + "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, required=True, help="DEST of benchmarks/judged_corpora.sh.")
    parser.add_argument("--work", type=Path, required=True, help="Indexes, runs and results.json go here.")
    parser.add_argument("--sets", nargs="+", choices=[s.name for s in SETS], default=[s.name for s in SETS])
    parser.add_argument("--halves", nargs="+", choices=HALVES, default=list(HALVES))
    parser.add_argument("--templates", nargs="+", default=None, help="Only these of each set's templates.")
    parser.add_argument("--limit", type=int, default=None, help="Only the first N questions of each half.")
    parser.add_argument("--reuse", action="store_true", help="Keep eval runs and searches already in --work.")
    parser.add_argument("--write-doc", action="store_true", help="Rewrite the section in docs/BENCHMARKS.md.")
    parser.add_argument("--note", default="", help="A sentence for the doc section (the load, say).")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    work = args.work.resolve()
    results_path = work / "results.json"
    results: dict[str, Any] = json.loads(results_path.read_text()) if results_path.exists() else {}
    results.setdefault("runs", {})
    results.setdefault("corpora", {})
    results["limit"] = args.limit
    for judged in sorted((s for s in SETS if s.name in args.sets), key=lambda s: args.sets.index(s.name)):
        set_work = work / judged.name
        ingested = ingest(args.corpora.resolve() / judged.name, set_work)
        results["corpora"][judged.name] = {
            "documents": ingested.get("seen"),
            "chunks": ingested.get("index_chunks"),
            "source": (args.corpora / judged.name / ".source").read_text().strip()
            if (args.corpora / judged.name / ".source").exists()
            else None,
        }
        for half in args.halves:
            questions_file = JUDGED / judged.name / f"questions-{half}.jsonl"
            questions = load_questions(questions_file, args.limit)
            index = set_work / "index"
            hits: dict[str, Any] = {}
            for template in [t for t in judged.templates if args.templates is None or t in args.templates]:
                out = set_work / "runs" / f"{half}-{template}"
                log.info("%s %s %s: %d questions", judged.name, half, template, len(questions))
                evaluation = run_eval(
                    questions_file, template, index, out, limit=args.limit, reuse=args.reuse
                )
                # One search per question and half, whatever the template (after the eval: one process
                # per embedded index at a time).
                hits = hits or searches(questions, index, set_work / f"search-{half}.json", reuse=args.reuse)
                metrics = score(
                    questions,
                    evaluation,
                    hits,
                    out,
                    summary_sections(template),
                    direct=direct_sections(template),
                )
                results["runs"][f"{judged.name}/{half}/{template}"] = metrics
                results_path.write_text(json.dumps(results, indent=2) + "\n")
                row = table({"runs": {f"{judged.name}/{half}/{template}": metrics}}).splitlines()[-1]
                print(row, flush=True)
    text = table(results)
    print(text)
    if args.write_doc:
        write_section("research-sets", _doc(results, text, args.note))


def _doc(results: dict[str, Any], text: str, note: str) -> str:
    corpora = "; ".join(
        f"{name}: {c['documents']} documents, {c['chunks']} chunks" for name, c in results["corpora"].items()
    )
    limit = f" (first {results['limit']} questions of each half)" if results.get("limit") else ""
    return f"""### Research on three question styles: judged sets, offline (no LLM, no web)

Sets under benchmarks/judged/ (each split by a hash of the question id into a tuning and a held-out half
before any tuning; corpora from `benchmarks/judged_corpora.sh DEST`): FanOutQA multi-hop questions over
Wikipedia leads{limit}; questions a user of Apache httpd 2.4 or SQLite asks of its manual; long multi-part
requests written as customers, tickets and managers write them, over the Django 3.2 documentation. Corpora:
{corpora}. Command: `python -m benchmarks.research_sets --corpora DEST --work WORKDIR --limit 40 --write-doc`.

Answers: share of gold answer strings found in the report's claims / in the top N chunks of one plain search
of the question, N = the report's distinct claims. Cited recall / precision: gold documents among the
documents the report cites; search at the same size, and the recall of its top 10 documents. Empty: every
section not_found (in brackets: how many of those had a gold document in the search's top 10). Repeated:
share of distinct findings claims that stand in more than one findings section. Sets and halves without a
row were not run in this measurement. {note}

{text}"""


if __name__ == "__main__":
    main()
