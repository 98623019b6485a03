"""The demo provider's client: MiniMax's protocols, plus a task list for V1 videos.

The demo provider speaks V2 faithfully (task list, cancel, uploads), so its V2 side is the
MiniMax V2 adapter unchanged. MiniMax V1 cannot list recent tasks; the demo provider can
(``GET /_sim/tasks``, an extension), which lets Slate's lookup path run for V1 slots too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable
from urllib.parse import urlsplit, urlunsplit

from app.domain.capabilities import Capabilities
from app.domain.hosts import is_loopback_host
from app.providers.base import Ambiguous, DownloadContext, Refused
from app.providers.minimax import MiniMaxProvider

if TYPE_CHECKING:
    from app.providers.base import ListedTask


class DemoProvider(MiniMaxProvider):
    caps = Capabilities(can_list_tasks=True)

    def __init__(
        self, base_url: str, *, starter: Callable[[], None] | None = None, **kw: Any
    ) -> None:
        """``starter``: starts the demo provider itself, when it starts on first use (the
        CLI's embedded one, :class:`app.bootstrap.LazyDemoProvider`); :meth:`warm` calls it."""
        kw.setdefault("name", "demo")
        kw.setdefault("endpoint", "local")
        super().__init__("demo-key", base_url, **kw)
        self._starter = starter

    def warm(self) -> None:
        """The client, and the demo provider itself when it starts on first use: a submit warms
        before its claim, so its start does not fall between the record and the send. One that
        cannot start is said by the first request (never sent), as without this."""
        super().warm()
        if self._starter is not None:
            try:
                self._starter()
            except Exception:  # noqa: BLE001 - the first request reports it (ConnectError)
                pass

    def download(self, url: str) -> DownloadContext:
        """A download of one of the demo provider's links, from wherever it listens now."""
        return super().download(self.current_link(url))

    def current_link(self, url: str) -> str:
        """``url`` re-pointed at this demo provider when an earlier demo provider on this
        computer gave it (a loopback ``/_sim/`` link naming another port — the embedded one is
        started afresh by every run and every settings change). Its links are signed by path
        and expiry only, and its tasks are kept in the data dir, so the same link downloads the
        same bytes here. Any other link is left as it is."""
        try:
            link, here = urlsplit(url), urlsplit(self.base_url)
            if (
                link.scheme in ("http", "https")
                and link.path.startswith("/_sim/")
                and is_loopback_host(link.hostname)
                and is_loopback_host(here.hostname)
                and link.netloc != here.netloc
            ):
                return urlunsplit(link._replace(scheme=here.scheme, netloc=here.netloc))
        except ValueError:  # a link urlsplit cannot read (a bad port): the download says so
            pass
        return url

    async def list_tasks(
        self, since: float, until: float, model: str | None = None
    ) -> list[ListedTask]:
        """The demo provider's V1 tasks created between ``since`` and ``until``."""
        import httpx  # loaded with the provider's client, on its first request

        from app.providers.base import ListedTask

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
