"""Routing against hand labels: does each quote go to the section whose purpose it serves?

``benchmarks/judged/routing-labels.jsonl`` holds quotes from reports, each labelled by hand with the
template sections it serves by purpose (empty: it serves none): 60 from the Apache manual (mostly ``brief``),
and 88 for the four templates with several aspects (technical due diligence over the Django and SQLite
manuals, market brief, investment memo and literature review over the Wikipedia leads), labelled blind (from
the templates' section descriptions, before the report's placement was read) by a helper session, each with
its reason (``why``); halves assigned per query before any run. This routes the quotes of each (question,
template) together through ``sleuth.agent.research.routing.route`` as a research run does (the quote's
visible text, its relevance to the request scored by the cross-encoder as the run scores it) and reports,
per half, the share of labelled quotes routed to a section they serve, next to the baseline report's
placement recorded with the labels (``agent_sections``: where the old keyword routing put them).

    python -m benchmarks.routing_labels [--labels F] [--index IDX]
"""

from __future__ import annotations

import argparse
import json
import logging
from collections import defaultdict
from pathlib import Path
from typing import Any

from sleuth.agent import Wiring, load_settings
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.quotes import in_context
from sleuth.agent.research.request import understand
from sleuth.agent.research.routing import route
from sleuth.ingest.visible import visible_text

log = logging.getLogger("routing_labels")
LABELS = Path(__file__).resolve().parent / "judged" / "routing-labels.jsonl"


def measure(labels: list[dict[str, Any]], index: Path | None) -> dict[str, Any]:
    wiring = Wiring(load_settings())
    settings = wiring.research_options()
    templates = wiring.templates()
    by_run: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for label in labels:
        by_run[(label["id"], label["template"], label["query"])].append(label)
    tally: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    with wiring.runtime(index_dir=index) as runtime:
        rerank = runtime.encoders.rerank
        for (_, template_name, query), items in by_run.items():
            template = templates.load(template_name)
            request = understand(query)
            evidence = []
            for n, label in enumerate(items):
                quote = visible_text(label["quote"]).text
                context = in_context(quote, title=label["title"], section_path=label["section_path"])
                evidence.append(
                    Evidence(
                        id=f"E{n}",
                        kind="corpus",
                        document_id=label["document_id"],
                        title=label["title"],
                        section_path=label["section_path"],
                        quote=quote,
                        relevance=rerank(query, [context])[0],
                    )
                )
            routed = route(
                template,
                evidence,
                request,
                rerank,
                route_floor=settings.route_floor,
                route_lift=settings.route_lift,
                cue_floor=settings.answer_floor,
            )
            home = {e.id: section for section, es in routed.items() for e in es}
            for n, label in enumerate(items):
                log.info(
                    "%s %s: labelled %s, routed %s: %s",
                    label["half"],
                    template_name,
                    label["sections"],
                    home.get(f"E{n}"),
                    evidence[n].quote[:90],
                )
                row = tally[label["half"]]
                if not label["sections"]:
                    row["serve no section"] += 1
                    continue
                row["labelled"] += 1
                row["routed right"] += home.get(f"E{n}") in label["sections"]
                row["baseline right"] += bool(set(label.get("agent_sections", [])) & set(label["sections"]))
                row["baseline in one section"] += len(label.get("agent_sections", [])) == 1
    out: dict[str, Any] = {}
    for half, row in sorted(tally.items()):
        n = max(1, row["labelled"])
        out[half] = {
            "labels": row["labelled"] + row["serve no section"],
            "labelled with a section": row["labelled"],
            "routed to a section it serves": round(row["routed right"] / n, 3),
            "baseline: one of its sections serves it": round(row["baseline right"] / n, 3),
            "baseline: in exactly one section": round(row["baseline in one section"] / n, 3),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--index", type=Path, default=None, help="Any index (only its models are used).")
    parser.add_argument("-v", "--verbose", action="store_true", help="Log each label and where it went.")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    labels = [json.loads(line) for line in args.labels.read_text().splitlines() if line.strip()]
    print(json.dumps(measure(labels, args.index), indent=2))


if __name__ == "__main__":
    main()
