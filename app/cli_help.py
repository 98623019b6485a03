"""The command line's help: each command's options grouped by kind (image, video V1, video V2,
…), each with its default, its range and an example, and one example per command.

The figures come from the domain's tables (``domain.params``, ``domain.params_v2``), so the help
says what the rules enforce. A kind's group is one entry of :data:`SUBMIT_GROUPS` (a title, a
sentence, its options): adding a kind (music, speech) is adding an entry.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.domain import params, params_sound, params_v2

V1 = params.VIDEO_MODELS
V2 = params_v2.MODELS
_V1_DURATIONS = sorted({d for rule in V1.values() for d in rule.resolutions})
_V1_RESOLUTIONS = sorted(
    {r for rule in V1.values() for rs in rule.resolutions.values() for r in rs}
)
_V2_MIN = min(rule.min_seconds for rule in V2.values())
_V2_MAX = max(rule.max_seconds for rule in V2.values())
_V2_RESOLUTIONS = sorted({r for rule in V2.values() for r in rule.resolutions})
#: The desktop app's new slots start on this video model; the command line keeps its own
#: default (a scripted slot replays with the parameters it always had).
APP_VIDEO_MODEL = "MiniMax-H3"


@dataclass(frozen=True)
class Option:
    flags: tuple[str, ...]
    kw: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Group:
    title: str
    description: str
    options: tuple[Option, ...]


def _o(*flags: str, **kw: Any) -> Option:
    return Option(flags, kw)


FRAME = "an https:// URL, a data: URL or a local image file"
SUBMIT_GROUPS: tuple[Group, ...] = (
    Group(
        "the slot (every kind)",
        "Which slot, what kind, what to make; the same RequestId with the same parameters never "
        "creates twice.",
        (
            _o(
                "--request-id",
                required=True,
                metavar="ID",
                help="the slot: kind:YYYYMMDD:project:scene, e.g. article:20260816:tide-eye:scene-02",
            ),
            _o(
                "--kind",
                required=True,
                choices=["image", "video", "music", "speech"],
                help="image, video, music or speech",
            ),
            _o(
                "--prompt",
                metavar="TEXT",
                help=f"what to make (image: up to {params.IMAGE_PROMPT_MAX} characters; video V1: "
                f"up to {params.VIDEO_PROMPT_MAX}; MiniMax-H3: up to {params_v2.PROMPT_MAX}), "
                'e.g. "tide eye at dawn"',
            ),
            _o(
                "--model",
                metavar="NAME",
                help=f"image: {', '.join(params.IMAGE_MODELS)} (default "
                f"{params.DEFAULT_IMAGE_MODEL}); video V1: {', '.join(V1)} (default "
                f"{params.DEFAULT_VIDEO_MODEL}, 1080P, 6 s — the command line's default stays "
                f"so a scripted slot replays; the desktop app starts new slots on "
                f"{APP_VIDEO_MODEL}); video V2: {', '.join(V2)}; music: "
                f"{', '.join(params_sound.MUSIC_MODELS)} (default "
                f"{params_sound.DEFAULT_MUSIC_MODEL}); speech: "
                f"{', '.join(params_sound.SPEECH_MODELS)} (default "
                f"{params_sound.DEFAULT_SPEECH_MODEL})",
            ),
            _o(
                "--wait",
                action="store_true",
                help="follow a video to success, fail or unknown (progress on a terminal)",
            ),
            _o(
                "--max-seconds",
                type=float,
                metavar="S",
                help="with --wait: give up waiting after S seconds (exit 7; the task goes on), "
                "e.g. 600; default: no limit",
            ),
        ),
    ),
    Group(
        "image (image-01, image-01-live)",
        "Images come back at once; each is verified and stored.",
        (
            _o(
                "--aspect-ratio",
                metavar="W:H",
                help=f"{', '.join(params.ASPECT_RATIOS)} (21:9 image-01 only); default 1:1, "
                "e.g. 16:9",
            ),
            _o(
                "--width",
                metavar="PX",
                help=f"image-01: width in px ({params.IMAGE_SIDE_MIN}-{params.IMAGE_SIDE_MAX}, "
                f"steps of {params.IMAGE_SIDE_STEP}), with --height, instead of --aspect-ratio; "
                "e.g. 1280",
            ),
            _o(
                "--height",
                metavar="PX",
                help=f"image-01: height in px ({params.IMAGE_SIDE_MIN}-{params.IMAGE_SIDE_MAX}, "
                f"steps of {params.IMAGE_SIDE_STEP}), with --width; e.g. 720",
            ),
            _o(
                "--n",
                metavar="N",
                help="how many images: image-01 1-9, MiniMax-H3-Image 1-10; default 1, e.g. 4",
            ),
            _o(
                "--size",
                metavar="WxH",
                help="MiniMax-H3-Image: the exact size, instead of --aspect-ratio/--area, "
                "e.g. 2048x1152",
            ),
            _o(
                "--area",
                metavar="AREA",
                help="MiniMax-H3-Image: 1K, 2K or 4K, with --aspect-ratio; default 1K",
            ),
            _o(
                "--seed",
                metavar="N",
                help=f"0-{params.SEED_MAX}, the same seed for similar images; default: none, "
                "e.g. 42",
            ),
            _o(
                "--response-format",
                choices=["url", "base64"],
                help="how the provider hands images over: url (default) or base64",
            ),
            _o(
                "--subject-reference",
                metavar="IMAGE",
                help=f"a face to keep (image models and S2V-01): {FRAME}, e.g. face.png",
            ),
            _o(
                "--prompt-optimizer",
                action=argparse.BooleanOptionalAction,
                default=None,
                help="let the provider rewrite the prompt (image and video V1); default: "
                "off for images, on for video",
            ),
        ),
    ),
    Group(
        f"video V1 ({', '.join(V1)})",
        f"Default {params.DEFAULT_VIDEO_MODEL}: 6 s at 1080P (10 s at 768P).",
        (
            _o(
                "--duration",
                metavar="S",
                help=f"seconds: V1 {' or '.join(map(str, _V1_DURATIONS))} (default 6); "
                f"MiniMax-H3 {V2['MiniMax-H3'].min_seconds}-{V2['MiniMax-H3'].max_seconds}, "
                f"H3-Max {V2['MiniMax-H3-Max'].min_seconds}-{V2['MiniMax-H3-Max'].max_seconds} "
                f"(default {params_v2.DEFAULT_DURATION}); e.g. 10",
            ),
            _o(
                "--resolution",
                metavar="RES",
                help=f"V1: {', '.join(_V1_RESOLUTIONS)} as the model and duration allow (default: "
                f"the model's, 1080P for Hailuo-2.3 at 6 s); V2: {', '.join(_V2_RESOLUTIONS)} "
                f"(default {params_v2.DEFAULT_RESOLUTION}); e.g. 768P",
            ),
            _o(
                "--first-frame",
                metavar="IMAGE",
                help=f"the first frame: {FRAME} (MiniMax-H3 also mm_file://ID); e.g. frame.png",
            ),
            _o(
                "--last-frame",
                metavar="IMAGE",
                help=f"the last frame (Hailuo-02 with a first frame; MiniMax-H3 alone too): "
                f"{FRAME}; e.g. end.png",
            ),
            _o(
                "--fast-pretreatment",
                action=argparse.BooleanOptionalAction,
                default=None,
                help="Hailuo-2.3, 2.3-Fast and 02: shorter prompt optimization; default off",
            ),
        ),
    ),
    Group(
        f"video V2 ({', '.join(V2)})",
        f"Chosen by --model {' or '.join(V2)}; --duration, --resolution and the frames above "
        "apply too.",
        (
            _o(
                "--ratio",
                metavar="W:H",
                help=f"{params_v2.ADAPTIVE}, {', '.join(params_v2.RATIOS)} (text only: a concrete "
                f"ratio); default {params_v2.DEFAULT_RATIO}, e.g. 9:16",
            ),
            *(
                _o(
                    f"--reference-{what}",
                    action="append",
                    default=None,
                    metavar=what.upper(),
                    help=f"a reference {what} (https:// URL, mm_file://ID, data: URL or a local "
                    f"file); repeatable, not mixed with frames; e.g. ref.{ext}",
                )
                for what, ext in (("image", "png"), ("video", "mp4"), ("audio", "wav"))
            ),
            _o(
                "--prompt-expansion",
                metavar="MODE",
                help=f"MiniMax-H3-Max: how far the provider expands the prompt: "
                f"{', '.join(params_v2.EXPANSION_MODES)}; default {params_v2.DEFAULT_EXPANSION}",
            ),
        ),
    ),
    Group(
        f"music ({', '.join(params_sound.MUSIC_MODELS)})",
        "Synchronous: submit returns with the verified song, or unknown when the answer is lost "
        "(there is no task id to ask about: recover --declare-failed). --prompt is the style "
        "(required); give exactly one of --lyrics, --lyrics-file, --instrumental, "
        f"--lyrics-optimizer. The create waits at least {params_sound.MUSIC_CREATE_TIMEOUT:g} s "
        "unless --timeout says otherwise.",
        (
            _o(
                "--lyrics",
                metavar="TEXT",
                help=f"the song's lyrics, up to {params_sound.LYRICS_MAX} characters, lines with "
                'structure tags such as [Verse] [Chorus]; e.g. "[Verse]\\nthe tide comes in"',
            ),
            _o(
                "--lyrics-file",
                metavar="FILE",
                help="the lyrics from a UTF-8 text file (its text exactly is the parameter)",
            ),
            _o(
                "--instrumental",
                action="store_true",
                default=None,
                help="a song without vocals (no lyrics)",
            ),
            _o(
                "--lyrics-optimizer",
                action="store_true",
                default=None,
                help="let the provider write the lyrics from --prompt",
            ),
            _o(
                "--format",
                metavar="FMT",
                help="music: mp3 or wav (default mp3); speech: mp3, wav or flac (default mp3)",
            ),
            _o(
                "--sample-rate",
                metavar="HZ",
                help=f"music: {', '.join(map(str, params_sound.MUSIC_SAMPLE_RATES))} (default "
                f"44100); speech: {', '.join(map(str, params_sound.SPEECH_SAMPLE_RATES))} "
                "(default 32000)",
            ),
            _o(
                "--bitrate",
                metavar="BPS",
                help=f"music: {', '.join(map(str, params_sound.MUSIC_BITRATES))} (default 256000)",
            ),
        ),
    ),
    Group(
        f"speech ({', '.join(params_sound.SPEECH_MODELS)})",
        f"Up to {params_sound.SYNC_TEXT_MAX:,} characters (Unicode code points): synchronous, "
        f"like music. Longer, up to {params_sound.ASYNC_TEXT_MAX:,}: asynchronous, with a task "
        "id (query, wait; recover --task-id attaches a lost create; the file is fetched at "
        "once, it is gone after 9 h). --format and --sample-rate as above.",
        (
            _o("--text", metavar="TEXT", help='the words to speak, e.g. "The tide eye opens."'),
            _o(
                "--text-file",
                metavar="FILE",
                help="the words from a UTF-8 text file (its text exactly is the parameter)",
            ),
            _o(
                "--voice",
                metavar="VOICE_ID",
                help="the voice (required), e.g. English_expressive_narrator or female-shaonv",
            ),
            _o("--speed", metavar="X", help="0.5-2 (default 1), e.g. 1.2"),
            _o("--volume", metavar="V", help="more than 0, at most 10 (default 1)"),
            _o("--pitch", metavar="N", help="-12 to 12 semitones (default 0)"),
            _o(
                "--emotion",
                metavar="E",
                help=f"{', '.join(params_sound.EMOTIONS)} (speech-2.6 and 2.8 also "
                f"{', '.join(params_sound.EXTRA_EMOTIONS)}); default: the voice's own",
            ),
            _o("--channels", metavar="N", help="1 or 2 (default 1)"),
            _o(
                "--language-boost",
                metavar="L",
                help="auto or a language such as English, Chinese, Japanese",
            ),
        ),
    ),
)


def add_groups(parser: argparse.ArgumentParser, groups: tuple[Group, ...]) -> None:
    for g in groups:
        section = parser.add_argument_group(g.title, g.description)
        for opt in g.options:
            section.add_argument(*opt.flags, **opt.kw)


#: One example per command (shown under its help).
EXAMPLES = {
    "submit": "slate submit --request-id article:20260816:tide-eye:scene-02 --kind video "
    '--prompt "tide eye at dawn" --wait\n  slate submit --request-id '
    'article:20260816:tide-eye:cover --kind image --prompt "tide eye" --aspect-ratio 16:9'
    "\n  slate submit --request-id article:20260816:tide-eye:song --kind music "
    '--prompt "lofi piano, rain" --instrumental'
    "\n  slate submit --request-id article:20260816:tide-eye:voice-01 --kind speech "
    '--text "The tide eye opens." --voice English_expressive_narrator',
    "status": "slate status article:20260816:tide-eye:scene-02",
    "query": "slate query article:20260816:tide-eye:scene-02",
    "wait": "slate wait article:20260816:tide-eye:scene-02 --max-seconds 600",
    "recover": "slate recover article:20260816:tide-eye:scene-02 --lookup",
    "cancel": "slate cancel article:20260816:tide-eye:scene-02",
    "batch": "slate batch shots.csv --dry-run\n  slate batch shots.csv --wait",
    "regenerate": "slate regenerate article:20260816:tide-eye:scene-02 --to 2K "
    "--request-id article:20260816:tide-eye:scene-02.2k --wait",
    "enhance": "slate enhance article:20260816:tide-eye:scene-02 "
    "--request-id article:20260816:tide-eye:scene-02.enhanced",
    "spend": "slate spend --since 2026-08-01 --by project",
    "prices": "slate prices set music-2.6 0.15"
    "\n  slate prices set MiniMax-H3 0.09 --resolution 768P"
    "\n  slate prices list",
    "history": "slate history article:20260816:tide-eye:scene-02",
    "list": "slate list --state unknown --limit 20",
    "export": "slate export article:20260816:tide-eye:scene-02 --to ~/Desktop/tide-eye",
    "hide": "slate hide article:20260816:tide-eye:scene-02",
    "unhide": "slate unhide article:20260816:tide-eye:scene-02",
    "prune-media": "slate prune-media --older-than 30",
    "pick": "slate pick article:20260816:tide-eye:scene-02 --favourite --rating 4"
    "\n  slate pick article:20260816:tide-eye:scene-02 --reject --result 2",
    "board": 'slate board add "Hero shots" article:20260816:tide-eye:scene-02 --result 1'
    '\n  slate board list "Hero shots"',
    "quota": "slate quota",
    "doctor": "slate doctor",
    "key": "slate key set   (reads the key without showing it)",
    "sim": "slate sim --port 8765 --fault slow=30",
    "voice": "slate voice design --request-id voice:20260816:tide-eye:narrator \\"
    '\n      --prompt "a calm, low harbour-master voice" --preview-text "The tide turns at six."'
    "\n  slate voice list --type designed",
    "gui": "slate gui --select article:20260816:tide-eye:scene-02",
    "help": "slate help contract",
}


def epilog(command: str) -> str | None:
    example = EXAMPLES.get(command)
    return None if example is None else f"example:\n  {example}"


def contract_path() -> Path:
    """docs/CONTRACT.md of this source tree (where Slate runs from a checkout)."""
    return Path(__file__).resolve().parents[1] / "docs" / "CONTRACT.md"


def contract_text() -> str:
    path = contract_path()
    where = f" (here: {path})" if path.exists() else ""
    return (
        "The JSON every command prints with --json (one object on stdout), its keys, outcomes "
        f"and exit codes are documented in docs/CONTRACT.md of Slate's source{where}. In short: "
        "exit 0 fine, 1 internal, 2 invalid input or unusable configuration, 3 conflict, "
        "4 unknown, 5 quota or budget exceeded, 6 fail or rejected, 7 still running when wait "
        "gave up, 8 not found, 130 interrupted."
    )
