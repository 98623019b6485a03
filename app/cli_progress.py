"""Progress on standard error while a command runs (``submit``, ``wait``, ``batch``).

Shown when standard error is a terminal, or when asked (``--progress``); never with
``--no-progress``, and never on standard output, so ``--json`` still prints exactly one object
there. On a terminal one line is redrawn in place every second; each change of state leaves
its line behind. Asked for without a terminal, it writes one line per change and none between.
Whether it is shown is decided before this module (and the words it says) loads:
``app.cli.progress_wanted`` — a scripted ``--json`` run never loads them.

A line says what the app's banner says, in the same words: the state, the elapsed time, the
provider's own status word where it says more, the estimate from this designer's past tasks
of the same kind (``app.present.progress.estimate``) and, while a result downloads, how much of
it has arrived (``app.present.words.file_size``).
"""

from __future__ import annotations

import asyncio
import time
from typing import IO, Any

from app.aiotools import cancel_and_wait
from app.cli_words import DOWNLOADING_OF, say
from app.domain.states import STOP_STATES, State
from app.present import said, words
from app.present.progress import Estimate, estimate, key_of
from app.present.translations import Translate

CLEAR = "\r\x1b[K"
TICK = 1.0


class Progress:
    """Follows the tasks a command touches (the service's listeners) and says how they go."""

    def __init__(
        self,
        service: Any,
        stream: IO[str],
        *,
        live: bool,
        translate: Translate = said.plain,
        rows: bool = False,
    ) -> None:
        """``rows``: a shot list's — one line per row and change (:meth:`batch_row`) instead
        of a line per task."""
        self.service = service
        self.rows = rows
        self.stream = stream
        self.live = live
        self.translate = translate
        self.views: dict[str, Any] = {}
        self.bytes: dict[str, tuple[int, int | None]] = {}
        self.estimates: dict[tuple[Any, ...], Estimate | None] = {}
        self.said: dict[str, tuple[str, ...]] = {}
        self._drawn = ""
        self._ticker: asyncio.Task[None] | None = None
        self._learning: set[asyncio.Task[None]] = set()

    # -- hearing --------------------------------------------------------------------------------
    def start(self) -> "Progress":
        if self.rows:
            return self
        self.service.listeners.append(self.task_changed)
        self.service.download_listeners.append(self.bytes_heard)
        if self.live:
            self._ticker = asyncio.get_running_loop().create_task(self._tick())
        return self

    def task_changed(self, view: Any) -> None:
        self.views[view.request_id] = view
        key = key_of(view)
        if key not in self.estimates and view.kind == "video":
            self.estimates[key] = None
            task = asyncio.get_running_loop().create_task(self._learn(key))
            self._learning.add(task)
            task.add_done_callback(self._learning.discard)
        said_now = self.words(view)
        if self.said.get(view.request_id) != said_now:
            self.said[view.request_id] = said_now
            self._line(self.text(view), keep=True)

    def bytes_heard(self, request_id: str, received: int, total: int | None) -> None:
        self.bytes[request_id] = (received, total)
        view = self.views.get(request_id)
        if self.live and view is not None:
            self._line(self.text(view), keep=False)

    async def _learn(self, key: tuple[Any, ...]) -> None:
        kind, model, resolution, duration = key
        try:
            durations = await self.service.reader.durations(kind, model, resolution, duration)
        except Exception:  # noqa: BLE001 - no estimate is still progress
            return
        self.estimates[key] = estimate(durations)
        for view in self.views.values():  # said at once, not at the next tick
            if self.live and key_of(view) == key and view.state not in STOP_STATES:
                self._line(self.text(view), keep=False)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            running = [v for v in self.views.values() if v.state not in STOP_STATES]
            if len(running) == 1:
                self._line(self.text(running[0]), keep=False)

    # -- saying -----------------------------------------------------------------------------------
    def words(self, view: Any) -> tuple[str, ...]:
        """The state, and the provider's status word where it says more (while running)."""
        tr = self.translate
        state = said.state_word(view.state, tr)
        if view.provider_status and view.state not in STOP_STATES:
            word = words.status_word(view.provider_status, lambda s: said.state_word(s, tr))
            if word != state:
                return (state, word)
        return (state,)

    def text(self, view: Any, now: float | None = None) -> str:
        """One line for ``view``: "rid: Processing · elapsed 0:12 · usually 0:40–1:00 (from your
        last 5 like it) · about 0:28 left"."""
        tr = self.translate
        parts = self.words(view)
        elapsed = (now if now is not None else time.time()) - (view.created_at or time.time())
        if view.state in STOP_STATES:
            line = " · ".join(parts)
        else:
            line = said.elapsed_text(" · ".join(parts), elapsed, tr)
            if view.kind == "video" and view.state is not State.DOWNLOADING:
                line += " · " + said.estimate_text(self.estimates.get(key_of(view)), elapsed, tr)
        got = self.bytes.get(view.request_id)
        if got is not None and view.state is State.DOWNLOADING:
            received, total = got
            size = words.file_size(received)
            line += " · " + (
                say(tr, DOWNLOADING_OF, size, words.file_size(total)) if total else size
            )
        return f"{view.request_id}: {line}"

    def _line(self, text: str, *, keep: bool) -> None:
        if self.live:
            self.stream.write(CLEAR + text + ("\n" if keep else ""))
            self._drawn = "" if keep else text
        elif keep:
            self.stream.write(text + "\n")
        self.stream.flush()

    def batch_row(self, message: str) -> None:
        """A shot list's row changed: its line (the service's words, one per change)."""
        self._line(message, keep=True)

    async def aclose(self) -> None:
        if self._ticker is not None:
            await cancel_and_wait(self._ticker)
        for task in list(self._learning):
            task.cancel()
        if self.task_changed in self.service.listeners:
            self.service.listeners.remove(self.task_changed)
        if self.bytes_heard in self.service.download_listeners:
            self.service.download_listeners.remove(self.bytes_heard)
        if self.live and self._drawn:
            self.stream.write(CLEAR)
            self.stream.flush()
            self._drawn = ""
