"""Spreadsheets (XLSX through openpyxl, CSV through the standard library): one section per sheet.

Each sheet is a heading (its name) and a page (``<!-- page: N -->``, sheet N = page N, so evidence cites
its sheet); its cells are Markdown tables, one per block of rows between empty rows, header first, which the
chunker splits by rows with the header repeated in every piece. A table whose rows are too wide to sit in a
chunk with their header (long text cells, dozens of columns) is read as records instead: one list item per
row, each value labelled with its column's header, which the chunker splits by items.

Docling's Excel backend was tried on the same workbooks (``tests/data/office``): it drops the sheet names
(no heading per sheet), pads every cell to its column's width (tokens spent on spaces), and has no answer
for rows too wide for a chunk; openpyxl in read-only mode also streams large sheets row by row.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from datetime import date, datetime, time
from pathlib import Path

from sleuth.ingest.convert.model import Converted, ConvertOptions
from sleuth.ingest.convert.sniff import Format
from sleuth.ingest.convert.source import Source, failure_reason
from sleuth.ingest.pages import page_marker
from sleuth.ingest.sources import SourceError

#: A row (with its header) longer than this, in Markdown characters, makes its table records: at the default
#: chunk limit (256 tokens, about 1,000 characters) a header and one such row must fit in a chunk together.
WIDE_ROW_CHARS = 800


class XlsxSheets:
    name = "sleuth-xlsx"

    def accepts(self, fmt: Format, options: ConvertOptions) -> bool:
        return fmt is Format.XLSX

    def convert(self, source: Source, options: ConvertOptions) -> Converted:
        from openpyxl import load_workbook  # noqa: PLC0415 - only in conversion workers

        try:
            book = load_workbook(io.BytesIO(source.data()), read_only=True, data_only=True)
        except Exception as exc:  # openpyxl raises many types for damaged parts
            raise SourceError(source.name, f"XLSX conversion failed ({failure_reason(exc)})") from exc
        try:
            sheets = [ws for ws in book.worksheets if hasattr(ws, "iter_rows")]
            if len(sheets) > options.max_pages:
                raise SourceError(source.name, f"too many sheets ({len(sheets)} > limit {options.max_pages})")
            parts: list[str] = []
            filled = 0
            for number, sheet in enumerate(sheets, 1):
                rows = [[_cell(v) for v in row] for row in sheet.iter_rows(values_only=True)]
                filled += sum(1 for row in rows for v in row if v)
                parts += [page_marker(number), f"# {_inline(sheet.title)}", *render_rows(rows)]
            title = book.properties.title if book.properties is not None else None
        except SourceError:
            raise
        except Exception as exc:
            raise SourceError(source.name, f"XLSX conversion failed ({failure_reason(exc)})") from exc
        finally:
            book.close()
        if not filled:
            raise SourceError(source.name, "no cells with content in the workbook")
        return Converted("\n\n".join(parts) + "\n", Format.XLSX, self.name, len(sheets), title or None)


class CsvTable:
    name = "sleuth-csv"

    def accepts(self, fmt: Format, options: ConvertOptions) -> bool:
        return fmt is Format.CSV

    def convert(self, source: Source, options: ConvertOptions) -> Converted:
        try:
            text = source.data().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise SourceError(source.name, f"not UTF-8 text (invalid byte at offset {exc.start})") from exc
        try:
            dialect: type[csv.Dialect] | str = csv.Sniffer().sniff(text[:65536], delimiters=",;\t|")
        except csv.Error:
            dialect = "excel-tab" if Path(source.name).suffix.lower() == ".tsv" else "excel"
        try:
            rows = [[_inline(v) for v in row] for row in csv.reader(io.StringIO(text), dialect)]
        except csv.Error as exc:
            raise SourceError(source.name, f"malformed CSV ({exc})") from exc
        if not any(v for row in rows for v in row):
            raise SourceError(source.name, "empty document (no cells with content)")
        title = Path(source.name).stem if source.path is not None else source.stem
        body = "\n\n".join([f"# {_inline(title)}", *render_rows(rows)]) + "\n"
        return Converted(body, Format.CSV, self.name, title=title)


def render_rows(rows: list[list[str]]) -> list[str]:
    """Markdown blocks for a sheet's rows: a table (or records) per block of rows between empty rows."""
    return [_render_block(block) for block in _blocks(rows)]


def _blocks(rows: Iterable[list[str]]) -> Iterator[list[list[str]]]:
    block: list[list[str]] = []
    for row in rows:
        if any(row):
            block.append(row)
        elif block:
            yield block
            block = []
    if block:
        yield block


def _render_block(block: list[list[str]]) -> str:
    width = max(len(r) for r in block)
    grid = [r + [""] * (width - len(r)) for r in block]
    used = [k for k in range(width) if any(r[k] for r in grid)]
    grid = [[r[k] for k in used] for r in grid]
    if len(grid) == 1 or len(used) == 1:  # a title line, a note, a single column: text
        return "\n\n".join(_escape(" ".join(v for v in r if v)) for r in grid)
    header = [h or f"Column {k + 1}" for k, h in enumerate(grid[0])]
    lines = ["| " + " | ".join(_pipe(v) for v in r) + " |" for r in [header, *grid[1:]]]
    if len(lines[0]) + max(len(line) for line in lines[1:]) > WIDE_ROW_CHARS:
        return "\n".join(_record(header, r) for r in grid[1:])
    return "\n".join([lines[0], "|" + "---|" * len(header), *lines[1:]])


def _record(header: list[str], row: list[str]) -> str:
    values = "; ".join(f"**{_escape(h)}:** {v}" for h, v in zip(header, row, strict=True) if v)
    return f"- {values}"


def _cell(value: object) -> str:
    """A cell's value as text: whole numbers without a decimal point, dates in ISO form."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, datetime):
        return value.isoformat(sep=" ") if value.time() != time(0) else value.date().isoformat()
    if isinstance(value, date | time):
        return value.isoformat()
    return _inline(str(value))


def _inline(text: str) -> str:
    return " ".join(text.split())


def _pipe(text: str) -> str:
    return text.replace("|", "\\|")


def _escape(text: str) -> str:
    """A value that would read as Markdown syntax at the start of a block starts with a backslash."""
    return "\\" + text if text[:1] in "#>|-+*=`~<" else text
