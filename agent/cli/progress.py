"""Ingest progress for people: a live bar on a terminal, a status line every few seconds otherwise.

Both show the file being worked on (with how long it has taken so far: a 260-page manual converts for
minutes and must not look stuck), files done, chunks written, chunks per second and an ETA from the bytes
still to go.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from pathlib import Path
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TaskID,
    TaskProgressColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class _LiveStatus(ABC):
    """What both displays share: a rich bar on a terminal, else a status line every ``interval`` seconds (a
    log file or CI gets progress too), stopped on exit."""

    console: Console
    interval: float
    _stop: threading.Event
    _ticker: threading.Thread | None
    _progress: Progress | None

    @abstractmethod
    def status_line(self) -> str:
        """The one line a non-terminal gets every ``interval`` seconds."""

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        if self._progress is not None:
            self._progress.stop()

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            self.console.print(self.status_line(), markup=False, highlight=False, soft_wrap=True)


class IngestDisplay(_LiveStatus):
    """Implements ``IngestProgress``; use as a context manager around the ingest."""

    def __init__(
        self, console: Console, files: int, total_bytes: int, *, label: str = "ingest", interval: float = 5.0
    ) -> None:
        self.console = console
        self.files = files
        self.total_bytes = max(total_bytes, 1)
        self.label = label
        self.interval = interval
        self.done = 0
        self.bytes_done = 0
        self.chunk_count = 0
        self.current: str | None = None
        self.current_since = time.monotonic()
        self.current_share = 0.0  # of the current file, when it is being indexed and that is known
        self.current_bytes = 0
        self.started = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        self._progress: Progress | None = None
        self._task = TaskID(0)

    # -- IngestProgress

    def waiting(self, source: str) -> None:
        with self._lock:
            self.current = Path(source).name or source
            self.current_since = time.monotonic()
            self.current_share = 0.0
            self.current_bytes = 0

    def partial(self, source: str, share: float, size: int) -> None:
        with self._lock:
            self.current_share, self.current_bytes = share, size
        if self._progress is not None:
            self._progress.update(self._task, completed=self._done_bytes())

    def chunks(self, count: int) -> None:
        with self._lock:
            self.chunk_count += count

    def finished(self, source: str, size: int) -> None:
        with self._lock:
            self.done += 1
            self.bytes_done += size
            self.current = None
            self.current_share = 0.0
            self.current_bytes = 0
        if self._progress is not None:
            self._progress.update(self._task, completed=self._done_bytes())

    def _done_bytes(self) -> float:
        return min(self.bytes_done + self.current_share * self.current_bytes, self.total_bytes)

    # -- what both displays say

    def rate(self) -> float:
        elapsed = time.monotonic() - self.started
        return self.chunk_count / elapsed if elapsed > 0 else 0.0

    def now_text(self) -> str:
        if self.current is None:
            return ""
        state = f"indexing, {self.current_share:.0%}" if self.current_share else "converting"
        return f"{self.current} ({state}, {time.monotonic() - self.current_since:.0f}s)"

    def status_line(self) -> str:
        elapsed = time.monotonic() - self.started
        share = self._done_bytes() / self.total_bytes
        eta = f", ETA {_duration(elapsed * (1 - share) / share)}" if 0 < share < 1 else ""
        now = f", now: {self.now_text()}" if self.current else ""
        return (
            f"{self.label}: {self.done}/{self.files} files ({share:.0%} of the bytes), "
            f"{self.chunk_count} chunks at {self.rate():.1f}/s, {_duration(elapsed)} elapsed{eta}{now}"
        )

    # -- lifecycle

    def __enter__(self) -> IngestDisplay:
        if self.console.is_terminal:
            self._progress = Progress(
                SpinnerColumn(),
                _Text(lambda: self.label),
                BarColumn(),
                TaskProgressColumn(),
                _Text(lambda: f"{self.done}/{self.files} files"),
                _Text(lambda: f"{self.chunk_count} chunks {self.rate():.1f}/s"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                _Text(self.now_text, style="dim"),
                console=self.console,
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task(self.label, total=self.total_bytes)
        elif self.files > 1:
            self._ticker = threading.Thread(target=self._tick, name="ingest-progress", daemon=True)
            self._ticker.start()
        return self


class _Text(ProgressColumn):
    """A column whose text is computed at every refresh (rich refreshes ten times a second)."""

    def __init__(self, text: object, style: str = "") -> None:
        super().__init__()
        self._text = text
        self._style = style

    def render(self, task: Task) -> Text:
        assert callable(self._text)
        return Text(str(self._text()), style=self._style)


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class ResearchDisplay(_LiveStatus):
    """A research run's events for people: the level, questions, evidence and what is being asked now."""

    def __init__(self, console: Console, *, interval: float = 5.0) -> None:
        self.console = console
        self.interval = interval
        self.questions = 0
        self.finished = 0
        self.evidence = 0
        self.level = 0
        self.phase = "planning"
        self.now = ""
        self.started = time.monotonic()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        self._progress: Progress | None = None

    def update(self, event: object) -> None:
        kind = getattr(event, "type", "")
        if kind == "plan":
            self.questions = len(getattr(event, "questions", []))
            self.phase = "searching"
        elif kind == "question_started":
            question = getattr(event, "question", None)
            if question is not None:
                self.level = max(self.level, question.depth + 1)
                self.now = question.text
        elif kind == "question_finished":
            self.finished += 1
            # A question the plan did not list (an ask asked again) is counted when it ends: never "8/7".
            self.questions = max(self.questions + getattr(event, "leads", 0), self.finished)
        elif kind == "evidence":
            self.evidence = getattr(event, "total", self.evidence)
        elif kind in ("synthesis", "section_status"):
            self.phase = "writing"
            self.now = ""

    def status_line(self) -> str:
        now = f", now: {_short(self.now)}" if self.now else ""
        return (
            f"research: {self.phase}, level {self.level}, {self.finished}/{self.questions} questions, "
            f"{self.evidence} evidence, {_duration(time.monotonic() - self.started)}{now}"
        )

    def __enter__(self) -> ResearchDisplay:
        if self.console.is_terminal:
            self._progress = Progress(
                SpinnerColumn(), _Text(self.status_line), console=self.console, transient=True
            )
            self._progress.start()
            self._progress.add_task("research", total=None)
        else:
            self._ticker = threading.Thread(target=self._tick, name="research-progress", daemon=True)
            self._ticker.start()
        return self


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
