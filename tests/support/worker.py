"""A Slate worker process for restart and soak tests.

``python -m tests.support.worker --data-dir D --store URL --base-url B --prefix P --count N [--seed S]
[--resume-only] [--clock-offset S] [--lease-margin S --renew-every S] [--pause-file F]``
submits N slots (unless resuming), then runs the poller until every slot is
settled (success, fail or unknown; rejected slots are created again, as the table allows).
With ``--pause-file`` it stops at its first poll instead, every create it sent answered, touches
F and waits to be SIGKILLed (a restart that cannot land on a create in flight).
Kinds and parameters are drawn from the seed, so every restart asks for the same slots. A share
of the videos (``--v2-share``) are MiniMax-H3 / H3-Max slots on the V2 protocol.

:func:`start` runs it as a real process forked from a server that imported this module once
(``multiprocessing``'s forkserver), so a soak that SIGKILLs and restarts a worker a dozen
times does not pay Python's and Slate's imports (about 1 s of CPU) at every start.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

from app.bootstrap import open_store_of
from app.config import Config
from app.providers.demo import DemoProvider
from app.service.commands import Lookup
from app.service import secrets
from app.service.slate import SlateService

SETTLED = {"success", "fail", "unknown"}


#: The V2 slots of the mix: H3 at 768P and the faster H3-Max at 480P.
V2_PARAMS = (
    {"model": "MiniMax-H3", "duration": 4, "resolution": "768P"},
    {"model": "MiniMax-H3-Max", "duration": 5, "resolution": "480P", "ratio": "9:16"},
)


#: The sound slots of the mix: a song, a synchronous voice line, a long text spoken
#: asynchronously (over 10,000 characters: a task id, a query, a file).
VOICE = "English_expressive_narrator"
ASYNC_PAD = " The tide eye opens at dusk." * 360


def sound_params(rid: str, pick: float) -> tuple[str, dict]:
    if pick < 1 / 3:
        return "music", {"prompt": f"slot {rid}", "instrumental": True}
    if pick < 2 / 3:
        return "speech", {"text": f"slot {rid}", "voice": VOICE}
    return "speech", {"text": f"slot {rid}{ASYNC_PAD}", "voice": VOICE}


#: Competing slots: pairs of one shape (H3 768P 6 s 16:9, apart from the mix), each losing
#: its create at once (the soak's first phase), so their lookup windows overlap.
PAIR_PARAMS = {"model": "MiniMax-H3", "duration": 6, "resolution": "768P", "ratio": "16:9"}


#: submits a worker runs at once: at most this many creates are on their way when it is killed
AT_ONCE = 8


def slot_plan(
    prefix: str,
    count: int,
    seed: int,
    video_share: float,
    v2_share: float = 0.0,
    sound_share: float = 0.0,
    pairs: int = 0,
) -> list[tuple[str, str, dict]]:
    rng = random.Random(seed)
    v2 = random.Random(seed + 1)  # its own stream: the V1 plan of a seed stays what it was
    sound = random.Random(seed + 2)  # likewise for the sound share
    plan = []
    for i in range(count):
        rid = f"{prefix}:{i:04d}"
        if sound_share and sound.random() < sound_share:
            kind, params = sound_params(rid, sound.random())
            plan.append((rid, kind, params))
            continue
        if rng.random() < video_share:
            if v2.random() < v2_share:
                params = {"prompt": f"slot {rid}", **v2.choice(V2_PARAMS)}
                plan.append((rid, "video", params))
            else:
                plan.append((rid, "video", {"prompt": f"slot {rid}", "resolution": "768P"}))
        else:
            plan.append((rid, "image", {"prompt": f"slot {rid}", "n": 1}))
    for k in range(pairs):
        for side in "ab":
            rid = f"{prefix}:pair{k:02d}{side}"
            plan.append((rid, "video", {"prompt": f"slot {rid}", **PAIR_PARAMS}))
    return plan


def held_slots(plan: list[tuple[str, str, dict]], hold: int) -> set[str]:
    """The last ``hold`` slots of the plan (pairs aside), with a video among them when the plan
    has one: the held slots are the ones sure to run to the end, and only a video's create
    answers a provider id (a seed whose last slots are all images once left a loaded shard with
    none answered: every create in flight killed before its answer)."""
    if not hold:
        return set()
    single = [(rid, kind) for rid, kind, _ in plan if ":pair" not in rid]
    held = single[-hold:]
    if not any(kind == "video" for _, kind in held):
        videos = [rid for rid, kind in single if kind == "video"]
        if videos:
            held = [(videos[-1], "video"), *held[1:]]
    return {rid for rid, _ in held}


def pair_slots(plan: list[tuple[str, str, dict]]) -> list[tuple[str, str, dict]]:
    return [p for p in plan if ":pair" in p[0]]


async def run(ns: argparse.Namespace) -> int:
    config = Config(
        data_dir=Path(ns.data_dir),
        store=ns.store,
        provider="demo",
        base_url=ns.base_url,
        tenant="soak",
        user="worker",
        timeout=5.0,
        poll_interval=0.05,
        max_requests_per_second=ns.rps,
        max_concurrent_polls=16,
    )
    store = open_store_of(config)
    secret, _warn = secrets.handle_secret(config.data_dir, config.store)
    provider = DemoProvider(ns.base_url, timeout=5.0, connect_timeout=2.0)
    svc = SlateService(config, store, provider, secret)
    if ns.ready_file:  # started: the soak's kill timer runs from here (a loaded machine)
        Path(ns.ready_file).touch()
    try:
        await svc.sweep_submitting()
        plan = slot_plan(
            ns.prefix, ns.count, ns.seed, ns.video_share, ns.v2_share, ns.sound_share, ns.pairs
        )
        if ns.pairs_only:  # the first phase: the competing pairs' creates, lost
            await asyncio.gather(*(svc.submit(*p) for p in pair_slots(plan)))
            return 0
        # the last ``hold`` slots of the plan (pairs aside) are left to a later worker: this
        # one ends once its own are settled (exit 0), and the soak starts the calm worker
        held = held_slots(plan, ns.hold)
        if not ns.resume_only:
            sem = asyncio.Semaphore(AT_ONCE)

            async def one(rid: str, kind: str, params: dict) -> None:
                async with sem:
                    await svc.submit(rid, kind, params)

            await asyncio.gather(*(one(*p) for p in plan if p[0] not in held))
        await svc.resume()
        deadline = time.monotonic() + ns.max_seconds
        looked: set[str] = set()
        while time.monotonic() < deadline:
            await svc.poll_due()
            states = {}
            for rid, _kind, _params in plan:
                out = await svc.status(rid)
                states[rid] = out.task.state if out.task else None
            rejected = [p for p in plan if states[p[0]] == "rejected"]
            for rid, kind, params in rejected:
                if not ns.resume_only and rid not in held:
                    await svc.submit(rid, kind, params)
            if ns.lookup:  # an unknown slot is looked up once by each process
                for rid, _kind, _params in plan:
                    if states[rid] == "unknown" and rid not in looked:
                        looked.add(rid)
                        await svc.recover(rid, Lookup())
            pending = [
                r
                for r, s in states.items()
                if s not in SETTLED and not (ns.resume_only and s is None) and r not in held
            ]
            print(f"pending {len(pending)}", flush=True)
            if ns.pause_file:  # every create of this process answered: wait to be SIGKILLed
                Path(ns.pause_file).touch()
                await asyncio.sleep(max(0.0, deadline - time.monotonic()))
                return 3
            if not pending:
                return 0
            await asyncio.sleep(0.05)
        return 3
    finally:
        await provider.aclose()
        store.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--store", required=True)
    p.add_argument("--base-url", required=True)
    p.add_argument("--prefix", required=True)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--video-share", type=float, default=0.3)
    p.add_argument("--v2-share", type=float, default=0.0, help="share of videos on MiniMax-H3")
    p.add_argument("--sound-share", type=float, default=0.0, help="share of music and speech")
    p.add_argument("--pairs", type=int, default=0, help="competing pairs of one shape")
    p.add_argument("--pairs-only", action="store_true", help="only create the pairs, then stop")
    p.add_argument("--lookup", action="store_true", help="look unknown slots up (recover)")
    p.add_argument("--hold", type=int, default=0, help="leave the last N slots to a later worker")
    p.add_argument("--ready-file", default=None, help="touched once the service is open")
    p.add_argument(
        "--pause-file",
        default=None,
        help="touched once every create this worker sent is answered (its first poll), "
        "then the worker waits to be killed",
    )
    p.add_argument("--rate-grace", type=float, default=None, help="app.providers.http.RATE_GRACE")
    p.add_argument("--rps", type=float, default=200.0)
    p.add_argument("--resume-only", action="store_true")
    p.add_argument("--max-seconds", type=float, default=300.0)
    p.add_argument(
        "--clock-offset",
        type=float,
        default=0.0,
        help="this process's clock runs this many seconds off (another machine)",
    )
    p.add_argument(
        "--lease-margin",
        type=float,
        default=None,
        help="app.service.lease.LEASE_MARGIN (a short lease: timeout + margin)",
    )
    p.add_argument("--renew-every", type=float, default=None, help="app.service.lease.RENEW_EVERY")
    ns = p.parse_args(argv)
    if ns.clock_offset:
        real = time.time
        time.time = lambda: real() + ns.clock_offset  # type: ignore[assignment]
    from app.service import lease

    if ns.rate_grace is not None:
        from app.providers import http

        http.RATE_GRACE = ns.rate_grace
    if ns.lease_margin is not None:
        lease.LEASE_MARGIN = ns.lease_margin
    if ns.renew_every is not None:
        lease.RENEW_EVERY = ns.renew_every
    return asyncio.run(run(ns))


def _forked(argv: list[str], env: dict[str, str], cwd: str, out: str, err: str) -> None:
    """A started worker's body: the soak's environment, folder and output files, then main."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    for fd, name in ((1, out), (2, err)):
        target = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.dup2(target, fd)
        os.close(target)
    sys.exit(main(argv))


_context: Any = None


def start(
    argv: list[str], *, env: dict[str, str], cwd: Path, out: str = os.devnull, err: str = os.devnull
) -> Any:
    """A worker process running ``main(argv)``, forked from a server that has this module (and
    so Slate) imported already: a ``multiprocessing.Process`` (``pid``, ``join``, ``exitcode``;
    SIGKILL it with ``os.kill``). Its standard output and error go to ``out`` and ``err``."""
    global _context
    if _context is None:
        _context = multiprocessing.get_context("forkserver")
        _context.set_forkserver_preload(["tests.support.worker"])
    proc = _context.Process(target=_forked, args=(argv, env, str(cwd), out, err), daemon=False)
    proc.start()
    return proc


def ended_within(proc: Any, timeout: float) -> bool:
    """Whether a started worker ended by itself within ``timeout`` seconds; if not, it is
    SIGKILLed (and reaped) before this returns False."""
    proc.join(timeout=timeout)
    if proc.exitcode is not None:
        return True
    os.kill(proc.pid, signal.SIGKILL)
    proc.join()
    return False


if __name__ == "__main__":
    sys.exit(main())
