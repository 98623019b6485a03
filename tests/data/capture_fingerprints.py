"""Capture the normalized params and fingerprints that a checkout's own code gives CLI submits.

tests/data/old_fingerprints.json was made with the code before MiniMax-H3 (V2) arrived:

    PYTHONPATH=/path/to/that/checkout .venv/bin/python tests/data/capture_fingerprints.py \
        tests/data/old_fingerprints.json "main <commit>"

tests/unit/test_old_slots.py holds today's code to those answers: a slot created with those
options before keeps its fingerprint, so submitting it again replays it.
"""

import base64
import io
import json
import sys
import tempfile
from pathlib import Path
from PIL import Image

import app.cli as cli
from app.domain.params import normalize
from app.domain.fingerprint import fingerprint


def png(w, h, color):
    buf = io.BytesIO()
    Image.new("RGB", (w, h), color).save(buf, "PNG")
    return buf.getvalue()


files = {
    "frame.png": png(320, 320, (30, 90, 160)),
    "last.png": png(320, 320, (160, 90, 30)),
    "face.png": png(400, 400, (90, 160, 30)),
}
d = Path(tempfile.mkdtemp())
for name, data in files.items():
    (d / name).write_bytes(data)
cases = [
    ["--kind", "video", "--prompt", "tide eye, slow dolly in"],
    ["--kind", "video", "--prompt", "tide eye, slow dolly in", "--duration", "10"],
    ["--kind", "video", "--prompt", "tide eye", "--resolution", "768P", "--no-prompt-optimizer"],
    [
        "--kind",
        "video",
        "--prompt",
        "morning",
        "--model",
        "MiniMax-Hailuo-2.3-Fast",
        "--first-frame",
        "{d}/frame.png",
    ],
    [
        "--kind",
        "video",
        "--prompt",
        "dusk",
        "--model",
        "MiniMax-Hailuo-02",
        "--resolution",
        "512P",
        "--first-frame",
        "{d}/frame.png",
    ],
    [
        "--kind",
        "video",
        "--prompt",
        "dusk",
        "--model",
        "MiniMax-Hailuo-02",
        "--first-frame",
        "{d}/frame.png",
        "--last-frame",
        "{d}/last.png",
    ],
    [
        "--kind",
        "video",
        "--prompt",
        "a face",
        "--model",
        "S2V-01",
        "--subject-reference",
        "{d}/face.png",
    ],
    ["--kind", "video", "--prompt", "director", "--model", "T2V-01-Director"],
    ["--kind", "image", "--prompt", "a poster of the tide eye"],
    [
        "--kind",
        "image",
        "--prompt",
        "poster",
        "--n",
        "3",
        "--aspect-ratio",
        "16:9",
        "--seed",
        "7",
        "--response-format",
        "base64",
    ],
    [
        "--kind",
        "image",
        "--prompt",
        "portrait",
        "--prompt-optimizer",
        "--subject-reference",
        "{d}/face.png",
    ],
]
out = []
for i, args in enumerate(cases):
    argv = ["submit", "--request-id", f"old:20261101:fixture:scene-{i + 1:02d}"] + [
        a.format(d=d) for a in args
    ]
    ns = cli.build_parser().parse_args(argv)
    raw = cli.submit_params(ns)
    norm = normalize(ns.kind, raw)
    out.append(
        {
            "argv": [a.replace(str(d), "{files}") for a in argv],
            "kind": ns.kind,
            "params": norm,
            "fingerprint": fingerprint(ns.kind, norm),
        }
    )
json.dump(
    {
        "captured_from": sys.argv[2],
        "files": {k: base64.b64encode(v).decode() for k, v in files.items()},
        "cases": out,
    },
    open(sys.argv[1], "w"),
    indent=1,
)
print(len(out), "cases")
