"""Shot lists (``slate batch``): a whole article's scenes in one action.

A shot list (CSV or YAML, read by :mod:`app.domain.shotlist`) names one slot a row.

* :meth:`Batches.plan` — the dry run: per row what a submit would answer now (``created``,
  ``replayed``, ``conflict``, ``unknown``, ``quota_exceeded``, ``budget_exceeded``, or
  ``invalid`` with the row and the field), the estimated total and the quota and budget that
  would remain. It only reads: nothing is stored, nothing is sent. It predicts through the rules
  the claim applies (``domain.states.may_reclaim``/``same_intent``, the quota count,
  ``domain.cost.check_budget``), row after row in file order, each predicted create counted
  against the quota and budget of the rows after it — as the run claims them.
* Twins: a row that would be created with exactly the settings of another slot (live, unknown
  or a success) or of an earlier row of the same file is ``twin`` (the form's own rule,
  :func:`app.service.reads.find_twin`): the run creates nothing for it unless twins are
  allowed (``allow_twins``), and then the row still names its twin. A row that replays its own
  slot is never a twin.
* :meth:`Batches.run` — each good row through the ordinary submit (:class:`Submitter`), so a
  row already done is replayed and a changed row is a conflict: running the same file twice
  creates nothing new. Rows claim in file order, one after another (so a quota or budget that
  runs out refuses the same rows the dry run named); their creates then run concurrently, at
  most :data:`BATCH_CONCURRENCY` at once and within the request-rate cap every provider call
  goes through. With ``wait`` the created and replayed rows are followed to a stop state.
  Progress (:class:`BatchProgress`) is reported per row and per change.

A bad row never stops the others. Local files in a row (frames, references) are read relative
to the shot list's folder.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.domain.cost import Cost, SlotCost, SpendTotal, check_budget, estimate, spend_counted
from app.domain.cost import sum_costs
from app.domain.days import budget_day
from app.domain.errors import Unchanged, ValidationError
from app.domain.fingerprint import fingerprint
from app.domain.naming import suggest_next_request_id
from app.domain.params import diff, units
from app.domain.params_h3image import is_h3_image
from app.domain.prices import PriceTable
from app.domain.protocols import V2, protocol_for
from app.domain.shotlist import (
    Format,
    RowError,
    ShotList,
    ShotRow,
    format_for,
    parse,
    row_error,
)
from app.domain.states import STOP_STATES, State, may_reclaim, same_intent
from app.service.context import ServiceContext
from app.service.inputs import image_file_data_url
from app.service.lifecycle import Lifecycle
from app.service.owner import owner_gone
from app.service.reads import find_twin
from app.service.results import (
    BatchProgress,
    BatchReport,
    BatchRow,
    BudgetReport,
    OutcomeKind,
    ProgressCallback,
    Problem,
    ProblemCode,
    QuotaReport,
    QuotaUse,
    Result,
    Twin,
)
from app.service.submit import Submitter, read_inputs
from app.service.views import TaskView
from app.store.rows import TaskRow

log = logging.getLogger(__name__)

#: Rows whose creates may be in flight at once (the request-rate cap applies on top).
BATCH_CONCURRENCY = 4
#: Rows followed at once by ``wait`` (each query goes through the request-rate cap).
WAIT_CONCURRENCY = 16
#: Shot-list columns that name image files (read into ``data:`` URLs, as the CLI reads them).
IMAGE_PARAMS = ("first_frame_image", "last_frame_image", "subject_reference", "reference_image")
#: Shot-list columns that name other media files (made absolute, read where they are sent).
MEDIA_PARAMS = ("reference_video", "reference_audio")
_URL_PREFIXES = ("https://", "http://", "data:")


@dataclass(frozen=True)
class BatchSource:
    """A shot list: its bytes, its format, and the folder its local file names are read from.
    ``name`` is shown in answers (the file name given)."""

    data: bytes | str
    format: Format
    base_dir: Path
    name: str | None = None

    @classmethod
    def from_file(cls, path: str | Path) -> BatchSource:
        """Read a ``.csv``, ``.yaml`` or ``.yml`` file; raises ValidationError (``file``)."""
        p = Path(path).expanduser()
        fmt = format_for(p.name)
        try:
            data = p.read_bytes()
        except FileNotFoundError:
            raise ValidationError("file", f"{str(path)!r} does not exist") from None
        except IsADirectoryError:
            raise ValidationError("file", f"{str(path)!r} is a folder, not a shot list") from None
        except OSError as exc:
            raise ValidationError("file", f"{str(path)!r}: {exc.strerror or exc}") from None
        return cls(data, fmt, p.resolve().parent, str(path))


@dataclass
class _Prepared:
    """A good row made ready for the submit: files read, parameters normalized."""

    row: ShotRow
    params: dict[str, Any]
    norm: dict[str, Any]
    fingerprint: str
    cost: Cost


@dataclass
class _Room:
    """Today's quota and budget as the rows use them up, row after row."""

    day: str
    used: dict[str, int]
    spent: SpendTotal
    predicted: list[Cost] = field(default_factory=list)
    #: (kind, fingerprint) → the earlier row predicted to create it (twins in one file).
    making: dict[tuple[str, str], ShotRow] = field(default_factory=dict)


def resolve_files(
    params: Mapping[str, Any], base_dir: Path, kind: str | None = None
) -> dict[str, Any]:
    """A row's local file names read relative to the shot list's folder, as ``slate submit``
    passes them on: V1 images become ``data:`` URLs, a MiniMax-H3 (V2) video's media and other
    media absolute paths (the submit reads them by SHA-256); URLs stay. MiniMax-H3-Image's
    references: files become absolute paths, RequestIds stay."""
    out = dict(params)

    def local(value: str) -> Path:
        p = Path(value).expanduser()
        return p if p.is_absolute() else base_dir / p

    h3_image = is_h3_image(out.get("model"))
    if h3_image and isinstance(out.get("reference_image"), list):
        # MiniMax-H3-Image: a file of the list's folder becomes its path; anything else (a URL,
        # a data URL, another slot's RequestId) is read by the submit as it reads it
        out["reference_image"] = [
            str(local(v))
            if isinstance(v, str) and not v.startswith(_URL_PREFIXES) and local(v).is_file()
            else v
            for v in out["reference_image"]
        ]
    v2 = kind is not None and protocol_for(kind, out.get("model")) == V2
    for name in IMAGE_PARAMS:
        if h3_image and name == "reference_image":
            continue
        if v2:
            value = out.get(name)
            if isinstance(value, str) and value and not value.startswith(_URL_PREFIXES):
                out[name] = str(local(value))
            elif isinstance(value, list):
                out[name] = [
                    str(local(v)) if isinstance(v, str) and not v.startswith(_URL_PREFIXES) else v
                    for v in value
                ]
            continue
        value = out.get(name)
        if isinstance(value, str) and value and not value.startswith(_URL_PREFIXES):
            out[name] = image_file_data_url(local(value), name)
        elif isinstance(value, list):
            out[name] = [
                image_file_data_url(local(v), name)
                if isinstance(v, str) and not v.startswith(_URL_PREFIXES)
                else v
                for v in value
            ]
    for name in MEDIA_PARAMS:
        value = out.get(name)
        if isinstance(value, list):
            out[name] = [
                str(local(v)) if isinstance(v, str) and not v.startswith(_URL_PREFIXES) else v
                for v in value
            ]
    return out


def _twin_row(row: ShotRow, twin: Twin, cost: Cost | None) -> BatchRow:
    """A row refused for its twin: nothing is created for it."""
    where = f"row {twin.row}, " if twin.row is not None else ""
    return BatchRow(
        row.row,
        row.line,
        row.request_id,
        row.kind,
        OutcomeKind.TWIN,
        None,
        Problem(
            ProblemCode.TWIN,
            f"same settings as {where}{twin.request_id} ({twin.state.value}); "
            "creating it would pay for the same result again, so nothing is sent unless twins "
            "are allowed",
            row=row.row,
        ),
        cost,
        twin=twin,
    )


def _invalid_row(error: RowError) -> BatchRow:
    return BatchRow(
        error.row,
        error.line,
        error.request_id,
        None,
        OutcomeKind.INVALID,
        problem=Problem(
            ProblemCode.INVALID,
            f"{error.field}: {error.message}",
            field=error.field,
            row=error.row,
        ),
    )


class Batches:
    def __init__(self, ctx: ServiceContext, submitter: Submitter, lifecycle: Lifecycle) -> None:
        self.ctx = ctx
        self.submitter = submitter
        self.lifecycle = lifecycle

    # -- reading -----------------------------------------------------------------------------
    async def _prepare(
        self, entry: ShotRow | RowError, base_dir: Path, table: PriceTable
    ) -> _Prepared | RowError:
        if isinstance(entry, RowError):
            return entry
        try:
            params = resolve_files(entry.params, base_dir, entry.kind)
            # as submit reads them
            _, _, norm = await read_inputs(self.ctx, entry.kind, params, entry.request_id)
        except ValidationError as exc:
            return row_error(entry, exc)
        return _Prepared(
            entry, params, norm, fingerprint(entry.kind, norm), estimate(entry.kind, norm, table)
        )

    async def _room(self, table: PriceTable) -> _Room:
        ctx = self.ctx
        day = budget_day()
        used = await ctx.store.quota_used(ctx.scope, day)
        rows = await ctx.store.cost_rows(ctx.scope, table, day=day)
        return _Room(day, dict(used), spend_counted(rows, table.currency).total)

    def _reports(self, room: _Room, table: PriceTable) -> tuple[QuotaReport, BudgetReport | None]:
        config = self.ctx.config
        budget = None
        if config.budget_daily is not None:
            budget = BudgetReport(room.day, table.currency, config.budget_daily, room.spent)
        quota = QuotaReport(
            room.day,
            QuotaUse(room.used.get("video", 0), config.quota_video),
            QuotaUse(room.used.get("image", 0), config.quota_image),
            budget,
            QuotaUse(room.used.get("music", 0), config.quota_music),
            QuotaUse(room.used.get("speech", 0), config.quota_speech),
            QuotaUse(room.used.get("voice", 0), config.quota_voice),
        )
        return quota, budget

    # -- the dry run -------------------------------------------------------------------------
    async def plan(
        self,
        source: BatchSource | ShotList,
        base_dir: Path | None = None,
        *,
        allow_twins: bool = False,
    ) -> Result[BatchReport]:
        """The dry run: what a run would answer per row now (``allow_twins``: as a run that
        creates twins would). Sends nothing, stores nothing."""
        ctx = self.ctx
        try:
            shots, base, name = self._shots(source, base_dir)
            table = ctx.prices
        except ValidationError as exc:
            return _file_invalid(exc)
        room = await self._room(table)
        rows: list[BatchRow] = []
        for entry in shots.entries:
            prompt = entry.params.get("prompt") if isinstance(entry, ShotRow) else None
            prepared = await self._prepare(entry, base, table)
            said = (
                _invalid_row(prepared)
                if isinstance(prepared, RowError)
                else await self._predict(prepared, room, allow_twins, rows_of(shots))
            )
            rows.append(dataclasses.replace(said, prompt=str(prompt) if prompt else None))
        quota, budget = self._reports(room, table)
        total = sum_costs(room.predicted, table.currency)
        return Result(
            OutcomeKind.OK, payload=BatchReport(True, tuple(rows), total, quota, budget, name)
        )

    async def _twin(
        self, p: _Prepared, task: TaskRow | None, rows: Mapping[str, int]
    ) -> Twin | None:
        """Another slot with exactly this row's settings, when the row would create one (a row
        that replays, conflicts with or waits on its own slot answers by that slot)."""
        ctx, row = self.ctx, p.row
        if task is not None and not may_reclaim(
            task.state,
            task.kind,
            task.fingerprint,
            task.user_hash,
            row.kind,
            p.fingerprint,
            ctx.scope.user_hash,
        ):
            return None
        twin = await find_twin(ctx, row.kind, p.fingerprint, ctx.slot(row.request_id).slot_key)
        if twin is not None and twin.request_id in rows:
            twin = dataclasses.replace(twin, row=rows[twin.request_id])
        return twin

    async def _predict(
        self, p: _Prepared, room: _Room, allow_twins: bool, rows: Mapping[str, int]
    ) -> BatchRow:
        """What the submit of this row would answer now, by the claim's own rules."""
        ctx, row, kind = self.ctx, p.row, p.row.kind
        task = await ctx.load(row.request_id)

        def answer(
            outcome: OutcomeKind, problem: Problem | None = None, cost: Cost | None = None
        ) -> BatchRow:
            view = ctx.view(task) if task is not None else None
            return BatchRow(
                row.row,
                row.line,
                row.request_id,
                kind,
                outcome,
                view,
                problem,
                cost if cost is not None else (view.cost if view else p.cost),
            )

        if task is not None and not may_reclaim(
            task.state,
            task.kind,
            task.fingerprint,
            task.user_hash,
            kind,
            p.fingerprint,
            ctx.scope.user_hash,
        ):
            if not same_intent(
                task.kind,
                task.fingerprint,
                task.user_hash,
                kind,
                p.fingerprint,
                ctx.scope.user_hash,
            ):
                changes = (
                    diff(task.params, p.norm)
                    if task.kind == kind
                    else {"kind": {"stored": task.kind, "attempted": kind}}
                )
                suggestion = suggest_next_request_id(row.request_id)
                return answer(
                    OutcomeKind.CONFLICT,
                    Problem(
                        ProblemCode.CONFLICT,
                        "this RequestId is already used with "
                        f"other parameters ({', '.join(changes) or 'owner'}); nothing would be sent",
                        diff=changes,
                        suggested_request_id=suggestion,
                        row=row.row,
                    ),
                )
            gone = task.state == State.SUBMITTING and owner_gone(
                task.owner_host, task.owner_pid, task.owner_started, task.lease_until
            )
            if task.state == State.UNKNOWN or gone:
                return answer(
                    OutcomeKind.UNKNOWN,
                    Problem(
                        ProblemCode.UNKNOWN,
                        "this slot's create has an unknown "
                        "outcome; create is disabled. Query the provider or recover.",
                        unchanged=Unchanged.STILL_UNKNOWN,
                        row=row.row,
                    ),
                )
            return answer(OutcomeKind.REPLAYED)
        # The claim would run: first "same settings as another slot" (the form asks it before
        # its create), then the quota, then the budget (the claim's order).
        twin = await self._twin(p, task, rows)
        if twin is None and (kind, p.fingerprint) in room.making:
            earlier = room.making[(kind, p.fingerprint)]
            twin = Twin(earlier.request_id, State.SUBMITTING, earlier.row)
        if twin is not None and not allow_twins:
            return _twin_row(row, twin, p.cost)
        limit, need = ctx.config.quota_limit(kind), units(kind, p.norm)
        used = room.used.get(kind, 0)
        if limit is not None and used + need > limit:
            return answer(
                OutcomeKind.QUOTA_EXCEEDED,
                Problem(
                    ProblemCode.QUOTA_EXCEEDED,
                    f"today's {kind} quota would be "
                    f"used up: {used} of {limit} (this create needs {need})",
                    row=row.row,
                ),
                p.cost,
            )
        if ctx.config.budget_daily is not None:
            check = check_budget(ctx.config.budget_daily, room.spent, p.cost)
            if not check.allowed:
                return answer(
                    OutcomeKind.BUDGET_EXCEEDED,
                    Problem(
                        ProblemCode.BUDGET_EXCEEDED,
                        f"the daily budget would refuse this create: {check.reason}",
                        row=row.row,
                    ),
                    p.cost,
                )
        # Claimed: it counts against what the rows after it find. (A re-claimed ``rejected``
        # record counted 0 today and now counts its estimate, as the claim counts it.)
        room.used[kind] = used + need
        room.spent = room.spent.add(
            SlotCost(
                request_id=row.request_id,
                model=str(p.norm.get("model") or ""),
                day=room.day,
                state=State.SUBMITTING.value,
                estimate=p.cost.estimate,
            )
        )
        room.predicted.append(p.cost)
        room.making.setdefault((kind, p.fingerprint), row)
        return BatchRow(
            row.row,
            row.line,
            row.request_id,
            kind,
            OutcomeKind.CREATED,
            None,
            None,
            p.cost,
            twin=twin,
        )

    # -- the run -----------------------------------------------------------------------------
    async def run(
        self,
        source: BatchSource | ShotList,
        base_dir: Path | None = None,
        *,
        wait: bool = False,
        max_seconds: float | None = None,
        on_progress: ProgressCallback | None = None,
        allow_twins: bool = False,
    ) -> Result[BatchReport]:
        """Submit every good row (ordinary submit semantics), in file order; with ``wait``,
        follow the created and replayed rows to a stop state (``max_seconds``: give up then).
        A row with exactly another slot's settings (or an earlier row's) is refused as ``twin``
        unless ``allow_twins``."""
        ctx = self.ctx
        try:
            shots, base, name = self._shots(source, base_dir)
            table = ctx.prices
        except ValidationError as exc:
            return _file_invalid(exc)
        tell = _Teller(on_progress)
        answers: dict[int, BatchRow] = {}
        good: list[tuple[int, _Prepared]] = []
        for index, entry in enumerate(shots.entries):
            prepared = await self._prepare(entry, base, table)
            if isinstance(prepared, RowError):
                answers[index] = _invalid_row(prepared)
                tell.answer(answers[index])
            else:
                good.append((index, prepared))
        results: dict[int, Result[Any]] = {}
        by_task: dict[int, int] = {}
        seen: dict[int, State] = {}

        def listener(view: TaskView) -> None:
            index = by_task.get(view.id)
            if index is None or seen.get(view.id) == view.state:
                return
            seen[view.id] = view.state
            tell.change(answers.get(index) or _pending(shots, index), view)

        ctx.listeners.append(listener)
        try:
            await self._submit_all(
                good, results, answers, by_task, seen, tell, allow_twins, rows_of(shots)
            )
            if wait:
                await self._wait_all(results, answers, max_seconds, tell)
        finally:
            ctx.listeners.remove(listener)
        rows = tuple(answers[i] for i in sorted(answers))
        created = [r.cost for r in rows if r.outcome is OutcomeKind.CREATED and r.cost]
        room = await self._room(table)
        quota, budget = self._reports(room, table)
        return Result(
            OutcomeKind.OK,
            payload=BatchReport(
                False, rows, sum_costs(created, table.currency), quota, budget, name
            ),
        )

    async def _submit_all(
        self,
        good: Sequence[tuple[int, _Prepared]],
        results: dict[int, Result[Any]],
        answers: dict[int, BatchRow],
        by_task: dict[int, int],
        seen: dict[int, State],
        tell: _Teller,
        allow_twins: bool,
        rows: Mapping[str, int],
    ) -> None:
        sem = asyncio.Semaphore(BATCH_CONCURRENCY)
        running: list[asyncio.Task[None]] = []

        async def one(index: int, p: _Prepared, claimed: asyncio.Event, twin: Twin | None) -> None:
            try:
                out = await self.submitter.submit(
                    p.row.request_id, p.row.kind, p.params, on_claimed=claimed.set
                )
            except Exception as exc:  # noqa: BLE001 - one row's trouble never stops the others
                log.exception("batch row %s failed", p.row.row)
                out = Result(
                    OutcomeKind.INVALID,
                    p.row.request_id,
                    problem=Problem(
                        ProblemCode.INTERNAL, f"{type(exc).__name__}: {exc}", row=p.row.row
                    ),
                )
            finally:
                claimed.set()
                sem.release()
            results[index] = out
            answers[index] = dataclasses.replace(_row_of(p, out), twin=twin)
            if out.task is not None:
                by_task[out.task.id] = index
                seen[out.task.id] = out.task.state
            tell.answer(answers[index])

        for index, p in good:
            # Asked once the rows before have claimed: an earlier row of this file with the
            # same settings is then a slot being made like any other.
            twin = await self._twin(p, await self.ctx.load(p.row.request_id), rows)
            if twin is not None and not allow_twins:
                answers[index] = _twin_row(p.row, twin, p.cost)
                tell.answer(answers[index])
                continue
            await sem.acquire()
            claimed = asyncio.Event()
            running.append(asyncio.create_task(one(index, p, claimed, twin)))
            await claimed.wait()  # the next row claims only after this one's claim answered
        if running:
            await asyncio.gather(*running)

    async def _wait_all(
        self,
        results: dict[int, Result[Any]],
        answers: dict[int, BatchRow],
        max_seconds: float | None,
        tell: _Teller,
    ) -> None:
        sem = asyncio.Semaphore(WAIT_CONCURRENCY)
        deadline = None if max_seconds is None else time.monotonic() + max_seconds
        followed = [
            i
            for i, out in results.items()
            if out.kind in (OutcomeKind.CREATED, OutcomeKind.REPLAYED)
            and out.task is not None
            and out.task.state not in STOP_STATES
        ]

        async def follow(index: int) -> None:
            async with sem:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                try:
                    out = await self.lifecycle.wait_after(results[index], left)
                except Exception as exc:  # noqa: BLE001 - one row's trouble never stops others
                    log.exception("waiting for batch row %s failed", answers[index].row)
                    out = Result(
                        OutcomeKind.UNKNOWN,
                        answers[index].request_id,
                        answers[index].task,
                        Problem(ProblemCode.UNKNOWN, f"{type(exc).__name__}: {exc}"),
                    )
            before = answers[index]
            answers[index] = BatchRow(
                before.row,
                before.line,
                before.request_id,
                before.kind,
                out.kind,
                out.task or before.task,
                out.problem,
                (out.task.cost if out.task else None) or before.cost,
            )

        await asyncio.gather(*(follow(i) for i in followed))

    # -- helpers -------------------------------------------------------------------------
    @staticmethod
    def _shots(
        source: BatchSource | ShotList, base_dir: Path | None
    ) -> tuple[ShotList, Path, str | None]:
        if isinstance(source, ShotList):
            if not source.entries:
                raise ValidationError("rows", "the shot list has no rows")
            return source, (base_dir or Path.cwd()), None
        shots = parse(source.data, source.format)
        if not shots.entries:
            raise ValidationError("file", "the shot list has no rows")
        return shots, source.base_dir, source.name


def _file_invalid(exc: ValidationError) -> Result[BatchReport]:
    """The shot list as a whole cannot be read: nothing was submitted."""
    return Result(
        OutcomeKind.INVALID, problem=Problem(ProblemCode.INVALID, str(exc), field=exc.field)
    )


def _row_of(p: _Prepared, out: Result[Any]) -> BatchRow:
    cost = out.task.cost if out.task is not None and out.task.cost is not None else p.cost
    problem = out.problem
    if problem is not None and problem.row is None:
        problem = dataclasses.replace(problem, row=p.row.row)
    return BatchRow(
        p.row.row, p.row.line, p.row.request_id, p.row.kind, out.kind, out.task, problem, cost
    )


def rows_of(shots: ShotList) -> dict[str, int]:
    """Each good row's RequestId → its row number (a twin made by this file names its row)."""
    return {e.request_id: e.row for e in shots.entries if isinstance(e, ShotRow)}


def _pending(shots: ShotList, index: int) -> BatchRow:
    entry = shots.entries[index]
    kind = entry.kind if isinstance(entry, ShotRow) else None
    return BatchRow(entry.row, entry.line, entry.request_id, kind, OutcomeKind.OK)


class _Teller:
    """Progress, one event per change."""

    def __init__(self, callback: ProgressCallback | None) -> None:
        self.callback = callback

    def _emit(self, event: BatchProgress) -> None:
        if self.callback is None:
            return
        try:
            self.callback(event)
        except Exception:  # noqa: BLE001 - a listener's bug must not stop the batch
            log.exception("batch progress listener failed")

    def answer(self, row: BatchRow) -> None:
        state = row.task.state if row.task is not None else None
        text = f"row {row.row}: {row.request_id or '—'}: {row.outcome.value}"
        if state is not None:
            text += f" ({state.value})"
        if row.problem is not None and row.outcome is not OutcomeKind.CREATED:
            text += f" — {row.problem.message}"
        self._emit(BatchProgress(row.row, row.request_id, row.outcome, state, text))

    def change(self, row: BatchRow, view: TaskView) -> None:
        text = f"row {row.row}: {view.request_id}: {view.state.value}"
        if view.error is not None and view.error.message:
            text += f" — {view.error.message}"
        self._emit(BatchProgress(row.row, view.request_id, None, view.state, text))
