"""Local inputs (app.service.inputs): files and data URLs are read and probed as the media they
claim to be — Pillow for images, the ``ispe`` box for HEIC/HEIF, PyAV for video and audio —
and the domain's limits refuse them naming the field. Real files, made on the fly."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest

from app.domain.errors import ValidationError
from app.domain.params import normalize
from app.domain.params_v2 import MediaFacts
from app.service import inputs
from tests.support.sim_media import audio_bytes, heif_bytes, image_bytes, video_bytes


def write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def prepare_and_check(raw: dict[str, object]) -> dict[str, object]:
    prepared, _local = inputs.prepare_v2({"model": "MiniMax-H3", "prompt": "p", **raw})
    return normalize("video", prepared)


def refused(raw: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(ValidationError) as got:
        prepare_and_check(raw)
    assert got.value.field == field, got.value
    assert words in str(got.value), str(got.value)


def test_a_local_image_becomes_facts_by_sha256(tmp_path):
    data = image_bytes(640, 480)
    path = write(tmp_path, "frame.png", data)
    prepared, local = inputs.prepare_v2(
        {"model": "MiniMax-H3", "prompt": "p", "first_frame_image": path}
    )
    facts = prepared["first_frame_image"]
    assert isinstance(facts, MediaFacts)
    assert (facts.kind, facts.format, facts.width, facts.height, facts.bytes) == (
        "image",
        "png",
        640,
        480,
        len(data),
    )
    assert facts.sha256 == hashlib.sha256(data).hexdigest()
    entry = local[facts.sha256]
    assert entry.read() == data and entry.filename == "frame.png"
    assert entry.data_url() == "data:image/png;base64," + base64.b64encode(data).decode()


def test_the_same_picture_in_another_folder_or_as_a_data_url_is_the_same_content(tmp_path):
    data = image_bytes(640, 480)
    a = prepare_and_check({"reference_image": [write(tmp_path, "a.png", data)]})
    (tmp_path / "other").mkdir()
    b = prepare_and_check({"reference_image": [write(tmp_path / "other", "b.png", data)]})
    c = prepare_and_check(
        {"reference_image": ["data:image/png;base64," + base64.b64encode(data).decode()]}
    )
    assert a == b == c


def test_heic_is_read_from_its_ispe_box(tmp_path):
    path = write(tmp_path, "IMG_0001.HEIC", heif_bytes(4032, 3024))
    norm = prepare_and_check({"first_frame_image": path, "ratio": "adaptive"})
    item = norm["content"][0]
    assert (item["format"], item["width"], item["height"]) == ("heic", 4032, 3024)
    refused(
        {"first_frame_image": write(tmp_path, "huge.heic", heif_bytes(8000, 6000))},
        "first_frame_image",
        "each side must be 256–5760 px",
    )


def test_a_6000_px_image_is_refused_naming_the_side_limit(tmp_path):
    refused(
        {"reference_image": [write(tmp_path, "wide.png", image_bytes(6000, 3000))]},
        "reference_image",
        "6000×3000 px; each side must be 256–5760 px",
    )


def test_an_image_of_aspect_3_to_1_is_refused(tmp_path):
    refused(
        {"first_frame_image": write(tmp_path, "pano.jpg", image_bytes(1500, 500, "JPEG"))},
        "first_frame_image",
        "aspect ratio (width/height) of 3.00",
    )


def test_a_text_file_named_png_is_refused(tmp_path):
    refused(
        {"first_frame_image": write(tmp_path, "notes.png", b"just some words\n" * 20)},
        "first_frame_image",
        "notes.png is not a readable image",
    )


def test_a_damaged_png_is_refused(tmp_path):
    data = image_bytes(640, 480)
    refused(
        {"first_frame_image": write(tmp_path, "cut.png", data[: len(data) // 2])},
        "first_frame_image",
        "cut.png",
    )


def test_a_png_data_url_that_is_not_a_png_is_refused():
    refused(
        {"first_frame_image": "data:image/png;base64,QUFBQQ=="},
        "first_frame_image",
        "is not a readable image",
    )
    jpeg = base64.b64encode(image_bytes(640, 480, "JPEG")).decode()
    refused(
        {"first_frame_image": f"data:image/png;base64,{jpeg}"},
        "first_frame_image",
        "says image/png but holds JPEG data",
    )
    refused(
        {"first_frame_image": f"data:image/PNG;base64,{jpeg}"}, "first_frame_image", "lowercase"
    )
    refused(
        {"first_frame_image": "data:image/png;base64,***"}, "first_frame_image", "not valid base64"
    )
    refused(
        {"first_frame_image": "data:video/mp4;base64,AAAA"},
        "first_frame_image",
        "expects data:image/",
    )


def test_a_20_s_clip_is_refused(tmp_path):
    refused(
        {"reference_video": [write(tmp_path, "long.mp4", video_bytes(20.0))]},
        "reference_video",
        "long.mp4 lasts 20.00 s; each clip must last 2–15 s",
    )


def test_a_clip_below_23_976_fps_is_refused(tmp_path):
    refused(
        {"reference_video": [write(tmp_path, "slow.mp4", video_bytes(3.0, fps=12))]},
        "reference_video",
        "12.000 fps",
    )


def test_an_image_given_as_a_reference_video_is_refused(tmp_path):
    refused(
        {"reference_video": [write(tmp_path, "still.mp4", image_bytes(640, 480))]},
        "reference_video",
        "it is an image, not a video",
    )


def test_reference_video_and_audio_are_probed(tmp_path):
    norm = prepare_and_check(
        {
            "reference_video": [write(tmp_path, "clip.mov", video_bytes(3.0, container="mov"))],
            "reference_audio": [write(tmp_path, "tone.mp3", audio_bytes(4.0, "mp3"))],
            "ratio": "adaptive",
        }
    )
    video, audio = norm["content"]
    assert (video["format"], video["width"], video["height"]) == ("mov", 320, 240)
    assert video["seconds"] == pytest.approx(3.0, abs=0.1)
    assert audio["format"] == "mp3" and audio["seconds"] == pytest.approx(4.0, abs=0.1)
    refused(
        {
            "reference_image": [write(tmp_path, "a.png", image_bytes(640, 480))],
            "reference_audio": [write(tmp_path, "noise.mp3", b"\xff\xfb" + b"\x00" * 500)],
        },
        "reference_audio",
        "noise.mp3",
    )


def test_a_missing_file_is_refused_naming_the_field(tmp_path):
    refused(
        {"reference_image": [str(tmp_path / "nope.png")]},
        "reference_image",
        "neither an https:// URL",
    )


def test_a_file_that_changes_after_the_check_is_not_sent(tmp_path):
    path = write(tmp_path, "frame.png", image_bytes(640, 480))
    _prepared, local = inputs.prepare_v2(
        {"model": "MiniMax-H3", "prompt": "p", "first_frame_image": path}
    )
    Path(path).write_bytes(image_bytes(640, 480, color=(1, 2, 3)))
    [entry] = local.values()
    with pytest.raises(inputs.InputChanged, match="changed after it was checked"):
        entry.read()


# -- V1: data URLs are what they claim ----------------------------------------------------------
def data_url(data: bytes, subtype: str = "png") -> str:
    return f"data:image/{subtype};base64,{base64.b64encode(data).decode()}"


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        (
            {"first_frame_image": "data:image/png;base64,QUFBQQ=="},
            "first_frame_image",
            "not a readable image",
        ),
        (
            {"first_frame_image": data_url(image_bytes(300, 600))},
            "first_frame_image",
            "short side must be more than 300 px",
        ),
        (
            {"first_frame_image": data_url(image_bytes(1300, 500))},
            "first_frame_image",
            "2:5 and 5:2",
        ),
        (
            {"first_frame_image": data_url(image_bytes(640, 480), "jpeg")},
            "first_frame_image",
            "holds PNG data",
        ),
        (
            {
                "first_frame_image": data_url(image_bytes(640, 480)),
                "last_frame_image": data_url(image_bytes(640, 100)),
            },
            "last_frame_image",
            "short side",
        ),
        (
            {
                "subject_reference": [
                    {"type": "character", "image": [data_url(image_bytes(100, 100))]}
                ]
            },
            "subject_reference",
            "short side",
        ),
    ],
)
def test_v1_frames_are_checked_locally(raw, field, words):
    with pytest.raises(ValidationError) as got:
        inputs.check_v1_images("video", raw)
    assert got.value.field == field and words in str(got.value), got.value


def test_v1_image_subject_allows_jpeg_and_png_up_to_10_mb():
    inputs.check_v1_images("image", {"subject_reference": data_url(image_bytes(100, 100))})
    webp = data_url(image_bytes(400, 400, "WEBP"), "webp")
    with pytest.raises(ValidationError, match="JPEG or PNG"):
        inputs.check_v1_images("image", {"subject_reference": webp})
    inputs.check_v1_images("video", {"first_frame_image": webp})  # frames take WebP


def test_a_text_file_named_png_is_refused_for_v1_too(tmp_path):
    url = inputs.image_option(write(tmp_path, "notes.png", b"words " * 100), "first_frame_image")
    with pytest.raises(ValidationError, match="not a readable image"):
        inputs.check_v1_images("video", {"first_frame_image": url})
