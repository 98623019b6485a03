"""Music and speech: rules, defaults, every limit, the request bodies and what a sound answer
must be (DESIGN.md "Sound: music and speech"; protocol facts: MINIMAX_API.md "Sound").

* ``music`` — ``POST /v1/music_generation``, synchronous: the answer carries the song (hex).
* ``speech`` — up to :data:`SYNC_TEXT_MAX` characters ``POST /v1/t2a_v2`` (synchronous, the
  sound inline); longer texts ``POST /v1/t2a_async_v2`` (a task id, a query, a file). Which
  protocol a slot speaks follows from its text alone (:func:`speech_protocol`) and is part of
  its normalized parameters, so it never changes for that slot.

Characters are Unicode code points (``len`` of a Python string), for the 10,000 boundary and
for the cost. Every refusal is a :class:`ValidationError` naming the CLI option's field, raised
before anything is stored or sent. The normalized dicts state every default, so omitting a
default equals stating it (the fingerprint).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping
from typing import Any, Final

from app.domain.errors import Rule, ValidationError

MUSIC: Final = "music"
SPEECH: Final = "speech"
SOUND_KINDS: Final = (MUSIC, SPEECH)

# -- music ------------------------------------------------------------------------------------
MUSIC_MODELS: Final = ("music-2.6", "music-2.6-free", "music-2.5+", "music-2.5")
#: Cover models need a reference song (``audio_url``/``audio_base64``): not offered by Slate yet.
MUSIC_COVER_MODELS: Final = ("music-cover", "music-cover-free")
DEFAULT_MUSIC_MODEL: Final = "music-2.6"
MUSIC_FIELDS: Final = (
    "model",
    "prompt",
    "lyrics",
    "instrumental",
    "lyrics_optimizer",
    "format",
    "sample_rate",
    "bitrate",
    "seed",
)
MUSIC_PROMPT_MAX: Final = 2000
LYRICS_MAX: Final = 3500
MUSIC_FORMATS: Final = ("mp3", "wav")
MUSIC_SAMPLE_RATES: Final = (16000, 24000, 32000, 44100)
MUSIC_BITRATES: Final = (32000, 64000, 128000, 256000)
MUSIC_DEFAULTS: Final = {"format": "mp3", "sample_rate": 44100, "bitrate": 256000}
#: The structure tags MiniMax's lyrics understand (shown by the app; not enforced).
LYRICS_TAGS: Final = (
    "[Intro]",
    "[Verse]",
    "[Pre Chorus]",
    "[Chorus]",
    "[Interlude]",
    "[Bridge]",
    "[Outro]",
    "[Post Chorus]",
    "[Transition]",
    "[Break]",
    "[Hook]",
    "[Build Up]",
    "[Inst]",
    "[Solo]",
)
MUSIC_PATH: Final = "/v1/music_generation"
#: A song takes a minute or more: the create waits at least this long unless the user set a
#: timeout (``--timeout``, ``SLATE_TIMEOUT``).
MUSIC_CREATE_TIMEOUT: Final = 300.0

# -- speech -----------------------------------------------------------------------------------
SPEECH_MODELS: Final = (
    "speech-2.8-hd",
    "speech-2.8-turbo",
    "speech-2.6-hd",
    "speech-2.6-turbo",
    "speech-02-hd",
    "speech-02-turbo",
)
DEFAULT_SPEECH_MODEL: Final = "speech-2.8-hd"
SPEECH_FIELDS: Final = (
    "model",
    "text",
    "voice",
    "speed",
    "volume",
    "pitch",
    "emotion",
    "format",
    "sample_rate",
    "channels",
    "language_boost",
)
SYNC_TEXT_MAX: Final = 10_000
ASYNC_TEXT_MAX: Final = 1_000_000
SPEED_MIN, SPEED_MAX = 0.5, 2.0
VOLUME_MAX: Final = 10.0
PITCH_MIN, PITCH_MAX = -12, 12
EMOTIONS: Final = ("happy", "sad", "angry", "fearful", "disgusted", "surprised", "neutral")
#: Models documented to add these emotions.
EXTRA_EMOTIONS: Final = ("calm", "fluent")
EXTRA_EMOTION_MODELS: Final = (
    "speech-2.8-hd",
    "speech-2.8-turbo",
    "speech-2.6-hd",
    "speech-2.6-turbo",
)
SPEECH_FORMATS: Final = ("mp3", "wav", "flac")
SPEECH_SAMPLE_RATES: Final = (8000, 16000, 22050, 24000, 32000, 44100)
CHANNELS: Final = (1, 2)
SPEECH_BITRATE: Final = 128000
LANGUAGES: Final = (
    "auto",
    "Chinese",
    "Chinese,Yue",
    "English",
    "Arabic",
    "Russian",
    "Spanish",
    "French",
    "Portuguese",
    "German",
    "Turkish",
    "Dutch",
    "Ukrainian",
    "Vietnamese",
    "Indonesian",
    "Japanese",
    "Italian",
    "Korean",
    "Thai",
    "Polish",
    "Romanian",
    "Greek",
    "Czech",
    "Finnish",
    "Hindi",
    "Bulgarian",
    "Danish",
    "Hebrew",
    "Malay",
    "Persian",
    "Slovak",
    "Swedish",
    "Croatian",
    "Filipino",
    "Hungarian",
    "Norwegian",
    "Slovenian",
    "Catalan",
    "Nynorsk",
    "Tamil",
    "Afrikaans",
)
SPEECH_SYNC_PATH: Final = "/v1/t2a_v2"
SPEECH_ASYNC_PATH: Final = "/v1/t2a_async_v2"
SPEECH_QUERY_PATH: Final = "/v1/query/t2a_async_query_v2"
SYNC: Final = "sync"
ASYNC: Final = "async"
#: More than this share of invalid characters (ASCII controls other than tab and newline) is
#: refused by MiniMax; Slate refuses it first.
INVALID_CHAR_RATIO_MAX: Final = 0.10
#: Async speech status words (exact): Failed is not billed, Expired is (the audio was made).
ASYNC_STATUS: Final = {
    "Processing": "processing",
    "Success": "success",
    "Failed": "fail",
    "Expired": "expired",
}

#: MiniMax's documented system voices (id, name): what the voice picker offers when the
#: provider's ``get_voice`` cannot be asked (MINIMAX_API.md "Speech").
SYSTEM_VOICES: Final = (
    ("English_expressive_narrator", "Expressive Narrator"),
    ("English_Graceful_Lady", "Graceful Lady"),
    ("female-shaonv", "少女"),
    ("male-qn-qingse", "青涩青年"),
    ("Chinese (Mandarin)_News_Anchor", "新闻主播"),
)
DEFAULT_VOICE: Final = "English_expressive_narrator"

SEED_MAX: Final = 2**31 - 1
#: The longest voice id Slate sends (MiniMax's custom ids are at most 256 characters).
VOICE_ID_MAX: Final = 256
#: Unicode categories no voice id holds: controls, format characters, surrogates, private use,
#: unassigned code points, line and paragraph separators.
_NOT_IN_VOICE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

#: What each kind's media may be: the format asked → the content type a verified file carries.
CONTENT_TYPES: Final = {"mp3": "audio/mpeg", "wav": "audio/wav", "flac": "audio/flac"}


def is_sound(kind: object) -> bool:
    return kind in SOUND_KINDS


# -- small readers ----------------------------------------------------------------------------
def _unknown_fields(raw: Mapping[str, Any], known: tuple[str, ...], kind: str) -> None:
    for name in raw:
        if name not in known:
            raise ValidationError(name, f"is not a parameter of {kind}; known: {', '.join(known)}")


def _bool(value: object, field: str) -> bool:
    if value is None or value == "":
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "false", "no", "0"):
        return value.strip().lower() in ("true", "yes", "1")
    raise ValidationError(field, "must be true or false")


def _whole(value: object, field: str) -> int:
    if isinstance(value, bool):
        raise ValidationError(field, "must be a whole number")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        return int(value)
    raise ValidationError(field, "must be a whole number")


def _number(value: object, field: str) -> float:
    if isinstance(value, bool):
        raise ValidationError(field, "must be a number")
    if isinstance(value, (int, float)):
        out = float(value)
    elif isinstance(value, str):
        try:
            out = float(value.strip())
        except ValueError:
            raise ValidationError(field, f"must be a number, not {value!r}") from None
    else:
        raise ValidationError(field, "must be a number")
    if not math.isfinite(out):
        raise ValidationError(field, "must be a finite number")
    return out


def _choice(value: object, field: str, allowed: tuple[Any, ...], default: Any) -> Any:
    if value is None or value == "":
        return default
    if allowed and isinstance(allowed[0], int):
        got: Any = _whole(value, field)
    elif isinstance(value, str):
        got = value.strip().lower()
    else:
        raise ValidationError(field, f"must be one of {', '.join(map(str, allowed))}")
    if got not in allowed:
        raise ValidationError(
            field, f"{value!r} is not offered; use {' or '.join(map(str, allowed))}"
        )
    return got


def _model(value: object, models: tuple[str, ...], default: str, kind: str) -> str:
    if value is None or value == "":
        return default
    if isinstance(value, str) and value in models:
        return value
    if kind == MUSIC and value in MUSIC_COVER_MODELS:
        raise ValidationError(
            "model", f"{value} makes a cover of a reference song, which Slate does not send yet"
        )
    raise ValidationError("model", f"{value!r} is not a {kind} model; known: {', '.join(models)}")


def _seed(value: object) -> int | None:
    if value is None or value == "":
        return None
    seed = _whole(value, "seed")
    if not 0 <= seed <= SEED_MAX:
        raise ValidationError("seed", f"must be between 0 and {SEED_MAX}")
    return seed


# -- music ------------------------------------------------------------------------------------
def normalize_music(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A song's parameters with every default stated. Exactly one of lyrics, instrumental and
    lyrics_optimizer; the prompt (style) is required; blank lyrics are refused."""
    _unknown_fields(raw, MUSIC_FIELDS, "music")
    model = _model(raw.get("model"), MUSIC_MODELS, DEFAULT_MUSIC_MODEL, MUSIC)
    prompt = raw.get("prompt")
    if prompt is None:
        prompt = ""
    if not isinstance(prompt, str):
        raise ValidationError("prompt", "must be text")
    if not prompt.strip():
        raise ValidationError("prompt", "is required: the style, mood and instruments of the song")
    if len(prompt) > MUSIC_PROMPT_MAX:
        raise ValidationError(
            "prompt", f"is {len(prompt)} characters; the limit is {MUSIC_PROMPT_MAX}"
        )
    lyrics = raw.get("lyrics")
    if lyrics is not None and not isinstance(lyrics, str):
        raise ValidationError("lyrics", "must be text")
    instrumental = _bool(raw.get("instrumental"), "instrumental")
    optimizer = _bool(raw.get("lyrics_optimizer"), "lyrics_optimizer")
    given = [
        name
        for name, on in (
            ("lyrics", lyrics is not None),
            ("instrumental", instrumental),
            ("lyrics_optimizer", optimizer),
        )
        if on
    ]
    if not given:
        raise ValidationError(
            "lyrics",
            "give exactly one of lyrics (or a lyrics file), instrumental or lyrics_optimizer",
        )
    if len(given) > 1:
        raise ValidationError(
            given[1],
            f"give exactly one of lyrics, instrumental or lyrics_optimizer, not "
            f"{' and '.join(given)}",
        )
    if lyrics is not None:
        if not lyrics.strip():
            raise ValidationError("lyrics", "is blank; write the lyrics, or use instrumental")
        if len(lyrics) > LYRICS_MAX:
            raise ValidationError(
                "lyrics", f"is {len(lyrics)} characters; the limit is {LYRICS_MAX}"
            )
    return {
        "model": model,
        "prompt": prompt,
        "lyrics": lyrics,
        "instrumental": instrumental,
        "lyrics_optimizer": optimizer,
        "format": _choice(raw.get("format"), "format", MUSIC_FORMATS, MUSIC_DEFAULTS["format"]),
        "sample_rate": _choice(
            raw.get("sample_rate"), "sample_rate", MUSIC_SAMPLE_RATES, MUSIC_DEFAULTS["sample_rate"]
        ),
        "bitrate": _choice(
            raw.get("bitrate"), "bitrate", MUSIC_BITRATES, MUSIC_DEFAULTS["bitrate"]
        ),
        "seed": _seed(raw.get("seed")),
    }


def music_body(params: Mapping[str, Any]) -> dict[str, Any]:
    """The ``/v1/music_generation`` body. The song comes back as a link (``output_format``
    ``url``, valid 24 h), never inline: a hex answer is twice the song's bytes, and a WAV song
    of a few minutes passes what an answer may be read at (a paid song lost to Slate's own
    limit, with no task id to find it again); a link can also be fetched again."""
    body: dict[str, Any] = {"model": params["model"], "prompt": params["prompt"]}
    if params.get("lyrics") is not None:
        body["lyrics"] = params["lyrics"]
    if params.get("instrumental"):
        body["is_instrumental"] = True
    if params.get("lyrics_optimizer"):
        body["lyrics_optimizer"] = True
    if params.get("seed") is not None:
        body["seed"] = params["seed"]
    body["audio_setting"] = {
        "format": params["format"],
        "sample_rate": params["sample_rate"],
        "bitrate": params["bitrate"],
    }
    body["output_format"] = "url"
    return body


# -- speech -----------------------------------------------------------------------------------
def invalid_char_ratio(text: str) -> float:
    """The share of ASCII control characters other than tab and newline (MiniMax's rule)."""
    if not text:
        return 0.0
    bad = sum(1 for c in text if (ord(c) < 32 and c not in "\t\n") or ord(c) == 127)
    return bad / len(text)


def speech_protocol(text: str) -> str:
    """``sync`` up to 10,000 code points, ``async`` beyond."""
    return SYNC if len(text) <= SYNC_TEXT_MAX else ASYNC


def check_voice_id(voice: str) -> None:
    """A voice id as MiniMax's can be: its documented system voices hold letters of any
    script, digits, spaces, parentheses and punctuation (``Chinese (Mandarin)_News_Anchor``),
    so any printable character is taken; control and other invisible characters, an empty id
    and one longer than :data:`VOICE_ID_MAX` are refused (``voice``)."""
    if not voice:
        raise ValidationError(
            "voice", "is required: a voice id such as English_expressive_narrator", Rule.REQUIRED
        )
    if len(voice) > VOICE_ID_MAX:
        raise ValidationError(
            "voice",
            f"is {len(voice):,} characters; a voice id is at most {VOICE_ID_MAX}",
            Rule.TOO_LONG,
            count=len(voice),
            limit=VOICE_ID_MAX,
        )
    bad = next((c for c in voice if unicodedata.category(c) in _NOT_IN_VOICE), None)
    if bad is not None:
        raise ValidationError(
            "voice",
            f"holds the invisible character U+{ord(bad):04X}; a voice id is printable text",
            Rule.CHARACTERS,
            bad=f"U+{ord(bad):04X}",
            allowed="printable text",
        )


def normalize_speech(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A voice line's parameters with every default stated, and the protocol its text needs."""
    _unknown_fields(raw, SPEECH_FIELDS, "speech")
    model = _model(raw.get("model"), SPEECH_MODELS, DEFAULT_SPEECH_MODEL, SPEECH)
    text = raw.get("text")
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise ValidationError("text", "must be text")
    if not text.strip():
        raise ValidationError("text", "is required: the words to speak (or a text file)")
    if len(text) > ASYNC_TEXT_MAX:
        raise ValidationError(
            "text", f"is {len(text):,} characters; the limit is {ASYNC_TEXT_MAX:,}"
        )
    ratio = invalid_char_ratio(text)
    if ratio > INVALID_CHAR_RATIO_MAX:
        raise ValidationError(
            "text",
            f"{ratio:.0%} of it are control characters; MiniMax refuses more than 10 %",
        )
    voice = raw.get("voice")
    if voice is None or voice == "":
        raise ValidationError(
            "voice", "is required: a voice id such as English_expressive_narrator", Rule.REQUIRED
        )
    if not isinstance(voice, str):
        raise ValidationError("voice", "must be a voice id such as English_expressive_narrator")
    voice = voice.strip()
    check_voice_id(voice)
    speed = 1.0 if raw.get("speed") in (None, "") else _number(raw["speed"], "speed")
    if not SPEED_MIN <= speed <= SPEED_MAX:
        raise ValidationError("speed", f"is {speed:g}; use {SPEED_MIN:g} to {SPEED_MAX:g}")
    volume = 1.0 if raw.get("volume") in (None, "") else _number(raw["volume"], "volume")
    if not 0 < volume <= VOLUME_MAX:
        raise ValidationError("volume", f"is {volume:g}; use more than 0 and at most 10")
    pitch = 0 if raw.get("pitch") in (None, "") else _whole(raw["pitch"], "pitch")
    if not PITCH_MIN <= pitch <= PITCH_MAX:
        raise ValidationError("pitch", f"is {pitch}; use a whole number from -12 to 12")
    emotion = raw.get("emotion")
    if emotion in (None, ""):
        emotion = None
    else:
        allowed = EMOTIONS + (EXTRA_EMOTIONS if model in EXTRA_EMOTION_MODELS else ())
        if not isinstance(emotion, str) or emotion.strip().lower() not in allowed:
            raise ValidationError(
                "emotion", f"{emotion!r} is not offered by {model}; use one of {', '.join(allowed)}"
            )
        emotion = emotion.strip().lower()
    language = raw.get("language_boost")
    if language in (None, ""):
        language = None
    elif not isinstance(language, str) or language.strip() not in LANGUAGES:
        raise ValidationError(
            "language_boost", f"{language!r} is not offered; use auto or a language such as English"
        )
    else:
        language = language.strip()
    return {
        "model": model,
        "text": text,
        "voice": voice,
        "speed": speed,
        "volume": volume,
        "pitch": pitch,
        "emotion": emotion,
        "format": _choice(raw.get("format"), "format", SPEECH_FORMATS, "mp3"),
        "sample_rate": _choice(raw.get("sample_rate"), "sample_rate", SPEECH_SAMPLE_RATES, 32000),
        "channels": _choice(raw.get("channels"), "channels", CHANNELS, 1),
        "language_boost": language,
        "protocol": speech_protocol(text),
    }


def speech_body(params: Mapping[str, Any]) -> dict[str, Any]:
    """The ``/v1/t2a_v2`` or ``/v1/t2a_async_v2`` body (the same settings; sync asks for a link, as music does)."""
    voice: dict[str, Any] = {
        "voice_id": params["voice"],
        "speed": params["speed"],
        "vol": params["volume"],
        "pitch": params["pitch"],
    }
    if params.get("emotion"):
        voice["emotion"] = params["emotion"]
    body: dict[str, Any] = {
        "model": params["model"],
        "text": params["text"],
        "voice_setting": voice,
        "audio_setting": {
            "sample_rate": params["sample_rate"],
            "bitrate": SPEECH_BITRATE,
            "format": params["format"],
            "channel": params["channels"],
        },
    }
    if params.get("language_boost"):
        body["language_boost"] = params["language_boost"]
    if params.get("protocol") != ASYNC:
        body["output_format"] = "url"
        body["stream"] = False
    return body


# -- what the two kinds share -----------------------------------------------------------------
def normalize(kind: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    if kind == MUSIC:
        return normalize_music(raw)
    if kind == SPEECH:
        return normalize_speech(raw)
    raise ValidationError("kind", "must be music or speech")


def is_async(kind: str, params: Mapping[str, Any]) -> bool:
    """Whether this sound slot has a task id at the provider (long speech only)."""
    return kind == SPEECH and params.get("protocol") == ASYNC


def has_no_task_id(kind: str, params: Mapping[str, Any]) -> bool:
    """Music and synchronous speech: nothing to query, nothing to attach."""
    return is_sound(kind) and not is_async(kind, params)


def billed_characters(params: Mapping[str, Any]) -> int:
    """The characters an estimate counts (code points of the text)."""
    text = params.get("text")
    return len(text) if isinstance(text, str) else 0


def content_type(fmt: object) -> str | None:
    return CONTENT_TYPES.get(str(fmt))


def expected_seconds(extra: Mapping[str, Any] | None) -> float | None:
    """The length an answer reports (``music_duration``/``audio_length``, milliseconds), if
    any: the API reference and MiniMax's CLI name it differently; neither is required."""
    if not extra:
        return None
    for key in ("music_duration", "audio_length"):
        value = extra.get(key)
        if isinstance(value, bool):
            continue
        try:
            ms = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
        if math.isfinite(ms) and ms > 0:
            return ms / 1000.0
    return None


def expected_audio(kind: str, params: Mapping[str, Any]) -> tuple[str, int, int | None]:
    """The format, sample rate and channel count a verified sound must have (music: the
    channels are MiniMax's choice, so only what the answer reports is held to)."""
    channels = params.get("channels") if kind == SPEECH else None
    return str(params["format"]), int(params["sample_rate"]), channels
