"""An in-memory provider for service unit tests: scripted answers, counted calls, no network.

It implements :class:`app.providers.base.Provider`. Each script is a list consumed in order;
an ``Exception`` in a script is raised instead of answered. The last status of a task repeats.
Media bytes are real (PNG, MP4 from the demo provider's renderer) so verification runs as is.

::

    fake = FakeProvider()
    fake.answer_create(VideoCreated("t1", {}))          # or Refused(...), Ambiguous(...)
    fake.script_status("t1", "Processing", ok("t1", file_id="f1"))
    fake.add_video_file("f1")
"""

from __future__ import annotations

import contextlib
from typing import Any, AsyncIterator

from app.domain.capabilities import Capabilities
from app.providers.base import (
    Cancelled,
    Download,
    DownloadContext,
    FileInfo,
    ImageItem,
    ImageResult,
    ListedTask,
    Uploaded,
    VideoApi,
    VideoCreated,
    VideoStatus,
)
from app.sim.media import render_mp4, render_png

VIDEO_SIZE = (64, 36)


def status(
    task_id: str,
    word: str,
    *,
    file_id: str | None = None,
    error_code: int | None = None,
    error_message: str | None = None,
) -> VideoStatus:
    """A video query answer with the raw word (mapped by the service's whitelist)."""
    w, h = VIDEO_SIZE if file_id else (None, None)
    return VideoStatus(
        task_id,
        word,
        file_id,
        w,
        h,
        {"status": word, "task_id": task_id},
        error_code,
        error_message,
    )


class FakeProvider:
    """One scripted provider serving both protocols (``api`` answers itself): its ``caps`` are
    those of whichever protocol a test speaks."""

    name = "fake"
    endpoint = "local"
    protocol = "v1"

    def __init__(self, caps: Capabilities | None = None) -> None:
        self.caps = caps or Capabilities()
        self.cancels: list[str] = []
        self.cancel_answers: list[Any] = []
        self.uploads: list[tuple[str, int]] = []
        self.creates = 0  #: create requests received (video and image)
        self.queries = 0
        self.bodies: list[dict[str, Any]] = []
        self._creates: list[Any] = []
        self._statuses: dict[str, list[Any]] = {}
        self._files: dict[str, Any] = {}
        self._downloads: dict[str, list[Any]] = {}
        self.listed: list[ListedTask] = []
        self.closed = False

    # -- scripting ------------------------------------------------------------------------
    def answer_create(self, *answers: Any) -> None:
        """The next create answers, in order (VideoCreated, ImageResult or an exception)."""
        self._creates.extend(answers)

    def script_status(self, task_id: str, *answers: Any) -> None:
        """Query answers for ``task_id``: words (``"Processing"``), VideoStatus or exceptions."""
        self._statuses[task_id] = [status(task_id, a) if isinstance(a, str) else a for a in answers]

    def add_video_file(self, file_id: str, *, downloads: list[Any] | None = None) -> None:
        """A file whose download answers come from ``downloads`` (bytes or an HTTP status);
        by default one real MP4."""
        url = f"https://files.test/{file_id}.mp4"
        self._files[file_id] = FileInfo(file_id, url, None, f"{file_id}.mp4", {"file_id": file_id})
        self._downloads[url] = list(downloads) if downloads is not None else [video_bytes()]

    def add_image(self, url: str, *answers: Any) -> None:
        self._downloads[url] = list(answers) if answers else [image_bytes()]

    # -- the Provider protocol ------------------------------------------------------------
    def warm(self) -> None:
        """Nothing to make: no HTTP client."""

    def api(self, protocol: str) -> VideoApi:
        return self

    async def create_video(self, body: dict[str, Any]) -> VideoCreated:
        answer = self._next_create(body)
        assert isinstance(answer, VideoCreated), answer
        return answer

    async def generate_image(self, body: dict[str, Any]) -> ImageResult:
        answer = self._next_create(body)
        assert isinstance(answer, ImageResult), answer
        return answer

    def _next_create(self, body: dict[str, Any]) -> Any:
        self.creates += 1
        self.bodies.append(body)
        assert self._creates, "a create was sent that the test did not expect"
        answer = self._creates.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    async def query_video(self, task_id: str) -> VideoStatus:
        self.queries += 1
        script = self._statuses.get(task_id)
        if not script:
            from app.providers.base import Refused

            raise Refused(f"video query: refused, code 2013 (task {task_id} not found)", code=2013)
        answer = script.pop(0) if len(script) > 1 else script[0]
        if isinstance(answer, BaseException):
            raise answer
        return answer

    async def retrieve_file(self, file_id: str) -> FileInfo:
        info = self._files[file_id]
        if isinstance(info, BaseException):
            raise info
        return info

    def download(self, url: str) -> DownloadContext:
        return self._download(url)

    @contextlib.asynccontextmanager
    async def _download(self, url: str) -> AsyncIterator[Download]:
        script = self._downloads[url]
        answer = script.pop(0) if len(script) > 1 else script[0]
        if isinstance(answer, int):
            yield Download(answer, None, None, _chunks(b""))
            return
        yield Download(200, len(answer), None, _chunks(answer))

    async def list_tasks(
        self, since: float, until: float, model: str | None = None
    ) -> list[ListedTask]:
        if not self.caps.can_list_tasks:
            raise NotImplementedError("this provider cannot list tasks")
        return [
            t
            for t in self.listed
            if since <= t.created_at <= until and (model is None or t.model == model)
        ]

    async def cancel_video(self, task_id: str) -> Cancelled:
        if not self.caps.can_cancel:
            raise NotImplementedError("this provider cannot cancel")
        self.cancels.append(task_id)
        answer = self.cancel_answers.pop(0) if self.cancel_answers else "cancelled"
        if isinstance(answer, BaseException):
            raise answer
        return Cancelled(task_id, answer, {"task_id": task_id, "action": answer})

    async def upload_file(self, data: bytes, filename: str) -> Uploaded:
        if not self.caps.can_upload:
            raise NotImplementedError("this provider cannot upload")
        self.uploads.append((filename, len(data)))
        return Uploaded(str(len(self.uploads)), {"file": {"file_id": len(self.uploads)}})

    async def aclose(self) -> None:
        self.closed = True


async def _chunks(data: bytes) -> AsyncIterator[bytes]:
    if data:
        yield data


def video_bytes(seconds: int = 6) -> bytes:
    """A real MP4 lasting ``seconds`` (6: the default video slot's length, which is checked)."""
    return render_mp4(*VIDEO_SIZE, seconds, "fake video", fps=2)


def image_bytes(index: int = 0, size: tuple[int, int] = (64, 36)) -> bytes:
    """A real PNG, 16:9 (the aspect the service tests ask for) unless ``size`` says other."""
    return render_png(size[0], size[1], "fake image", index=index)


def images(*urls: str, raw: dict[str, Any] | None = None) -> ImageResult:
    """An image create's answer with these URLs."""
    return ImageResult(
        "img-1", [ImageItem(url=u) for u in urls], len(urls), 0, raw or {"id": "img-1"}
    )
