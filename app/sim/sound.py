"""The demo provider's sound endpoints (MINIMAX_API.md "Sound — music and speech"), V1 style:
HTTP 200 with ``base_resp`` (``status_code`` ≠ 0 is an error).

* ``POST /v1/music_generation`` — synchronous: ``{"data": {"audio": hex | URL, "status": 2},
  "extra_info": {"music_duration" (ms), "music_sample_rate", "music_channel", "bitrate",
  "music_size"}, "trace_id", "base_resp"}``. ``lyrics`` is required unless ``is_instrumental``
  (then it must be absent) or ``lyrics_optimizer``.
* ``POST /v1/t2a_v2`` — synchronous speech, up to 10,000 characters: ``{"data": {"audio",
  "status": 2}, "extra_info": {"audio_length" (ms), "audio_sample_rate", "audio_size",
  "bitrate", "word_count", "usage_characters", "audio_format", "audio_channel",
  "invisible_character_ratio"}, "trace_id", "base_resp"}``.
* ``POST /v1/t2a_async_v2`` — long texts (up to 1,000,000 characters), ``text`` or
  ``text_file_id``: ``{"task_id", "task_token", "file_id", "usage_characters", "base_resp"}``;
  ``GET /v1/query/t2a_async_query_v2?task_id=`` → ``status`` ``Processing`` | ``Success`` |
  ``Failed`` | ``Expired`` with ``file_id``; the file through ``GET /v1/files/retrieve`` (a
  ``download_url`` valid for 9 hours) or ``GET /v1/files/retrieve_content`` (the bytes).
* ``POST /v1/get_voice`` ``{"voice_type": system | voice_cloning | voice_generation | all}``.

The sound is real: MP3, WAV or FLAC (PCM raw) made with PyAV, of the asked sample rate and
channels, as long as the answer says. A song lasts ``SimConfig.song_seconds`` (:data:`SONG_SECONDS` unless set); speech lasts as its
text would be read (:data:`CHARS_PER_SECOND`, by ``speed``), capped at :data:`SPEECH_CAP_SECONDS`
so a demo of a book stays small (the answer reports the length of what it sends).

These rules are the sim's own reading of MiniMax's documentation (it imports nothing of Slate's
domain), so a test of Slate against it checks two readings against each other. Faults: the V1
create guard (auth, 5xx, 1002, 1008, 1026, a chosen code), the lost answer and the others after
a create, ``content_fail`` (an async task ends ``Failed``), ``success_without_file``,
``status_word``, ``slow`` (async tasks take longer), ``undecodable_media`` (the sound does not
decode: inline or downloaded), ``short_sound`` (the answer reports twice the length), and the
download faults (``expire_downloads``…) on async files.
"""

from __future__ import annotations

import io
import logging
import math
import threading
import uuid
import zlib
from array import array
from fractions import Fraction
from typing import Any

from app.sim import billing, voice
from app.sim.rules import ApiError, invalid
from app.sim.wire import AUTH_MESSAGE, CODE_MESSAGES

log = logging.getLogger(__name__)

MUSIC = "/v1/music_generation"
T2A = "/v1/t2a_v2"
T2A_ASYNC = "/v1/t2a_async_v2"
T2A_QUERY = "/v1/query/t2a_async_query_v2"
GET_VOICE = "/v1/get_voice"
RETRIEVE_CONTENT = "/v1/files/retrieve_content"

MUSIC_MODELS = ("music-2.6", "music-2.6-free", "music-2.5+", "music-2.5", "music-2.0")
MUSIC_FORMATS = ("mp3", "wav", "pcm")
MUSIC_RATES = (16000, 24000, 32000, 44100)
MUSIC_BITRATES = (32000, 64000, 128000, 256000)
SPEECH_MODELS = (
    "speech-2.8-hd",
    "speech-2.8-turbo",
    "speech-2.6-hd",
    "speech-2.6-turbo",
    "speech-02-hd",
    "speech-02-turbo",
    "speech-01-hd",
    "speech-01-turbo",
)
SPEECH_FORMATS = ("mp3", "pcm", "flac", "wav")
SPEECH_RATES = (8000, 16000, 22050, 24000, 32000, 44100)
EMOTIONS = (
    "happy",
    "sad",
    "angry",
    "fearful",
    "disgusted",
    "surprised",
    "neutral",
    "calm",
    "fluent",
)
SYSTEM_VOICES = (
    ("English_expressive_narrator", "Expressive Narrator"),
    ("English_Graceful_Lady", "Graceful Lady"),
    ("female-shaonv", "少女"),
    ("male-qn-qingse", "青涩青年"),
    ("Chinese (Mandarin)_News_Anchor", "新闻主播"),
)
SYNC_MAX = 10_000
ASYNC_MAX = 1_000_000
#: How long a demo song lasts, and how fast demo speech is read (characters per second).
SONG_SECONDS = 4.0
CHARS_PER_SECOND = 15.0
SPEECH_CAP_SECONDS = 20.0
SPEECH_MIN_SECONDS = 0.5
#: An async file's link lives this long; after it the audio is gone (the task ``Expired``).
ASYNC_FILE_TTL = 9 * 3600.0
#: File ids of sound results start here (far from the video files' ids).
FILE_ID_BASE = 7_000_000_000
CONTENT_TYPES = {"mp3": "audio/mpeg", "wav": "audio/wav", "flac": "audio/flac", "pcm": "audio/L16"}


# -- the sound --------------------------------------------------------------------------------
def _pcm(seconds: float, rate: int, channels: int, seed: int) -> bytes:
    """Interleaved signed 16-bit samples: a soft two-note chord that changes with ``seed``."""
    n = max(1, round(seconds * rate))
    base = 220.0 * (2 ** ((seed % 12) / 12))
    w1, w2 = 2 * math.pi * base / rate, 2 * math.pi * base * 1.5 / rate
    sin = math.sin
    period = min(n, rate)  # one second, repeated: a long song costs no more to make than that
    mono = array(
        "h", [int((0.25 * sin(w1 * i) + 0.12 * sin(w2 * i)) * 32767) for i in range(period)]
    )
    if n > period:
        mono = (mono * (n // period + 1))[:n]
    for k in range(min(n, 32)):  # the seed's bits in the first samples: each sound its own bytes
        mono[k] ^= (seed >> k) & 1
    if channels == 1:
        return mono.tobytes()
    out = array("h", bytes(2 * n * channels))
    for c in range(channels):
        out[c::channels] = mono
    return out.tobytes()


def render_sound(fmt: str, seconds: float, rate: int, channels: int, seed: int = 0) -> bytes:
    """Real audio bytes, ``seconds`` long: MP3 (LAME), WAV (16-bit PCM), FLAC, or raw PCM."""
    import av  # PyAV only when a sound is made (never before the app's first window)

    pcm = _pcm(seconds, rate, channels, seed)
    if fmt == "pcm":
        return pcm
    n = len(pcm) // (2 * channels)
    layout = "mono" if channels == 1 else "stereo"
    buf = io.BytesIO()
    container = av.open(buf, "w", format={"mp3": "mp3", "wav": "wav", "flac": "flac"}[fmt])
    codec = {"mp3": "libmp3lame", "wav": "pcm_s16le", "flac": "flac"}[fmt]
    stream = container.add_stream(codec, rate=rate, layout=layout)
    if fmt == "mp3":
        stream.bit_rate = 128000
        # LAME's fastest algorithm (its -q 9): the same bit rate and frames, made ~2x sooner
        stream.codec_context.options = {"compression_level": "9"}
    resampler = av.AudioResampler(format=stream.codec_context.format.name, layout=layout, rate=rate)
    step = 4096
    frame_bytes = 2 * channels
    for at in range(0, n, step):
        count = min(step, n - at)
        frame = av.AudioFrame(format="s16", layout=layout, samples=count)
        frame.planes[0].update(pcm[at * frame_bytes : (at + count) * frame_bytes])
        frame.sample_rate = rate
        frame.pts = at
        frame.time_base = Fraction(1, rate)
        for piece in resampler.resample(frame):
            for packet in stream.encode(piece):
                container.mux(packet)
    for piece in resampler.resample(None):
        for packet in stream.encode(piece):
            container.mux(packet)
    for packet in stream.encode(None):
        container.mux(packet)
    container.close()
    return buf.getvalue()


def spoil_sound(data: bytes) -> bytes:
    """Sound that does not decode as asked: the container's first bytes and nothing after."""
    return data[: min(len(data), 48)]


def speech_seconds(text: str, speed: float) -> float:
    seconds = len(text) / CHARS_PER_SECOND / max(speed, 0.1)
    return max(SPEECH_MIN_SECONDS, min(SPEECH_CAP_SECONDS, seconds))


def invisible_ratio(text: str) -> float:
    if not text:
        return 0.0
    bad = sum(1 for c in text if (ord(c) < 32 and c not in "\t\n") or ord(c) == 127)
    return bad / len(text)


# -- the rules --------------------------------------------------------------------------------
def _int_in(value: Any, name: str, allowed: tuple[int, ...] | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid(f"{name} must be an integer")
    if allowed is not None and value not in allowed:
        raise invalid(f"{name} must be one of {', '.join(map(str, allowed))}")
    return value


def validate_music(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise invalid("the body must be a JSON object")
    model = body.get("model")
    if model not in MUSIC_MODELS:
        raise invalid(f"model {model!r} is not supported")
    prompt = body.get("prompt", "")
    if not isinstance(prompt, str) or len(prompt) > 2000:
        raise invalid("prompt must be a string of at most 2000 characters")
    lyrics = body.get("lyrics")
    instrumental = body.get("is_instrumental", False)
    optimizer = body.get("lyrics_optimizer", False)
    if not isinstance(instrumental, bool) or not isinstance(optimizer, bool):
        raise invalid("is_instrumental and lyrics_optimizer must be booleans")
    if instrumental:
        if lyrics not in (None, ""):
            raise invalid("lyrics must be absent when is_instrumental is true")
        if not prompt.strip():
            raise invalid("prompt is required for an instrumental")
    elif optimizer:
        if not prompt.strip():
            raise invalid("prompt is required when lyrics_optimizer is true")
    elif not isinstance(lyrics, str) or not lyrics.strip():
        raise invalid("lyrics is required unless is_instrumental or lyrics_optimizer is true")
    if lyrics is not None and (not isinstance(lyrics, str) or len(lyrics) > 3500):
        raise invalid("lyrics must be a string of at most 3500 characters")
    setting = body.get("audio_setting") or {}
    if not isinstance(setting, dict):
        raise invalid("audio_setting must be an object")
    fmt = setting.get("format", "mp3")
    if fmt not in MUSIC_FORMATS:
        raise invalid("audio_setting.format must be mp3, wav or pcm")
    rate = _int_in(setting.get("sample_rate", 44100), "audio_setting.sample_rate", MUSIC_RATES)
    _int_in(setting.get("bitrate", 256000), "audio_setting.bitrate", MUSIC_BITRATES)
    out_fmt = body.get("output_format", "hex")
    if out_fmt not in ("hex", "url"):
        raise invalid("output_format must be hex or url")
    if body.get("stream") not in (None, False):
        raise invalid("stream is not offered by the demo provider")
    seed = body.get("seed")
    if seed is not None:
        _int_in(seed, "seed")
    return {
        "kind": "music",
        "model": model,
        "format": fmt,
        "sample_rate": rate,
        "channels": 2,
        "bitrate": setting.get("bitrate", 256000),
        "output_format": out_fmt,
        "seconds": SONG_SECONDS,
        "seed": seed if isinstance(seed, int) else zlib.crc32(f"{prompt}\0{lyrics}".encode()),
    }


def validate_speech(body: Any, asynchronous: bool) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise invalid("the body must be a JSON object")
    model = body.get("model")
    if model not in SPEECH_MODELS:
        raise invalid(f"model {model!r} is not supported")
    text = body.get("text")
    limit = ASYNC_MAX if asynchronous else SYNC_MAX
    if asynchronous and text is None and body.get("text_file_id") is not None:
        raise invalid("text_file_id is not offered by the demo provider; send text")
    if not isinstance(text, str) or not text.strip():
        raise invalid("text is required")
    if len(text) > limit:
        raise invalid(f"text exceeds {limit} characters")
    ratio = invisible_ratio(text)
    if ratio > 0.10:
        raise invalid("more than 10% of the text are invisible characters")
    voice = body.get("voice_setting")
    if not isinstance(voice, dict):
        raise invalid("voice_setting is required")
    voice_id = voice.get("voice_id")
    if not isinstance(voice_id, str) or not voice_id.strip():
        raise invalid("voice_setting.voice_id is required")
    speed = voice.get("speed", 1)
    if isinstance(speed, bool) or not isinstance(speed, (int, float)) or not 0.5 <= speed <= 2:
        raise invalid("voice_setting.speed must be within 0.5 and 2")
    vol = voice.get("vol", 1)
    if isinstance(vol, bool) or not isinstance(vol, (int, float)) or not 0 < vol <= 10:
        raise invalid("voice_setting.vol must be within (0, 10]")
    pitch = voice.get("pitch", 0)
    if isinstance(pitch, bool) or not isinstance(pitch, int) or not -12 <= pitch <= 12:
        raise invalid("voice_setting.pitch must be an integer within -12 and 12")
    emotion = voice.get("emotion")
    if emotion is not None and emotion not in EMOTIONS:
        raise invalid(f"voice_setting.emotion must be one of {', '.join(EMOTIONS)}")
    setting = body.get("audio_setting") or {}
    if not isinstance(setting, dict):
        raise invalid("audio_setting must be an object")
    fmt = setting.get("format", "mp3")
    if fmt not in SPEECH_FORMATS:
        raise invalid("audio_setting.format must be mp3, pcm, flac or wav")
    # the async guide spells it audio_sample_rate; the reference page sample_rate: accept both
    rate_value = setting.get("sample_rate", setting.get("audio_sample_rate", 32000))
    rate = _int_in(rate_value, "audio_setting.sample_rate", SPEECH_RATES)
    bitrate = setting.get("bitrate", 128000)
    if isinstance(bitrate, bool) or not isinstance(bitrate, int) or not 32000 <= bitrate <= 256000:
        raise invalid("audio_setting.bitrate must be within 32000 and 256000")
    channels = _int_in(setting.get("channel", 1), "audio_setting.channel", (1, 2))
    out_fmt = body.get("output_format", "hex")
    if out_fmt not in ("hex", "url"):
        raise invalid("output_format must be hex or url")
    if body.get("stream") not in (None, False):
        raise invalid("stream is not offered by the demo provider")
    return {
        "kind": "speech",
        "model": model,
        "format": fmt,
        "sample_rate": rate,
        "channels": channels,
        "bitrate": bitrate,
        "output_format": out_fmt,
        "seconds": speech_seconds(text, float(speed)),
        "characters": len(text),
        "ratio": ratio,
        "seed": zlib.crc32(f"{voice_id}\0{text}".encode()),
    }


# -- the records (in memory: the demo provider's own process) ---------------------------------
class SoundBook:
    """Made sounds and async tasks, by id."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sounds: dict[str, dict[str, Any]] = {}  # sound id → params (+ spoiled, bytes)
        self.tasks: dict[str, dict[str, Any]] = {}  # async task id → record
        self.files: dict[int, str] = {}  # file id → task id
        self._next = 0

    def new_id(self) -> int:
        with self.lock:
            self._next += 1
            return FILE_ID_BASE + self._next


def book(sim: Any) -> SoundBook:
    got = getattr(sim, "_sound_book", None)
    if got is None:
        with sim._lock:
            got = getattr(sim, "_sound_book", None)
            if got is None:
                got = sim._sound_book = SoundBook()
    return got


def cached_sound(
    sim: Any, fmt: str, seconds: float, rate: int, channels: int, seed: int = 0
) -> bytes:
    """:func:`render_sound`'s bytes, kept where the sim keeps its rendered media (every process
    naming that folder reads them instead of encoding again: one song's MP3 costs ~0.1 s)."""
    from app.sim.media import _cached

    return _cached(
        ("sound", fmt, float(seconds), rate, channels, seed),
        lambda: render_sound(fmt, seconds, rate, channels, seed=seed),
        sim.media_cache,
    )


def sound_bytes(sim: Any, record: dict[str, Any]) -> bytes:
    data = record.get("bytes")
    if data is None:
        data = cached_sound(
            sim,
            record["format"],
            record["seconds"],
            record["sample_rate"],
            record["channels"],
            seed=int(record.get("seed") or 0),
        )
        record["bytes"] = data
    return spoil_sound(data) if record.get("spoiled") else data


def owns_file(sim: Any, file_id: int) -> bool:
    return file_id in book(sim).files


class SoundEndpoints:
    """Mixed into the request handler; uses its plumbing (guard, faults, JSON answers)."""

    sim: Any
    command: str

    def _sound_route(self, method: str, path: str):  # type: ignore[no-untyped-def]
        routes = {
            MUSIC: ("music_generation", self._sound_music, "POST"),
            T2A: ("t2a_v2", self._sound_t2a, "POST"),
            T2A_ASYNC: ("t2a_async_v2", self._sound_t2a_async, "POST"),
            T2A_QUERY: ("query_t2a_async", self._sound_query, "GET"),
            GET_VOICE: ("get_voice", self._sound_voices, "POST"),
            voice.VOICE_DESIGN: ("voice_design", self._sound_voice_design, "POST"),
            RETRIEVE_CONTENT: ("files_retrieve_content", self._sound_content, "GET"),
        }
        return routes.get(path)

    def _sound_dispatch(self, method: str, path: str) -> None:
        name, handler, want = self._sound_route(method, path)
        self.sim._count(name)
        if method != want and not (method == "HEAD" and want == "GET"):
            return self._json(  # type: ignore[attr-defined]
                {"base_resp": {"status_code": 405, "status_msg": "method not allowed"}}, 405
            )
        handler()

    # -- creates --------------------------------------------------------------------------
    def _sound_create(self, kind: str, validate: Any) -> tuple[dict[str, Any], str]:
        if not self._authorized():  # type: ignore[attr-defined]
            raise ApiError(1004, AUTH_MESSAGE)
        body = self._body()  # type: ignore[attr-defined]
        said = ""
        if isinstance(body, dict):
            said = body.get("prompt") if kind == "music" else body.get("text")
            said = said if isinstance(said, str) else ""
            if kind == "music" and not said:
                said = body.get("lyrics") if isinstance(body.get("lyrics"), str) else ""
        try:
            self._guard(create=True)  # type: ignore[attr-defined]
            params = validate(body)
        except Exception:
            self.sim._count_create(kind, said, made=False)
            raise
        return params, said

    def _sound_inline(self, params: dict[str, Any], said: str, kind: str) -> None:
        """Make the sound, count it billed, then answer it (faults strike after the making)."""
        sim = self.sim
        delay = sim._slow()
        if delay > 0:
            sim._stopping.wait(delay)
        sound_id = uuid.uuid4().hex
        params["spoiled"] = sim._take("undecodable_media")
        params["prompt"] = said
        short = sim._take("short_sound")
        shelf = book(sim)
        with shelf.lock:
            shelf.sounds[sound_id] = params
        data = sound_bytes(sim, params)
        sim._count_create(kind, said, made=True)
        self._after_create(task_id=sound_id)  # type: ignore[attr-defined]
        ms = round(params["seconds"] * 1000 * (2 if short else 1))
        if params["output_format"] == "url":
            audio = sim.link(f"/_sim/sound/{sound_id}/output.{params['format']}", 86400.0)
        else:
            audio = data.hex()
            if not params["spoiled"]:
                sim._served_media(data, said)
        if kind == "music":
            extra = {
                "music_duration": ms,
                "music_sample_rate": params["sample_rate"],
                "music_channel": params["channels"],
                "bitrate": params["bitrate"],
                "music_size": len(data),
            }
        else:
            extra = {
                "audio_length": ms,
                "audio_sample_rate": params["sample_rate"],
                "audio_size": len(data),
                "bitrate": params["bitrate"],
                "word_count": params["characters"],
                "usage_characters": params["characters"],
                "audio_format": params["format"],
                "audio_channel": params["channels"],
                "invisible_character_ratio": round(params["ratio"], 4),
            }
        trace_id = uuid.uuid4().hex  # no task id: the trace id is the answer's only id
        self._json(  # type: ignore[attr-defined]
            {
                "data": {"audio": audio, "status": 2},
                "extra_info": extra,
                "trace_id": trace_id,
                "base_resp": {"status_code": 0, "status_msg": "success"},
            }
        )
        sim._answered(said, trace_id)

    def _sound_voice_design(self) -> None:
        """``/v1/voice_design``: a voice and its trial recording (:mod:`app.sim.voice`)."""
        if not self._authorized():  # type: ignore[attr-defined]
            raise ApiError(1004, AUTH_MESSAGE)
        body = self._body()  # type: ignore[attr-defined]
        said = body.get("prompt") if isinstance(body, dict) else ""
        said = said if isinstance(said, str) else ""
        try:
            self._guard(create=True)  # type: ignore[attr-defined]
            params = voice.validate_design(body)
        except Exception:
            self.sim._count_create("voice", said, made=False)
            raise
        seconds = speech_seconds(params["preview_text"], 1.0)
        voice.make_voice(self.sim, self, params, render_sound, seconds)

    def _sound_music(self) -> None:
        params, said = self._sound_create("music", validate_music)
        params["seconds"] = self.sim.config.song_seconds  # type: ignore[attr-defined]
        self._sound_inline(params, said, "music")

    def _sound_t2a(self) -> None:
        params, said = self._sound_create("speech", lambda b: validate_speech(b, False))
        self._sound_inline(params, said, "speech")

    def _sound_t2a_async(self) -> None:
        sim = self.sim
        params, said = self._sound_create("speech", lambda b: validate_speech(b, True))
        shelf = book(sim)
        task_id = str(shelf.new_id())
        file_id = shelf.new_id()
        cfg = sim.config
        outcome = sim._outcome()  # success, no_file or fail_<code>
        params["spoiled"] = sim._take("undecodable_media")
        params["prompt"] = said
        record = {
            "task_id": task_id,
            "file_id": file_id,
            "created_at": sim.now(),
            "takes": cfg.preparing + cfg.queueing + cfg.processing + sim._slow(),
            "outcome": outcome,
            "params": params,
            "prompt": said,
        }
        with shelf.lock:
            shelf.tasks[task_id] = record
            shelf.files[file_id] = task_id
        sim._count_create("speech", said, made=True, billed=not outcome.startswith("fail_"))
        self._after_create(task_id=task_id)  # type: ignore[attr-defined]
        self._json(  # type: ignore[attr-defined]
            {
                "task_id": int(task_id),
                "task_token": uuid.uuid4().hex,
                "file_id": file_id,
                "usage_characters": params["characters"],
                "base_resp": {"status_code": 0, "status_msg": "success"},
            }
        )
        sim._answered(said, task_id)

    # -- async: query and files ---------------------------------------------------------------
    def _task_status(self, record: dict[str, Any]) -> str:
        now = self.sim.now()
        done_at = record["created_at"] + record["takes"]
        if now < done_at:
            return "Processing"
        if record["outcome"].startswith("fail_"):
            return "Failed"
        if now > done_at + ASYNC_FILE_TTL:
            return "Expired"
        return "Success"

    def _sound_query(self) -> None:
        self._guard(create=False)  # type: ignore[attr-defined]
        task_id = self._query().get("task_id", "").strip()  # type: ignore[attr-defined]
        if not task_id:
            raise invalid("task_id is required")
        shelf = book(self.sim)
        record = shelf.tasks.get(task_id)
        if record is None:
            raise ApiError(2013, f"invalid params, task {task_id} not found")

        def others() -> list[dict[str, Any]]:
            with shelf.lock:
                return list(shelf.tasks.values())

        record = billing.foreign(self.sim, task_id, others, done=self._task_status) or record
        task_id = record["task_id"]
        word = self.sim._status_word()
        status = word if word is not None else self._task_status(record)
        body: dict[str, Any] = {"task_id": int(task_id), "status": status, "file_id": 0}
        if status in ("Success", "Expired") and record["outcome"] == "success":
            body["file_id"] = record["file_id"]
        code = 0
        if status == "Failed":
            code = int(record["outcome"][len("fail_") :])
        body["base_resp"] = {
            "status_code": code,
            "status_msg": "success" if not code else CODE_MESSAGES.get(code, "failed"),
        }
        self._json(body)  # type: ignore[attr-defined]

    def _sound_file(self, file_id: int) -> tuple[dict[str, Any], bytes]:
        shelf = book(self.sim)
        record = shelf.tasks.get(shelf.files.get(file_id, ""))
        if record is None or record["outcome"] != "success":
            raise ApiError(2013, f"invalid params, file {file_id} not found")
        status = self._task_status(record)
        if status != "Success":
            raise ApiError(2013, f"invalid params, file {file_id} not found ({status})")
        return record, sound_bytes(self.sim, record["params"])

    def _sound_retrieve(self, file_id: int) -> None:
        """``/v1/files/retrieve`` of a sound file: its link lives until the audio is gone."""
        record, data = self._sound_file(file_id)
        sim = self.sim
        fmt = record["params"]["format"]
        gone = record["created_at"] + record["takes"] + ASYNC_FILE_TTL
        self._json(  # type: ignore[attr-defined]
            {
                "file": {
                    "file_id": file_id,
                    "bytes": len(data),
                    "created_at": int(record["created_at"] + record["takes"]),
                    "filename": f"output.{fmt}",
                    "purpose": "t2a_async",
                    "download_url": sim.link(
                        f"/_sim/sound/{record['task_id']}/output.{fmt}",
                        max(1.0, gone - sim.now()),
                    ),
                },
                "base_resp": {"status_code": 0, "status_msg": "success"},
            }
        )

    def _sound_content(self) -> None:
        self._guard(create=False)  # type: ignore[attr-defined]
        raw = self._query().get("file_id", "").strip()  # type: ignore[attr-defined]
        if not raw.isdigit():
            raise invalid("file_id must be a number")
        record, data = self._sound_file(int(raw))
        fmt = record["params"]["format"]
        if not record["params"].get("spoiled"):
            self.sim._served_media(data, record["prompt"])
        self._send(200, data, CONTENT_TYPES[fmt])  # type: ignore[attr-defined]

    def _sound_voices(self) -> None:
        self._guard(create=False)  # type: ignore[attr-defined]
        body = self._body_or_empty()  # type: ignore[attr-defined]
        kind = body.get("voice_type", "all")
        if kind not in ("system", "voice_cloning", "voice_generation", "all"):
            raise invalid("voice_type must be system, voice_cloning, voice_generation or all")
        out: dict[str, Any] = {"base_resp": {"status_code": 0, "status_msg": "success"}}
        if kind in ("system", "all"):
            out["system_voice"] = [
                {"voice_id": v, "voice_name": name, "description": []} for v, name in SYSTEM_VOICES
            ]
        if kind in ("voice_cloning", "all"):
            out["voice_cloning"] = []
        if kind in ("voice_generation", "all"):
            out["voice_generation"] = voice.designed(self.sim)
        self._json(out)  # type: ignore[attr-defined]


def prompt_of(sim: Any, sound_id: str) -> str:
    """The text (speech) or style (music) a sound or async task was made from."""
    shelf = book(sim)
    record = shelf.sounds.get(sound_id)
    if record is None:
        task = shelf.tasks.get(sound_id)
        record = task["params"] if task is not None else {}
    return str(record.get("prompt") or "")


def spoiled(sim: Any, sound_id: str) -> bool:
    """Whether this sound is served spoiled (``undecodable_media`` at its making)."""
    shelf = book(sim)
    record = shelf.sounds.get(sound_id)
    if record is None:
        task = shelf.tasks.get(sound_id)
        record = task["params"] if task is not None else {}
    return bool(record.get("spoiled"))


def download(sim: Any, parts: list[str]) -> tuple[bytes, str] | None:
    """``/_sim/sound/<id>/output.<fmt>``: an inline sound's URL or an async task's file."""
    if len(parts) != 4 or not parts[3].startswith("output."):
        return None
    shelf = book(sim)
    params = shelf.sounds.get(parts[2])
    if params is None:
        record = shelf.tasks.get(parts[2])
        if record is None or record["outcome"] != "success":
            return None
        params = record["params"]
    return sound_bytes(sim, params), CONTENT_TYPES.get(params["format"], "audio/mpeg")


__all__ = ["SoundEndpoints", "download", "owns_file", "render_sound"]
