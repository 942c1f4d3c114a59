"""Blocks of a PDF page (headings, paragraphs, lists, code, tables, page markers) rendered as Markdown.

A paragraph broken by a page break is continued, with the page marker inside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sleuth.ingest.convert.pdf_tables import Row

BULLET = re.compile(r"^([•◦▪▫‣⁃∙·●○■□➢►–—*-]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+")


_MD_START = re.compile(r"^(#|>|[-*+]\s|\d+[.)]\s|\||```|~~~|<|=+$|-+$)")


@dataclass
class Block:
    kind: str  # heading, para, list, code, table
    text: str
    level: int = 0
    page: int = 0
    rows: list[Row] = field(default_factory=list)
    open_end: bool = False
    #: The outline entry a heading came from (a wrapped title's rows share it).
    entry: int | None = None


def render_blocks(blocks: list[Block]) -> str:
    out: list[str] = []
    open_para: Block | None = None
    for block in blocks:
        if block.kind == "page":
            if open_para is not None and out:
                out[-1] += "\n" + block.text  # the paragraph goes on across the page break
                continue
            out.append(block.text)
            continue
        if block.kind == "para":
            text = escape_text(block.text)
            if (
                open_para is not None
                and out
                and out[-1].split("\n")[-1].startswith("<!-- page:")
                and text[:1].islower()
            ):
                out[-1] += "\n" + text
            else:
                out.append(text)
            open_para = block if block.open_end else None
            continue
        open_para = None
        if block.kind == "heading":
            out.append("#" * block.level + " " + block.text)
        elif block.kind == "list":
            out.append(_list_item(block.text))
        else:
            out.append(block.text)
    return "\n\n".join(out) + "\n"


def _list_item(text: str) -> str:
    m = BULLET.match(text)
    if m is None:
        return "- " + text
    marker = m.group(1)
    rest = text[m.end() :]
    number = re.match(r"\(?(\d{1,3})[.)]", marker)
    return f"{number.group(1)}. {rest}" if number else f"- {rest}"


def escape_text(text: str) -> str:
    """A paragraph that would read as Markdown syntax (``# ``, ``- ``, ``|``) starts with a backslash."""
    return "\\" + text if _MD_START.match(text) else text
