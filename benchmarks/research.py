"""Research against one hybrid search: FanOutQA questions over the development corpus's Wikipedia leads.

``sleuth eval research`` on the questions ``benchmarks.fanout_research`` writes (dev questions with two or
more gold pages among the 10,033 leads), offline: evidence recall (share of the gold pages a report cites)
and precision of the cited documents, next to one hybrid search of each question returning as many
documents as that report cites, in the same run. Settings were chosen on the tuning half; the held-out
half is what the claim rests on. Also: wall time per question and peak memory on the ~10k-chunk index.

    python -m benchmarks.research [--corpus corpus-dev] [--work DIR]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.fanout_research import build
from benchmarks.report import write_section

TEMPLATES = ("brief", "market_brief")


def _sleuth(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sleuth.agent.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("corpus-dev"))
    parser.add_argument("--work", type=Path, default=None, help="Keep the leads and their index here.")
    args = parser.parse_args()
    work = (args.work or Path(tempfile.mkdtemp(prefix="sleuth-research-"))).resolve()
    counts = build(args.corpus.resolve(), work)
    ingest = _sleuth("ingest", str(work / "wiki"), "--index", str(work / "index"), "--json", cwd=work)
    if ingest.returncode != 0:
        raise SystemExit(ingest.stderr)
    chunks = json.loads(ingest.stdout)["index_chunks"]
    rows = []
    for half in ("tune", "heldout"):
        for template in TEMPLATES:
            out = _sleuth(
                "eval", "research", str(work / f"questions-{half}.jsonl"), "--template", template,
                "--index", str(work / "index"), "--offline", "--json", cwd=work,
            )  # fmt: skip
            if out.returncode != 0:
                raise SystemExit(out.stderr)
            m = json.loads(out.stdout)
            r, s = m["research"], m["search"]
            rows.append(
                f"| {half} | {template} | {m['questions_run']} | {r['recall']:.3f} | {r['precision']:.3f} | "
                f"{r['documents']:.1f} | {s['recall']:.3f} | {s['precision']:.3f} | "
                f"{m['seconds_per_question']:.2f} |"
            )
            print(rows[-1], flush=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    write_section(
        "research",
        f"""### Research vs one hybrid search: FanOutQA over the Wikipedia leads, offline

{counts["tune"]} + {counts["heldout"]} FanOutQA dev questions with at least two gold pages among the
{counts["documents"]} leads ({chunks} chunks), split by question id into a tuning half (settings were chosen
on it) and a held-out half. Recall: share of a question's gold pages its report cites; precision: share of
cited documents that are gold. "Search" is one hybrid search of the question returning as many documents
as that report cites, in the same run. No LLM, no web. Command: `python -m benchmarks.research`
(`sleuth eval research QUESTIONS --template T --offline` per row).

"""
        + "| half | template | questions | research recall | precision | documents cited | search recall | "
        "precision | s per question |\n|---|---|---|---|---|---|---|---|---|\n"
        + "\n".join(rows)
        + f"\n\nPeak memory of one `sleuth eval research` process on this index: {peak:.0f} MB.",
    )


if __name__ == "__main__":
    main()
