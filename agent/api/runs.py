"""Research runs inside the server: started in the background, a bounded number at once (the rest wait in a
queue and say so), every event recorded in the run store and handed to whoever is listening live.

A run goes on when its client disconnects; a client that reconnects asks for the events after the last one it
saw (``Last-Event-ID``) and gets the stored ones, then the live ones. Run-store calls may block (SQLite), so
they run off the event loop; events travel as typed ``RunEvent``s, stored ones read back by ``parse_event``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from sleuth.agent import (
    TERMINAL,
    ResearchOptions,
    ResearchRun,
    RunEvent,
    RunFolders,
    RunStore,
    Runtime,
    Template,
    Wiring,
    drive,
    new_run_id,
    parse_event,
)

log = logging.getLogger(__name__)


@dataclass
class _Live:
    queues: list[asyncio.Queue[RunEvent | None]] = field(default_factory=list)
    done: bool = False


class RunManager:
    def __init__(
        self, wiring: Wiring, runtime: Runtime, store: RunStore, folders: RunFolders, max_running: int
    ) -> None:
        self.wiring = wiring
        self.runtime = runtime
        self.store = store
        self.folders = folders
        self._slots = asyncio.Semaphore(max_running)
        self._max_running = max_running
        self._running = 0
        self._queued: list[str] = []
        self._live: dict[str, _Live] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, query: str, template: Template, options: ResearchOptions) -> str:
        """Start a run in the background; returns its id at once."""
        run_id: str = new_run_id()
        run = self.wiring.research_run(self.runtime, run_id, query, template, options)
        self._live[run_id] = _Live()
        self._queued.append(run_id)
        task = asyncio.create_task(self._run(run))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return run_id

    def position(self, run_id: str) -> int | None:
        """Place in the queue (1 = next), None when the run is not waiting: a run started a moment ago that
        a free slot will take at once is not waiting, though its task has not begun yet."""
        if run_id not in self._queued:
            return None
        place = self._queued.index(run_id) + 1 - (self._max_running - self._running)
        return place if place > 0 else None

    def is_live(self, run_id: str) -> bool:
        live = self._live.get(run_id)
        return live is not None and not live.done

    async def _run(self, run: ResearchRun) -> None:
        live = self._live[run.run_id]
        async with self._slots:
            self._queued.remove(run.run_id)
            self._running += 1
            try:
                async for event in drive(run, self.store, self.folders):
                    self._publish(live, event)
            except Exception:  # recorded as a failed event by the pipeline; the server goes on
                log.exception("run %s failed", run.run_id)
            finally:
                self._running -= 1
                live.done = True
                for queue in live.queues:
                    queue.put_nowait(None)

    def _publish(self, live: _Live, event: RunEvent) -> None:
        for queue in live.queues:
            queue.put_nowait(event)

    async def _stored(self, run_id: str, after: int) -> list[RunEvent]:
        rows = await asyncio.to_thread(lambda: list(self.store.events(run_id, after)))
        return [parse_event(row) for row in rows]

    async def events(self, run_id: str, after: int = 0) -> AsyncIterator[RunEvent]:
        """Stored events after ``after``, then live ones until the run ends (a finished run: stored only).

        A stored log may hold a terminal event that is not its last: a ``review``, then the events of the
        resumed run; the replay ends at the log's end, not at the first terminal event."""
        live = self._live.get(run_id)
        queue: asyncio.Queue[RunEvent | None] | None = None
        if live is not None and not live.done:
            queue = asyncio.Queue()
            live.queues.append(queue)
        try:
            last = after
            stored = await self._stored(run_id, after)
            for event in stored:  # all of them: a reviewed run that was resumed goes on after its review
                last = event.seq
                yield event
            if queue is None or (stored and _terminal(stored[-1])):
                return
            while True:
                item = await queue.get()
                if item is None:
                    # Anything recorded between the replay and the subscription.
                    for event in await self._stored(run_id, last):
                        yield event
                    return
                if item.seq <= last:
                    continue
                last = item.seq
                yield item
                if _terminal(item):
                    return
        finally:
            if queue is not None and live is not None and queue in live.queues:
                live.queues.remove(queue)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def _terminal(event: RunEvent) -> bool:
    return str(getattr(event, "type", "")) in TERMINAL


def event_frame(event: RunEvent) -> str:
    """One Server-Sent Events frame: the event's sequence number as its id, its type as the event name."""
    kind = str(getattr(event, "type", "message"))
    return f"id: {event.seq}\nevent: {kind}\ndata: {json.dumps(event.model_dump(mode='json'))}\n\n"
