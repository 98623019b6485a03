"""The demo provider's MiniMax-H3-Image endpoints (MINIMAX_API.md "Image — MiniMax-H3-Image").

* ``POST /v1/images/generations`` (text → image) and ``POST /v1/images/edits`` (1–16 references
  in ``images``: ``[{"image_url": URL}]``; a bare URL string or ``{"url": URL}`` is accepted too)
* ``model`` MiniMax-H3-Image | MiniMax-H3-Image-Highspeed, ``prompt`` ≤ 32,000, ``n`` 1–10,
  ``size`` ``WxH`` (area 655,360–20,000,000 px, aspect 1:3–3:1, not with ``aspect_ratio`` or
  ``area``) or ``aspect_ratio`` (``auto`` or ``X:Y`` in 1:3–3:1) + ``area`` (1K, 2K, 4K),
  ``disable_prompt_enhanced`` (bool; needs a fixed size or an ``X:Y`` ratio),
  ``response_format`` url | b64_json
* Synchronous: ``{"created", "id", "data": [{"url"} | {"b64_json"}], "usage": {"input_tokens",
  "output_tokens", "total_tokens"}}``. Errors as V2's (real HTTP statuses, OpenAI-style body).

These rules are the sim's own reading of the facts (it does not import Slate's domain), so a
test of Slate against it checks two readings against each other. Faults: the V2 ones (auth,
5xx, 429, 529, balance, sensitive input, a chosen code, lost answer, 5xx after the images were
made, a delay).
"""

from __future__ import annotations

import base64
import json
import logging
import math
import re
import time
from fractions import Fraction
from typing import Any

from app.sim.probe import ProbeError, probe_image
from app.sim.v2rules import V2Error, _public_https, bad, decode_data_url
from app.sim.wire import _Drop

log = logging.getLogger(__name__)

GENERATIONS = "/v1/images/generations"
EDITS = "/v1/images/edits"
MODELS = ("MiniMax-H3-Image", "MiniMax-H3-Image-Highspeed")
PROMPT_MAX = 32_000
AREA_SIDE = {"1K": 1024, "2K": 2048, "4K": 4096}
REF_FORMATS = ("jpeg", "png", "webp", "heic", "heif")
_SIZE = re.compile(r"(\d{1,6})x(\d{1,6})")
_RATIO = re.compile(r"(\d{1,3}):(\d{1,3})")
#: The demo's own token rule (MiniMax publishes none): an output image costs one token per
#: 256 px of its area, input text one token per 4 characters, an input image 1,024 tokens.
PIXELS_PER_TOKEN = 256
REFERENCE_TOKENS = 1024


def _ratio_ok(w: int, h: int) -> bool:
    return Fraction(1, 3) <= Fraction(w, h) <= Fraction(3, 1)


def validate(body: Any, edit: bool) -> dict[str, Any]:
    """Check a generations or edits body; return what the images need."""
    if not isinstance(body, dict):
        raise bad("the body must be a JSON object")
    model = body.get("model")
    if model not in MODELS:
        raise bad(f"model {model!r} is not supported; use {' or '.join(MODELS)}")
    prompt = body.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        raise bad("prompt is required")
    if len(prompt) > PROMPT_MAX:
        raise bad(f"prompt exceeds {PROMPT_MAX} characters")
    n = body.get("n", 1)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 10:
        raise bad("n must be an integer from 1 to 10")
    size, ratio, area = body.get("size"), body.get("aspect_ratio"), body.get("area")
    fixed = False
    if size not in (None, "auto"):
        if ratio not in (None, "auto") or area is not None:
            raise bad("size cannot be combined with aspect_ratio or area")
        m = _SIZE.fullmatch(size) if isinstance(size, str) else None
        if m is None:
            raise bad("size must be auto or WIDTHxHEIGHT")
        w, h = int(m.group(1)), int(m.group(2))
        if not (w and h and 655_360 <= w * h <= 20_000_000 and _ratio_ok(w, h)):
            raise bad("size must cover 655360-20000000 px with an aspect ratio from 1:3 to 3:1")
        fixed = True
    else:
        if area is None:
            area = "4K"
        if area not in AREA_SIDE:
            raise bad("area must be 1K, 2K or 4K")
        a, b = 1, 1
        if ratio not in (None, "auto"):
            m = _RATIO.fullmatch(ratio) if isinstance(ratio, str) else None
            if m is None or not int(m.group(1)) or not int(m.group(2)):
                raise bad("aspect_ratio must be auto or X:Y")
            a, b = int(m.group(1)), int(m.group(2))
            if not _ratio_ok(a, b):
                raise bad("aspect_ratio must be between 1:3 and 3:1")
            fixed = True
        side = AREA_SIDE[area]
        wf = math.sqrt(side * side * a / b)
        w, h = max(16, round(wf / 16) * 16), max(16, round(wf * b / a / 16) * 16)
    disable = body.get("disable_prompt_enhanced", False)
    if not isinstance(disable, bool):
        raise bad("disable_prompt_enhanced must be a boolean")
    if disable and not fixed:
        raise bad("disable_prompt_enhanced needs a fixed size or an X:Y aspect_ratio")
    fmt = body.get("response_format", "url")
    if fmt not in ("url", "b64_json"):
        raise bad("response_format must be url or b64_json")
    images = body.get("images", body.get("image"))
    refs = 0
    if edit:
        if isinstance(images, (str, dict)):
            images = [images]
        if not isinstance(images, list) or not 1 <= len(images) <= 16:
            raise bad("images must hold 1 to 16 reference images")
        for i, item in enumerate(images):
            _reference(item, f"images[{i}]")
        refs = len(images)
    elif images not in (None, []):
        raise bad("images are taken by /v1/images/edits, not by generations")
    return {
        "model": model,
        "n": n,
        "width": w,
        "height": h,
        "response_format": fmt,
        "references": refs,
        "seed": None,
    }


def _reference(item: Any, where: str) -> None:
    url = item
    if isinstance(item, dict):
        url = item.get("image_url", item.get("url"))
        if isinstance(url, dict):  # {"image_url": {"url": ...}}
            url = url.get("url")
    if not isinstance(url, str) or not url:
        raise bad(f"{where} must be an image URL or a data:image URL")
    if url.startswith("data:"):
        data = decode_data_url(url, where)
        try:
            media = probe_image(data)
        except ProbeError as exc:
            raise bad(f"{where}: {exc}") from None
        if media is None or media.format not in REF_FORMATS:
            raise bad(f"{where}: not a JPEG, PNG, WEBP, HEIC or HEIF image")
        w, h = media.width or 0, media.height or 0
        if not (128 <= w <= 8192 and 128 <= h <= 8192) or max(w, h) > 4 * min(w, h):
            raise bad(f"{where}: each side must be 128-8192 px, the long one at most 4x the short")
        return
    if url.startswith("http://"):
        raise bad(f"{where} must be a public http(s) URL or a data:image URL")
    _public_https(url, where)


def usage(prompt: str, params: dict[str, Any], made: int) -> dict[str, int]:
    pixels = params["width"] * params["height"]
    input_tokens = (len(prompt) // 4 + 1 + REFERENCE_TOKENS * params["references"]) * params["n"]
    output_tokens = made * math.ceil(pixels / PIXELS_PER_TOKEN)
    return {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "total_tokens": input_tokens + output_tokens,
    }


class H3ImageEndpoints:
    """Mixed into the request handler; uses its plumbing and the V2 fault switches."""

    sim: Any
    headers: Any
    _raw_body: bytes
    _body_too_large: bool

    def _h3_image_route(self, method: str, path: str):  # type: ignore[no-untyped-def]
        if path in (GENERATIONS, EDITS):
            name = "images_edits" if path == EDITS else "images_generations"
            return name, self._h3_image, path == EDITS, ("POST",)
        return None

    def _h3_image(self, edit: bool) -> None:
        sim = self.sim
        if not self._authorized():  # type: ignore[attr-defined]
            raise V2Error(401, "login fail: Please carry the API secret key")
        prompt = ""
        try:
            self._v2_guard(create=True)  # type: ignore[attr-defined]
            ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
            if ctype != "application/json":
                raise bad("Content-Type must be application/json")
            if self._body_too_large:
                raise bad("the request body is too large")
            try:
                body = json.loads(self._raw_body.decode("utf-8")) if self._raw_body else None
            except (UnicodeDecodeError, json.JSONDecodeError):
                raise bad("the body is not valid JSON") from None
            if isinstance(body, dict) and isinstance(body.get("prompt"), str):
                prompt = body["prompt"]
            params = validate(body, edit)
            self._v2_refusals()  # type: ignore[attr-defined]
        except (V2Error, _Drop):
            sim._count_create("image", prompt, made=False)
            raise
        if sim.config.image_latency > 0:
            sim._stopping.wait(sim.config.image_latency)
        n = params["n"]
        blocked = n if sim._take("content_fail") else sim._blocked_images(n)
        ok = n - blocked
        params["delivered"] = ok
        image_id = sim.store.add_images(prompt, params)
        sim._count_create("image", prompt, made=True, billed=ok > 0)
        self._after_create(v2=True, task_id=image_id)  # type: ignore[attr-defined]
        data: list[dict[str, Any]] = []
        record = sim.store.get_images(image_id)
        assert record is not None
        for i in range(ok):
            if params["response_format"] == "b64_json":
                data.append({"b64_json": base64.b64encode(sim.image_bytes(record, i)).decode()})
            else:
                path = f"/_sim/images/{image_id}/{i}.png"
                data.append({"url": sim.link(path, sim.config.image_url_ttl)})
        for _ in range(blocked):
            data.append({"error": {"code": "1026", "message": "output new_sensitive"}})
        self._json(  # type: ignore[attr-defined]
            {
                "created": int(time.time()),
                "id": image_id,
                "data": data,
                "usage": usage(prompt, params, ok),
            }
        )
        sim._answered(prompt, image_id)
