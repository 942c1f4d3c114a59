"""``sleuth search QUERY``: hybrid (or dense / sparse) search over the corpus index."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import cast

import click

from sleuth.agent import Wiring
from sleuth.agent.cli.workspace import index_options, open_workspace
from sleuth.retrieval import SEARCHABLE_TYPES, Fusion, Mode, SearchFilters


class _OptionNameQuery(click.Command):
    """A manual's reader searches for option names ("-Cem", "--mainline"): when the only query is a word that
    looks like an option this command does not have, it is the query (``sleuth search -- -k`` for one it
    has). A mistyped option beside a query ("--jsn copper") is still an unknown option."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, list(args))
        except click.NoSuchOption as exc:
            name = exc.option_name  # "-C" of a cluster "-Cem"
            token = next((a for a in args if a == name or (a[1:2] != "-" and a.startswith(name))), None)
            if token is None:
                raise
            rest = list(args)
            rest.remove(token)
            try:
                retry = ctx.command.make_context(ctx.info_name, [*rest, "--", token], parent=ctx.parent)
            except click.UsageError:
                raise exc from None  # another word is the query: the option was mistyped
            if retry.params.get("query") != token:
                raise exc from None
            return super().parse_args(ctx, [*rest, "--", token])


@click.command("search", cls=_OptionNameQuery)
@click.argument("query")
@index_options
@click.option("-k", "k", type=click.IntRange(min=1, max=1000), default=10, show_default=True)
@click.option("--mode", type=click.Choice(["hybrid", "dense", "sparse"]), default="hybrid", show_default=True)
@click.option(
    "--fusion",
    type=click.Choice(["rrf", "dbsf"]),
    default=None,
    help="Hybrid fusion (default: the fusion setting, dbsf).",
)
@click.option("--document", "documents", multiple=True, help="Only these document ids (repeatable).")
@click.option(
    "--type",
    "chunk_types",
    multiple=True,
    type=click.Choice(list(SEARCHABLE_TYPES)),
    help="Only these chunk types (repeatable).",
)
@click.option("--section", default=None, help="Only chunks under this heading path prefix (A > B).")
@click.option("--neighbours", type=click.IntRange(min=0, max=5), default=0, help="Attach N chunks each side.")
@click.option("--json", "as_json", is_flag=True, help="Hits as a JSON list.")
@click.pass_obj
def search_command(  # noqa: PLR0917 - click passes options as parameters
    wiring: Wiring,
    query: str,
    index_dir: Path | None,
    qdrant_url: str | None,
    k: int,
    mode: str,
    fusion: str | None,
    documents: tuple[str, ...],
    chunk_types: tuple[str, ...],
    section: str | None,
    neighbours: int,
    as_json: bool,
) -> None:
    """Search the corpus; hits carry their chunk, document, section path, source and page."""
    if not query.strip():
        raise click.BadParameter("the query is empty", param_hint="QUERY")
    filters = SearchFilters(documents, chunk_types, section)
    with open_workspace(wiring, index_dir=index_dir, qdrant_url=qdrant_url, create=False) as ws:
        searcher = ws.searcher
        problem = searcher.check_filters(filters)
        if problem is not None:
            raise click.BadParameter(problem.message, param_hint=problem.option)
        hits = searcher.search(
            query,
            k=k,
            mode=cast(Mode, mode),
            fusion=cast(Fusion, fusion or wiring.settings.index.fusion),
            filters=filters,
            neighbours=neighbours,
        )
        if not hits:
            click.echo(f"no hits: {searcher.why_empty(filters)}", err=True)
    if as_json:
        sys.stdout.write(json.dumps([h.as_json() for h in hits], ensure_ascii=False, indent=2) + "\n")
        return
    for rank, hit in enumerate(hits, 1):
        where = f"{hit.source}" + (f" p.{hit.page_start}" if hit.page_start else "")
        click.echo(f"{rank:>2}. {hit.score:.4f}  {hit.document_id}  [{hit.section_path}]  {where}")
        snippet = " ".join(hit.content.split())
        click.echo(f"    {snippet[:300]}{'...' if len(snippet) > 300 else ''}")
