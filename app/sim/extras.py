"""The demo provider's endpoints beyond V1 and V2's video core, each in its own module and
routed here: MiniMax-H3-Image (:mod:`app.sim.h3image`), regeneration and Context-IR
(:mod:`app.sim.h3extras`). ``_extras_route`` answers
``(counter name, handler, argument, methods)`` or None; the request handler dispatches it like
a V2 endpoint (real HTTP statuses, OpenAI-style error bodies)."""

from __future__ import annotations

from app.sim.h3extras import H3ExtrasEndpoints
from app.sim.h3image import H3ImageEndpoints


class ExtrasEndpoints(H3ImageEndpoints, H3ExtrasEndpoints):
    """Mixed into the request handler before the V2 endpoints."""

    def _extras_route(self, method: str, path: str):  # type: ignore[no-untyped-def]
        return self._h3_image_route(method, path) or self._h3_extras_route(method, path)
