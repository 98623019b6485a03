"""An answer for a person (no --json) says what the app says, in the user's language: the
state's word, a refusal's sentence, the original one click away (in brackets)."""

from __future__ import annotations

import subprocess

from app.present.translations import translator
from app.present import words
from tests.support.fixtures import slate_in_process


def _said(slate_env, *args: str, lang: str) -> subprocess.CompletedProcess[str]:
    return slate_in_process(slate_env, "--lang", lang, *args)


def test_a_refusal_in_the_apps_words_in_both_languages(slate_env, demo_sim) -> None:
    for i, lang in enumerate(("en", "zh_CN")):
        demo_sim.set_faults(input_sensitive=1)
        rid = f"article:20260816:tide-eye:scene-1{i}"
        proc = _said(
            slate_env, "submit", "--request-id", rid, "--kind", "video", "--prompt", "x", lang=lang
        )
        assert proc.returncode == 6, proc.stderr
        tr = translator(lang)
        assert tr("Words", words.INPUT_SENSITIVE) in proc.stderr, proc.stderr
        assert tr("State", "Refused") in proc.stderr
        assert "1026" in proc.stderr  # the provider's own words, beside the sentence
    assert "服务商" in proc.stderr
