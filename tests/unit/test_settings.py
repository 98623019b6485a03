"""The settings module: typed values read from and written to a real INI store, applied to the
config like flags, this run's fixed fields winning, draft defaults and the notification switch,
the throwaway copy screenshot runs use, and no import cycle between the entry module and the
window."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from app import config as config_mod
from app.domain.errors import ValidationError
from app.ui.qt import QSettings
from app.ui.settings import (
    DraftDefaults,
    ServiceSettings,
    Settings,
    SettingsChange,
    apply,
    check,
    default_store,
    dialog_values,
    fixed_fields,
)
from tests.support.fixtures import ROOT


def ini(path: Path) -> QSettings:
    return QSettings(str(path), QSettings.Format.IniFormat)


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "slate.ini"


@pytest.fixture
def base(tmp_path: Path) -> config_mod.Config:
    return config_mod.load({"data_dir": str(tmp_path / "data"), "user": "lin"}, environ={})


# -- service settings ------------------------------------------------------------------------
def test_saved_strings_come_back_typed(store):
    s = ini(store)
    for key, value in {
        "quota_video": 5,
        "quota_image": "12",
        "poll_interval": 0.5,
        "tenant": "studio-a",
        "region": "cn",
        "store": "",
    }.items():
        s.setValue(f"settings/{key}", value)
    s.sync()
    got = Settings(ini(store)).service()  # a new reader: what is on disk, not in memory
    assert got == ServiceSettings(
        region="cn", tenant="studio-a", quota_video=5, quota_image=12, poll_interval=0.5
    )
    assert isinstance(got.quota_video, int) and isinstance(got.poll_interval, float)


def test_nothing_saved_is_every_default(store):
    assert Settings(ini(store)).service() == ServiceSettings()
    assert ServiceSettings().values() == {"region": "global"}


@pytest.mark.parametrize(
    "key,value",
    [
        ("quota_video", "many"),
        ("quota_image", "1.5x"),
        ("poll_interval", "soon"),
        ("region", "mars"),
    ],
)
def test_a_bad_saved_value_names_its_field(store, key, value):
    s = ini(store)
    s.setValue(f"settings/{key}", value)
    with pytest.raises(ValidationError) as err:
        Settings(s).service()
    assert err.value.field == key


def test_saving_writes_what_is_set_and_removes_what_is_not(store):
    settings = Settings(ini(store))
    settings.save_service(ServiceSettings(user="mei", quota_video=5, poll_interval=0.2))
    disk = ini(store)
    assert disk.value("settings/user") == "mei" and int(disk.value("settings/quota_video")) == 5
    assert float(disk.value("settings/poll_interval")) == 0.2
    settings.save_service(ServiceSettings(user="mei"))  # quota back to "no limit"
    disk = ini(store)
    assert disk.value("settings/quota_video") is None
    assert disk.value("settings/poll_interval") is None
    assert Settings(disk).service() == ServiceSettings(user="mei")


def test_dialog_values_become_settings_and_the_key_stays_out_of_repr():
    values = {
        "region": "global",
        "tenant": " studio-a ",
        "user": "lin",
        "quota_video": None,
        "quota_image": 50,
        "poll_interval": None,
        "data_dir": "",
        "store": "",
        "api_key": "sk-secret-key-0123456789",
    }
    change = SettingsChange.from_dialog(values)
    assert change.service == ServiceSettings(tenant="studio-a", user="lin", quota_image=50)
    assert change.api_key == "sk-secret-key-0123456789" and not change.clear_api_key
    assert "sk-secret" not in repr(change) and "sk-secret" not in str(change)
    removal = SettingsChange.from_dialog({**values, "api_key": None, "clear_api_key": True})
    assert removal.api_key is None and removal.clear_api_key


# -- applying them -----------------------------------------------------------------------------
def test_nothing_saved_leaves_the_config_as_it_is(store, base):
    assert Settings(ini(store)).config(base) is base


def test_saved_settings_apply_like_flags(store, base, tmp_path):
    settings = Settings(ini(store))
    settings.save_service(ServiceSettings(user="mei", quota_video=5, data_dir=str(tmp_path / "d2")))
    cfg = settings.config(base)
    assert cfg.user == "mei" and cfg.quota_video == 5
    assert Path(cfg.data_dir) == tmp_path / "d2"
    assert cfg.store == default_store(tmp_path / "d2")  # the default store follows the data folder


def test_a_field_fixed_for_this_run_wins_over_the_saved_one(store, base):
    settings = Settings(ini(store), fixed={"user"})
    settings.save_service(ServiceSettings(user="mei", quota_image=3))
    cfg = settings.config(base)
    assert cfg.user == "lin" and cfg.quota_image == 3


def test_an_unset_setting_means_the_default_not_what_runs(base):
    running = base.with_(quota_video=5, poll_interval=0.3)
    cfg = apply(running, ServiceSettings(user="lin"))
    assert cfg.quota_video is None and cfg.poll_interval is None


def test_the_region_picks_the_host_only_when_a_key_exists(base):
    cn = ServiceSettings(region="cn")
    assert apply(base, cn, key_source="keyring").base_url == config_mod.REGION_URLS["cn"]
    assert apply(base, cn, key_source="none").base_url is None  # the demo provider runs
    assert (
        apply(
            base.with_(base_url="http://127.0.0.1:9"), cn, key_source="keyring", fixed={"base_url"}
        ).base_url
        == "http://127.0.0.1:9"
    )


def test_the_run_keeps_its_timings(base):
    running = base.with_(timeout=7.0, demo_stage_seconds=0.1, max_concurrent_polls=3)
    cfg = apply(running, ServiceSettings(user="mei"))
    assert (cfg.timeout, cfg.demo_stage_seconds, cfg.max_concurrent_polls) == (7.0, 0.1, 3)


def test_check_says_what_is_wrong_before_anything_is_applied(base):
    assert check(base, ServiceSettings(user="mei")) is None
    assert "tenant" in (check(base, ServiceSettings(tenant="x" * 200)) or "")
    assert "Database" in (check(base, ServiceSettings(store="not a url")) or "")


def test_fixed_fields_are_the_flags_and_the_environment(tmp_path):
    env = {"SLATE_USER": "mei"}
    cfg = config_mod.load({"tenant": "studio-b", "data_dir": str(tmp_path)}, environ=env)
    assert fixed_fields(cfg, env) == {"user", "tenant", "data_dir", "store"}
    plain = config_mod.load({}, environ={})
    assert fixed_fields(plain, {}) == set()


def test_the_dialog_shows_the_running_config_and_the_default_store_as_empty(base):
    values = dialog_values(base, "cn")
    assert values["store"] == "" and values["region"] == "cn" and values["user"] == "lin"
    pinned = base.with_(store="postgresql://db.local/slate")
    assert dialog_values(pinned)["store"] == "postgresql://db.local/slate"


# -- draft defaults and notifications -----------------------------------------------------------
def test_draft_defaults_round_trip(store):
    Settings(ini(store)).save_draft_defaults(
        DraftDefaults(
            kind="video", model="MiniMax-Hailuo-02", duration=10, resolution="768P", ratio="16:9"
        )
    )
    got = Settings(ini(store)).draft_defaults()
    assert got == DraftDefaults("video", "MiniMax-Hailuo-02", 10, "768P", "16:9")
    Settings(ini(store)).save_draft_defaults(DraftDefaults(kind="image", ratio="1:1"))
    assert Settings(ini(store)).draft_defaults() == DraftDefaults(kind="image", ratio="1:1")
    assert ini(store).value("defaults/duration") is None  # unset means removed


def test_no_saved_draft_defaults_is_a_video_with_the_forms_own_values(store):
    assert Settings(ini(store)).draft_defaults() == DraftDefaults()
    assert DraftDefaults() == DraftDefaults(
        kind="video", model=None, duration=None, resolution=None, ratio=None
    )


def test_a_bad_saved_draft_default_is_dropped_not_fatal(store, caplog):
    s = ini(store)
    s.setValue("defaults/kind", "sculpture")
    s.setValue("defaults/duration", "long")
    s.setValue("defaults/model", "MiniMax-Hailuo-2.3")
    s.sync()
    assert Settings(ini(store)).draft_defaults() == DraftDefaults(model="MiniMax-Hailuo-2.3")
    assert "defaults" in caplog.text or "draft default" in caplog.text


@pytest.mark.parametrize(
    "kw,field",
    [
        ({"kind": "audio"}, "kind"),
        ({"duration": 0}, "duration"),
        ({"duration": True}, "duration"),
        ({"model": " "}, "model"),
        ({"ratio": 16}, "ratio"),
    ],
)
def test_bad_draft_defaults_are_refused_naming_the_field(kw, field):
    with pytest.raises(ValidationError) as err:
        DraftDefaults(**kw)
    assert err.value.field == field


def test_notify_when_a_slot_finishes_is_on_until_turned_off(store):
    assert Settings(ini(store)).notify_finished is True
    settings = Settings(ini(store))
    settings.notify_finished = False
    assert Settings(ini(store)).notify_finished is False  # on disk
    settings.notify_finished = True
    assert Settings(ini(store)).notify_finished is True


# -- the throwaway copy ------------------------------------------------------------------------
def test_a_snapshot_reads_like_the_original_and_writes_nowhere(store):
    original = Settings(ini(store), fixed={"user"})
    original.save_service(ServiceSettings(quota_image=7))
    original.qsettings.setValue("window/lastSlot", "article:20260816:tide-eye:scene-01")
    original.qsettings.sync()
    before = store.read_bytes()
    copy = original.snapshot()
    assert copy.is_snapshot and not original.is_snapshot
    assert copy.fixed == {"user"} and copy.service() == ServiceSettings(quota_image=7)
    assert copy.qsettings.value("window/lastSlot") == "article:20260816:tide-eye:scene-01"
    copy.save_service(ServiceSettings(user="mei"))
    copy.qsettings.setValue("window/lastSlot", "elsewhere")
    copy.notify_finished = False
    copy.save_draft_defaults(DraftDefaults(kind="image"))
    copy.qsettings.sync()
    assert store.read_bytes() == before
    scratch = Path(copy.qsettings.fileName()).parent
    assert scratch.exists() and scratch != store.parent
    del copy
    gc.collect()
    assert not scratch.exists()  # removed with the copy


# -- layering ----------------------------------------------------------------------------------
def test_the_window_does_not_import_the_entry_module():
    code = "import sys, app.ui.window; print('app.ui.app' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
    window = (ROOT / "app" / "ui" / "window.py").read_text()
    assert "app.ui.app" not in window and "from app.ui import app" not in window


# -- the daily budget ----------------------------------------------------------------------------
def test_the_daily_budget_is_a_setting_applied_like_slate_budget_daily(store, base):
    settings = Settings(ini(store))
    settings.save_service(ServiceSettings.from_values({"budget_daily": " 12.50 "}))
    assert ini(store).value("settings/budget_daily") == "12.50"
    got = Settings(ini(store)).service()
    assert got.budget_daily == "12.50"
    cfg = Settings(ini(store)).config(base)
    assert cfg.budget_daily == Decimal("12.50")
    fixed = Settings(ini(store), fixed={"budget_daily"}).config(base.with_(budget_daily=Decimal(3)))
    assert fixed.budget_daily == Decimal(3)  # SLATE_BUDGET_DAILY wins for this run
    assert dialog_values(cfg)["budget_daily"] == "12.50"


@pytest.mark.parametrize("value", ["nan", "-1", "inf", "lots"])
def test_a_bad_budget_setting_names_its_field(store, value):
    s = ini(store)
    s.setValue("settings/budget_daily", value)
    with pytest.raises(ValidationError) as err:
        Settings(s).service()
    assert err.value.field == "budget_daily"
