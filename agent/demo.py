"""``make demo``: run the pipeline as far as it exists on the bundled sample corpus and say where output went.

Today that is conversion and structure-aware chunking of ``data/sample``; the hybrid index and the research
agent extend it as they land (see the contract).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from agent.settings import load_settings
from ingest import TokenCounter, chunk_markdown
from ingest.convert import CONVERTIBLE_SUFFIXES, ConvertOptions
from ingest.convert.cache import ConversionCache
from ingest.convert.pool import convert_files
from ingest.sources import SourceError, iter_files

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"


def main() -> int:
    settings = load_settings()
    counter = TokenCounter.from_dir(settings.tokenizer_dir)
    out_dir = Path(".sleuth/demo")
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / "chunks.jsonl"
    kinds: Counter[str] = Counter()
    documents = 0
    files = iter_files([SAMPLE], CONVERTIBLE_SUFFIXES)
    cache = ConversionCache(settings.cache_dir)
    with out.open("w") as fh:
        for path, result in convert_files(files, ConvertOptions(), workers=settings.workers, cache=cache):
            if isinstance(result, SourceError):
                print(f"sleuth demo: error: {result}", file=sys.stderr)
                continue
            chunks = chunk_markdown(
                result.markdown,
                counter,
                document_id=path.stem,
                source=str(path),
                max_tokens=settings.max_tokens,
                overlap_tokens=settings.overlap_tokens,
            )
            documents += 1
            for chunk in chunks:
                kinds[chunk.chunk_type] += 1
                fh.write(json.dumps(chunk.model_dump(), ensure_ascii=False) + "\n")
    summary = ", ".join(f"{n} {kind}" for kind, n in kinds.most_common())
    print(
        f"converted and chunked {documents} documents of {SAMPLE}: {sum(kinds.values())} chunks ({summary})"
    )
    print(f"chunks written to {out.resolve()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
