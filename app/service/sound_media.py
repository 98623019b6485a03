"""A sound is verified before ``success`` (DESIGN.md "Sound", "Media"): decoded with PyAV as the
format asked (MP3, WAV, FLAC), more than 0 s long and as long as the answer reports (±0.5 s)
where it reports a length, with the sample rate asked and the channels asked (speech) or
reported (music). Every sample is decoded, so a file whose frames are garbage behind a valid
header is refused; this runs off the event loop (``asyncio.to_thread``)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from app.service.media import VerificationFailed, VerifiedMedia, _make_folder

SECONDS_TOLERANCE = 0.5
MAX_SOUND_BYTES = 1024 * 1024 * 1024
#: The container names PyAV gives each format asked.
CONTAINERS = {"mp3": ("mp3",), "wav": ("wav",), "flac": ("flac",)}
CONTENT_TYPES = {"mp3": "audio/mpeg", "wav": "audio/wav", "flac": "audio/flac"}


@dataclass(frozen=True)
class SoundCheck:
    """What a sound must be: its format and sample rate, its channels where known (None: any),
    and the length the answer reported (None: not reported; then only more than 0 s)."""

    format: str
    sample_rate: int | None  # None: any (a voice design's trial recording)
    channels: int | None = None
    seconds: float | None = None


def sniff_sound(head: bytes) -> str | None:
    """The format from the first bytes: mp3 (ID3 tag or an MPEG frame sync), wav, flac."""
    if head.startswith(b"ID3") or (len(head) >= 2 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0):
        return "mp3"
    if len(head) >= 12 and head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "wav"
    if head.startswith(b"fLaC"):
        return "flac"
    return None


def verify_sound(path: Path, check: SoundCheck) -> float:
    """Decode every frame; return the length in seconds, or raise VerificationFailed."""
    import av  # PyAV only when a sound is verified (never before the app's first window)

    with open(path, "rb") as f:
        head = f.read(16)
    found = sniff_sound(head)
    if found is None:
        raise VerificationFailed("not an MP3, WAV or FLAC file (signature does not match)")
    if found != check.format:
        raise VerificationFailed(f"expected {check.format.upper()}, got {found.upper()}")
    try:
        with av.open(str(path)) as container:
            if container.format.name.split(",")[0] not in CONTAINERS[check.format]:
                raise VerificationFailed(
                    f"expected {check.format.upper()}, the container is {container.format.name}"
                )
            streams = container.streams.audio
            if not streams:
                raise VerificationFailed("the file holds no sound stream")
            stream = streams[0]
            rate = stream.codec_context.sample_rate or stream.rate
            channels = stream.codec_context.channels
            samples = 0
            for frame in container.decode(stream):
                samples += frame.samples
    except VerificationFailed:
        raise
    except (av.error.FFmpegError, ValueError, OSError) as exc:
        raise VerificationFailed(f"the sound does not decode: {exc}") from None
    if check.sample_rate is not None and rate != check.sample_rate:
        raise VerificationFailed(f"sample rate {rate} Hz, {check.sample_rate} Hz was asked")
    if check.channels is not None and channels != check.channels:
        raise VerificationFailed(f"{channels} channel(s), {check.channels} expected")
    seconds = samples / rate if rate else 0.0
    if seconds <= 0:
        raise VerificationFailed("the sound lasts 0 s (nothing decodes)")
    if check.seconds is not None and abs(seconds - check.seconds) > SECONDS_TOLERANCE:
        raise VerificationFailed(
            f"the sound lasts {seconds:.2f} s; the answer reports {check.seconds:.2f} s"
        )
    return seconds


def keep_bytes(data: bytes, folder: Path, fmt: str) -> tuple[Path, str]:
    """Write sound bytes that arrived inline into the slot's folder (fsynced), not yet
    verified: ``<sha256>.<format>``. Returns the path and the digest."""
    _make_folder(folder)
    digest = hashlib.sha256(data).hexdigest()
    final = folder / f"{digest}.{fmt}"
    fd, name = tempfile.mkstemp(prefix=".part-", dir=folder)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, final)
    finally:
        tmp.unlink(missing_ok=True)
    return final, digest


def verified(path: Path, check: SoundCheck, expect_sha256: str | None = None) -> VerifiedMedia:
    """The kept or downloaded file verified as ``check`` says (and, when given, still the
    bytes that arrived)."""
    if not path.is_file():
        raise VerificationFailed("the sound file is no longer on this machine")
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
            size += len(block)
    sha = digest.hexdigest()
    if size == 0:
        raise VerificationFailed("the sound file is empty")
    if expect_sha256 is not None and sha != expect_sha256:
        raise VerificationFailed("the sound file changed on disk since it arrived")
    seconds = verify_sound(path, check)
    return VerifiedMedia(path, sha, size, CONTENT_TYPES[check.format], None, None, seconds)
