"""The one file → data-URL rule the command line and the desktop app share."""

from __future__ import annotations

import base64

import pytest

from app.domain.errors import ValidationError
from app.service.inputs import MAX_IMAGE_FILE_BYTES, image_file_data_url, image_option


def test_an_image_file_becomes_a_data_url_typed_by_its_name(tmp_path):
    frame = tmp_path / "frame.JPG"
    frame.write_bytes(b"\xff\xd8\xff jpeg bytes")
    url = image_file_data_url(frame, "first_frame_image")
    assert url == "data:image/jpeg;base64," + base64.b64encode(frame.read_bytes()).decode()


@pytest.mark.parametrize(
    "value",
    ["https://example.test/a.png", "http://x/a.png", "data:image/png;base64,AAAA", None, ""],
)
def test_urls_pass_through_and_nothing_stays_nothing(value):
    assert image_option(value, "first_frame_image") == (value or None)


def test_refusals_name_the_field(tmp_path):
    gif = tmp_path / "a.gif"
    gif.write_bytes(b"GIF89a")
    big = tmp_path / "big.png"
    with open(big, "wb") as f:
        f.truncate(MAX_IMAGE_FILE_BYTES + 1)
    cases = [
        (tmp_path / "missing.png", "is neither an https:// URL"),
        (gif, "only PNG, JPEG or WebP"),
        (big, "larger than 20 MB"),
    ]
    for path, words in cases:
        with pytest.raises(ValidationError) as exc:
            image_option(str(path), "subject_reference")
        assert exc.value.field == "subject_reference" and words in exc.value.message


def test_a_file_that_cannot_be_read_is_invalid_input_not_a_crash(tmp_path, monkeypatch):
    locked = tmp_path / "locked.png"
    locked.write_bytes(b"\x89PNG")

    def denied(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(type(locked), "read_bytes", denied)
    with pytest.raises(ValidationError) as exc:
        image_file_data_url(locked, "last_frame_image")
    assert exc.value.field == "last_frame_image"
    assert exc.value.message == "locked.png: Permission denied"
