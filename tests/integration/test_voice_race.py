"""A voice slot and a speech slot under one RequestId, submitted by two real ``slate`` processes
at one moment on one store (SQLite file and PostgreSQL): the slot's boundary is kind-free, so
exactly one create reaches the demo provider and the other process is told ``conflict`` (the
other kind), never a second paid call."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.procs import race

pytestmark = pytest.mark.timeout(240)

RIDS = [f"voice:20261204:harbor:narrator-{i:02d}" for i in range(3)]


def prompt(i: int) -> str:
    return f"A low harbour narrator, number {i}, unhurried."


def text(i: int) -> str:
    return f"The harbour wakes, line {i}."


def test_a_voice_and_a_speech_slot_of_one_request_id_create_once(slate_env, demo_sim, store_url):
    demo_sim.set_faults(delay_create_response=0.5)  # the winner's create is still in flight
    env = {**slate_env, "SLATE_STORE": store_url}
    argvs = []
    for i, rid in enumerate(RIDS):  # three pairs, each pair one RequestId, all at one moment
        argvs.append(
            ["voice", "design", "--request-id", rid, "--prompt", prompt(i),
             "--preview-text", "The tide eye opens at dusk."]
        )  # fmt: skip
        argvs.append(
            ["submit", "--request-id", rid, "--kind", "speech", "--text", text(i),
             "--voice", "English_expressive_narrator"]
        )  # fmt: skip
    results = race(env, argvs)
    stats = demo_sim.stats()
    by_prompt = stats["creates_by_prompt"]
    for i, rid in enumerate(RIDS):
        pair = results[2 * i : 2 * i + 2]
        outcomes = Counter(out["outcome"] for _code, out in pair)
        assert outcomes == {"created": 1, "conflict": 1}, pair
        assert sorted(code for code, _ in pair) == [0, 3], pair
        [(_, won)] = [r for r in pair if r[1]["outcome"] == "created"]
        [(_, lost)] = [r for r in pair if r[1]["outcome"] == "conflict"]
        assert won["task"]["state"] == "success", won
        assert lost["error"]["diff"]["kind"]["stored"] == won["task"]["kind"], lost
        # one create for the RequestId at the provider, of the kind that won
        sent = int(by_prompt.get(prompt(i), 0)) + int(by_prompt.get(text(i), 0))
        assert sent == 1, (rid, by_prompt)
    assert stats["creates_total"] == len(RIDS), stats
