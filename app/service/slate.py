"""The Slate service: one facade over submit, lifecycle, recover and reads.

One instance serves one tenant and user against one provider and endpoint. The CLI and the
GUI both drive it; it enforces the allowed-actions table of :mod:`app.domain.states` and
answers with typed results (:mod:`app.service.results`). The modules behind it:

* :mod:`~app.service.submit` — validate, claim, replay / conflict, the create;
* :mod:`~app.service.lifecycle` — sweep, resume, poll, query, wait, downloads;
* :mod:`~app.service.transitions` — the state machine's moves;
* :mod:`~app.service.recover` — attach, lookup (and look without attaching), redownload,
  declare failed;
* :mod:`~app.service.cancel` — cancel a queued task where the provider can (MiniMax V2);
* :mod:`~app.service.reads` — status, history, list, quota, export, suggestions, SlotReader;
* :mod:`~app.service.spend` — spend, today's budget use, a draft's cost;
* :mod:`~app.service.batch` — shot lists: the dry run and the run, with progress;
* :mod:`~app.service.context` — what they share (the price table among them).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from app.config import Config
from app.domain.prices import PriceTable
from app.providers.base import Provider
from app.service.cancel import Canceller
from app.service.context import ServiceContext
from app.service.derived import Derivations
from app.service.lifecycle import Lifecycle
from app.service.reads import Reads, SlotReader, Twin
from app.service.recover import RecoverHow, Recovery
from app.service.owner import this_owner
from app.service.results import (
    Pruned,
    BatchReport,
    BudgetReport,
    DraftCost,
    Exported,
    History,
    LookupReport,
    ProgressCallback,
    QuotaReport,
    Result,
    PromptList,
    PricesReport,
    SlotList,
    SpendReport,
)
from app.service.spend import Prices, Spending
from app.service.submit import Submitter, warm_for_send
from app.service.tidy import Tidy
from app.service.pick_results import BoardReport, PickReport
from app.service.picks import Picks
from app.store.picks import KEEP
from app.service.transitions import Transitions
from app.service.views import ProviderInfo, TaskView
from app.store.aio import Store
from app.store.rows import Scope, TaskRow

if TYPE_CHECKING:  # shot lists (and yaml) load on their first use, not with the service
    from app.domain.shotlist import ShotList
    from app.service import preview as preview_mod  # a voice's preview: on its first use too
    from app.service.batch import Batches, BatchSource
    from app.service.sound import VoiceList  # voices and their slots: on their first use too


class SlateService:
    def __init__(
        self,
        config: Config,
        store: Store,
        provider: Provider,
        secret: bytes,
        *,
        poll_interval: float | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.ctx = ctx = ServiceContext(
            config, store, provider, secret, poll_interval=poll_interval, rng=rng
        )
        moves = Transitions(ctx)
        self.lifecycle = Lifecycle(ctx, moves)
        self._submitter = Submitter(ctx, self.lifecycle, moves)
        self.lifecycle.before_sweep = self._submitter.replay_journal
        self._recovery = Recovery(ctx, self.lifecycle, moves)
        self._canceller = Canceller(ctx, self.lifecycle, moves)
        self._reads = Reads(ctx)
        self._tidy = Tidy(ctx)
        self._picks = Picks(ctx)
        self._spending = Spending(ctx)
        self._prices = Prices(ctx)
        self._batches_made: Batches | None = None
        self._derived = Derivations(ctx, self._submitter)
        #: The slot browser's reads, bound to this service's scope.
        self.reader = SlotReader(store, ctx.scope, config.data_dir)

    # -- what it serves -------------------------------------------------------------------
    @property
    def config(self) -> Config:
        return self.ctx.config

    @property
    def store(self) -> Store:
        return self.ctx.store

    @property
    def provider(self) -> Provider:
        return self.ctx.provider

    @property
    def provider_info(self) -> ProviderInfo:
        return self.ctx.provider_info

    @property
    def scope(self) -> Scope:
        return self.ctx.scope

    @property
    def tenant(self) -> str:
        return self.ctx.tenant

    @property
    def user(self) -> str:
        return self.ctx.user

    @property
    def poll_interval(self) -> float:
        return self.ctx.poll_interval

    @property
    def listeners(self) -> list[Callable[[TaskView], None]]:
        """Called with the new view whenever a task changes (the GUI listens)."""
        return self.ctx.listeners

    @property
    def download_listeners(self) -> list[Callable[[str, int, int | None], None]]:
        """Called as a download goes: (request id, bytes received, bytes in all or None)."""
        return self.ctx.download_listeners

    def view(self, task: TaskRow) -> TaskView:
        return self.ctx.view(task)

    # -- commands -------------------------------------------------------------------------
    async def submit(
        self,
        request_id: Any,
        kind: Any,
        params: Mapping[str, Any],
        *,
        wait: bool = False,
        max_seconds: float | None = None,
    ) -> Result[Any]:
        return await self._submitter.submit(
            request_id, kind, params, wait=wait, max_seconds=max_seconds
        )

    async def regenerate(
        self,
        source_request_id: Any,
        to: Any,
        request_id: Any,
        *,
        wait: bool = False,
        max_seconds: float | None = None,
    ) -> Result[Any]:
        """A finished 768P MiniMax-H3 slot re-rendered at 2K as a new slot (the source is never
        changed)."""
        return await self._derived.regenerate(
            source_request_id, to, request_id, wait=wait, max_seconds=max_seconds
        )

    async def enhance(
        self,
        source_request_id: Any,
        request_id: Any,
        *,
        draft: tuple[str, Mapping[str, Any]] | None = None,
    ) -> Result[Any]:
        """MiniMax-H3's prompt enhancement of a slot's prompt (or of a draft's, ``draft``: its
        kind and parameters, not stored yet), as a slot of kind ``prompt``."""
        return await self._derived.enhance(source_request_id, request_id, draft=draft)

    async def status(self, request_id: object) -> Result[Any]:
        return await self._reads.status(request_id)

    async def status_by_handle(self, handle: str) -> Result[Any]:
        return await self._reads.status_by_handle(handle)

    async def task_by_handle(self, handle: str) -> TaskRow:
        return await self._reads.task_by_handle(handle)

    async def query(self, request_id: object) -> Result[Any]:
        return await self.lifecycle.query(request_id)

    async def wait(self, request_id: object, max_seconds: float | None = None) -> Result[Any]:
        return await self.lifecycle.wait(request_id, max_seconds)

    async def recover(self, request_id: object, how: RecoverHow) -> Result[Any]:
        return await self._recovery.recover(request_id, how)

    async def look(self, request_id: object) -> Result[LookupReport]:
        """Search the provider's task list for an unknown slot's create without attaching
        anything (``payload``: the window and the candidates)."""
        return await self._recovery.look(request_id)

    async def cancel(self, request_id: object) -> Result[Any]:
        """Cancel a queued task where the provider can (outcome ``cancelled`` once confirmed)."""
        return await self._canceller.cancel(request_id)

    async def history(self, request_id: object) -> Result[History]:
        return await self._reads.history(request_id)

    async def list_slots(
        self,
        *,
        state: str | None = None,
        kind: str | None = None,
        limit: int = 50,
        search: str | None = None,
        before_id: int | None = None,
    ) -> Result[SlotList]:
        return await self._reads.list_slots(
            state=state, kind=kind, limit=limit, search=search, before_id=before_id
        )

    async def export(self, request_id: object, to: str | Path) -> Result[Exported]:
        return await self._reads.export(request_id, to)

    async def prompts(self, search: object = "", limit: object = 50) -> Result[PromptList]:
        """This user's earlier prompts, the last used first (prompt recall)."""
        return await self._reads.prompts(search, limit)

    async def hide(self, request_id: object) -> Result[Any]:
        """Hide a slot from the browser and the gallery (the record stays)."""
        return await self._tidy.set_hidden(request_id, True)

    async def unhide(self, request_id: object) -> Result[Any]:
        return await self._tidy.set_hidden(request_id, False)

    async def prune_media(
        self, request_id: object | None = None, older_than_days: object | None = None
    ) -> Result[Pruned]:
        """Delete local media files (one slot's, or those verified more than N days ago); the
        slot, its fingerprint, events and cost stay."""
        return await self._tidy.prune_media(request_id, older_than_days)

    async def pick(
        self, request_id: object, *, pick: Any = KEEP, rating: Any = KEEP, result: object = 1
    ) -> Result[PickReport]:
        """Set or clear a result's favourite / reject flag (``pick``: ``favourite``, ``reject``,
        None) and its 0–5 rating; with neither, the slot's marks. Never touches the ledger."""
        return await self._picks.pick(request_id, pick=pick, rating=rating, result=result)

    async def boards(self) -> Result[BoardReport]:
        """This designer's boards, by name, with how many results each holds."""
        return await self._picks.boards()

    async def board(self, name: object) -> Result[BoardReport]:
        return await self._picks.board(name)

    async def board_add(
        self, name: object, request_id: object, result: object = 1
    ) -> Result[BoardReport]:
        """Put a slot's result on a board (made when it does not exist yet)."""
        return await self._picks.change_board(name, request_id, add=True, result=result)

    async def board_remove(
        self, name: object, request_id: object, result: object = 1
    ) -> Result[BoardReport]:
        return await self._picks.change_board(name, request_id, add=False, result=result)

    async def board_delete(self, name: object) -> Result[BoardReport]:
        return await self._picks.delete_board(name)

    async def quota(self) -> Result[QuotaReport]:
        return await self._reads.quota()

    async def twin_of(self, request_id: Any, kind: Any, params: Mapping[str, Any]) -> Twin | None:
        """Another live, unknown or successful slot with exactly these parameters (the newest),
        or None: a new slot named ``request_id`` would pay for it again. Reads only."""
        return await self._reads.twin_of(request_id, kind, params)

    async def suggest_request_id(self, request_id: str) -> str:
        return await self._reads.suggest_request_id(request_id)

    def warm(self) -> None:
        """Make now what a process's first submit would make: what a send makes or loads on
        first use (:func:`~app.service.submit.warm_for_send`: the provider's client, the
        modules of a send's answer), this process as an owner (its start time: psutil, ~30 ms
        to load, else paid by the first claim's values) and the price table with the prices
        this user gave (one read of the store). Blocking: for a thread that may wait (the
        desktop app's build thread), never the window's loop. A price override that cannot be
        read is logged and left to the submit that needs it, which refuses naming the file,
        line and field."""
        warm_for_send(self.ctx)
        this_owner()
        self.ctx.prices_or_none()

    # -- money ----------------------------------------------------------------------------
    @property
    def prices(self) -> PriceTable:
        """The price table in use (raises PriceTableError, naming file, line and field, when
        the user's override cannot be read)."""
        return self.ctx.prices

    def reload_prices(self) -> PriceTable:
        """Read the price table again (after the user edited their ``prices.toml``)."""
        return self.ctx.reload_prices()

    async def price_list(self) -> Result[PricesReport]:
        """Every price this user's creates are judged by (``slate prices list``)."""
        return await self._prices.list()

    async def set_price(self, model: Any, amount: Any, **part: Any) -> Result[PricesReport]:
        """Give a model (or one part of its price) this user's own price."""
        return await self._prices.set(model, amount, **part)

    async def unset_price(self, model: Any, **part: Any) -> Result[PricesReport]:
        """Take back this user's price of a model (or of one part of it)."""
        return await self._prices.unset(model, **part)

    async def spend(
        self, *, project: str | None = None, since: str | None = None, by: str | None = None
    ) -> Result[SpendReport]:
        return await self._spending.spend(project=project, since=since, by=by)

    async def budget_today(self) -> BudgetReport:
        """Today's use of the daily budget (``limit`` None when no budget is set)."""
        return await self._spending.budget_today()

    def estimate(self, kind: Any, params: Mapping[str, Any]) -> Result[DraftCost]:
        """A draft's cost before Create ("about $0.48"); invalid parameters answer invalid."""
        return self._spending.estimate(kind, params)

    async def voices(self) -> Result[VoiceList]:
        """The voices a voice line may use: the provider's ``get_voice`` list, or MiniMax's
        documented system voices when it cannot be asked (``problem`` says why)."""
        from app.service.sound import list_voices

        return await list_voices(self.ctx.provider)

    async def design_voice(
        self,
        request_id: Any,
        prompt: Any,
        preview_text: Any,
        *,
        wait: bool = False,
        max_seconds: float | None = None,
    ) -> Result[Any]:
        """A voice design: a slot of kind ``voice`` (:mod:`app.service.voice`), with the submit
        semantics (replay, conflict, unknown, quota, budget)."""
        params = {"prompt": prompt, "preview_text": preview_text}
        return await self.submit(request_id, "voice", params, wait=wait, max_seconds=max_seconds)

    async def voice_list(self, voice_type: Any = "all") -> Result[Any]:
        """``voice list``: ``get_voice`` with made, last used and deleted-after dates and the
        voice slot that made each (:func:`app.service.voice.list_voices`)."""
        from app.service import voice as voice_mod

        return await voice_mod.list_voices(self.ctx, voice_type)

    async def preview_price(
        self,
        voice: Any,
        text: Any = None,
        *,
        model: Any = None,
    ) -> Result[preview_mod.PreviewQuote]:
        """What hearing ``voice`` costs before anything is paid: a designed voice's trial
        recording (nothing to pay), or a short speech slot priced like any draft
        (:mod:`app.service.preview`). ``text`` None: a short line in the voice's language."""
        from app.service import preview as preview_mod

        return await preview_mod.quote(self.ctx, self.estimate, voice, text, model)

    async def preview_voice(
        self,
        voice: Any,
        text: Any = None,
        *,
        model: Any = None,
    ) -> Result[Any]:
        """Hear ``voice``: a designed voice's trial recording (``replayed``, nothing sent), or a
        short speech slot through the ordinary submit (``created``; the same voice, model and
        text again ``replayed``, never a second call)."""
        from app.service import preview as preview_mod

        return await preview_mod.hear(self.ctx, self.submit, voice, text, model)

    # -- shot lists -------------------------------------------------------------------------
    @property
    def _batches(self) -> Batches:
        if self._batches_made is None:
            from app.service.batch import Batches

            self._batches_made = Batches(self.ctx, self._submitter, self.lifecycle)
        return self._batches_made

    async def plan_batch(
        self,
        source: BatchSource | ShotList,
        base_dir: Path | None = None,
        *,
        allow_twins: bool = False,
    ) -> Result[BatchReport]:
        """The dry run of a shot list: per row what a run would answer; nothing stored or sent.
        ``source``: a file's :class:`BatchSource` (``BatchSource.from_file``), or rows already
        read or made (a template's :class:`ShotList`, local files relative to ``base_dir``).
        A row with exactly another slot's settings is ``twin`` unless ``allow_twins``."""
        return await self._batches.plan(source, base_dir, allow_twins=allow_twins)

    async def run_batch(
        self,
        source: BatchSource | ShotList,
        base_dir: Path | None = None,
        *,
        wait: bool = False,
        max_seconds: float | None = None,
        on_progress: ProgressCallback | None = None,
        allow_twins: bool = False,
    ) -> Result[BatchReport]:
        """Submit every good row of a shot list (ordinary submit semantics); ``on_progress``
        hears of every row's answer and, with ``wait``, of every change until it stops. A row
        with exactly another slot's (or an earlier row's) settings is refused as ``twin``,
        nothing created for it, unless ``allow_twins``."""
        return await self._batches.run(
            source,
            base_dir,
            wait=wait,
            max_seconds=max_seconds,
            on_progress=on_progress,
            allow_twins=allow_twins,
        )

    # -- lifecycle ------------------------------------------------------------------------
    async def sweep_submitting(self) -> list[TaskRow]:
        return await self.lifecycle.sweep_submitting()

    async def resume(self) -> int:
        return await self.lifecycle.resume()

    async def advance(self, task: TaskRow) -> TaskRow:
        return await self.lifecycle.advance(task)

    async def poll_due(self, limit: int | None = None) -> int:
        return await self.lifecycle.poll_due(limit)

    async def run_poller(self, stop: asyncio.Event) -> None:
        await self.lifecycle.run_poller(stop)

    async def running_count(self) -> int:
        return await self.lifecycle.running_count()

    async def flush_notes(self) -> None:
        await self.ctx.notes.flush()

    async def aclose(self) -> None:
        """Write what is still queued. The owner calls this before closing the store."""
        await self.ctx.notes.aclose()
