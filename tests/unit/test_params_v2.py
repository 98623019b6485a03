"""MiniMax-H3 / H3-Max parameter rules (app.domain.params_v2): defaults, every limit of
MINIMAX_API.md naming its field, the fingerprint of local content, the body and its 64 MB plan,
and the output a request asks for. Pure: no file, no network."""

from __future__ import annotations

import json

import pytest

from app.domain import params_v2 as v2
from app.domain.errors import ValidationError
from app.domain.fingerprint import fingerprint
from app.domain.params import normalize
from app.domain.params_v2 import MediaFacts
from app.domain.protocols import V1, V2, protocol_for, protocol_of


def image(
    w: int = 1280,
    h: int = 720,
    *,
    fmt: str = "png",
    size: int = 200_000,
    sha: str = "a" * 64,
    name: str = "frame.png",
) -> MediaFacts:
    return MediaFacts("image", sha, size, fmt, name, w, h)


def clip(
    kind: str = "video",
    seconds: float = 5.0,
    *,
    sha: str = "b" * 64,
    fps: float = 24.0,
    fmt: str | None = None,
    size: int = 1_000_000,
    codec: str = "h264",
    sound: str | None = "aac",
) -> MediaFacts:
    if kind == "video":
        return MediaFacts(
            "video", sha, size, fmt or "mp4", "clip.mp4", 640, 360, seconds, fps, codec, sound
        )
    return MediaFacts(
        "audio", sha, size, fmt or "wav", "tone.wav", seconds=seconds, audio_codec="pcm_s16le"
    )


def h3(**kw: object) -> dict[str, object]:
    return normalize("video", {"model": "MiniMax-H3", "prompt": "a lighthouse", **kw})


def refused(field: str, words: str, **kw: object) -> None:
    with pytest.raises(ValidationError) as got:
        h3(**kw)
    assert got.value.field == field, got.value
    assert words in str(got.value), str(got.value)


# -- protocol and defaults ----------------------------------------------------------------------
def test_the_model_decides_the_protocol_in_one_place():
    assert protocol_for("video", "MiniMax-H3") == V2 == protocol_for("video", "MiniMax-H3-Max")
    assert protocol_for("video", None) == V1  # the CLI's default model stays Hailuo-2.3
    assert protocol_for("video", "MiniMax-Hailuo-2.3") == V1
    assert protocol_for("image", "MiniMax-H3") == V1
    assert protocol_of("video", {"model": "MiniMax-H3"}) == V2
    assert tuple(v2.MODELS) == ("MiniMax-H3", "MiniMax-H3-Max")


def test_h3_defaults_6_s_768p_16_9_and_stating_them_is_the_same():
    norm = h3()
    assert norm == {
        "model": "MiniMax-H3",
        "prompt": "a lighthouse",
        "duration": 6,
        "resolution": "768P",
        "ratio": "16:9",
        "prompt_expansion": None,
        "content": [],
    }
    stated = h3(duration="6", resolution="768p", ratio="16:9")
    assert fingerprint("video", stated) == fingerprint("video", norm)


def test_h3_max_defaults_to_balanced_prompt_expansion():
    norm = normalize("video", {"model": "MiniMax-H3-Max", "prompt": "p"})
    assert norm["prompt_expansion"] == "balanced"
    quality = normalize(
        "video", {"model": "MiniMax-H3-Max", "prompt": "p", "prompt_expansion": "quality"}
    )
    body = v2.request_body(quality, {})
    assert body["extra"] == {"prompt_expansion_mode": "quality"}


# -- one test per rule ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("field", "words", "kw"),
    [
        ("prompt", "is required", {"prompt": "   "}),
        ("prompt", "limit is 7000", {"prompt": "x" * 7001}),
        ("duration", "4–15 s", {"duration": 3}),
        ("duration", "4–15 s", {"duration": 16}),
        ("duration", "whole number", {"duration": "six"}),
        ("resolution", "768P or 2K", {"resolution": "1080P"}),
        ("resolution", "768P or 2K", {"resolution": "480P"}),
        ("ratio", "not offered", {"ratio": "5:4"}),
        ("ratio", "concrete ratio", {"ratio": "adaptive"}),
        ("prompt_expansion", "MiniMax-H3-Max only", {"prompt_expansion": "quality"}),
        ("prompt_optimizer", "V2", {"prompt_optimizer": True}),
        (
            "subject_reference",
            "reference_image",
            {"subject_reference": "https://cdn.example.com/a"},
        ),
        ("fast_pretreatment", "V2", {"fast_pretreatment": True}),
        ("aspect_ratio", "ratio", {"aspect_ratio": "16:9"}),
        ("n", "not a parameter", {"n": 2}),
    ],
)
def test_each_rule_names_its_field(field, words, kw):
    refused(field, words, **kw)


def test_h3_max_rules():
    def mx(**kw: object) -> dict[str, object]:
        return normalize("video", {"model": "MiniMax-H3-Max", "prompt": "p", **kw})

    for bad, field in (
        ({"duration": 4}, "duration"),
        ({"resolution": "2K"}, "resolution"),
        ({"prompt_expansion": "loud"}, "prompt_expansion"),
        ({"last_frame_image": image()}, "last_frame_image"),
    ):
        with pytest.raises(ValidationError) as got:
            mx(**bad)
        assert got.value.field == field
    assert mx(resolution="480P", duration=5)["resolution"] == "480P"
    assert mx(first_frame_image=image(), last_frame_image=image(sha="c" * 64))["content"]


def test_urls_are_public_https_with_a_host_or_uploaded_files():
    refused("first_frame_image", "no host", first_frame_image="https:///etc/passwd")
    refused("first_frame_image", "plain http", first_frame_image="http://cdn.example.com/a.png")
    refused("first_frame_image", "public", first_frame_image="https://localhost/a.png")
    refused("first_frame_image", "public", first_frame_image="https://127.0.0.1/a.png")
    refused("first_frame_image", "public", first_frame_image="https://10.0.0.7/a.png")
    refused("first_frame_image", "spaces", first_frame_image="https://a.example/b c.png")
    refused("reference_image", "file's id", reference_image=["mm_file://abc"])
    refused("reference_image", "https:// URL", reference_image=["ftp://x/y.png"])
    refused(
        "first_frame_image", "read by the service", first_frame_image="data:image/png;base64,AA"
    )
    ok = h3(first_frame_image="https://cdn.example.com/a.png", ratio="adaptive")["content"][0]
    assert ok == {
        "type": "image_url",
        "role": "first_frame",
        "url": "https://cdn.example.com/a.png",
    }
    assert h3(reference_image=["mm_file://123"])["content"][0]["url"] == "mm_file://123"


@pytest.mark.parametrize(
    ("field", "facts", "words"),
    [
        ("reference_image", image(fmt="gif"), "GIF is not an accepted image format"),
        ("reference_image", image(size=31 * 1024 * 1024), "at most 30 MB"),
        ("reference_image", image(6000, 3000), "each side must be 256–5760 px"),
        ("reference_image", image(200, 200), "each side must be 256–5760 px"),
        ("reference_image", image(3000, 1000), "aspect ratio"),
        ("reference_image", image(1000, 3000), "aspect ratio"),
        ("reference_video", clip(seconds=20.0), "each clip must last 2–15 s"),
        ("reference_video", clip(seconds=1.0), "each clip must last 2–15 s"),
        ("reference_video", clip(fps=15.0), "23.976–60 fps"),
        ("reference_video", clip(fps=120.0), "23.976–60 fps"),
        ("reference_video", clip(fmt="webm"), "MP4 or MOV"),
        ("reference_video", clip(codec="vp9"), "not H.264 or H.265"),
        ("reference_video", clip(sound="opus"), "not AAC or MP3"),
        ("reference_video", clip(size=51 * 1024 * 1024), "at most 50 MB"),
        ("reference_audio", clip("audio", 20.0), "each clip must last 2–15 s"),
        ("reference_audio", clip("audio", fmt="flac"), "WAV or MP3"),
        ("reference_audio", clip("audio", size=16 * 1024 * 1024), "at most 15 MB"),
    ],
)
def test_every_input_limit_names_its_field(field, facts, words):
    kw: dict[str, object] = {field: [facts]}
    if field == "reference_audio":
        kw["reference_image"] = [image(sha="d" * 64)]
    refused(field, words, **kw)


def test_frames_accept_heic_and_the_last_frame_alone_on_h3():
    heic = image(4032, 3024, fmt="heic", name="IMG_0001.HEIC")
    norm = h3(first_frame_image=heic)
    assert norm["content"][0]["format"] == "heic"
    alone = h3(last_frame_image=image())
    assert [i["role"] for i in alone["content"]] == ["last_frame"]


def test_content_rules():
    refused(
        "reference_image",
        "cannot be combined",
        first_frame_image=image(),
        reference_image=[image(sha="e" * 64)],
    )
    refused(
        "reference_image", "at most 9", reference_image=[image(sha=f"{i:064x}") for i in range(10)]
    )
    refused(
        "reference_video",
        "at most 3",
        reference_video=[clip(sha=f"{i:064x}", seconds=3) for i in range(4)],
    )
    refused(
        "reference_audio",
        "at most 3",
        reference_image=[image()],
        reference_audio=[clip("audio", 2.0, sha=f"{i:064x}") for i in range(4)],
    )
    refused(
        "content",
        "at most 12 files",
        reference_image=[image(sha=f"{i:064x}") for i in range(9)],
        reference_video=[clip(sha=f"{i + 20:064x}", seconds=2) for i in range(3)],
        reference_audio=[clip("audio", 2.0, sha="f" * 64)],
    )
    refused(
        "reference_audio", "needs at least one reference image", reference_audio=[clip("audio")]
    )
    refused(
        "reference_video",
        "in total; at most 15 s",
        reference_video=[clip(sha="1" * 64, seconds=8), clip(sha="2" * 64, seconds=8)],
    )
    refused(
        "reference_audio",
        "in total; at most 15 s",
        reference_image=[image()],
        reference_audio=[clip("audio", 8, sha="3" * 64), clip("audio", 8, sha="4" * 64)],
    )
    refused("first_frame_image", "takes one image", first_frame_image=[image(), image()])
    refused("reference_image", "is video", reference_image=[clip()])


def test_local_content_enters_the_fingerprint_by_sha256_not_by_name():
    a = h3(reference_image=[image(name="/home/mei/a.png")])
    b = h3(reference_image=[image(name="/tmp/copy of a.png")])
    c = h3(reference_image=[image(sha="f" * 64)])
    assert fingerprint("video", a) == fingerprint("video", b) != fingerprint("video", c)
    assert "name" not in a["content"][0] and "a.png" not in json.dumps(a)
    assert a["content"][0]["sha256"] == "a" * 64
    # a clip keeps its length (the cost estimate reads "seconds")
    ref = h3(reference_image=[image()], reference_video=[clip(seconds=5.04321)])
    assert ref["content"][1]["seconds"] == 5.043


def test_content_order_is_fixed_whatever_the_arguments_order():
    one = h3(reference_audio=[clip("audio")], reference_video=[clip()], reference_image=[image()])
    assert [i["role"] for i in one["content"]] == [
        "reference_image",
        "reference_video",
        "reference_audio",
    ]


# -- body ------------------------------------------------------------------------------------
def test_request_body_carries_content_roles_and_every_field():
    norm = h3(
        first_frame_image=image(),
        last_frame_image="https://cdn.example.com/last.png",
        duration=10,
        resolution="2K",
        ratio="adaptive",
    )
    body = v2.request_body(norm, {"a" * 64: "data:image/png;base64,AAAA"})
    assert body == {
        "model": "MiniMax-H3",
        "content": [
            {"type": "text", "text": "a lighthouse"},
            {
                "type": "image_url",
                "image_url": {"url": "data:image/png;base64,AAAA"},
                "role": "first_frame",
            },
            {
                "type": "image_url",
                "image_url": {"url": "https://cdn.example.com/last.png"},
                "role": "last_frame",
            },
        ],
        "resolution": "2K",
        "duration": 10,
        "ratio": "adaptive",
    }
    assert "extra" not in body and "prompt" not in body


def test_body_plan_inlines_small_images_and_uploads_the_rest():
    small = image(size=100_000)
    big = image(size=8 * 1024 * 1024, sha="9" * 64)
    norm = h3(reference_image=[small, big], reference_video=[clip()])
    plan = v2.plan_body(norm, can_upload=True)
    assert plan.inline == {small.sha256}
    assert plan.upload == {big.sha256, "b" * 64}
    assert plan.body_bytes < 200_000
    # the inline budget: the eighth 4 MB image no longer fits and is uploaded
    many = h3(reference_image=[image(size=4 * 1024 * 1024, sha=f"{i:064x}") for i in range(8)])
    planned = v2.plan_body(many, can_upload=True)
    assert len(planned.inline) == 4 and len(planned.upload) == 4
    assert planned.body_bytes <= v2.INLINE_BUDGET + 10_000


def test_body_over_64_mb_is_refused_naming_content():
    huge = h3(reference_image=[image(size=20 * 1024 * 1024, sha=f"{i:064x}") for i in range(3)])
    assert v2.plan_body(huge, can_upload=True).body_bytes < 1024 * 1024  # uploaded
    with pytest.raises(ValidationError) as got:
        v2.plan_body(huge, can_upload=False)  # a provider that cannot upload: all inline
    assert got.value.field == "content" and "64 MB" in str(got.value)


# -- output ------------------------------------------------------------------------------------
def test_the_output_asked_for():
    text = v2.expected_output(h3(resolution="2K", ratio="21:9", duration=9))
    assert (text.short_side, round(text.aspect or 0, 3), text.seconds, text.audio_channels) == (
        1440,
        round(21 / 9, 3),
        9.0,
        2,
    )
    framed = v2.expected_output(h3(first_frame_image=image(900, 1600)))
    assert framed.aspect == pytest.approx(900 / 1600)  # the frame's aspect, ratio ignored
    remote = v2.expected_output(h3(first_frame_image="https://cdn.example.com/a.png"))
    assert remote.aspect is None and remote.short_side == 768  # size unknown: short side only
    adaptive = v2.expected_output(
        h3(ratio="adaptive", reference_video=[clip()], reference_image=[image(800, 800)])
    )
    assert adaptive.aspect == 1.0  # the first reference image leads
    fixed = v2.expected_output(h3(ratio="9:16", reference_image=[image(800, 800)]))
    assert fixed.aspect == pytest.approx(9 / 16)
