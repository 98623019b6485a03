"""What the demo provider charged, task by task — its own ledger, priced from the published
prices Slate ships (``resources/prices.toml``, read here as plain TOML, not through Slate's
price code) — and whose each made task is (its prompt). Also the ``foreign_answer`` fault's
pick of another task.

MiniMax bills a generation it made and did not fail or cancel: a V1 video per clip, a V2
video by its output seconds (``usage``), an image call per image delivered (blocked images
are free), a song per song, speech per billed character. What it reports afterwards (a link
missing, a usage figure out of range) does not change what it charged.
"""

from __future__ import annotations

import tomllib
from decimal import Decimal
from typing import Any, Callable

from app.sim import v2rules


def _prices() -> dict[str, Any]:
    """The published price table, read as plain TOML (the stand-in bills by MiniMax's prices,
    not through Slate's price code)."""
    from importlib.resources import files
    from pathlib import Path

    try:
        text = files("app.resources").joinpath("prices.toml").read_text(encoding="utf-8")
    except ModuleNotFoundError:  # a source checkout run without (re)installing
        text = (Path(__file__).resolve().parents[2] / "resources" / "prices.toml").read_text(
            encoding="utf-8"
        )
    return tomllib.loads(text)


def _rate(value: Any) -> Decimal | None:
    return None if value is None or value == "unknown" else Decimal(str(value))


def price(entry: dict[str, Any], units: dict[str, Any], models: dict[str, Any]) -> str | None:
    """One charge in money (exact decimal text); ``None`` where the price is unknown."""
    model = models.get(entry["model"])
    if model is None:
        return None
    amount: Decimal | None = None
    if "seconds" in units:
        amount = _times(_rate(model.get("per_second", {}).get(units["resolution"])), units)
    elif "clips" in units:
        by_res = model.get("per_clip", {}).get(units["resolution"], {})
        rate = _rate(by_res.get(str(units["duration"])))
        amount = None if rate is None else rate * units["clips"]
    elif "images" in units:
        rate = _rate(model.get("per_image"))
        amount = None if rate is None else rate * units["images"]
    elif "songs" in units:
        rate = _rate(model.get("per_song"))
        amount = None if rate is None else rate * units["songs"]
    elif "characters" in units:
        rate = _rate(model.get("per_character"))
        amount = None if rate is None else rate * units["characters"] / Decimal(1_000_000)
    return None if amount is None else str(amount.normalize())


def _times(rate: Decimal | None, units: dict[str, Any]) -> Decimal | None:
    return None if rate is None else rate * Decimal(str(units["seconds"]))


def ledger(sim: Any, shelf: Any) -> dict[str, Any]:
    """``charges``: one line per billed task (prompt, task id, kind, model, units, amount);
    ``owners``: task id → prompt of every task made (billed or not). ``shelf``: the sounds
    (:class:`app.sim.sound.SoundBook`)."""
    charges: list[dict[str, Any]] = []
    owners: dict[str, str] = {}

    def bill(task_id: str, prompt: str, kind: str, model: str, units: dict[str, Any]) -> None:
        charges.append(
            {"task_id": task_id, "prompt": prompt, "kind": kind, "model": model, "units": units}
        )

    for t in sim.store.list_tasks():
        tid, p = str(t["task_id"]), t["params"]
        owners[tid] = t["prompt"]
        if not t["outcome"].startswith("fail_"):
            units = {"clips": 1, "resolution": p.get("resolution"), "duration": p.get("duration")}
            bill(tid, t["prompt"], "video", p.get("model", ""), units)
    for t in sim.store.list_v2_tasks():
        tid, p = str(t["task_id"]), t["params"]
        owners[tid] = t["prompt"]
        if t["outcome"].startswith("fail_") or t.get("cancelled_at") is not None:
            continue
        if p.get("task_type", "generation") != "generation":
            continue  # regeneration and Context-IR are not in the soak's mix
        seconds = v2rules.usage(p)["output_seconds"]
        bill(
            tid,
            t["prompt"],
            "video",
            p["model"],
            {"seconds": seconds, "resolution": p["resolution"]},
        )
    for r in sim.store.list_images():
        iid, p = str(r["image_id"]), r["params"]
        owners[iid] = r["prompt"]
        delivered = int(p.get("delivered", p.get("n", 1)))
        if delivered > 0:
            bill(iid, r["prompt"], "image", p.get("model", "image-01"), {"images": delivered})
    with shelf.lock:
        inline = dict(shelf.sounds)
        tasks = dict(shelf.tasks)
    for sid, p in inline.items():
        owners[sid] = str(p.get("prompt") or "")
        kind = str(p.get("kind") or "music")
        units = {"characters": p["characters"]} if kind == "speech" else {"songs": 1}
        bill(sid, owners[sid], kind, p.get("model", ""), units)
    for tid, rec in tasks.items():
        owners[tid] = rec["prompt"]
        if not rec["outcome"].startswith("fail_"):
            p = rec["params"]
            bill(tid, rec["prompt"], "speech", p.get("model", ""), {"characters": p["characters"]})
    models = _prices().get("models", {})
    for c in charges:
        c["amount"] = price(c, c["units"], models)
    return {"charges": charges, "owners": owners}


def foreign(
    sim: Any,
    asked: str,
    records: Callable[[], list[dict[str, Any]]],
    done: Callable[[dict[str, Any]], Any] | None = None,
) -> dict[str, Any] | None:
    """The ``foreign_answer`` fault: another task's record to answer instead of ``asked``
    (a finished one when there is one), or ``None`` (fault off, or no other task yet: then the
    fault is given back). ``records`` is read only when the fault strikes."""
    if not sim._take("foreign_answer"):
        return None
    others = [r for r in records() if str(r["task_id"]) != str(asked)]
    if not others:
        sim._give_back("foreign_answer")
        return None
    if done is not None:
        finished = [r for r in others if done(r) in (True, "Success", "succeeded")]
        others = finished or others
    return others[-1]
