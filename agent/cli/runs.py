"""``sleuth templates [NAME]`` and ``sleuth runs [RUN_ID]``: what can be asked, and what was."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime

import click

from sleuth.agent import RunNotFoundError, Template, TemplateError, TemplateLibrary, Wiring


@click.command("templates")
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@click.pass_obj
def templates_command(wiring: Wiring, name: str | None, as_json: bool) -> None:
    """List the report templates, or show one (its sections, what each needs, its guiding questions)."""
    library = wiring.templates()
    broken: list[str] = []
    try:
        templates = [library.load(name)] if name else _loadable(library.names(), library, broken)
    except TemplateError as exc:
        raise click.UsageError(str(exc)) from exc
    for problem in broken:  # one broken user template does not hide the others (exit 1 after the rest)
        click.echo(f"sleuth: {problem}", err=True)
    _show(templates, as_json, listing=not name)
    if broken:
        raise SystemExit(1)


def _show(templates: list[Template], as_json: bool, *, listing: bool) -> None:
    if as_json:
        data = [t.model_dump(mode="json") for t in templates]
        sys.stdout.write(json.dumps(data if listing else data[0], indent=2) + "\n")
        return
    if listing:
        for template in templates:
            click.echo(f"{template.name:<26} {template.title}: {len(template.sections)} sections")
        return
    template = templates[0]
    click.echo(f"{template.name}: {template.title}\n{template.description}\n")
    for s in template.sections:
        need = "required" if s.required else "optional"
        kind = "; summary" if s.kind == "summary" else ""
        click.echo(f"- {s.id} ({s.title}; {need}; min_evidence {s.min_evidence}{kind})")
        click.echo(f"    {s.description}")
        for q in s.questions:
            click.echo(f"    ? {q}")
        if s.fields:
            click.echo(f"    fields: {', '.join(s.fields.get('properties', {}))}")


def _loadable(names: list[str], library: TemplateLibrary, broken: list[str]) -> list[Template]:
    out = []
    for name in names:
        try:
            out.append(library.load(name))
        except TemplateError as exc:
            broken.append(str(exc))
    return out


@click.command("runs")
@click.argument("run_id", required=False)
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@click.option("-n", "limit", type=click.IntRange(min=1), default=30, show_default=True, help="Runs to list.")
@click.pass_obj
def runs_command(wiring: Wiring, run_id: str | None, as_json: bool, limit: int) -> None:
    """List past research runs, or show one (its status, sections and report files)."""
    store = wiring.run_store()
    folders = wiring.run_folders()
    try:
        if run_id is None:
            rows = store.list(limit)
            if as_json:
                sys.stdout.write(json.dumps([_row(r) for r in rows], indent=2) + "\n")
                return
            for r in rows:
                when = datetime.fromtimestamp(r.created_at, UTC).strftime("%Y-%m-%d %H:%M")
                click.echo(f"{r.run_id}  {when}  {r.status:<8} {r.template:<22} {r.query}")
            if not rows:
                click.echo(f"no research runs in {folders.root}", err=True)
            return
        try:
            row = store.get(run_id)
        except RunNotFoundError as exc:
            raise click.UsageError(f"{exc} (see `sleuth runs`)") from exc
        report = store.artifact(run_id, "report")
        if as_json:
            sys.stdout.write(json.dumps({**_row(row), "report": report}, ensure_ascii=False, indent=2) + "\n")
            return
        click.echo(f"{row.run_id}: {row.status}\n  query: {row.query}\n  template: {row.template}")
        if row.error:
            click.echo(f"  error: {row.error}")
        folder = folders.path(row.run_id)
        for name in ("report.md", "report.json", "ledger.json"):
            if (folder / name).is_file():
                click.echo(f"  {name}: {folder / name}")
        if report:
            for section in report["sections"]:
                click.echo(f"  - {section['id']}: {section['status']} ({len(section['claims'])} claims)")
    finally:
        store.close()


def _row(row: object) -> dict[str, object]:
    fields = (
        "run_id",
        "created_at",
        "updated_at",
        "query",
        "template",
        "status",
        "options",
        "summary",
        "error",
    )
    return {f: getattr(row, f) for f in fields}
