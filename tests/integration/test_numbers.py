"""Every number given is finite and in range (DESIGN.md): NaN, infinities and negatives are
invalid input — exit 2, the field named, nothing stored, nothing sent.

Issue 15: ``SLATE_TIMEOUT=nan`` burned the slot into ``unknown`` (the create was sent with a NaN
timeout); ``wait --max-seconds nan`` looped forever and ``-5`` was accepted.
"""

from __future__ import annotations

import math
import sqlite3

import pytest

from app.config import Config
from app.domain.errors import ValidationError
from app.domain.numbers import number, whole

RID = "article:20260816:tide-eye:scene-02"
SUBMIT = ("submit", "--request-id", RID, "--kind", "video", "--prompt", "p")
BAD = ["nan", "inf", "-inf", "-5", "1e999"]


def nothing_stored(data_dir) -> bool:
    db = data_dir / "slate.sqlite3"
    if not db.exists():
        return True
    conn = sqlite3.connect(db)
    try:
        have = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        return "tasks" not in have or conn.execute("SELECT count(*) FROM tasks").fetchone()[0] == 0
    finally:
        conn.close()


@pytest.mark.parametrize(
    "variable, field",
    [
        ("SLATE_TIMEOUT", "timeout"),
        ("SLATE_POLL_INTERVAL", "poll_interval"),
        ("SLATE_QUOTA_VIDEO", "quota_video"),
        ("SLATE_QUOTA_IMAGE", "quota_image"),
    ],
)
@pytest.mark.parametrize("value", BAD)
def test_environment_numbers_are_finite_and_in_range(
    slate, data_dir, demo_sim, variable, field, value
):
    res = slate(*SUBMIT, env={variable: value})
    assert res.code == 2 and res.out["outcome"] == "invalid", (variable, value, res.out)
    assert res.out["error"]["field"] == field, res.out
    assert demo_sim.stats()["creates_total"] == 0
    assert nothing_stored(data_dir)


def test_a_nan_timeout_never_burns_a_slot_into_unknown(slate, data_dir, demo_sim):
    res = slate(*SUBMIT, env={"SLATE_TIMEOUT": "nan"})
    assert res.code == 2 and res.out["error"]["field"] == "timeout"
    good = slate(*SUBMIT)  # the slot is still empty: the same submit now creates it
    assert good.code == 0 and good.out["outcome"] == "created", good.out
    assert demo_sim.stats()["creates_total"] == 1


@pytest.mark.parametrize("flag", ["--timeout", "--poll-interval"])
@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0"])
def test_global_option_numbers(slate, demo_sim, flag, value):
    res = slate(f"{flag}={value}", *SUBMIT)
    assert res.code == 2 and res.out["error"]["field"] == flag[2:].replace("-", "_"), res.out
    assert demo_sim.stats()["creates_total"] == 0


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-5", "1e12"])
def test_wait_max_seconds(slate, demo_sim, value):
    made = slate(*SUBMIT)
    assert made.code == 0
    # refused at once; the long timeout is only a busy machine's margin
    res = slate("wait", RID, f"--max-seconds={value}", timeout=90)
    assert res.code == 2 and res.out["error"]["field"] == "max_seconds", res.out
    assert res.out["request_id"] == RID


@pytest.mark.parametrize("value", ["nan", "-5", "inf"])
def test_submit_wait_max_seconds_is_checked_before_anything_is_stored(
    slate, data_dir, demo_sim, value
):
    res = slate(*SUBMIT, "--wait", f"--max-seconds={value}", timeout=30)
    assert res.code == 2 and res.out["error"]["field"] == "max_seconds", res.out
    assert demo_sim.stats()["creates_total"] == 0
    assert nothing_stored(data_dir)


@pytest.mark.parametrize(
    "args, field",
    [
        (("--n", "nan"), "n"),
        (("--n", "inf"), "n"),
        (("--n", "-1"), "n"),
        (("--n", "1e3"), "n"),
        (("--seed", "nan"), "seed"),
        (("--seed", "-1"), "seed"),
        (("--seed", "inf"), "seed"),
    ],
)
def test_image_numbers(slate, data_dir, demo_sim, args, field):
    res = slate(
        "submit", "--request-id", RID, "--kind", "image", "--prompt", "p", f"{args[0]}={args[1]}"
    )
    assert res.code == 2 and res.out["error"]["field"] == field, res.out
    assert demo_sim.stats()["creates_total"] == 0
    assert nothing_stored(data_dir)


@pytest.mark.parametrize("value", ["nan", "inf", "-6", "6.5"])
def test_video_duration(slate, data_dir, demo_sim, value):
    res = slate(*SUBMIT, f"--duration={value}")
    assert res.code == 2 and res.out["error"]["field"] == "duration", res.out
    assert nothing_stored(data_dir)


@pytest.mark.parametrize("value", ["nan", "-5", "0", "10001"])
def test_list_limit(slate, value):
    res = slate("list", f"--limit={value}")
    assert res.code == 2 and res.out["outcome"] == "invalid", res.out
    assert "limit" in res.out["error"]["message"]


# -- the rule itself, and a config made by code (the GUI) -----------------------------------
@pytest.mark.parametrize(
    "value", [math.nan, math.inf, -math.inf, "nan", "inf", "-1", True, None, "seven", [1]]
)
def test_number_refuses_what_is_not_a_finite_number_in_range(value):
    with pytest.raises(ValidationError) as exc:
        number("timeout", value, minimum=0.0, maximum=10.0)
    assert exc.value.field == "timeout"


def test_number_and_whole_take_what_is_fine():
    assert number("t", "2.5", minimum=0, maximum=10) == 2.5
    assert number("t", 0, minimum=0) == 0.0
    assert whole("n", " 7 ", minimum=1, maximum=9) == 7 and whole("n", 3.0) == 3
    for bad in (math.nan, 2.5, "2.5", "1e3", True):
        with pytest.raises(ValidationError):
            whole("n", bad)


@pytest.mark.parametrize(
    "field, value",
    [
        ("timeout", math.nan),
        ("timeout", math.inf),
        ("timeout", -1.0),
        ("poll_interval", math.nan),
        ("poll_interval", -0.5),
        ("quota_video", -1),
        ("quota_image", math.nan),
        ("max_requests_per_second", math.nan),
        ("max_requests_per_second", 0.0),
        ("max_concurrent_polls", 0),
        ("demo_stage_seconds", math.inf),
    ],
)
def test_a_config_made_by_code_is_checked_too(tmp_path, field, value):
    """However a config is made (the GUI's settings, tests, code), it holds only sane numbers."""
    with pytest.raises(ValidationError):
        Config(
            data_dir=tmp_path,
            store="sqlite://",
            provider="demo",
            base_url=None,
            tenant="studio-a",
            user="lin",
            **{field: value},
        )


@pytest.mark.parametrize(
    "arg, field",
    [
        ("--port=-5", "port"),
        ("--port=70000", "port"),
        ("--latency=nan", "latency"),
        ("--image-latency=inf", "image_latency"),
        ("--download-ttl=-1", "download_ttl"),
    ],
)
def test_the_demo_provider_s_numbers(slate, arg, field):
    res = slate("sim", arg, timeout=30)
    assert res.code == 2 and res.out["error"]["field"] == field, res.out
