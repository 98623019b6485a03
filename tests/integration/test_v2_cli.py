"""The command line for MiniMax-H3: every V2 limit refused before anything (exit 2, the field
named, nothing stored, nothing sent), the V1 fidelity refusals, `slate cancel` and
`recover --lookup` answers, and an old slot made with the CLI defaults before V2 still replays.

Runs the real entry point in-process (``app.cli.main``) against a demo provider over loopback.
"""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from app.cli import main
from app.domain.params import units
from app.domain.slots import SlotRef
from app.service.owner import this_owner
from app.store.aio import open_store
from app.store.rows import ClaimRequest, ClaimWrite, Scope
from tests.support.sim_media import audio_bytes, heif_bytes, image_bytes, video_bytes
from tests.support.fixtures import copy_migrated_store

RID = "article:20261201:tide-eye:scene-03"
H3 = ["--kind", "video", "--model", "MiniMax-H3", "--prompt", "tide eye"]
FIXTURE = json.loads((Path(__file__).parents[1] / "data" / "old_fingerprints.json").read_text())


@pytest.fixture
def cli_env(monkeypatch, data_dir, demo_sim, tmp_path, migrated_store):
    copy_migrated_store(migrated_store, data_dir)  # a store at head: no migration per test
    monkeypatch.setenv("SLATE_DATA_DIR", str(data_dir))
    monkeypatch.setenv("SLATE_PROVIDER", "demo")
    monkeypatch.setenv("SLATE_BASE_URL", demo_sim.base_url)
    monkeypatch.setenv("SLATE_TEST_KEYRING_FILE", str(tmp_path / "keyring.json"))
    monkeypatch.setenv("SLATE_TENANT", "studio-a")
    monkeypatch.setenv("SLATE_USER", "lin")
    return demo_sim


def run(capsys, *args: str) -> tuple[int, dict]:
    code = main(["--json", *args])
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    return code, json.loads(out[0])


@pytest.fixture
def media(tmp_path: Path) -> dict[str, str]:
    """Local inputs of every kind, good and bad."""
    files = {
        "frame.png": image_bytes(640, 480),
        "wide.png": image_bytes(6000, 3000),
        "pano.png": image_bytes(1500, 500),
        "tiny.png": image_bytes(200, 200),
        "notes.png": b"just words, not a picture\n" * 10,
        "photo.heic": heif_bytes(4032, 3024),
        "huge.heic": heif_bytes(8000, 6000),
        "long.mp4": video_bytes(20.0),
        "short.mp4": video_bytes(1.0),
        "slow.mp4": video_bytes(3.0, fps=12),
        "clip.mp4": video_bytes(3.0),
        "tone.wav": audio_bytes(3.0),
        "long.wav": audio_bytes(16.0),
    }
    folder = tmp_path / "inputs"
    folder.mkdir()
    out = {}
    for name, data in files.items():
        (folder / name).write_bytes(data)
        out[name] = str(folder / name)
    return out


def not_png() -> str:
    return "data:image/png;base64," + base64.b64encode(b"AAAA").decode()


CASES = [
    # (field, extra arguments): every V2 rule, each refused before anything
    ("prompt", ["--prompt", "x" * 7001]),
    ("prompt", ["--prompt", "   "]),
    ("duration", ["--duration", "3"]),
    ("duration", ["--duration", "16"]),
    ("duration", ["--model", "MiniMax-H3-Max", "--duration", "4"]),
    ("resolution", ["--resolution", "1080P"]),
    ("resolution", ["--model", "MiniMax-H3-Max", "--resolution", "2K"]),
    ("ratio", ["--ratio", "5:4"]),
    ("ratio", ["--ratio", "adaptive"]),
    ("prompt_expansion", ["--prompt-expansion", "quality"]),
    ("prompt_expansion", ["--model", "MiniMax-H3-Max", "--prompt-expansion", "loud"]),
    ("prompt_optimizer", ["--no-prompt-optimizer"]),
    ("subject_reference", ["--subject-reference", "https://cdn.example.com/face.png"]),
    ("fast_pretreatment", ["--fast-pretreatment"]),
    ("first_frame_image", ["--first-frame", "https:///etc/passwd"]),
    ("first_frame_image", ["--first-frame", "http://cdn.example.com/a.png"]),
    ("first_frame_image", ["--first-frame", "https://127.0.0.1/a.png"]),
    ("first_frame_image", ["--first-frame", "{notes.png}"]),
    ("first_frame_image", ["--first-frame", "NOT_PNG"]),
    ("first_frame_image", ["--first-frame", "{wide.png}"]),
    ("first_frame_image", ["--first-frame", "{pano.png}"]),
    ("first_frame_image", ["--first-frame", "{huge.heic}"]),
    ("first_frame_image", ["--first-frame", "/no/such/frame.png"]),
    (
        "last_frame_image",
        ["--model", "MiniMax-H3-Max", "--duration", "5", "--last-frame", "{frame.png}"],
    ),
    ("reference_image", ["--reference-image", "{tiny.png}"]),
    ("reference_image", ["--first-frame", "{frame.png}", "--reference-image", "{photo.heic}"]),
    (
        "reference_image",
        [
            arg
            for i in range(10)
            for arg in ("--reference-image", f"https://cdn.example.com/{i}.png")
        ],
    ),
    ("reference_video", ["--reference-video", "{long.mp4}"]),
    ("reference_video", ["--reference-video", "{short.mp4}"]),
    ("reference_video", ["--reference-video", "{slow.mp4}"]),
    ("reference_video", ["--reference-video", "{frame.png}"]),
    ("reference_video", ["--reference-video", "{clip.mp4}"] * 4),
    ("reference_video", ["--reference-video", "{clip.mp4}", "--reference-video", "{long.mp4}"]),
    ("reference_audio", ["--reference-audio", "{tone.wav}"]),
    ("reference_audio", ["--reference-image", "{frame.png}", "--reference-audio", "{long.wav}"]),
    ("reference_audio", ["--reference-image", "{frame.png}", "--reference-audio", "{clip.mp4}"]),
    (
        "content",
        [arg for i in range(9) for arg in ("--reference-image", f"https://cdn.example.com/{i}.png")]
        + [
            arg
            for i in range(3)
            for arg in ("--reference-video", f"https://cdn.example.com/{i}.mp4")
        ]
        + ["--reference-audio", "https://cdn.example.com/a.wav"],
    ),
]


def fill(args: list[str], media: dict[str, str]) -> list[str]:
    out = []
    for a in args:
        if a == "NOT_PNG":
            a = not_png()
        elif a.startswith("{") and a.endswith("}"):
            a = media[a[1:-1]]
        out.append(a)
    return out


def nothing_stored_nothing_sent(sim, data_dir: Path) -> None:
    stats = sim.stats()
    assert stats["requests_total"] == 0, stats
    engine = sa.create_engine(f"sqlite:///{data_dir / 'slate.sqlite3'}")
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM tasks")).scalar() == 0
        assert conn.execute(sa.text("SELECT count(*) FROM slot_events")).scalar() == 0
    engine.dispose()


@pytest.mark.parametrize("field, args", CASES, ids=[f"{i:02d}-{c[0]}" for i, c in enumerate(CASES)])
def test_every_v2_limit_is_refused_before_anything(cli_env, capsys, data_dir, media, field, args):
    code, out = run(capsys, "submit", "--request-id", RID, *H3, *fill(args, media))
    assert code == 2, out
    assert out["outcome"] == "invalid" and out["task"] is None
    assert out["error"].get("field") == field, out["error"]
    assert field in out["error"]["message"]
    nothing_stored_nothing_sent(cli_env, data_dir)


@pytest.mark.parametrize(
    "field, args",
    [
        (
            "resolution",
            [
                "--model",
                "MiniMax-Hailuo-02",
                "--resolution",
                "512P",
                "--first-frame",
                "{frame.png}",
                "--last-frame",
                "{frame.png}",
            ],
        ),
        ("first_frame_image", ["--first-frame", "https:///etc/passwd"]),
        ("first_frame_image", ["--first-frame", "NOT_PNG"]),
        ("first_frame_image", ["--first-frame", "{notes.png}"]),
        (
            "first_frame_image",
            ["--model", "MiniMax-Hailuo-2.3-Fast", "--first-frame", "{tiny.png}"],
        ),
        (
            "first_frame_image",
            ["--model", "MiniMax-Hailuo-2.3-Fast", "--first-frame", "{pano.png}"],
        ),
        ("fast_pretreatment", ["--model", "T2V-01", "--fast-pretreatment"]),
        ("ratio", ["--ratio", "16:9"]),
        ("reference_image", ["--reference-image", "{frame.png}"]),
    ],
)
def test_v1_video_refusals(cli_env, capsys, data_dir, media, field, args):
    code, out = run(
        capsys,
        "submit",
        "--request-id",
        RID,
        "--kind",
        "video",
        "--prompt",
        "p",
        *fill(args, media),
    )
    assert code == 2 and out["error"].get("field") == field, out
    nothing_stored_nothing_sent(cli_env, data_dir)


@pytest.mark.parametrize(
    "field, args",
    [
        ("height", ["--width", "1024"]),
        ("width", ["--width", "1001", "--height", "1024"]),
        ("aspect_ratio", ["--aspect-ratio", "16:9", "--width", "1024", "--height", "576"]),
    ],
)
def test_image_01_size_refusals(cli_env, capsys, data_dir, field, args):
    code, out = run(
        capsys, "submit", "--request-id", RID, "--kind", "image", "--prompt", "p", *args
    )
    assert code == 2 and out["error"].get("field") == field, out
    nothing_stored_nothing_sent(cli_env, data_dir)


def test_h3_from_the_command_line_with_local_files(cli_env, capsys, media):
    code, out = run(
        capsys,
        "submit",
        "--request-id",
        RID,
        *H3,
        "--duration",
        "4",
        "--first-frame",
        media["photo.heic"],
        "--wait",
        "--max-seconds",
        "60",
    )
    assert code == 0 and out["outcome"] == "created", out
    task = out["task"]
    assert task["state"] == "success" and task["provider_status"] == "succeeded"
    item = task["params"]["content"][0]
    assert (item["role"], item["format"], item["width"]) == ("first_frame", "heic", 4032)
    assert media["photo.heic"] not in json.dumps(out)  # the path is never stored
    [m] = task["media"]
    assert (m["width"], m["height"]) == (1024, 768)  # follows the 4:3 HEIC frame
    # the same content under another name replays
    copy = Path(media["photo.heic"]).with_name("copy.heic")
    copy.write_bytes(Path(media["photo.heic"]).read_bytes())
    code, again = run(
        capsys, "submit", "--request-id", RID, *H3, "--duration", "4", "--first-frame", str(copy)
    )
    assert code == 0 and again["outcome"] == "replayed"


def test_cancel_and_lookup_answers(cli_env, capsys):
    cli_env.config.preparing, cli_env.config.queueing = 0.0, 60.0
    code, out = run(capsys, "submit", "--request-id", RID, *H3)
    assert code == 0 and out["task"]["allowed_actions"] == ["query", "cancel"]
    code, out = run(capsys, "cancel", RID)
    assert code == 0 and out["outcome"] == "cancelled", out
    assert out["task"]["state"] == "cancelled" and out["task"]["allowed_actions"] == ["new_slot"]
    code, out = run(capsys, "cancel", RID)
    assert code == 2 and out["outcome"] == "invalid"
    code, out = run(capsys, "cancel", "article:20261201:tide-eye:scene-99")
    assert code == 8 and out["outcome"] == "not_found"

    cli_env.set_faults(lose_create_response=1)
    rid = "article:20261201:tide-eye:scene-04"
    code, out = run(capsys, "submit", "--request-id", rid, *H3)
    assert code == 4 and out["task"]["allowed_actions"] == ["recover"]  # no task id to query
    code, out = run(capsys, "recover", rid, "--lookup")
    assert code == 0 and out["outcome"] == "ok", out
    lookup = out["lookup"]
    assert lookup["attached"] == out["task"]["provider_task_id"]
    assert [c["id"] for c in lookup["candidates"]] == [lookup["attached"]]
    assert lookup["window"]["start"] < lookup["window"]["end"]


def test_a_slot_made_with_cli_defaults_before_v2_still_replays(cli_env, capsys, data_dir, tmp_path):
    """The store holds the slots as the code before V2 wrote them (params and fingerprints
    captured from main); today's command line asks for them again and is answered from the
    record, sending nothing."""
    files = tmp_path / "old-files"
    files.mkdir()
    for name, data in FIXTURE["files"].items():
        (files / name).write_bytes(base64.b64decode(data))
    store = open_store(f"sqlite:///{data_dir / 'slate.sqlite3'}")
    try:
        for case in FIXTURE["cases"]:
            argv = case["argv"]
            slot = SlotRef.parse("studio-a", "lin", argv[argv.index("--request-id") + 1])
            scope = Scope(slot.tenant, slot.user_hash, "demo", "local")
            now = time.time()
            kind, params = case["kind"], case["params"]

            def write(slot=slot, kind=kind, params=params, now=now) -> ClaimWrite:
                return ClaimWrite(
                    idempotency_key=slot.key(kind),
                    request_id=slot.request_id,
                    params=params,
                    units=units(kind, params),
                    owner=this_owner(),
                    lease_until=now + 60,
                    quota_limit=None,
                    day="2026-11-01",
                    project="fixture",
                )

            claimed = store.claim_blocking(
                ClaimRequest(scope, slot.slot_key, kind, case["fingerprint"], now, write)
            )
            assert claimed.claimed
    finally:
        store.close()
    for case in FIXTURE["cases"]:
        args = [a.replace("{files}", str(files)) for a in case["argv"]]
        code, out = run(capsys, *args)
        assert out["outcome"] == "replayed", (case["argv"], out)
        assert out["task"]["fingerprint"] == case["fingerprint"]
    assert cli_env.stats()["requests_total"] == 0


def test_images_blocked_by_the_safety_filter_are_shown(cli_env, capsys):
    cli_env.set_faults(block_images=2)
    code, out = run(
        capsys, "submit", "--request-id", RID, "--kind", "image", "--prompt", "p", "--n", "3"
    )
    assert code == 0 and out["task"]["state"] == "success", out
    assert out["task"]["failed_count"] == 2 and len(out["task"]["media"]) == 1
    code, hist = run(capsys, "history", RID)
    created = [e for e in hist["events"] if e["event"] == "created"][-1]
    assert "2 blocked by the provider's safety filter (not charged)" in created["detail"]
    cli_env.set_faults(block_images=1)
    code, out = run(
        capsys,
        "submit",
        "--request-id",
        "article:20261201:tide-eye:scene-05",
        "--kind",
        "image",
        "--prompt",
        "q",
    )
    assert code == 6 and out["task"]["state"] == "fail"
    assert out["task"]["error"]["code"] == "blocked" and out["task"]["failed_count"] == 1
    code, out = run(
        capsys,
        "submit",
        "--request-id",
        "article:20261201:tide-eye:scene-06",
        "--kind",
        "image",
        "--prompt",
        "r",
    )
    assert out["task"]["failed_count"] is None  # nothing blocked: nothing said


def test_an_unknown_v2_slot_without_task_id_points_at_lookup(cli_env, capsys):
    cli_env.set_faults(lose_create_response=1)
    run(capsys, "submit", "--request-id", RID, *H3)
    code, out = run(capsys, "query", RID)
    # not offered (no task id to ask about): invalid, nothing asked, and what to do instead
    assert code == 2 and out["error"]["code"] == "not_allowed"
    assert "recover --lookup" in out["error"]["message"]
