"""Old slots keep their fingerprints: the command line's submits captured with the code from
before MiniMax-H3 (tests/data/old_fingerprints.json, made by tests/data/capture_fingerprints.py
from main) normalize to the same parameters and fingerprint today. The default video model is
still MiniMax-Hailuo-2.3 (6 s, 1080P)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from app.cli import build_parser, submit_params
from app.domain.fingerprint import fingerprint
from app.domain.params import normalize
from app.domain.protocols import V1, protocol_of
from app.service.inputs import check_v1_images

FIXTURE = json.loads((Path(__file__).parents[1] / "data" / "old_fingerprints.json").read_text())


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("old-files")
    for name, data in FIXTURE["files"].items():
        (folder / name).write_bytes(base64.b64decode(data))
    return folder


def argv(case: dict, folder: Path) -> list[str]:
    return [a.replace("{files}", str(folder)) for a in case["argv"]]


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=lambda c: c["argv"][2])
def test_a_slot_made_before_v2_keeps_its_fingerprint(case, files):
    ns = build_parser().parse_args(argv(case, files))
    raw = submit_params(ns)
    assert protocol_of(ns.kind, raw) == V1
    check_v1_images(ns.kind, raw)  # the new local checks let every old slot through
    norm = normalize(ns.kind, raw)
    assert norm == case["params"]
    assert fingerprint(ns.kind, norm) == case["fingerprint"]


def test_the_cli_default_video_model_is_still_hailuo_2_3_at_6_s_1080p():
    ns = build_parser().parse_args(
        [
            "submit",
            "--request-id",
            "old:20261101:fixture:scene-01",
            "--kind",
            "video",
            "--prompt",
            "p",
        ]
    )
    norm = normalize("video", submit_params(ns))
    assert (norm["model"], norm["duration"], norm["resolution"]) == (
        "MiniMax-Hailuo-2.3",
        6,
        "1080P",
    )
    assert FIXTURE["cases"][0]["params"]["model"] == "MiniMax-Hailuo-2.3"
