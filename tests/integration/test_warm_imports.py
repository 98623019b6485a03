"""Nothing is loaded between a create's record and its send (issue 38 left a read's modules
to load on first use; the send's are loaded before the record).

Between the record (``submitting``) and the request, a crash leaves the slot unknown: the
fault soaks saw more unknown slots once slow work had moved there (CI 52). A fresh process
submits an image, an H3 image and a song to the demo provider over loopback; each create's
request is seen leaving (httpx's request hook) and the modules loaded then are compared with
those loaded when the record's write began (its values made, its turn not yet taken). A read (``slate list``) loads none of them
(tests/integration/test_cli_start.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from tests.support.fixtures import ROOT

SCRIPT = textwrap.dedent(
    """
    import asyncio, json, sys
    from pathlib import Path

    from app.sim import start_sim
    from tests.support.fixtures import fast_sim_config, open_harness, sqlite_url

    SENT_BY = {"image": "/v1/image_generation", "music": "/v1/music_generation"}

    async def main(data_dir):
        sim = start_sim(fast_sim_config())
        out = []
        try:
            async with open_harness(data_dir, sqlite_url(data_dir), sim) as h:
                store = h.service.ctx.store
                write = store.claim_transaction
                at = {}

                def recorded(request):  # the record's write: after the claim's warm
                    request.write  # its values (the owner too) are made before its turn
                    at["record"] = set(sys.modules)
                    return write(request)

                store.claim_transaction = recorded
                client = h.provider.http.client

                async def leaving(request):
                    if request.method == "POST" and "record" in at and "send" not in at:
                        at["send"] = set(sys.modules)

                client.event_hooks["request"].append(leaving)
                cases = [
                    ("article:20261207:warm:image-01", "image", {"prompt": "a lighthouse"}),
                    ("article:20261207:warm:h3-01", "image",
                     {"model": "MiniMax-H3-Image", "prompt": "a tide pool"}),
                    ("article:20261207:warm:song-01", "music",
                     {"prompt": "sea shanty", "lyrics": "[verse] hold the line"}),
                ]
                for rid, kind, params in cases:
                    at.clear()
                    got = await h.service.submit(rid, kind, params)
                    loaded = sorted(at.get("send", set()) - at.get("record", set()))
                    out.append({"rid": rid, "outcome": got.kind.value,
                                "state": got.task.state.value if got.task else None,
                                "seen": sorted(at), "loaded": loaded})
        finally:
            sim.stop()
        print(json.dumps(out))

    asyncio.run(main(Path(sys.argv[1])))
    """
)


def test_a_send_loads_no_module_between_the_record_and_the_request(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ran = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(data)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    cases = json.loads(ran.stdout.strip().splitlines()[-1])
    assert len(cases) == 3
    for case in cases:
        assert case["outcome"] == "created", case
        assert case["seen"] == ["record", "send"], case  # both moments were seen, in a new process
        assert case["loaded"] == [], f"loaded between the record and the send: {case}"
