"""Screenshots of the main views in English and Chinese, saved to tests/screenshots/ (git-ignored)
for review; and ``slate gui --screenshot FILE --select RID`` end to end."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from app.domain.states import Action
from app.ui.app import install_translations
from app.ui.qt import QImage
from tests.support.fixtures import ROOT
from tests.gui.bulk import insert_slot
from tests.gui.conftest import SCREENSHOTS, buttons, fill_form, shown
from tests.gui.layout_checks import clipped

VIDEO = "article:20260816:tide-eye:scene-02"
IMAGE = "article:20260816:tide-eye:still-01"
LOST = "article:20260816:tide-eye:scene-03"


def laid_out(widget, seconds: float = 5.0) -> list[str]:
    """What is still cut off once Qt has run the layouts it defers (a button shown or renamed
    is given its width at a later turn of the loop; a busy machine makes that turn late)."""
    import time

    from app.ui.qt import QApplication

    deadline = time.monotonic() + seconds
    while (found := clipped(widget)) and time.monotonic() < deadline:
        QApplication.processEvents()
        time.sleep(0.02)
    return found


def save(widget, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    found = laid_out(widget)
    assert widget.grab().save(str(SCREENSHOTS / f"{name}.png"))
    assert found == [], name  # no text cut off, in either language


@pytest.fixture(params=["en", "zh_CN"])
def lang(request, qapp):
    install_translations(qapp, request.param)
    yield request.param
    install_translations(qapp, "en")


@pytest.mark.qt_log_ignore(r".*No RHI backend\. Using CPU conversion\.")
def test_main_views(gui, make_window, lang):
    first = make_window()
    gui.until(lambda: first.middle_stack.currentWidget() is first.welcome, what="welcome page")
    save(first, f"{lang}-1-first-launch")
    first.close()

    other = gui.other_service()
    gui.run(
        other.submit(
            VIDEO,
            "video",
            {"prompt": "tide eye, slow dolly in, dusk light on wet sand", "resolution": "768P"},
            wait=True,
        )
    )
    gui.run(
        other.submit(
            IMAGE,
            "image",
            {"prompt": "a lighthouse at dawn, film grain", "n": 3, "aspect_ratio": "16:9"},
            wait=True,
        )
    )
    gui.sim.set_faults(lose_create_response=1)
    gui.run(other.submit(LOST, "video", {"prompt": "storm over the pier", "resolution": "768P"}))
    insert_slot(other, "article:20260815:spring-campaign:scene-01", "processing")
    insert_slot(
        other,
        "article:20260815:spring-campaign:scene-02",
        "rejected",
        error="input sensitive",
        error_code="1026",
    )

    window = make_window()
    if lang == "zh_CN":
        assert buttons(window)[Action.CREATE].text() == "创建"
        assert window.status_pane.provider_badge.text() == "演示"
    window.select(VIDEO)
    gui.until(lambda: shown(window, VIDEO))
    video = window.result_pane.video
    gui.until(lambda: video.poster.pixmap() is not None and not video.poster.pixmap().isNull())
    gui.until(lambda: window.browser.tree.currentIndex().isValid(), what="tree selection")
    save(window, f"{lang}-2-video-done")

    window.select(IMAGE)
    gui.until(lambda: shown(window, IMAGE))
    thumbs = window.result_pane.thumbs
    gui.until(
        lambda: thumbs.count() == 3 and all(not thumbs.item(i).icon().isNull() for i in range(3))
    )
    save(window, f"{lang}-3-images-done")

    window.select(LOST)
    gui.until(lambda: shown(window, LOST))
    save(window, f"{lang}-4-unknown")
    window.open_recover()
    window.dialog.declare.setChecked(True)
    save(window.dialog, f"{lang}-5-recover-dialog")
    window.dialog.close()

    window.new_draft()
    fill_form(
        window,
        "article:20260816:tide-eye:scene-04",
        "tide eye, aerial, 10 seconds",
        duration=10,
        model="MiniMax-Hailuo-2.3",
    )
    window.slot_pane.form.resolution.setCurrentText("1080P")
    save(window, f"{lang}-6-new-slot-hint")

    fill_form(window, VIDEO, "tide eye, slow dolly in, dusk light on wet sand ", resolution="768P")
    window.slot_pane.create()
    dialog = gui.until(lambda: window.dialog, what="conflict dialog")
    save(dialog, f"{lang}-7-conflict-dialog")
    dialog.close()

    window.open_settings()
    save(window.dialog, f"{lang}-8-settings")
    window.dialog.close()


def test_slate_gui_screenshot_command(gui, tmp_path):
    gui.run(
        gui.other_service().submit(
            VIDEO, "video", {"prompt": "tide eye", "resolution": "768P"}, wait=True
        )
    )
    out = tmp_path / "shot.png"
    env = dict(
        os.environ,
        SLATE_DATA_DIR=str(gui.config.data_dir),
        SLATE_PROVIDER="demo",
        SLATE_BASE_URL=gui.sim.base_url,
        SLATE_TENANT="studio-a",
        SLATE_USER="lin",
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        SLATE_POLL_INTERVAL="0.05",
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "gui",
            "--screenshot",
            str(out),
            "--select",
            VIDEO,
            "--lang",
            "en",
        ],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    image = QImage(str(out))
    assert not image.isNull() and image.width() >= 1000


def test_a_screenshot_needs_no_display_and_no_platform_variable(tmp_path, demo_sim):
    """Issue 33 point 13: ``slate gui --screenshot`` on a machine without a display, with no
    ``QT_QPA_PLATFORM`` set, draws the window offscreen as ``--describe`` does."""
    out = tmp_path / "shot.png"
    env = dict(os.environ, SLATE_DATA_DIR=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path))
    env.update(SLATE_PROVIDER="demo", SLATE_BASE_URL=demo_sim.base_url)
    for name in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    argv = [sys.executable, "-m", "app", "gui", "--screenshot", str(out), "--lang", "en"]
    proc = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert not QImage(str(out)).isNull()


def test_a_screenshot_run_never_writes_the_users_settings(gui, tmp_path):
    """``slate gui --screenshot`` reads the user's settings but writes none: the window's layout,
    the last slot and the service settings stay byte for byte as they were (and a user without
    settings still has none afterwards)."""
    gui.run(
        gui.other_service().submit(
            VIDEO, "video", {"prompt": "tide eye", "resolution": "768P"}, wait=True
        )
    )
    env = dict(
        os.environ,
        SLATE_DATA_DIR=str(gui.config.data_dir),
        SLATE_PROVIDER="demo",
        SLATE_BASE_URL=gui.sim.base_url,
        SLATE_TENANT="studio-a",
        SLATE_USER="lin",
        SLATE_POLL_INTERVAL="0.05",
    )

    def shoot(config_home) -> None:
        out = tmp_path / "shot.png"
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "app",
                "gui",
                "--screenshot",
                str(out),
                "--select",
                VIDEO,
                "--lang",
                "en",
            ],
            env=dict(env, XDG_CONFIG_HOME=str(config_home)),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        assert not QImage(str(out)).isNull()

    fresh = tmp_path / "fresh-config"
    fresh.mkdir()
    shoot(fresh)
    assert [p for p in fresh.rglob("*")] == [], "a screenshot run created settings"

    used = tmp_path / "used-config"
    conf = used / "Slate" / "Slate.conf"
    conf.parent.mkdir(parents=True)
    conf.write_text(
        "[settings]\nquota_image=7\n\n[window]\nlastSlot=article:20260801:old:scene-01\n"
    )
    before = conf.read_bytes()
    shoot(used)
    assert conf.read_bytes() == before
    assert sorted(p.name for p in used.rglob("*")) == ["Slate", "Slate.conf"]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_slate_gui_size_sets_the_windows_size_for_screenshots(gui, tmp_path, lang):
    gui.run(
        gui.other_service().submit(
            VIDEO, "video", {"prompt": "tide eye", "resolution": "768P"}, wait=True
        )
    )
    out = tmp_path / f"min-{lang}.png"
    env = dict(
        os.environ,
        SLATE_DATA_DIR=str(gui.config.data_dir),
        SLATE_PROVIDER="demo",
        SLATE_BASE_URL=gui.sim.base_url,
        SLATE_TENANT="studio-a",
        SLATE_USER="lin",
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        SLATE_POLL_INTERVAL="0.05",
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "gui",
            "--screenshot",
            str(out),
            "--select",
            VIDEO,
            "--lang",
            lang,
            "--size",
            "1000x640",
        ],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    image = QImage(str(out))
    # the window's content at exactly 1000×640 (a device pixel ratio of 1 offscreen)
    assert (image.width(), image.height()) == (1000, 640)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert image.save(str(SCREENSHOTS / f"cli-size-{lang}.png"))


@pytest.mark.parametrize("size", ["10x10", "wide", "1200x", "999x640", "20000x800"])
def test_slate_gui_size_refuses_a_bad_size_before_anything_starts(tmp_path, size):
    env = dict(
        os.environ,
        SLATE_DATA_DIR=str(tmp_path / "data"),
        SLATE_PROVIDER="demo",
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "gui",
            "--screenshot",
            str(tmp_path / "x.png"),
            "--size",
            size,
            "--json",
        ],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert '"size"' in proc.stdout and not (tmp_path / "x.png").exists()
    assert not (tmp_path / "data").exists()  # nothing started, nothing made


H3 = "article:20260816:tide-eye:scene-07"
REFUSED = "article:20260815:spring-campaign:scene-02"
RUNNING = "article:20260815:spring-campaign:scene-01"


@pytest.mark.parametrize("size", [(1000, 640), (1360, 820)])
@pytest.mark.qt_log_ignore(r".*No RHI backend\. Using CPU conversion\.")
def test_the_slot_pane_spend_and_settings_at_both_sizes(gui, make_window, lang, size):
    """The window at its smallest and at its default size, a slot selected in each state, then
    Spend and Settings: nothing cut off (tests/screenshots/size-*.png, for a designer's eye)."""
    from app.ui.spend import SpendDialog
    from tests.gui.layout_checks import outside

    other = gui.other_service()
    gui.run(
        other.submit(VIDEO, "video", {"prompt": "tide eye, dusk", "resolution": "768P"}, wait=True)
    )
    gui.run(
        other.submit(
            H3, "video", {"model": "MiniMax-H3", "prompt": "tide eye", "duration": 8}, wait=True
        ),
        timeout=40,
    )
    gui.run(
        other.submit(
            IMAGE, "image", {"prompt": "a lighthouse", "n": 3, "aspect_ratio": "16:9"}, wait=True
        )
    )
    gui.sim.set_faults(lose_create_response=1)
    gui.run(other.submit(LOST, "video", {"prompt": "storm over the pier", "resolution": "768P"}))
    insert_slot(other, RUNNING, "processing")
    insert_slot(other, REFUSED, "rejected", error="input sensitive", error_code="1026")
    window = make_window()
    window.resize(*size)
    tag = f"size-{lang}-{size[0]}"

    def settled(widget) -> None:
        gui.drained(widget)  # a wrapped label's new text laid out
        try:
            gui.until(lambda: not clipped(widget), timeout=5, what="layout")
        except AssertionError:
            pass  # said by save()

    for rid, name in (
        (VIDEO, "video-done"),
        (H3, "h3-done"),
        (IMAGE, "images-done"),
        (LOST, "unknown"),
        (RUNNING, "running"),
        (REFUSED, "refused"),
    ):
        window.select(rid)
        gui.until(lambda rid=rid: shown(window, rid), what=rid)
        if rid == IMAGE:
            grid = window.slot_pane.finished.images
            gui.until(
                lambda grid=grid: (
                    grid.count() == 3 and all(not grid.item(i).icon().isNull() for i in range(3))
                ),
                what="thumbnails",
            )
        settled(window)
        save(window, f"{tag}-{name}")
        assert outside(window) == [], name
    window.new_draft()
    settled(window)
    save(window, f"{tag}-draft")
    window.open_spend()
    dialog = gui.until(lambda: isinstance(window.dialog, SpendDialog) and window.dialog)
    gui.until(dialog.loaded, what="spend figures")
    settled(dialog)
    save(dialog, f"{tag}-spend")
    dialog.close()
    window.open_settings()
    settled(window.dialog)
    save(window.dialog, f"{tag}-settings")
    window.dialog.close()
