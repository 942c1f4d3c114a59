"""BEIR-layout datasets: ``corpus.jsonl`` {_id, title, text}, ``queries.jsonl`` {_id, text}, qrels TSV."""

from __future__ import annotations

import csv
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sleuth.ingest.errors import InputError
from sleuth.retrieval.ingestion import SourceText


class DatasetError(InputError, ValueError):
    """The dataset folder is not usable; the message names the file and the reason."""


@dataclass(frozen=True, slots=True)
class Dataset:
    root: Path
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]

    @classmethod
    def load(cls, root: Path, split: str = "test") -> Dataset:
        for name in ("corpus.jsonl", "queries.jsonl", f"qrels/{split}.tsv"):
            if not (root / name).is_file():
                raise DatasetError(f"{root / name}: missing (BEIR layout expected)")
        qrels = _read_qrels(root / "qrels" / f"{split}.tsv")
        queries = {}
        for line_no, row in _jsonl(root / "queries.jsonl"):
            try:
                if row["_id"] in qrels:
                    queries[str(row["_id"])] = str(row["text"])
            except KeyError as exc:
                raise DatasetError(f"{root / 'queries.jsonl'}:{line_no}: no {exc.args[0]} field") from exc
        return cls(root, queries, qrels)

    def documents(self) -> Iterator[SourceText]:
        """Corpus entries as Markdown: the title as a heading, so it reaches every chunk's section path."""
        path = self.root / "corpus.jsonl"
        for line_no, row in _jsonl(path):
            try:
                doc_id, text = str(row["_id"]), str(row.get("text") or "")
            except KeyError as exc:
                raise DatasetError(f"{path}:{line_no}: no _id field") from exc
            title = str(row.get("title") or "").strip()
            markdown = f"# {_one_line(title)}\n\n{text}\n" if title else text + "\n"
            yield SourceText(
                key=f"beir:{doc_id}",
                source=f"{path.name}#{doc_id}",
                document_id=doc_id,
                digest=hashlib.sha256(markdown.encode()).hexdigest(),
                markdown=markdown,
                title=title or None,
            )


def write_trec_run(path: Path, run: dict[str, list[tuple[str, float]]], tag: str) -> None:
    with path.open("w") as out:
        for qid, ranked in run.items():
            for rank, (doc, score) in enumerate(ranked[:100], 1):
                out.write(f"{qid} Q0 {doc} {rank} {score:.6f} {tag}\n")


def _read_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with path.open(newline="") as handle:
        for line_no, row in enumerate(csv.reader(handle, delimiter="\t"), 1):
            if not row or (line_no == 1 and not row[-1].strip().lstrip("-").isdigit()):
                continue  # header
            if len(row) < 3:
                raise DatasetError(f"{path}:{line_no}: expected query-id, corpus-id, score")
            qrels.setdefault(row[0], {})[row[1]] = int(row[2])
    return qrels


def _jsonl(path: Path) -> Iterator[tuple[int, dict[str, object]]]:
    with path.open(encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{path}:{line_no}: not JSON ({exc.msg})") from exc
            if not isinstance(row, dict):
                raise DatasetError(f"{path}:{line_no}: not a JSON object")
            yield line_no, row


def _one_line(text: str) -> str:
    return " ".join(text.split())
