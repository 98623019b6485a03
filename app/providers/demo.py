"""The demo provider's client: MiniMax's protocols, plus a task list for V1 videos.

The demo provider speaks V2 faithfully (task list, cancel, uploads), so its V2 side is the
MiniMax V2 adapter unchanged. MiniMax V1 cannot list recent tasks; the demo provider can
(``GET /_sim/tasks``, an extension), which lets Slate's lookup path run for V1 slots too.
"""

from __future__ import annotations

from typing import Any

import httpx

from app.domain.capabilities import Capabilities
from app.providers.base import Ambiguous, ListedTask, Refused
from app.providers.minimax import MiniMaxProvider


class DemoProvider(MiniMaxProvider):
    caps = Capabilities(can_list_tasks=True)

    def __init__(self, base_url: str, **kw: Any) -> None:
        kw.setdefault("name", "demo")
        kw.setdefault("endpoint", "local")
        super().__init__("demo-key", base_url, **kw)

    async def list_tasks(
        self, since: float, until: float, model: str | None = None
    ) -> list[ListedTask]:
        """The demo provider's V1 tasks created between ``since`` and ``until``."""
        try:
            response = await self.http.client.get(f"{self.base_url}/_sim/tasks")
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise Refused(
                f"list tasks: the request never left ({type(exc).__name__})", unreachable=True
            ) from None
        except httpx.HTTPError as exc:
            raise Ambiguous(f"list tasks: {type(exc).__name__}") from None
        if response.status_code != 200:
            raise Ambiguous(f"list tasks: HTTP {response.status_code}")
        items = response.json().get("tasks") or []
        out = []
        for t in items:
            if t.get("protocol", "v1") != "v1":
                continue
            created = float(t.get("created_at") or 0)
            params = dict(t.get("params") or {})
            if model is not None and params.get("model") != model:
                continue
            if since <= created <= until:
                facts = {
                    "duration": params.get("duration"),
                    "resolution": params.get("resolution"),
                    "prompt": t.get("prompt"),
                }
                out.append(
                    ListedTask(
                        str(t["task_id"]), created, params.get("model"), t.get("status"), facts
                    )
                )
        return out
