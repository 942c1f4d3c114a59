"""``sleuth chunk`` / ``python -m sleuth.ingest.chunk``: files to chunks (JSON, JSON Lines) or section trees.

The command is defined here, next to the chunker, so that ingest stays usable on its own; the ``sleuth``
application registers the same command and feeds its defaults from the settings file.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path

import click

from sleuth.ingest.chunker import iter_chunks
from sleuth.ingest.cli.options import Conversion, conversion_options
from sleuth.ingest.cli.progress import track_progress
from sleuth.ingest.cli.runner import run_click
from sleuth.ingest.convert import CONVERTIBLE_SUFFIXES
from sleuth.ingest.convert.pool import convert_files
from sleuth.ingest.sources import SourceError, iter_sources
from sleuth.ingest.tokens import TokenCounter, TokenizerNotFoundError, default_tokenizer_dir
from sleuth.ingest.tree import document_tree


@click.command("chunk")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--max-tokens",
    type=click.IntRange(min=1),
    default=256,
    show_default=True,
    help="Token limit of a chunk's content.",
)
@click.option(
    "--overlap-tokens",
    type=click.IntRange(min=0),
    default=32,
    show_default=True,
    help="Tokens of neighbouring text in context_before/context_after.",
)
@click.option("--jsonl", is_flag=True, help="One chunk JSON per line (default: a JSON array).")
@click.option("--tree", is_flag=True, help="Print each document's section tree instead of chunks.")
@click.option(
    "--tokenizer",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder with the dense model's tokenizer.json (default: the provisioned model).",
)
@click.option(
    "--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Conversion processes."
)
@conversion_options
def chunk_command(  # noqa: PLR0917 - click passes options as parameters
    paths: tuple[Path, ...],
    max_tokens: int,
    overlap_tokens: int,
    jsonl: bool,
    tree: bool,
    tokenizer: Path | None,
    workers: int,
    conversion: Conversion,
) -> None:
    """Cut Markdown (or convertible) files into typed, token-exact chunks.

    PATHS are files or folders (searched recursively). Each chunk carries its section path, neighbours,
    overlap context, exact token count and pages.
    """
    failures = 0
    counter: TokenCounter | None = None
    if not tree:
        try:
            counter = TokenCounter.from_dir(tokenizer or default_tokenizer_dir())
        except TokenizerNotFoundError as exc:
            raise click.BadParameter(str(exc), param_hint="--tokenizer") from exc
    out = sys.stdout
    first = True
    if not jsonl:
        out.write("[")
    sources = list(iter_sources(paths, CONVERTIBLE_SUFFIXES))
    ids = {str(s.path): s.document_id for s in sources if not isinstance(s, SourceError)}
    files = [s if isinstance(s, SourceError) else s.path for s in sources]
    converted = convert_files(
        files, conversion.options, workers=workers, timeout=conversion.timeout, cache=conversion.cache
    )
    for path, result in track_progress(converted, total=len(files), description="chunking"):
        if isinstance(result, SourceError):
            failures += 1
            click.echo(f"sleuth: error: {result}", err=True)
            continue
        records: Iterable[dict[str, object]]
        if tree:
            records = [document_tree(result.markdown).model_dump()]
        else:
            assert counter is not None
            chunks = iter_chunks(
                result.text(),
                counter,
                document_id=ids.get(str(path), path.stem),
                source=str(path),
                max_tokens=max_tokens,
                overlap_tokens=overlap_tokens,
            )
            records = (c.model_dump() for c in chunks)
        for record in records:
            if jsonl:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
            else:
                out.write(("\n" if first else ",\n") + json.dumps(record, ensure_ascii=False, indent=2))
            first = False
    if not jsonl:
        out.write("\n]\n" if not first else "]\n")
    if failures:
        raise SystemExit(1)


def main() -> None:
    sys.exit(run_click(chunk_command, None, "python -m sleuth.ingest.chunk"))


if __name__ == "__main__":
    main()
