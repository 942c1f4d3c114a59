"""Writing one benchmark's results into docs/BENCHMARKS.md, between markers, with machine and date."""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
from pathlib import Path

BENCHMARKS_MD = Path(__file__).resolve().parents[1] / "docs" / "BENCHMARKS.md"


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{os.cpu_count()} cores ({cpu}){mem}, Python {platform.python_version()}, {platform.system()}"


def write_section(name: str, body: str) -> None:
    """Replace (or append) the section ``name`` of docs/BENCHMARKS.md."""
    stamp = f"Measured {dt.date.today().isoformat()} on {machine()}."
    block = f"<!-- bench:{name} -->\n{stamp}\n\n{body.strip()}\n<!-- /bench:{name} -->"
    text = BENCHMARKS_MD.read_text() if BENCHMARKS_MD.exists() else "# Benchmarks\n"
    pattern = re.compile(rf"<!-- bench:{re.escape(name)} -->.*?<!-- /bench:{re.escape(name)} -->", re.S)
    found = pattern.search(text)
    text = pattern.sub(lambda _: block, text) if found else text.rstrip() + f"\n\n{block}\n"
    BENCHMARKS_MD.parent.mkdir(parents=True, exist_ok=True)
    BENCHMARKS_MD.write_text(text)
