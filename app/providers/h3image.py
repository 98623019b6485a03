"""MiniMax-H3-Image on the wire: ``POST /v1/images/generations`` and ``/v1/images/edits``
(OpenAI-style bodies, synchronous: the answer carries the images and token ``usage``).

What an answer's status means: a 2xx JSON object is an answer, unless it carries a V1
``base_resp`` with a non-zero code (then the V1 code table decides); any other status is read
as V2 reads it (:func:`app.providers.codes.v2_checked`: 400/401/402/422/429 refused, 5xx and the
rest ambiguous). Which of the two error shapes MiniMax uses here is not documented; both are
understood (docs/DECISIONS.md "MiniMax-H3-Image").
"""

from __future__ import annotations

import base64
import binascii
import logging
from typing import Any

from app.domain.params_h3image import EDITS, GENERATIONS
from app.providers.base import Ambiguous, ImageItem, ImageResult, at_most
from app.providers.codes import base_resp, v1_raise_for_code, v2_checked
from app.providers.http import ApiClient, as_id

log = logging.getLogger(__name__)


async def generate(http: ApiClient, path: str, body: dict[str, Any], hint: str) -> ImageResult:
    """Send one H3-Image create to ``path`` (generations or edits) and read its answer."""
    if path not in (GENERATIONS, EDITS):
        raise ValueError(f"not an H3-Image endpoint: {path}")
    what = "image edit" if path == EDITS else "image generation"
    answer = await http.send("POST", path, what=what, json=body)
    raw = v2_checked(answer, what, hint)
    if isinstance(raw.get("base_resp"), dict):
        code, _msg = base_resp(raw)
        if code:
            v1_raise_for_code(raw, what, hint)
    data = raw.get("data")
    if not isinstance(data, list):
        raise Ambiguous(f"{what}: the answer holds no data list", raw=raw)
    n = body.get("n", 1)
    asked = n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 1
    at_most(asked, len(data), what, raw)  # every entry is a result, blocked ones too
    items: list[ImageItem] = []
    failed = 0
    for entry in data:
        if not isinstance(entry, dict):
            continue
        url, b64 = entry.get("url"), entry.get("b64_json")
        if isinstance(url, str) and url:
            items.append(ImageItem(url=url))
        elif isinstance(b64, str) and b64:
            try:
                items.append(ImageItem(data=base64.b64decode(b64, validate=False)))
            except (binascii.Error, ValueError):
                log.warning("%s: a b64_json item did not decode; skipped", what)
        else:
            failed += 1  # an item without an image: failed or blocked, not charged
    usage = raw.get("usage") if isinstance(raw.get("usage"), dict) else None
    return ImageResult(
        id=as_id(raw.get("id")) or as_id(raw.get("request_id")),
        items=items,
        success_count=len(items),
        failed_count=failed,
        raw=raw,
        usage=usage,
    )


__all__ = ["generate"]
