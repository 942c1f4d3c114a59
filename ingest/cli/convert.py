"""``sleuth convert PATH [-o OUT.md]``: one document to Markdown (with page markers for paged formats)."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import click

from sleuth.ingest.cli.options import Conversion, conversion_options
from sleuth.ingest.cli.runner import run_click
from sleuth.ingest.convert.pool import convert_files
from sleuth.ingest.sources import SourceError

log = logging.getLogger(__name__)


@click.command("convert")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None, help="Write Markdown here.")
@conversion_options
def convert_command(
    path: Path,
    output: Path | None,
    conversion: Conversion,
) -> None:
    """Convert one document (PDF, HTML, DOCX, PPTX, XLSX, CSV, image, Markdown, text) to Markdown, on stdout
    or to OUTPUT.

    Paged formats get a `<!-- page: N -->` line at the start of every page (a slide, a sheet). Scanned pages
    and images are read by OCR. Which converter ran is logged (-v).
    """
    source: Path | SourceError = path
    if path.is_dir():
        source = SourceError(path, "a folder; convert takes one file (`sleuth ingest` takes folders)")
    elif not path.is_file():
        source = SourceError(path, "not a regular file" if path.exists() else "no such file")
    results = convert_files(
        [source], conversion.options, workers=1, timeout=conversion.timeout, cache=conversion.cache
    )
    for _, result in results:
        if isinstance(result, SourceError):
            click.echo(f"sleuth: error: {result}", err=True)
            raise SystemExit(1)
        log.info("%s: %s, %s pages, converter %s", path, result.format.value, result.pages, result.converter)
        if output is None:
            for block in result.text():
                sys.stdout.write(block)
        else:
            with output.open("w") as out:
                for block in result.text():
                    out.write(block)
            click.echo(f"{path} -> {output} ({result.converter}, {result.pages or '-'} pages)", err=True)


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    sys.exit(run_click(convert_command, None, "python -m sleuth.ingest.cli.convert"))


if __name__ == "__main__":
    main()
