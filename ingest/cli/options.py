"""Command-line options shared by the commands that convert documents (``convert``, ``chunk``, ``ingest``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from sleuth.ingest.convert import ConvertOptions
from sleuth.ingest.convert.cache import ConversionCache, default_cache_dir

F = TypeVar("F", bound=Callable[..., Any])

#: ``default_cache_dir`` lives in the library (``sleuth.ingest.convert.cache``); re-exported for old callers.
__all__ = ["Conversion", "conversion_options", "default_cache_dir"]


def conversion_options(func: F) -> F:
    """Add the conversion options to a click command; it receives them as one ``conversion`` argument.

    Options are applied bottom-up, so they are listed in reverse.
    """
    options = [
        click.option(
            "--ocr-timeout",
            type=click.FloatRange(min=1),
            default=600.0,
            show_default=True,
            help="Seconds the OCR of one document may take (added to --timeout for PDFs and images).",
        ),
        click.option(
            "--ocr/--no-ocr",
            default=True,
            show_default=True,
            help="Read scanned pages and images by OCR (Tesseract); without it they are refused.",
        ),
        click.option("--no-cache", is_flag=True, help="Convert again even when a cached conversion exists."),
        click.option(
            "--cache-dir",
            type=click.Path(path_type=Path),
            default=None,
            help="Where conversions are cached by content hash (default: ~/.cache/sleuth/conversions).",
        ),
        click.option(
            "--docling-artifacts",
            type=click.Path(path_type=Path),
            default=None,
            help="Folder with Docling's layout/table models; enables its standard PDF pipeline.",
        ),
        click.option(
            "--pdf-mode",
            type=click.Choice(["auto", "text", "standard"]),
            default="auto",
            show_default=True,
            help="PDF path: Docling's standard pipeline (needs models), the text layer, or auto.",
        ),
        click.option(
            "--timeout",
            type=click.FloatRange(min=1),
            default=600.0,
            show_default=True,
            help="Seconds one file may take to convert.",
        ),
        click.option(
            "--max-pages",
            type=click.IntRange(min=1),
            default=3000,
            show_default=True,
            help="Longer PDFs are refused.",
        ),
        click.option(
            "--max-file-mb",
            type=click.FloatRange(min=0.001),
            default=200.0,
            show_default=True,
            help="Larger input files are refused.",
        ),
    ]
    command = _collect_conversion(func)
    for option in options:
        command = option(command)
    return cast(F, command)


@dataclass(frozen=True)
class Conversion:
    """What the conversion options add up to, handed to the command as one ``conversion`` argument."""

    options: ConvertOptions
    cache: ConversionCache | None
    timeout: float


def _collect_conversion(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(
        *args: Any,
        max_file_mb: float,
        max_pages: int,
        timeout: float,
        pdf_mode: str,
        docling_artifacts: Path | None,
        cache_dir: Path | None,
        no_cache: bool,
        ocr: bool,
        ocr_timeout: float,
        **kwargs: Any,
    ) -> Any:
        options = ConvertOptions(
            max_bytes=int(max_file_mb * 1024 * 1024),
            max_pages=max_pages,
            pdf_mode=pdf_mode,  # type: ignore[arg-type]  # click.Choice guarantees the literal
            docling_artifacts=docling_artifacts,
            ocr=ocr,
            ocr_timeout=ocr_timeout,
        )
        cache = None if no_cache else ConversionCache(cache_dir or default_cache_dir())
        return func(*args, conversion=Conversion(options, cache, timeout), **kwargs)

    return wrapper
