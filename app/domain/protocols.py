"""Which MiniMax protocol a slot speaks: decided here, once, from its kind and model.

MiniMax serves two generations of video API: V1 (the Hailuo and 01 models, ``/v1/…``,
errors as HTTP 200 with ``base_resp``) and V2 (MiniMax-H3 and H3-Max, ``/v2/…``, real HTTP
statuses, a task list and cancel). Images are V1 (``/v1/image_generation``).
"""

from __future__ import annotations

from typing import Any, Final, Literal, Mapping

VideoProtocol = Literal["v1", "v2", "t2a"]
V1: Final = "v1"
V2: Final = "v2"
#: Asynchronous speech (``/v1/t2a_async_v2``): a task id, its own query and status words.
T2A: Final = "t2a"

#: The models MiniMax serves on the V2 protocol (MINIMAX_API.md "Video V2").
V2_MODELS: Final = ("MiniMax-H3", "MiniMax-H3-Max")


def protocol_for(kind: str, model: object) -> VideoProtocol:
    """The protocol of a create of ``kind`` with ``model`` (unknown or missing models: V1, whose
    rules then refuse them with the list of models)."""
    if kind == "video" and isinstance(model, str) and model in V2_MODELS:
        return V2
    if kind == "prompt":  # Context-IR: a V2 extra (its task id is queried by V2's query path)
        return V2
    return V1


def protocol_of(kind: str, params: Mapping[str, Any]) -> VideoProtocol:
    """The protocol of a slot from its (raw or normalized) parameters (a speech slot's
    normalized ``protocol``: long texts are asynchronous)."""
    if kind == "speech" and params.get("protocol") == "async":
        return T2A
    return protocol_for(kind, params.get("model"))
