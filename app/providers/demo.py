"""The demo provider's client: MiniMax's protocol, plus task listing (for recover: lookup).

MiniMax v1 cannot list recent tasks; the demo provider can (``GET /_sim/tasks``), which lets
Slate's lookup path be exercised end to end and shows how a listing provider plugs in.
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

    async def list_tasks(self, since: float, until: float) -> list[ListedTask]:
        try:
            response = await self._client.get(f"{self.base_url}/_sim/tasks")
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise Refused(f"list tasks: the request never left ({type(exc).__name__})", never_sent=True) from None
        except httpx.HTTPError as exc:
            raise Ambiguous(f"list tasks: {type(exc).__name__}") from None
        if response.status_code != 200:
            raise Ambiguous(f"list tasks: HTTP {response.status_code}")
        items = response.json().get("tasks") or []
        out = []
        for t in items:
            created = float(t.get("created_at") or 0)
            if since <= created <= until:
                params = dict(t.get("params") or {})
                params.setdefault("prompt", t.get("prompt"))
                out.append(ListedTask(str(t["task_id"]), created, params))
        return out
