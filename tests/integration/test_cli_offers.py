"""What the command line says a slot offers (issue 18, point 4): an unknown slot whose create's
answer never came back has no task id, so neither the human line nor the JSON offer ``query``;
``query`` then answers ``invalid`` (exit 2, nothing asked), with the typed reason's words."""

from __future__ import annotations

import subprocess

from app.present.translations import translator
from app.domain.states import Refusal
from app.present import words
from tests.support.fixtures import slate_in_process

RID = "article:20261202:tide-eye:scene-04"
H3 = ("--kind", "video", "--model", "MiniMax-H3", "--duration", "4", "--prompt", "tide eye")


def _said(slate_env, *args: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    return slate_in_process(slate_env, "--lang", lang, *args)


def test_an_unknown_slot_without_task_id_is_not_offered_a_query(slate_env, demo_sim, slate):
    demo_sim.set_faults(lose_create_response=1)
    proc = _said(slate_env, "submit", "--request-id", RID, *H3)
    assert proc.returncode == 4, proc.stderr
    said = proc.stdout + proc.stderr
    assert f"next: slate recover {RID} --lookup" in said and "slate query" not in said
    assert "handle: st" not in said and "you can:" not in said  # issue 33 point 8
    why = words.REFUSAL_WORDS[Refusal.NO_TASK_ID_LOOKUP]  # H3: the provider lists its tasks
    assert f"no query: {why}" in said
    assert f"no new slot: {words.REFUSAL_WORDS[Refusal.RECOVER_FIRST]}" in said
    status = slate("status", RID)
    assert status.out["task"]["allowed_actions"] == ["recover"]
    asked = demo_sim.stats()["requests_by_endpoint"].copy()
    q = slate("query", RID)
    assert q.code == 2 and q.out["outcome"] == "invalid", q.out
    assert (
        q.out["error"]["code"] == "not_allowed" and "recover --lookup" in q.out["error"]["message"]
    )
    assert demo_sim.stats()["requests_by_endpoint"] == asked  # nothing was asked
    zh = _said(slate_env, "status", RID, lang="zh_CN")
    tr = translator("zh_CN")
    assert tr("WhyNot", why) in zh.stdout + zh.stderr and "服务商" in zh.stdout + zh.stderr


def test_an_unknown_image_is_not_offered_a_query_either(slate_env, demo_sim, slate):
    demo_sim.set_faults(lose_create_response=1)
    rid = "article:20261202:tide-eye:still-04"
    out = slate("submit", "--request-id", rid, "--kind", "image", "--prompt", "a lighthouse")
    assert out.code == 4 and out.out["task"]["allowed_actions"] == ["recover"]
    said = _said(slate_env, "status", rid)
    assert f"no query: {words.REFUSAL_WORDS[Refusal.NO_QUERY]}" in said.stdout + said.stderr
