"""Domain errors: every refusal names the field it is about."""

from __future__ import annotations

from enum import Enum, StrEnum


class SlateError(Exception):
    """Base of all errors Slate reports to a user or a script."""

    code = "internal"


class Rule(str, Enum):
    """What a rule refuses, typed, so each front end says it in its own words (the app's
    ``app.present.words.rule_words``); the numbers and names a sentence needs are the error's
    ``values``. ``OTHER``: a refusal with no sentence of its own (its message says it)."""

    OTHER = "other"
    REQUIRED = "required"  # the field needs a value (``model``: who needs it)
    TOO_LONG = "too_long"  # ``count`` characters, ``limit``
    WHOLE_NUMBER = "whole_number"  # not a whole number
    OUT_OF_RANGE = "out_of_range"  # ``low``–``high``
    NOT_OFFERED = "not_offered"  # ``value`` is not offered by ``model``
    NOT_TAKEN = "not_taken"  # ``model`` does not take this field
    NEEDS_FIRST_FRAME = "needs_first_frame"  # a last frame (or ``value``) needs a first frame
    FRAMES_OR_REFERENCES = "frames_or_references"  # frames and references do not mix
    SOURCE = "source"  # not a file, an https:// address or an uploaded file
    PLAIN_HTTP = "plain_http"  # http:// instead of https://
    PRIVATE_ADDRESS = "private_address"  # ``host`` is not a public address
    NOT_READ = "not_read"  # an inline picture the service has not read yet
    WRONG_KIND = "wrong_kind"  # ``name`` is a ``kind``, the field takes a ``wanted``
    FORMAT = "format"  # ``name``'s ``format`` is not one of ``allowed``
    CODEC = "codec"  # ``name``'s ``codec`` is not one of ``allowed``
    TOO_LARGE = "too_large"  # ``name`` is ``size`` MB, at most ``limit`` MB
    SIDES = "sides"  # ``name`` is ``width``×``height`` px, each side ``low``–``high``
    SHORT_SIDE = "short_side"  # ``name`` is ``width``×``height`` px, short side over ``low``
    ASPECT = "aspect"  # ``name``'s width/height ``aspect`` is outside ``low``–``high``
    CLIP_LENGTH = "clip_length"  # ``name`` lasts ``seconds``, ``low``–``high`` s
    FPS = "fps"  # ``name`` has ``fps``, ``low``–``high``
    TOO_MANY = "too_many"  # ``count`` given, at most ``limit``
    TOTAL_LENGTH = "total_length"  # ``seconds`` in total, at most ``limit``
    AUDIO_ALONE = "audio_alone"  # reference audio without a reference picture or video
    ADAPTIVE_NEEDS_MEDIA = "adaptive_needs_media"  # "adaptive" without a picture or video
    BODY_TOO_LARGE = "body_too_large"  # the request would be ``size`` MB, at most ``limit``
    UNREADABLE = "unreadable"  # ``name`` cannot be read as a ``wanted``
    NO_FILE = "no_file"  # ``name`` is not a file on this computer (nor an address)
    LENGTH = "length"  # ``count`` characters, ``low``–``high``
    CHARACTERS = "characters"  # holds ``bad``; only ``allowed``
    # derived slots (Make 2K, Enhance prompt): why a slot cannot be their source
    REGEN_MODEL = "regen_model"  # only a MiniMax-H3 video is regenerated at 2K
    REGEN_OF_REGEN = "regen_of_regen"  # the slot is itself a 2K regeneration
    REGEN_RESOLUTION = "regen_resolution"  # only 768P; this one is ``value``
    REGEN_NOT_FINISHED = "regen_not_finished"  # only a finished slot; this one is ``state``
    REGEN_TOO_OLD = "regen_too_old"  # MiniMax keeps a task ``days`` days only
    ENHANCE_MODEL = "enhance_model"  # only a MiniMax-H3 prompt is enhanced
    ENHANCE_NO_PROMPT = "enhance_no_prompt"  # nothing to enhance
    # the 7-day clock: ``voice`` was deleted by MiniMax after ``deleted_after`` (unused ``days``)
    VOICE_DELETED = "voice_deleted"

    def __str__(self) -> str:
        return self.value


class Unchanged(str, Enum):
    """Why an action on a slot changed nothing, typed (the service's ``Problem.unchanged``), so
    each front end says it in its own words (``app.present.words``)."""

    NOT_CONFIRMED = "not_confirmed"  # the provider did not confirm the task id to attach
    STRANGE_STATUS = "strange_status"  # the task answered a status Slate does not know
    LIST_SILENT = "list_silent"  # the provider's task list did not answer
    LOOKUP_NOTHING = "lookup_nothing"  # the lookup found no matching task
    LOOKUP_MANY = "lookup_many"  # several match and the list cannot tell them apart
    LOOKUP_CONTESTED = "lookup_contested"  # another unknown or submitting slot could own it
    #: Create asked again of a slot whose create has an unknown outcome: it stays off
    STILL_UNKNOWN = "still_unknown"

    def __str__(self) -> str:
        return self.value


class FailReason(StrEnum):
    """Why a task ended badly or became unknown, typed: stored with the task (``error_reason``,
    beside the provider's raw code and message, kept as evidence), carried in its view and said
    by each front end in its own words (``app.present.words.reason_words``). The provider adapters
    map MiniMax's codes and the transport's exceptions to it in one place
    (:mod:`app.providers.codes`); the service names the reasons of its own verdicts.
    ``slate --json`` answers carry the value as ``error.reason`` (docs/CONTRACT.md)."""

    # -- the create's journey (nothing made, or no way to know) ------------------------------
    NEVER_SENT = "never_sent"  # the request never left: connect failed / connect timeout
    NO_ANSWER = "no_answer"  # sent, and no answer in time (read/write timeout)
    CONNECTION_LOST = "connection_lost"  # sent, then the connection broke (reset, protocol)
    BAD_ANSWER = "bad_answer"  # an answer that cannot be read (not JSON, no status, too large)
    OVERFULL_ANSWER = "overfull_answer"  # more results than asked for: another request's
    OWNER_GONE = "owner_gone"  # the process that sent the create ended before its answer
    LOCAL_ERROR = "local_error"  # Slate's own error after sending
    UNRECOGNIZED_STATUS = "unrecognized_status"  # a status word off the protocol's whitelist
    # -- the result ---------------------------------------------------------------------------
    NO_MEDIA = "no_media"  # the provider's success without a media item
    MEDIA_BAD = "media_bad"  # a media item that does not decode, is too short, wrong format
    NOT_WRITTEN = "not_written"  # made and billed, and this machine could not write it
    PROVIDER_FAILED = "provider_failed"  # the provider declared the task failed
    DECLARED_FAILED = "declared_failed"  # the designer declared the unknown task failed
    # -- the provider's refusal classes (MiniMax's codes) ------------------------------------
    BALANCE = "balance"  # 1008, V2 402
    RATE_LIMIT = "rate_limit"  # 1002, 1041, 2045, HTTP 429
    SENSITIVE_INPUT = "sensitive_input"  # 1026, V2 422
    SENSITIVE_OUTPUT = "sensitive_output"  # 1027; every image blocked by the safety filter
    WRONG_KEY = "wrong_key"  # 1004, 2049, V2 401
    PLAN_QUOTA = "plan_quota"  # 1028, 1030, 2056
    NOT_IN_PLAN = "not_in_plan"  # 2061
    INVALID_PARAMS = "invalid_params"  # 2013, V2 400
    PROMPT_TOO_LONG = "prompt_too_long"  # 1039 (token limit)
    BAD_CHARACTERS = "bad_characters"  # 1042
    VERIFY_ACCOUNT = "verify_account"  # 2038 (real-name verification)
    SERVER_ERROR = "server_error"  # 1000, 1001, 1013, 1024, 1033, HTTP 5xx
    REFUSED = "refused"  # another definitive refusal (a code or HTTP status of no class above)

    @classmethod
    def of(cls, value: object) -> FailReason | None:
        """The reason a stored value names, or None (a row written before reasons, or by a
        newer Slate: shown with its own words)."""
        try:
            return cls(str(value)) if value else None
        except ValueError:
            return None


class ValidationError(SlateError):
    """Bad input, found before anything is stored or sent. ``field`` names the culprit;
    ``rule`` and ``values`` say what is wrong, typed (``message`` says it in English)."""

    code = "invalid"

    def __init__(self, field: str, message: str, rule: Rule = Rule.OTHER, **values: object) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.rule = rule
        self.values: dict[str, object] = values


class HandleError(SlateError):
    """A handle that is malformed, tampered with, or meant for another purpose."""

    code = "bad_handle"


class ForeignHandleError(HandleError):
    """A valid handle that belongs to another tenant or user: treated as not found."""

    code = "not_found"


class StoreBusy(SlateError):
    """The store's write lock stayed taken past its bound (a stopped or hung process holds it):
    nothing was written. The message names the holder where it is known."""

    code = "store_busy"


class BadConfiguration(SlateError):
    """A setting that names something Slate cannot use: a data dir that is a file, sits under a
    file, cannot be written or is on a full disk; a store that is not a database. ``setting``
    is the config field (``data_dir``, ``store``), ``path`` what it names, ``reason`` which of
    :data:`REASONS` — the CLI and the app each say it in their own words."""

    code = "bad_configuration"

    #: reason → (what is wrong, the way out): the sentence's two halves, in English.
    REASONS = {
        "is_file": ("is a file, not a folder", "give a folder instead"),
        "under_file": (
            "cannot be made (a part of its path is a file)",
            "give a path that is not under a file",
        ),
        "not_writable": ("cannot be written", "make it writable or give another folder"),
        "disk_full": (
            "is on a full disk",
            "free some space or give a folder on another disk; nothing stored was lost",
        ),
        "not_database": (
            "is not a Slate database",
            "give another file, or move this one aside to start a new store",
        ),
        "cannot_open": ("cannot be opened", "check that the file can be read and written"),
        "is_folder": ("is a folder, not a database file", "name a file, e.g. slate.sqlite3 in it"),
    }
    #: setting → (flag, environment variable).
    SETTINGS = {"data_dir": ("--data-dir", "SLATE_DATA_DIR"), "store": ("--store", "SLATE_STORE")}

    def __init__(self, setting: str, path: str, reason: str) -> None:
        self.setting, self.path, self.reason = setting, path, reason
        self.field = setting
        super().__init__(self.sentence())

    def sentence(self) -> str:
        """One sentence naming the setting, the path and the way out."""
        what, way_out = self.REASONS[self.reason]
        flag, env = self.SETTINGS[self.setting]
        noun = "data dir" if self.setting == "data_dir" else "store"
        return f"The {noun} {self.path} ({flag} or {env}) {what}: {way_out}."
