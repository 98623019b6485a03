"""The `slate` command: the automation contract of DESIGN.md ("Command line").

Every command takes ``--json`` and then prints exactly one JSON object on stdout, errors
included. Global options work before and after the command. Exit codes: 0 fine · 1 internal ·
2 invalid input or bad handle · 3 conflict · 4 unknown · 5 quota or budget exceeded · 6 fail or
rejected · 7 still running when ``wait`` gave up · 8 not found. ``batch`` answers for all its
rows by precedence (:func:`batch_exit_code`).

The service answers with typed results; this module alone turns them into JSON
(:func:`render`) and exit codes (:func:`exit_code`).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import gc
import json
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from app import __version__
from app.domain.cost import format_money, format_rate, money_json
from app.domain.errors import BadConfiguration, SlateError, ValidationError
from app.domain.protocols import V2, protocol_for
from app.domain.states import Action, Refusal, State
from app.service.commands import AttachTask, DeclareFailed, Lookup, RecoverHow, Redownload
from app.service.inputs import image_option
from app.service.pick_results import BoardReport, PickReport
from app.service.results import (
    BatchReport,
    BatchRow,
    BudgetReport,
    Exported,
    Pruned,
    History,
    LookupReport,
    OutcomeKind,
    Problem,
    ProblemCode,
    DUPLICATES_NOTE,
    QuotaReport,
    Result,
    SlotList,
    SlotTasks,
    PriceLine,
    PricesReport,
    SpendReport,
)
from app.service.results import VoicesReport
from app.service.views import MediaView, TaskView

if TYPE_CHECKING:
    from app.cli_progress import Progress

log = logging.getLogger(__name__)

GLOBAL_OPTIONS = (
    (
        "--data-dir",
        "data_dir",
        str,
        "data folder (SLATE_DATA_DIR); default: the platform's, e.g. ~/.local/share/Slate",
    ),
    (
        "--store",
        "store",
        str,
        "SQLAlchemy URL of the store (SLATE_STORE); default: sqlite:///DATA_DIR/slate.sqlite3, "
        "e.g. postgresql+psycopg://studio@db/slate",
    ),
    (
        "--provider",
        "provider",
        str,
        "minimax or demo (SLATE_PROVIDER); default: minimax when a key is set, else demo",
    ),
    (
        "--base-url",
        "base_url",
        str,
        "provider base URL (SLATE_BASE_URL); default https://api.minimax.io, "
        "e.g. https://api.minimaxi.com (mainland China)",
    ),
    ("--tenant", "tenant", str, "workspace (SLATE_TENANT); default personal, e.g. studio-a"),
    ("--user", "user", str, "designer (SLATE_USER); default: your login name, e.g. lin"),
    (
        "--timeout",
        "timeout",
        str,
        "provider timeout in seconds (SLATE_TIMEOUT), 0.1-3600; default 60, e.g. 30",
    ),
    (
        "--poll-interval",
        "poll_interval",
        str,
        "seconds between queries (SLATE_POLL_INTERVAL), 0.01-3600; default 10 (demo: 1)",
    ),
    (
        "--demo-fault",
        "demo_fault",
        str,
        "fault switches for the embedded demo provider, e.g. "
        "lose-create-response or slow=600 (SLATE_DEMO_FAULT; list: slate sim --list-faults)",
    ),
)


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def _globals_parent(*, exit_on_error: bool = True) -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False, exit_on_error=exit_on_error)
    for flag, dest, typ, help_text in GLOBAL_OPTIONS:
        parent.add_argument(flag, dest=dest, type=typ, default=argparse.SUPPRESS, help=help_text)
    parent.add_argument(
        "--json",
        dest="json",
        action="store_true",
        default=argparse.SUPPRESS,
        help="print exactly one JSON object",
    )
    parent.add_argument(
        "--progress",
        dest="progress",
        action=argparse.BooleanOptionalAction,
        default=argparse.SUPPRESS,
        help="show progress on standard error (default: only when it is a terminal); never "
        "on standard output",
    )
    parent.add_argument(
        "--lang",
        dest="lang",
        default=argparse.SUPPRESS,
        help="language of the words for people, e.g. en or zh_CN (default: the locale, "
        "LC_ALL/LC_MESSAGES/LANG); JSON is never translated",
    )
    parent.add_argument(
        "-v",
        "--verbose",
        dest="verbose",
        action="store_true",
        default=argparse.SUPPRESS,
        help="log to stderr",
    )
    return parent


class _Unbuilt:
    """A command's parser not built (:func:`build_parser` with ``only``): every call on it, or
    on what a call returns, does nothing."""

    def __getattr__(self, _name: str) -> Any:
        return self._nothing

    def _nothing(self, *_args: Any, **_kw: Any) -> Any:
        return self


def _parser_for(argv: Sequence[str]) -> Parser:
    """The parser ``argv`` needs: its command's alone (``slate`` alone: the window's), or the
    whole one for help on every command or an argument the globals cannot read."""
    try:
        _ns, rest = _globals_parent(exit_on_error=False).parse_known_args(list(argv))
    except argparse.ArgumentError:  # e.g. a global option's value missing: said in full
        return build_parser()
    command = next((a for a in rest if not a.startswith("-")), None)
    helps = [i for i, a in enumerate(rest) if a in ("-h", "--help")]
    if helps and (command is None or helps[0] < rest.index(command)):
        return build_parser()
    return build_parser(command or "gui")


def build_parser(only: str | None = None) -> Parser:
    """The ``slate`` command's parser. ``only``: that command alone (building every command's
    options was most of the parser's cost, paid by every run); a name that is no command
    builds them all (the error lists the commands)."""
    from app.cli_help import SUBMIT_GROUPS, add_groups, epilog

    parent = _globals_parent()
    p = Parser(
        prog="slate",
        parents=[parent],
        description="Slate: generate images and videos without ever paying twice for one intent.",
        epilog="The JSON and exit codes of every command: slate help contract.\n"
        "Help on one command: slate COMMAND --help.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"slate {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")

    def command(name: str, help_text: str) -> Parser:
        if only is not None and name != only:
            return _Unbuilt()  # type: ignore[return-value]
        return sub.add_parser(  # type: ignore[no-any-return]
            name,
            parents=[parent],
            help=help_text,
            description=help_text,
            epilog=epilog(name),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    rid = "the slot's RequestId, e.g. article:20260816:tide-eye:scene-02"
    s = command("submit", "create a slot's task (idempotent: the same intent never pays twice)")
    add_groups(s, SUBMIT_GROUPS)

    st = command("status", "the local record (no network)")
    st.add_argument("request_id", nargs="?", help=rid)
    st.add_argument("--handle", help="the slot by the handle an earlier answer gave, instead")

    q = command("query", "one provider query now")
    q.add_argument("request_id", help=rid)

    w = command("wait", "query until success, fail or unknown (progress on a terminal)")
    w.add_argument("request_id", help=rid)
    w.add_argument(
        "--max-seconds",
        type=float,
        metavar="S",
        help="give up waiting after S seconds (exit 7; the task goes on); default: no limit",
    )

    r = command("recover", "recover an unknown or failed slot (choose exactly one way)")
    r.add_argument("request_id", help=rid)
    r.add_argument("--task-id", help="attach the provider's task with this id (from its console)")
    r.add_argument(
        "--redownload", action="store_true", help="download and verify the results again"
    )
    r.add_argument(
        "--declare-failed",
        action="store_true",
        help="give the slot up as failed (with --reason); a new RequestId then makes it again",
    )
    r.add_argument("--reason", metavar="TEXT", help="why, with --declare-failed")
    r.add_argument(
        "--lookup",
        action="store_true",
        help="look for the task among the provider's recent ones (MiniMax-H3) and attach a "
        "single match",
    )

    c = command("cancel", "cancel a queued MiniMax-H3 (V2) task")
    c.add_argument("request_id", help=rid)
    rg = command("regenerate", "re-render a finished 768P MiniMax-H3 slot at 2K, as a new slot")
    rg.add_argument("request_id", help="the source slot (never changed)")
    rg.add_argument("--to", required=True, metavar="RES", help="the resolution to render: 2K")
    rg.add_argument(
        "--request-id",
        dest="new_request_id",
        required=True,
        metavar="ID",
        help="the new slot, e.g. article:20260816:tide-eye:scene-02.2k",
    )
    rg.add_argument(
        "--wait",
        action="store_true",
        help="follow the new slot to success, fail or unknown (progress on a terminal)",
    )
    rg.add_argument(
        "--max-seconds",
        type=float,
        metavar="S",
        help="with --wait: give up waiting after S seconds (exit 7; the task goes on)",
    )
    en = command("enhance", "MiniMax-H3 prompt enhancement, kept as a slot of its own (paid once)")
    en.add_argument("request_id", help="the slot whose prompt is enhanced (never changed)")
    en.add_argument(
        "--request-id",
        dest="new_request_id",
        required=True,
        metavar="ID",
        help="the new slot, e.g. article:20260816:tide-eye:scene-02.enhanced",
    )
    b = command("batch", "a shot list (CSV or YAML, one slot a row): submit every row")
    b.add_argument("file", help="the shot list, e.g. shots.csv (columns: request_id, kind, …)")
    b.add_argument(
        "--dry-run",
        action="store_true",
        help="show per row what a run would answer; send and store nothing",
    )
    b.add_argument("--wait", action="store_true", help="follow the rows to the end")
    b.add_argument(
        "--allow-twins",
        action="store_true",
        help="create rows with exactly another slot's settings too (each pays again); "
        "without it such rows are refused as twin",
    )
    b.add_argument(
        "--max-seconds",
        type=float,
        metavar="S",
        help="with --wait: stop waiting after S seconds (exit 7); default: no limit",
    )

    sp = command("spend", "estimated and reported cost of the slots")
    sp.add_argument("--project", help="only this project, e.g. tide-eye")
    sp.add_argument("--since", help="count slots claimed on this day or later (YYYY-MM-DD)")
    sp.add_argument("--by", help="group by day, project or model; default: no groups")

    h = command("history", "the slot's events, oldest first")
    h.add_argument("request_id", help=rid)

    ls = command("list", "slots, newest first")
    ls.add_argument(
        "--state", help="only this state, e.g. unknown, success, fail, processing; default: all"
    )
    ls.add_argument("--kind", help="only image or video; default: both")
    ls.add_argument(
        "--limit", type=int, default=50, help="at most this many slots (default 50), e.g. 200"
    )
    ls.add_argument(
        "--search", metavar="TEXT", help="only slots whose RequestId or prompt contains TEXT"
    )

    e = command("export", "copy verified media")
    e.add_argument("request_id", help=rid)
    e.add_argument("--to", required=True, metavar="FOLDER", help="the folder to copy into")

    hd = command("hide", "hide a slot from the browser and the gallery (the record stays)")
    hd.add_argument("request_id", help=rid)
    uh = command("unhide", "show a hidden slot in the browser and the gallery again")
    uh.add_argument("request_id", help=rid)
    pm = command(
        "prune-media",
        "delete local media files; the slot, its fingerprint, events and cost stay",
    )
    pm.add_argument("request_id", nargs="?", help=f"{rid}; or use --older-than")
    pm.add_argument(
        "--older-than",
        metavar="DAYS",
        help="every slot of yours whose media were verified more than DAYS days ago, e.g. 30",
    )

    pk = command(
        "pick",
        "mark a result: favourite or reject, a 0-5 rating (never touches the slot or its cost); "
        "without options, the slot's marks",
    )
    pk.add_argument("request_id", help=rid)
    flag = pk.add_mutually_exclusive_group()
    flag.add_argument(
        "--favourite", dest="flag", action="store_const", const="favourite", help="a favourite"
    )
    flag.add_argument(
        "--reject", dest="flag", action="store_const", const="reject", help="rejected (a dud)"
    )
    flag.add_argument(
        "--clear", dest="flag", action="store_const", const="", help="clear favourite/reject"
    )
    pk.add_argument("--rating", metavar="N", help="0 to 5 stars (0 clears the rating)")
    pk.add_argument(
        "--result", metavar="N", default="1", help="which result of the slot (default 1)"
    )
    bd = command("board", "boards: named collections of results across projects")
    bd.add_argument(
        "action",
        choices=["add", "remove", "list", "delete"],
        help="add or remove a slot's result, list the boards (or one board's results), "
        "delete a board (its results stay)",
    )
    bd.add_argument("board", nargs="?", help='the board\'s name, e.g. "Hero shots"')
    bd.add_argument("request_id", nargs="?", help=f"{rid} (add, remove)")
    bd.add_argument(
        "--result", metavar="N", default="1", help="which result of the slot (default 1)"
    )

    vo = command(
        "voice", "design a voice (a paid slot of kind voice), hear one, or list the voices"
    )
    vo.add_argument(
        "action",
        choices=["design", "preview", "list"],
        help="design: a voice from a description (--request-id, --prompt, --preview-text); "
        "preview: hear a voice (--voice, --text): a short speech slot, or a designed voice's "
        "trial recording; list: get_voice with made, last used and deleted-after dates",
    )
    vo.add_argument("--request-id", dest="request_id", metavar="ID", help=f"design: {rid}")
    vo.add_argument("--prompt", metavar="DESCRIPTION", help="design: the description of the voice")
    vo.add_argument(
        "--preview-text",
        dest="preview_text",
        metavar="TEXT",
        help="design: the words of the trial recording (at most 500 characters)",
    )
    vo.add_argument(
        "--wait",
        action="store_true",
        help="design: accepted for symmetry with submit (a voice design answers at once)",
    )
    vo.add_argument("--voice", metavar="VOICE_ID", help="preview: the voice to hear")
    vo.add_argument(
        "--text",
        metavar="TEXT",
        help="preview: the words it says (default: a short line in the voice's language)",
    )
    vo.add_argument(
        "--model", metavar="MODEL", help="preview: the speech model (default speech-2.8-hd)"
    )
    vo.add_argument(
        "--type",
        dest="voice_type",
        choices=["system", "designed", "cloned", "all"],
        help="list: which voices (default all)",
    )

    command("quota", "today's use and limits")
    command("doctor", "what Slate finds on this machine (changes nothing)")

    pr = command("prices", "the price table, and your own prices over it")
    pr.add_argument(
        "action",
        choices=["list", "set", "unset"],
        help="list every price; set MODEL AMOUNT gives your own; unset MODEL takes it back",
    )
    pr.add_argument("model", nargs="?", help="a model of the table, e.g. music-2.6 (set, unset)")
    pr.add_argument("amount", nargs="?", help="the price in the table's currency (set)")
    pr.add_argument("--resolution", help="the resolution a per-second or per-clip price is for")
    pr.add_argument("--duration", type=int, help="the clip's seconds a per-clip price is for")
    pr.add_argument("--tokens", choices=["input", "output"], help="which tokens (per-token)")

    k = command("key", "the API key in the OS keyring")
    k.add_argument(
        "action",
        choices=["set", "delete", "status"],
        help="set (reads the key from standard input, not shown), delete, or status",
    )

    sim = command("sim", "run the demo provider on loopback")
    if only in (None, "sim"):
        from app.sim import cli as sim_cli

        sim_cli.add_arguments(sim)

    g = command("gui", "open the desktop app")
    g.add_argument("--screenshot", help="render the main window to this PNG and exit")
    g.add_argument(
        "--describe",
        action="store_true",
        help="start the window offscreen, print what it shows as one JSON object and exit "
        "(README: Seeing the app from outside)",
    )
    g.add_argument("--select", help="select this RequestId first")
    g.add_argument(
        "--size",
        help="the window's size, WIDTHxHEIGHT (e.g. 1000x640, the smallest), for screenshots",
    )

    hp = command("help", "help on a topic: contract (where the JSON and exit codes are written)")
    hp.add_argument(
        "topic", nargs="?", choices=["contract"], help="contract; without it, this overview"
    )
    if only is not None and only not in sub.choices:
        return build_parser()
    return p


#: The window's smallest size (the main window's own minimum) and a sane largest.
GUI_MIN_SIZE = (1000, 640)
GUI_MAX_SIDE = 16384


def window_size(text: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` → (width, height), at least the window's minimum; a ValidationError
    naming ``size`` otherwise (said before anything starts)."""
    parts = text.strip().lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValidationError(
            "size", f"must be WIDTHxHEIGHT in pixels, e.g. 1000x640, got {text!r}"
        )
    width, height = (int(p) for p in parts)
    if width < GUI_MIN_SIZE[0] or height < GUI_MIN_SIZE[1]:
        raise ValidationError(
            "size",
            f"must be at least {GUI_MIN_SIZE[0]}x{GUI_MIN_SIZE[1]} "
            f"(the window's smallest size), got {text!r}",
        )
    if width > GUI_MAX_SIDE or height > GUI_MAX_SIDE:
        raise ValidationError("size", f"must be at most {GUI_MAX_SIDE} pixels a side, got {text!r}")
    return width, height


def _as_given(value: str | None, field: str) -> str | None:
    return value or None


def submit_params(ns: argparse.Namespace) -> dict[str, Any]:
    """The generation parameters a `submit` states (unstated ones are left to the defaults).

    V1 frames given as local files become data URLs here, as they always did (the fingerprint
    of a scripted slot stays); a MiniMax-H3 (V2) slot passes paths on, and the service reads
    them (by SHA-256, never by path). Music and speech: :func:`app.cli_sound.submit_params`."""
    if ns.kind in ("music", "speech"):
        from app.cli_sound import submit_params as sound_params

        return sound_params(ns)
    v2 = protocol_for(ns.kind, ns.model) == V2
    frame = _as_given if v2 else image_option
    raw: dict[str, Any] = {
        "prompt": ns.prompt,
        "model": ns.model,
        "duration": ns.duration,
        "resolution": ns.resolution,
        "first_frame_image": frame(ns.first_frame, "first_frame_image"),
        "last_frame_image": frame(ns.last_frame, "last_frame_image"),
        "ratio": ns.ratio,
        "reference_image": ns.reference_image,
        "reference_video": ns.reference_video,
        "reference_audio": ns.reference_audio,
        "prompt_expansion": ns.prompt_expansion,
        "fast_pretreatment": ns.fast_pretreatment,
        "aspect_ratio": ns.aspect_ratio,
        "width": ns.width,
        "height": ns.height,
        "n": ns.n,
        "size": ns.size,
        "area": ns.area,
        "seed": ns.seed,
        "prompt_optimizer": ns.prompt_optimizer,
        "subject_reference": image_option(ns.subject_reference, "subject_reference"),
        "response_format": ns.response_format,
    }
    return {k: v for k, v in raw.items() if v is not None}


# -- output ---------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class KeyInfo:
    """The ``key`` command's answer (never the key itself)."""

    data: dict[str, Any]


#: outcome → exit code (DESIGN.md, "Command line").
EXIT = {
    OutcomeKind.CREATED: 0,
    OutcomeKind.REPLAYED: 0,
    OutcomeKind.OK: 0,
    OutcomeKind.CANCELLED: 0,
    OutcomeKind.INVALID: 2,
    OutcomeKind.CONFLICT: 3,
    OutcomeKind.TWIN: 3,
    OutcomeKind.UNKNOWN: 4,
    OutcomeKind.QUOTA_EXCEEDED: 5,
    OutcomeKind.BUDGET_EXCEEDED: 5,
    OutcomeKind.REJECTED: 6,
    OutcomeKind.NOT_FOUND: 8,
}
EXIT_INTERNAL, EXIT_FAIL, EXIT_STILL_RUNNING, EXIT_INTERRUPTED = 1, 6, 7, 130


def batch_exit_code(report: BatchReport) -> int:
    """A batch's exit: 0 when every row was created or replayed (and, with ``--wait``, none
    failed or is still running); otherwise by precedence 2 any invalid row, 3 any conflict or
    twin, 5 any quota or budget refusal, 4 any unknown, 6 any rejected or failed, 7 any still
    running when ``--max-seconds`` ran out. A row's internal error exits 1 before all."""
    kinds = {r.outcome for r in report.rows}
    problems = {r.problem.code for r in report.rows if r.problem is not None}
    if ProblemCode.INTERNAL in problems:
        return EXIT_INTERNAL
    for outcomes, code in (
        ({OutcomeKind.INVALID}, 2),
        ({OutcomeKind.CONFLICT, OutcomeKind.TWIN}, 3),
        ({OutcomeKind.QUOTA_EXCEEDED, OutcomeKind.BUDGET_EXCEEDED}, 5),
        ({OutcomeKind.UNKNOWN}, 4),
        ({OutcomeKind.REJECTED}, 6),
    ):
        if kinds & outcomes:
            return code
    if any(r.task is not None and r.task.state is State.FAIL for r in report.rows):
        return EXIT_FAIL
    if ProblemCode.STILL_RUNNING in problems:
        return EXIT_STILL_RUNNING
    return 0


def exit_code(result: Result[Any]) -> int:
    """The exit code of an answer. Beyond the outcome table: an internal error exits 1, an
    interrupt 130, ``wait`` giving up 7, and an answer about a slot whose task failed exits 6
    (the slot's result) — its history excepted, which only reads the record."""
    if isinstance(result.payload, BatchReport) and result.kind is OutcomeKind.OK:
        return batch_exit_code(result.payload)
    problem = result.problem
    if problem is not None:
        if problem.code in (ProblemCode.INTERNAL, ProblemCode.STORE_BUSY):
            return EXIT_INTERNAL
        if problem.code is ProblemCode.INTERRUPTED:
            return EXIT_INTERRUPTED
        if problem.code is ProblemCode.STILL_RUNNING:
            return EXIT_STILL_RUNNING
    if (
        result.kind in (OutcomeKind.CREATED, OutcomeKind.REPLAYED, OutcomeKind.OK)
        and result.task is not None
        and result.task.state is State.FAIL
        and not isinstance(result.payload, History)
    ):
        return EXIT_FAIL
    return EXIT[result.kind]


def render_media(m: MediaView) -> dict[str, Any]:
    return {
        "path": m.path,
        "sha256": m.sha256,
        "bytes": m.bytes,
        "content_type": m.content_type,
        "width": m.width,
        "height": m.height,
        "duration": m.duration,
        "handle": m.handle,
        **({"seconds": m.duration} if (m.content_type or "").startswith("audio/") else {}),
    }


def render_task(t: TaskView) -> dict[str, Any]:
    return {
        "handle": t.handle,
        "kind": t.kind,
        "state": t.state.value,
        "provider_task_id": t.provider_task_id,
        "fingerprint": t.fingerprint,
        "params": t.params,
        "media": [render_media(m) for m in t.media],
        "error": {
            "code": t.error.code,
            "message": t.error.message,
            "reason": t.error.reason.value if t.error.reason is not None else None,
        }
        if t.error
        else None,
        "allowed_actions": [a.value for a in t.allowed_actions],
        "provider": t.provider,
        "provider_status": t.provider_status,
        "created_at": t.created_at,
        "updated_at": t.updated_at,
        "failed_count": t.failed_count,
        "cost": render_task_cost(t),
        **({"text": t.text} if t.text is not None else {}),
        **({"voice_id": t.voice_id} if t.voice_id is not None else {}),
        "hidden": t.hidden,
        "removed_media": [render_media(m) for m in t.removed_media],
    }


def render_task_cost(t: TaskView) -> dict[str, Any]:
    """``{"estimate", "currency", "basis", "reported"}``: null amounts where unknown, never 0;
    the basis says so where the provider documents no charge for the task's outcome."""
    if t.cost is None:
        return {
            "estimate": None,
            "currency": None,
            "reported": None,
            "basis": "the price table cannot be read (see slate doctor and the log)",
        }
    out = t.cost.to_json()
    if t.not_charged:
        out["basis"] = f"{out['basis']}; not charged: the task is {t.state.value}"
    return out


def render_budget(b: BudgetReport) -> dict[str, Any]:
    return {
        "day": b.day,
        "currency": b.currency,
        "limit": money_json(b.limit),
        "spent": money_json(b.spent.estimate),
        "remaining": money_json(b.remaining),
        "known_spent": money_json(b.spent.known_estimate),
        "unknown_slots": b.spent.unknown_slots,
    }


def render_quota(q: QuotaReport) -> dict[str, Any]:
    return {
        "day": q.day,
        "video": {"used": q.video.used, "limit": q.video.limit},
        "image": {"used": q.image.used, "limit": q.image.limit},
        **{
            name: {"used": use.used, "limit": use.limit}
            for name, use in (("music", q.music), ("speech", q.speech), ("voice", q.voice))
            if use is not None
        },
    }


def render_batch_row(r: BatchRow) -> dict[str, Any]:
    return {
        "row": r.row,
        "line": r.line,
        "request_id": r.request_id,
        "kind": r.kind,
        "outcome": r.outcome.value,
        "task": render_task(r.task) if r.task else None,
        "error": render_problem(r.problem) if r.problem else None,
        "twin": None
        if r.twin is None
        else {"request_id": r.twin.request_id, "state": r.twin.state.value, "row": r.twin.row},
        "cost": None
        if r.cost is None
        else {
            "estimate": money_json(r.cost.estimate),
            "currency": r.cost.currency,
            "basis": r.cost.basis,
        },
    }


def render_problem(p: Problem) -> dict[str, Any]:
    out: dict[str, Any] = {
        "code": p.code.value,
        "message": p.full_message,
        "reason": p.reason.value if p.reason is not None else None,
    }
    if p.field is not None:
        out["field"] = p.field
    if p.provider is not None:
        out["provider_code"] = p.provider.code
    if p.diff is not None:
        out["diff"] = p.diff
    if p.suggested_request_id is not None:
        out["suggested_request_id"] = p.suggested_request_id
    return out


#: What a person can do next, per offered action, as the command that does it (human output;
#: JSON keeps ``allowed_actions``). "open" is the app's own (nothing to type).
NEXT_STEPS = {
    Action.CREATE: "slate submit --request-id {rid} … (the same settings)",
    Action.QUERY: "slate query {rid}",
    Action.RECOVER: "slate recover {rid} --lookup | --task-id ID | --declare-failed --reason …",
    Action.EXPORT: "slate export {rid} --to FOLDER",
    Action.OPEN: "",
    Action.NEW_SLOT: "a new RequestId for other settings",
    Action.CANCEL: "slate cancel {rid}",
}


def render_price(line: PriceLine) -> dict[str, Any]:
    """One price of ``prices``: model, kind, scheme, part, amount (unrounded; null unknown),
    source and confidence (official, secondary — shown as "about" — or yours)."""
    return {
        "model": line.model,
        "kind": line.kind,
        "scheme": line.scheme,
        "part": line.part or None,
        "amount": money_json(line.amount),
        "source": line.source,
        "confidence": line.confidence,
    }


def render(result: Result[Any]) -> dict[str, Any]:
    """The one JSON object of DESIGN.md's command-line contract."""
    out: dict[str, Any] = {
        "outcome": result.kind.value,
        "request_id": result.request_id,
        "task": render_task(result.task) if result.task else None,
        "error": render_problem(result.problem) if result.problem else None,
    }
    payload = result.payload
    if isinstance(payload, History):
        out["events"] = [
            {
                "at": e.at,
                "time": dt.datetime.fromtimestamp(e.at).isoformat(timespec="seconds"),
                "event": e.event,
                "state": e.state.value if e.state is not None else None,
                "detail": e.detail,
                "data": e.data,
            }
            for e in payload.events
        ]
        if payload.duplicates:
            out["duplicates"] = [render_task(t) for t in payload.duplicates]
            out["note"] = DUPLICATES_NOTE
    elif isinstance(payload, SlotTasks):
        out["duplicates"] = [render_task(t) for t in payload.duplicates]
        out["note"] = DUPLICATES_NOTE
    elif isinstance(payload, SlotList):
        out["slots"] = [{"request_id": v.request_id, **render_task(v)} for v in payload.slots]
        out["count"] = len(payload.slots)
    elif isinstance(payload, Exported):
        out["exported"] = [
            {"path": f.path, "sha256": f.sha256, "bytes": f.bytes} for f in payload.files
        ]
    elif isinstance(payload, Pruned):
        out["pruned"] = [
            {
                "request_id": s.request_id,
                "files": [{"path": f.path, "sha256": f.sha256, "bytes": f.bytes} for f in s.files],
                "bytes": s.bytes,
            }
            for s in payload.slots
        ]
        out["files"], out["bytes"] = payload.files, payload.bytes
        out["older_than_days"] = payload.older_than_days
    elif isinstance(payload, PickReport):
        out["picks"] = [
            {"result": r.result, "pick": r.pick, "rating": r.rating, "boards": list(r.boards)}
            for r in payload.results
        ]
    elif isinstance(payload, BoardReport):
        out["boards"] = [{"name": b.name, "count": b.count} for b in payload.boards]
        out["board"], out["changed"] = payload.board, payload.changed
        if payload.entries is not None:
            out["entries"] = [
                {"request_id": e.request_id, "result": e.result, "added_at": e.added_at}
                for e in payload.entries
            ]
    elif isinstance(payload, QuotaReport):
        out["quota"] = render_quota(payload)
        out["budget"] = render_budget(payload.budget) if payload.budget else None
    elif isinstance(payload, PricesReport):
        out["currency"], out["as_of"] = payload.currency, payload.as_of
        out["prices"] = [render_price(ln) for ln in payload.lines]
        out["changed"] = render_price(payload.changed) if payload.changed else None
    elif isinstance(payload, SpendReport):
        out.update(payload.spend.to_json())
        out["project"], out["since"] = payload.project, payload.since
    elif isinstance(payload, BatchReport):
        out["dry_run"] = payload.dry_run
        out["file"] = payload.file
        out["rows"] = [render_batch_row(r) for r in payload.rows]
        out["counts"] = payload.counts
        out["cost"] = {
            "estimate": money_json(payload.cost.estimate),
            "currency": payload.cost.currency,
            "basis": payload.cost.basis,
        }
        out["quota"] = render_quota(payload.quota)
        out["budget"] = render_budget(payload.budget) if payload.budget else None
    elif isinstance(payload, KeyInfo):
        out["key"] = payload.data
    elif isinstance(payload, VoicesReport):
        out["voices"] = [
            {
                "voice_id": v.voice_id,
                "kind": v.kind,
                "made": v.made,
                "last_used": v.last_used,
                "deleted_after": v.deleted_after,
                "request_id": v.request_id,
            }
            for v in payload.voices
        ]
    elif isinstance(payload, LookupReport):
        out["lookup"] = {
            "window": {"start": payload.window_start, "end": payload.window_end},
            "listed": payload.listed,
            "owned_by_other_slots": list(payload.owned_by_other_slots),
            "candidates": [
                {"id": c.task_id, "created_at": c.created_at, "model": c.model, "status": c.status}
                for c in payload.candidates
            ],
            "contested": [{"id": tid, "by": list(by)} for tid, by in payload.contested],
            "attached": payload.attached,
        }
    return out


def _human(out: Result[Any], translate: Any = None) -> str:
    """The answer for a person; ``translate``: the app's translations (English without)."""
    from app.present import said, words  # the app's words (Qt-free)

    if translate is None:
        translate = _translate_for(_LANG)
    if out.problem is not None and out.problem.code is ProblemCode.BAD_CONFIGURATION:
        return f"slate: {out.problem.message}"  # the one sentence, nothing around it
    lines = []
    head = out.kind.value if out.request_id is None else f"{out.kind.value}: {out.request_id}"
    lines.append(head)
    if out.task:
        t = out.task
        demo = " [DEMO provider]" if t.provider == "demo" else ""
        state = said.state_word(t.state, translate)  # the app's word for the state
        lines.append(f"  {t.kind} · {state}{demo} · provider task {t.provider_task_id or '—'}")
        for m in t.media:
            lines.append(
                f"  {m.content_type} {m.width}×{m.height} {m.bytes} B sha256 {m.sha256[:16]}…  {m.path}"
            )
        if t.error:
            reason = words.for_task(t, translate)  # the app's sentence, the original beside it
            lines.append(f"  {reason.text or t.error.message}")
            if reason.detail and reason.detail != reason.text:
                lines.append(f"  ({reason.detail})")
        if t.failed_count:
            lines.append(
                f"  {t.failed_count} image(s) blocked by the provider's safety filter (not charged)"
            )
        steps = [NEXT_STEPS[a].format(rid=out.request_id or "RID") for a in t.allowed_actions]
        steps = [s for s in steps if s]
        lines.append(f"  next: {' · '.join(steps) if steps else 'nothing to do right now'}")
        for o in t.offers.values():  # what the slot's facts rule out, beyond its state
            if o.refusal is not None and o.refusal is not Refusal.STATE:
                why = translate("WhyNot", words.refusal_words(o))
                lines.append(f"  no {o.action.value.replace('_', ' ')}: {why}")
    if out.problem and out.problem.code.value in APP_SAYS:
        told = words.for_outcome(out.problem, translate=translate)
        if f"  {told.text}" not in lines:  # not said already as the task's reason
            lines.append(f"  {out.problem.code.value}: {told.text or out.problem.message}")
            if told.detail and told.detail != told.text:
                lines.append(f"  ({told.detail})")
    elif out.problem:
        lines.append(f"  {out.problem.code.value}: {out.problem.message}")
    payload = out.payload
    if isinstance(payload, (History, SlotTasks)) and payload.duplicates:
        lines.append(f"  note: {DUPLICATES_NOTE}")
        for t in payload.duplicates:
            lines.append(
                f"  also: {t.kind} · {t.state.value} · provider task "
                f"{t.provider_task_id or '—'} · handle {t.handle}"
            )
    if isinstance(payload, History):
        for ev in payload.events:
            when = dt.datetime.fromtimestamp(ev.at).isoformat(timespec="seconds")
            lines.append(f"  {when}  {ev.event:<20} {ev.detail or ''}")
    elif isinstance(payload, SlotList):
        for v in payload.slots:
            lines.append(f"  {v.request_id:<50} {v.kind:<6} {v.state.value}")
    elif isinstance(payload, QuotaReport):
        for kind, use in (("video", payload.video), ("image", payload.image)):
            lim = "∞" if use.limit is None else use.limit
            lines.append(f"  {kind}: {use.used} / {lim} today ({payload.day})")
        if payload.budget is not None:
            b = payload.budget
            lines.append(
                f"  budget: {format_money(b.spent.estimate, b.currency)} of "
                f"{format_money(b.limit, b.currency)} today"
            )
    elif isinstance(payload, PricesReport):
        for ln in payload.lines:
            amount = "unknown" if ln.amount is None else format_rate(ln.amount, payload.currency)
            about = "about " if ln.confidence == "secondary" and ln.amount is not None else ""
            lines.append(f"  {ln.model:<28} {ln.part:<10} {about + amount:>16}  {ln.source}")
    elif isinstance(payload, SpendReport):  # the Spend view's own words and figures
        sp, tr = payload.spend, translate
        lines.append(
            f"  {said.spend_estimate(sp.total, sp.currency, tr)} · "
            f"{said.spend_detail(sp.total, sp.currency, tr)}"
        )
        for g in sp.groups:
            label = g.key or tr("SpendDialog", said.NO_PROJECT)
            est = said.spend_estimate(g.total, sp.currency, tr)
            rep = "—" if g.total.reported is None else format_money(g.total.reported, sp.currency)
            lines.append(f"  {label:<40} {est:>20} {rep:>12} {g.total.slots:>6}")
    elif isinstance(payload, BatchReport):
        for r in payload.rows:
            why = ""
            if r.problem is not None and r.outcome is not OutcomeKind.CREATED:
                why = f" — {r.problem.full_message}"
            lines.append(f"  row {r.row:<5} {r.outcome.value:<16} {r.request_id or '—'}{why}")
        counts = ", ".join(f"{n} {k}" for k, n in payload.counts.items() if n)
        total = format_money(payload.cost.estimate, payload.cost.currency)
        lines.append(f"  {counts}; estimated {total}")
    elif isinstance(payload, Exported):
        for f in payload.files:
            lines.append(f"  wrote {f.path}")
    elif isinstance(payload, Pruned):
        for s in payload.slots:
            lines.append(f"  {s.request_id}: deleted {len(s.files)} file(s), {s.bytes:,} bytes")
        lines.append(
            f"  {payload.files} file(s) deleted, {payload.bytes:,} bytes freed; "
            "the slots and their history stay"
        )
    elif isinstance(payload, PickReport):
        for r in payload.results:
            marks = [r.pick or "", "★" * r.rating, ", ".join(r.boards)]
            lines.append(f"  result {r.result}: {' · '.join(m for m in marks if m) or '—'}")
    elif isinstance(payload, BoardReport):
        for b in payload.boards:
            lines.append(f"  {b.name}: {b.count} result(s)")
        for e in payload.entries or ():
            lines.append(f"    {e.request_id} #{e.result}")
    elif isinstance(payload, KeyInfo):
        lines.append(f"  key: {payload.data}")
    elif isinstance(payload, LookupReport):
        start = dt.datetime.fromtimestamp(payload.window_start).isoformat(timespec="seconds")
        end = dt.datetime.fromtimestamp(payload.window_end).isoformat(timespec="seconds")
        lines.append(
            f"  looked between {start} and {end}: {payload.listed} task(s) listed, "
            f"{len(payload.candidates)} candidate(s)"
        )
        for c in payload.candidates:
            when = dt.datetime.fromtimestamp(c.created_at).isoformat(timespec="seconds")
            lines.append(f"  {c.task_id}  {when}  {c.model}  {c.status}")
        for tid, by in payload.contested:
            lines.append(f"  {tid} may be the task of {', '.join(by)}: attach by id to settle it")
    return "\n".join(lines)


#: The answers the app words itself (``app.present.words.for_outcome``); the others (a conflict, a
#: bad handle, invalid input…) keep the service's own sentence, which names the field or the way.
APP_SAYS = frozenset(
    {
        "unknown",
        "rejected",
        "quota_exceeded",
        "budget_exceeded",
        "store_busy",
        "media_missing",
        "not_found",
        "still_running",
        "no_keyring",
    }
)

#: ``--lang`` of this run (None: the locale), set by :func:`main` once the flags are read.
_LANG: str | None = None


def _translate_for(lang: str | None) -> Any:
    from app.present.translations import language, translator

    return translator(language(lang))


def emit(out: Result[Any], as_json: bool) -> int:
    code = exit_code(out)
    if as_json:
        sys.stdout.write(json.dumps(render(out), ensure_ascii=False) + "\n")
    else:
        stream = sys.stdout if code in (0,) else sys.stderr
        stream.write(_human(out) + "\n")
    sys.stdout.flush()
    return code


def _invalid(
    message: str,
    *,
    field: str | None = None,
    request_id: str | None = None,
    code: ProblemCode = ProblemCode.INVALID,
) -> Result[Any]:
    return Result(OutcomeKind.INVALID, request_id, problem=Problem(code, message, field=field))


def _bad_configuration(exc: BadConfiguration) -> Result[Any]:
    """A setting Slate cannot use: exit 2, the sentence naming the setting and the path."""
    return _invalid(exc.sentence(), field=exc.setting, code=ProblemCode.BAD_CONFIGURATION)


def recover_how(ns: argparse.Namespace) -> RecoverHow | Result[Any]:
    """The one recover way the flags name, or the answer why they don't."""
    if ns.declare_failed and not (ns.reason or "").strip():
        return _invalid(
            "reason: --declare-failed needs --reason TEXT", field="reason", request_id=ns.request_id
        )
    if ns.reason and not ns.declare_failed:
        return _invalid(
            "reason: --reason goes with --declare-failed", field="reason", request_id=ns.request_id
        )
    modes = [ns.task_id is not None, ns.redownload, ns.declare_failed, ns.lookup]
    if sum(modes) != 1:
        return _invalid(
            "recover: choose exactly one of --task-id, --redownload, --declare-failed, --lookup",
            field="recover",
            request_id=ns.request_id,
        )
    if ns.task_id is not None:
        return AttachTask(ns.task_id)
    if ns.redownload:
        return Redownload()
    if ns.lookup:
        return Lookup()
    return DeclareFailed(ns.reason)


def _setup_logging(verbose: bool, config_data_dir: Path | None) -> None:
    from app.logs import configure

    configure(config_data_dir, verbose=verbose)


# -- commands -------------------------------------------------------------------------------
#: True in a ``slate`` process of its own (``app.__main__``, or :func:`main` called without
#: ``argv`` as the ``slate`` console script calls it): what the start loaded lives as long as
#: the process, and is moved out of the cycle collector's way once loaded (``gc.freeze``),
#: instead of being walked by the next collections and by the interpreter's last ones as it
#: exits (~0.2 s of CPU a command where it was not). Code that runs commands in a longer-lived
#: process (tests: ``main(argv)``) leaves it off.
FREEZE_LOADED = False


def progress_wanted(asked: bool | None, stream: Any) -> bool:
    """``--progress`` / ``--no-progress``, else whether ``stream`` is a terminal."""
    if asked is not None:
        return asked
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


async def _run_service_command(ns: argparse.Namespace, config: Any) -> Result[Any]:
    collecting = gc.isenabled()
    gc.disable()  # the store's and the service's modules load: no cycles worth a collection
    try:
        from app.bootstrap import build
        from app.notices import first_time

        app = build(config, lazy_demo=True)  # the demo provider starts on first use
    finally:
        if FREEZE_LOADED:
            gc.freeze()
        if collecting:
            gc.enable()
    for warning in app.warnings:
        if first_time(config.data_dir, warning):  # once per data dir, on stderr only
            sys.stderr.write(f"warning: {warning}\n")
    progress: Progress | None = None
    try:
        svc = app.service
        cmd = ns.command
        if cmd in ("submit", "wait", "batch", "regenerate") and progress_wanted(
            getattr(ns, "progress", None), sys.stderr
        ):
            from app.cli_progress import Progress  # and its words: only where progress is shown

            live = progress_wanted(None, sys.stderr)  # a terminal: one line redrawn in place
            progress = Progress(
                svc, sys.stderr, live=live, translate=_translate(ns), rows=cmd == "batch"
            ).start()
        await svc.sweep_submitting()
        if cmd == "submit":
            return await svc.submit(
                ns.request_id, ns.kind, submit_params(ns), wait=ns.wait, max_seconds=ns.max_seconds
            )
        if cmd == "status":
            if ns.handle is not None and ns.request_id is None:
                return await svc.status_by_handle(ns.handle)
            if ns.request_id is None or ns.handle is not None:
                return _invalid(
                    "status: give a RequestId or --handle, not both", field="request_id"
                )
            return await svc.status(ns.request_id)
        if cmd == "query":
            return await svc.query(ns.request_id)
        if cmd == "wait":
            if progress is not None:  # where the slot stands before the first change
                now = await svc.status(ns.request_id)
                if now.task is not None:
                    progress.task_changed(now.task)
            return await svc.wait(ns.request_id, ns.max_seconds)
        if cmd == "recover":
            how = recover_how(ns)
            if isinstance(how, Result):
                return how
            return await svc.recover(ns.request_id, how)
        if cmd == "cancel":
            return await svc.cancel(ns.request_id)
        if cmd == "regenerate":
            return await svc.regenerate(
                ns.request_id,
                ns.to,
                ns.new_request_id,
                wait=ns.wait,
                max_seconds=ns.max_seconds,
            )
        if cmd == "enhance":
            return await svc.enhance(ns.request_id, ns.new_request_id)
        if cmd == "batch":
            return await _batch(svc, ns, progress)
        if cmd == "spend":
            return await svc.spend(project=ns.project, since=ns.since, by=ns.by)
        if cmd == "prices":
            part = {"resolution": ns.resolution, "duration": ns.duration, "tokens": ns.tokens}
            if ns.action == "list":
                return await svc.price_list()
            if ns.action == "set":
                if ns.amount is None:
                    return _invalid("amount: prices set MODEL AMOUNT", field="amount")
                return await svc.set_price(ns.model, ns.amount, **part)
            return await svc.unset_price(ns.model, **part)
        if cmd == "history":
            return await svc.history(ns.request_id)
        if cmd == "list":
            return await svc.list_slots(
                state=ns.state, kind=ns.kind, limit=ns.limit, search=ns.search
            )
        if cmd == "export":
            return await svc.export(ns.request_id, ns.to)
        if cmd == "hide":
            return await svc.hide(ns.request_id)
        if cmd == "unhide":
            return await svc.unhide(ns.request_id)
        if cmd == "prune-media":
            return await svc.prune_media(ns.request_id, ns.older_than)
        if cmd == "pick":
            return await svc.pick(
                ns.request_id,
                **({} if ns.flag is None else {"pick": ns.flag or None}),
                **({} if ns.rating is None else {"rating": ns.rating}),
                result=ns.result,
            )
        if cmd == "board":
            return await _board(svc, ns)
        if cmd == "quota":
            return await svc.quota()
        if cmd == "voice":
            return await _voice(svc, ns)
        raise AssertionError(cmd)
    finally:
        if progress is not None:
            await progress.aclose()
        await app.aclose()


async def _voice(svc: Any, ns: argparse.Namespace) -> Result[Any]:
    """``voice design --request-id RID --prompt D --preview-text T``, ``voice preview --voice V
    [--text T] [--model M]`` or ``voice list``."""
    design_only = ("request_id", "prompt", "preview_text")
    preview_only = ("voice", "text", "model")
    if ns.action == "list":
        given = [f for f in (*design_only, *preview_only) if getattr(ns, f)]
        if given:
            opt = given[0].replace("_", "-")
            return _invalid(f"{given[0]}: voice list takes no --{opt}", field=given[0])
        return await svc.voice_list(ns.voice_type or "all")
    if ns.voice_type is not None:
        return _invalid("type: --type goes with voice list", field="type")
    if ns.action == "preview":
        given = [f for f in design_only if getattr(ns, f)]
        if given:
            opt = given[0].replace("_", "-")
            return _invalid(f"{given[0]}: voice preview takes no --{opt}", field=given[0])
        return await svc.preview_voice(ns.voice, ns.text, model=ns.model)
    given = [f for f in preview_only if getattr(ns, f)]
    if given:
        return _invalid(f"{given[0]}: voice design takes no --{given[0]}", field=given[0])
    if ns.request_id is None:
        return _invalid("request_id: voice design needs --request-id", field="request_id")
    return await svc.design_voice(ns.request_id, ns.prompt, ns.preview_text, wait=ns.wait)


async def _board(svc: Any, ns: argparse.Namespace) -> Result[Any]:
    """``board add|remove NAME RID``, ``board list [NAME]``, ``board delete NAME``."""
    if ns.action == "list":
        return await (svc.boards() if ns.board is None else svc.board(ns.board))
    if ns.board is None:
        return _invalid("board: give the board's name", field="board")
    if ns.action == "delete":
        return await svc.board_delete(ns.board)
    if ns.request_id is None:
        return _invalid("request_id: give the slot's RequestId", field="request_id")
    change = svc.board_add if ns.action == "add" else svc.board_remove
    return await change(ns.board, ns.request_id, ns.result)


async def _batch(svc: Any, ns: argparse.Namespace, shown: Progress | None) -> Result[Any]:
    """``batch FILE``: the dry run, or the run with one progress line per row and change on
    stderr (where progress is shown)."""
    from app.service.batch import BatchSource
    from app.service.results import BatchProgress

    try:
        source = BatchSource.from_file(ns.file)
    except ValidationError as exc:
        return _invalid(str(exc), field=exc.field)
    if ns.dry_run:
        return await svc.plan_batch(source, allow_twins=ns.allow_twins)

    def progress(event: BatchProgress) -> None:
        if shown is not None:
            shown.batch_row(event.message)

    return await svc.run_batch(
        source,
        wait=ns.wait,
        max_seconds=ns.max_seconds,
        on_progress=progress,
        allow_twins=ns.allow_twins,
    )


def _help(ns: argparse.Namespace, as_json: bool) -> int:
    """``slate help [contract]``: the overview, or where the JSON and exit codes are written."""
    from app.cli_help import contract_path, contract_text

    if ns.topic != "contract":
        build_parser().print_help()
        return 0
    if as_json:
        out = {"outcome": "ok", "request_id": None, "task": None, "error": None}
        out["help"] = {"topic": "contract", "path": "docs/CONTRACT.md", "here": None}
        if contract_path().exists():
            out["help"]["here"] = str(contract_path())
        sys.stdout.write(json.dumps(out) + "\n")
    else:
        sys.stdout.write(contract_text() + "\n")
    return 0


def _translate(ns: argparse.Namespace) -> Any:
    """The app's translations for ``--lang`` or the locale."""
    return _translate_for(getattr(ns, "lang", None))


def _key_command(ns: argparse.Namespace) -> Result[Any]:
    from app.service import secrets

    if ns.action == "status":
        key, source = secrets.api_key()
        return Result(
            OutcomeKind.OK,
            payload=KeyInfo(
                {"present": bool(key), "source": source, "keyring_usable": secrets.keyring_usable()}
            ),
        )
    if ns.action == "delete":
        try:
            removed = secrets.delete_api_key()
        except secrets.KeyringUnavailable as exc:
            return _invalid(str(exc), code=ProblemCode.NO_KEYRING)  # exit 2: configuration
        return Result(OutcomeKind.OK, payload=KeyInfo({"deleted": removed}))
    if sys.stdin is not None and sys.stdin.isatty():
        import getpass

        value = getpass.getpass("MiniMax API key (not shown): ")
    else:
        value = (sys.stdin.readline() if sys.stdin else "").strip()
    if not value:
        return _invalid("key: read an empty key from standard input", field="key")
    try:
        secrets.set_api_key(value)
    except secrets.KeyringUnavailable as exc:
        return _invalid(str(exc), code=ProblemCode.NO_KEYRING)  # exit 2: configuration
    return Result(OutcomeKind.OK, payload=KeyInfo({"stored": True, "source": "keyring"}))


def _config_options(ns: argparse.Namespace) -> dict[str, Any]:
    return {dest: getattr(ns, dest) for _f, dest, _t, _h in GLOBAL_OPTIONS if hasattr(ns, dest)}


def main(argv: Sequence[str] | None = None) -> int:
    """The ``slate`` command. Without ``argv``: this process's own command line (the console
    script, ``python -m app``): the modules loaded so far are frozen as ``app.__main__`` does."""
    global FREEZE_LOADED
    if argv is None and not FREEZE_LOADED:  # the console script: a process of its own
        FREEZE_LOADED = True
        gc.freeze()
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in argv
    try:
        ns = _parser_for(argv).parse_args(argv)
    except UsageError as exc:
        return emit(_invalid(f"usage: {exc}"), as_json)
    as_json = bool(getattr(ns, "json", False))
    global _LANG
    _LANG = getattr(ns, "lang", None)
    if ns.command == "help":  # reads nothing, makes nothing
        return _help(ns, as_json)
    from app import config as config_mod

    try:
        config = config_mod.load(_config_options(ns))
    except ValidationError as exc:
        return emit(_invalid(str(exc), field=exc.field), as_json)
    if ns.command == "doctor":  # only looks: creates nothing, not even the log folder
        from app.doctor import main as doctor_main

        return doctor_main(config, as_json)
    size = None
    if getattr(ns, "size", None):  # slate gui --size: checked before anything is made
        try:
            size = window_size(ns.size)
        except ValidationError as exc:
            return emit(_invalid(str(exc), field=exc.field), as_json)
    _setup_logging(bool(getattr(ns, "verbose", False)), config.data_dir)
    cmd = ns.command
    try:
        if cmd is None or cmd == "gui":
            from app.preflight import gate  # before Qt loads: a missing library would abort it

            describe = bool(getattr(ns, "describe", False))
            shot = bool(getattr(ns, "screenshot", None))
            if describe or shot:  # the real window, drawn offscreen: nothing shows on screen
                os.environ["QT_QPA_PLATFORM"] = "offscreen"
            refused = gate(quiet_no_window=shot or describe)
            if refused is not None:
                return refused
            from app.ui.app import run_gui

            return run_gui(
                config,
                screenshot=getattr(ns, "screenshot", None),
                select=getattr(ns, "select", None),
                lang=getattr(ns, "lang", None),
                size=size,
                describe=describe,
            )
        if cmd == "key":
            return emit(_key_command(ns), as_json)
        if cmd == "sim":
            from app.sim import cli as sim_cli

            def sim_emit(data: dict[str, Any]) -> None:
                text = data.pop("text", None)
                if as_json:
                    payload = {
                        "outcome": "ok",
                        "request_id": None,
                        "task": None,
                        "error": None,
                        **data,
                    }
                    sys.stdout.write(json.dumps(payload) + "\n")
                elif text is not None:
                    sys.stdout.write(text)
                elif data.get("outcome") == "invalid":
                    sys.stderr.write(f"invalid: {data['error']['message']}\n")
                else:
                    sys.stdout.write(
                        f"Slate demo provider listening on {data.get('base_url')}  (Ctrl+C stops)\n"
                    )
                sys.stdout.flush()

            return sim_cli.run(ns, sim_emit)
        import asyncio  # the store's commands alone: --help and sim --help load no event loop

        out = asyncio.run(_run_service_command(ns, config))
        return emit(out, as_json)
    except ValidationError as exc:
        rid = getattr(ns, "request_id", None)
        return emit(
            _invalid(str(exc), field=exc.field, request_id=rid if isinstance(rid, str) else None),
            as_json,
        )
    except BadConfiguration as exc:
        return emit(_bad_configuration(exc), as_json)
    except SlateError as exc:
        return emit(_invalid(str(exc), code=ProblemCode(exc.code)), as_json)
    except KeyboardInterrupt:
        return emit(_invalid("interrupted", code=ProblemCode.INTERRUPTED), as_json)
    except Exception as exc:  # noqa: BLE001 - the contract: one JSON object even on a crash
        from app.unusable import while_writing

        bad = while_writing(exc, config)
        if bad is not None:  # a full disk while writing: nothing half-written was kept
            log.warning("%s (%s: %s)", bad, type(exc).__name__, exc)
            return emit(_bad_configuration(bad), as_json)
        log.exception("internal error")
        return emit(_invalid(f"{type(exc).__name__}: {exc}", code=ProblemCode.INTERNAL), as_json)


if __name__ == "__main__":
    raise SystemExit(main())
