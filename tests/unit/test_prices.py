"""The price table: every model Slate accepts is priced or explicitly unknown, the user's
override wins leaf by leaf, and a bad override is an error naming file, line and field."""

from __future__ import annotations

import fnmatch
import tomllib
from decimal import Decimal
from pathlib import Path

import pytest

from app.domain import params as rules
from app.domain.cost import estimate
from app.domain.errors import ValidationError
from app.domain.prices import (
    PriceTableError,
    key_lines,
    parse_money,
    parse_table,
    parse_with_override,
)
from app.service.prices import load_price_table, override_path, shipped_text

ROOT = Path(__file__).resolve().parents[2]
D = Decimal

#: MINIMAX_API.md, "Video V2": the models, their resolutions and durations.
V2_MATRIX = {
    "MiniMax-H3": (("768P", "2K"), range(4, 16)),
    "MiniMax-H3-Max": (("480P", "768P"), range(5, 16)),
}


@pytest.fixture(scope="module")
def shipped():
    return parse_table(shipped_text())


def _override(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "prices.toml"
    path.write_text(text, encoding="utf-8")
    return path


# -- the shipped table ---------------------------------------------------------------------


def test_the_shipped_table_says_currency_date_and_source(shipped):
    assert shipped.currency == "USD"
    assert shipped.as_of == "2026-10"
    assert "MiniMax" in shipped.source and "pay-as-you-go" in shipped.source


def test_every_v1_video_combination_the_rules_accept_is_listed(shipped):
    """Iterates the validation rules: each (model, duration, resolution) is in the table, with a
    price or written as unknown — never missing, never 0."""
    combos = 0
    for model, rule in rules.VIDEO_MODELS.items():
        entry = shipped.get(model)
        assert entry is not None, f"{model} is not in the price table"
        assert entry.kind == "video" and entry.scheme == "per_clip"
        for duration, resolutions in rule.resolutions.items():
            for resolution in resolutions:
                combos += 1
                key = (resolution, duration)
                assert key in entry.per_clip, f"{model} {resolution} {duration} s is not listed"
                price = entry.per_clip[key]
                assert price is None or price > 0
    assert combos == 3 + 3 + 5 + 6  # 2.3, 2.3-Fast, 02, and the six 01 models


def test_every_v1_normalized_create_prices_or_says_unknown(shipped):
    """The estimate of each accepted combination, from the params normalize() produces."""
    frame = "https://example.com/frame.png"
    for model, rule in rules.VIDEO_MODELS.items():
        for duration, resolutions in rule.resolutions.items():
            for resolution in resolutions:
                raw = {
                    "model": model,
                    "prompt": "p",
                    "duration": duration,
                    "resolution": resolution,
                }
                if rule.needs_first_frame or resolution in rule.first_frame_only_resolutions:
                    raw["first_frame_image"] = frame
                if rule.needs_subject:
                    raw["subject_reference"] = frame
                cost = estimate("video", rules.normalize("video", raw), shipped)
                assert "not in the price table" not in cost.basis
                if cost.estimate is None:
                    assert cost.basis.endswith("price unknown"), cost.basis
                else:
                    assert cost.estimate > 0


def test_every_v2_model_resolution_and_duration_has_a_rate(shipped):
    for model, (resolutions, durations) in V2_MATRIX.items():
        entry = shipped.get(model)
        assert entry is not None and entry.kind == "video" and entry.scheme == "per_second"
        assert set(entry.per_second) == set(resolutions)
        for resolution in resolutions:
            rate = entry.per_second[resolution]
            assert rate is not None and rate > 0
            for duration in durations:
                params = {
                    "model": model,
                    "duration": duration,
                    "resolution": resolution,
                    "ratio": "16:9",
                    "content": [{"type": "text", "text": "p"}],
                }
                assert estimate("video", params, shipped).estimate == duration * rate


def test_every_image_model_is_listed_at_its_best_secondary_price(shipped):
    """MiniMax publishes no per-image price: the best secondary one, marked as such (issue 33:
    every kind has a price; shown as "about")."""
    from app.domain.prices import confidence

    for model in rules.IMAGE_MODELS:
        entry = shipped.get(model)
        assert entry is not None and entry.kind == "image" and entry.scheme == "per_image"
        assert entry.per_image == D("0.0035")
        assert confidence(shipped, entry) == "secondary"


def test_the_published_prices_exactly(shipped):
    h3, h3max = shipped.get("MiniMax-H3"), shipped.get("MiniMax-H3-Max")
    assert h3.per_second == {"768P": D("0.08"), "2K": D("0.13")}
    assert (h3.input_images.free, h3.input_images.each) == (5, D("0.04"))
    assert h3.reference_video == "output_rate" and h3.reference_audio == 0
    assert h3max.per_second == {"480P": D("0.05"), "768P": D("0.08")}
    assert (h3max.input_images.free, h3max.input_images.each) == (2, D("0.074"))
    assert h3max.reference_video is None and h3max.reference_audio is None
    assert shipped.get("MiniMax-Hailuo-2.3").per_clip[("768P", 6)] == D("0.28")
    assert shipped.get("MiniMax-Hailuo-2.3-Fast").per_clip[("768P", 6)] == D("0.19")
    assert shipped.get("MiniMax-Hailuo-02").per_clip[("512P", 6)] == D("0.10")


def test_unknown_is_written_as_unknown_and_zero_only_where_free_is_published():
    raw = tomllib.loads(shipped_text(), parse_float=Decimal)
    zeros, unknowns = [], 0

    def walk(path, value):
        nonlocal unknowns
        if isinstance(value, dict):
            for k, v in value.items():
                walk(path + (k,), v)
        elif value == "unknown":
            unknowns += 1
        elif isinstance(value, Decimal | int) and not isinstance(value, bool) and value == 0:
            zeros.append(".".join(path))

    walk((), raw)
    assert zeros == ["models.MiniMax-H3.reference_audio"]  # "audio free"
    # 2.3: 2, 2.3-Fast: 2, 02: 4, the 01 models: 6, H3-Max refs: 2, regeneration: 1,
    # Context-IR: 2, the four music models: 4, voice design: 1 (speech is priced per million
    # characters, images at their secondary price)
    assert unknowns == 24


def test_the_package_ships_the_table():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["app.resources"]
    assert any(fnmatch.fnmatch("prices.toml", p) for p in patterns)
    assert (ROOT / "resources" / "prices.toml").read_text(encoding="utf-8") == shipped_text()


# -- the user's override -------------------------------------------------------------------


def test_the_override_lives_in_the_config_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert override_path() == tmp_path / "Slate" / "prices.toml"
    assert load_price_table().get("MiniMax-Hailuo-2.3").per_clip[("1080P", 6)] is None
    (tmp_path / "Slate").mkdir()
    (tmp_path / "Slate" / "prices.toml").write_text(
        '[models."MiniMax-Hailuo-2.3".per_clip]\n"1080P" = { 6 = 0.49 }\n'
    )
    assert load_price_table().get("MiniMax-Hailuo-2.3").per_clip[("1080P", 6)] == D("0.49")


def test_the_override_wins_leaf_by_leaf(tmp_path, shipped):
    path = _override(
        tmp_path,
        (
            'as_of = "2026-11-02"\nsource = "my invoice"\n'
            '[models."MiniMax-Hailuo-2.3".per_clip]\n"1080P" = { 6 = 0.49 }\n'
            '[models."MiniMax-H3"]\nper_second = { "2K" = 0.15 }\n'
            '[models."image-01"]\nper_image = 0.0035\n'
        ),
    )
    table = load_price_table(path)
    hailuo = table.get("MiniMax-Hailuo-2.3").per_clip
    assert hailuo[("1080P", 6)] == D("0.49")
    assert hailuo[("768P", 6)] == D("0.28") and hailuo[("768P", 10)] is None
    assert table.get("MiniMax-H3").per_second == {"768P": D("0.08"), "2K": D("0.15")}
    assert table.get("MiniMax-H3").input_images == shipped.get("MiniMax-H3").input_images
    assert table.get("image-01").per_image == D("0.0035")
    assert table.get("image-01-live").per_image == D("0.0035")  # the shipped one stays
    assert (table.override_path, table.override_as_of, table.override_source) == (
        str(path),
        "2026-11-02",
        "my invoice",
    )
    assert (table.as_of, table.source) == (shipped.as_of, shipped.source)
    assert set(table.models) == set(shipped.models)


def test_the_override_adds_a_model_and_may_change_a_scheme(tmp_path):
    path = _override(
        tmp_path,
        (
            '[models."MiniMax-H4"]\nkind = "video"\nper_second = { "1080P" = 0.2 }\n'
            '[models."S2V-01"]\nper_second = { "720P" = 0.05 }\n'
        ),
    )
    table = load_price_table(path)
    assert table.get("MiniMax-H4").per_second == {"1080P": D("0.2")}
    s2v = table.get("S2V-01")
    assert s2v.scheme == "per_second" and s2v.per_second == {"720P": D("0.05")}


def test_a_designed_voice_is_one_unit_unknown_as_shipped_and_priced_by_an_override(
    tmp_path, shipped
):
    """Voice design is priced per voice (one slot, one voice), never by a video's second or
    clip; MiniMax publishes no price for it, so the shipped table says unknown — never 0."""
    voice = shipped.get("voice-design")
    assert (voice.kind, voice.scheme, voice.per_voice) == ("voice", "per_voice", None)
    params = {"model": "voice-design", "prompt": "warm", "preview_text": "Hello."}
    unknown = estimate("voice", params, shipped)
    assert unknown.estimate is None and "1 voice: price unknown" in unknown.basis
    table = load_price_table(_override(tmp_path, '[models."voice-design"]\nper_voice = 0.5\n'))
    priced = estimate("voice", params, table)
    assert priced.estimate == D("0.5") and "$0.50 a voice" in priced.basis
    assert estimate("voice", {**params, "preview_text": "x" * 500}, table).estimate == D("0.5")
    blank = load_price_table(_override(tmp_path, 'currency = "CNY"\n'))
    assert blank.get("voice-design").per_voice is None  # another currency: unknown, not 0


def test_an_override_in_another_currency_makes_what_it_does_not_restate_unknown(tmp_path):
    path = _override(
        tmp_path, ('currency = "CNY"\n[models."MiniMax-H3"]\nper_second = { "768P" = 0.56 }\n')
    )
    table = load_price_table(path)
    assert table.currency == "CNY"
    h3 = table.get("MiniMax-H3")
    assert h3.per_second == {"768P": D("0.56"), "2K": None}
    assert h3.input_images.each is None and h3.input_images.free == 5
    assert h3.reference_video == "output_rate" and h3.reference_audio is None
    assert table.get("MiniMax-Hailuo-2.3").per_clip[("768P", 6)] is None


def test_no_override_file_means_the_shipped_table(tmp_path, shipped):
    assert load_price_table(tmp_path / "absent.toml") == shipped


BAD_OVERRIDES = [
    # (file text, line, field, words in the message)
    (
        '[models."MiniMax-H3"]\nper_second = { "768P" = -0.08 }\n',
        2,
        "models.MiniMax-H3.per_second.768P",
        "negative",
    ),
    (
        '\n\n[models."MiniMax-H3"]\nper_second = { "768P" = "cheap" }\n',
        4,
        "models.MiniMax-H3.per_second.768P",
        "'cheap'",
    ),
    (
        '[models."MiniMax-H3"]\nper_second = { "768P" = "0.08" }\n',
        2,
        "models.MiniMax-H3.per_second.768P",
        'or "unknown"',
    ),
    (
        '[models."MiniMax-H3"]\nper_second = { "768P" = nan }\n',
        2,
        "models.MiniMax-H3.per_second.768P",
        "finite",
    ),
    (
        '[models."MiniMax-H3"]\nper_secnd = { "768P" = 0.08 }\n',
        2,
        "models.MiniMax-H3.per_secnd",
        "not a price field",
    ),
    (
        '[models."MiniMax-H3"]\nper_second = { "768" = 0.08 }\n',
        2,
        "models.MiniMax-H3.per_second.768",
        "resolution",
    ),
    (
        '# mine\n[models."MiniMax-H3".input_images]\nfree = -1\neach = 0.04\n',
        3,
        "models.MiniMax-H3.input_images.free",
        "whole number",
    ),
    (
        '[models."New-Model"]\nper_second = { "768P" = 0.08 }\n',
        1,
        "models.New-Model.kind",
        "required",
    ),
    (
        '[models."image-01"]\nper_second = { "768P" = 0.08 }\n',
        2,
        "models.image-01.per_second",
        "image model cannot be priced per second",
    ),
    (
        '[models."MiniMax-H3"]\nper_second = { "768P" = 0.08 }\n'
        'per_clip = { "768P" = { 6 = 1 } }\n',
        3,
        "models.MiniMax-H3.per_clip",
        "one billing scheme",
    ),
    (
        '[models."voice-design"]\nper_second = { "768P" = 0.08 }\n',
        2,
        "models.voice-design.per_second",
        "voice model cannot be priced per second",
    ),
    (
        '[models."voice-design"]\nper_clip = { "768P" = { 6 = 1 } }\n',
        2,
        "models.voice-design.per_clip",
        "voice model cannot be priced per clip",
    ),
    (
        '[models."music-2.6"]\nper_voice = 0.1\n',
        2,
        "models.music-2.6.per_voice",
        "music model cannot be priced per voice",
    ),
    ('[models."voice-design"]\nper_voice = -1\n', 2, "models.voice-design.per_voice", "negative"),
    ('currency = "usd"\n', 1, "currency", "three-letter"),
    ('colour = "red"\n', 1, "colour", "not a price table key"),
    (
        '[models."MiniMax-Hailuo-2.3".per_clip]\n"768P" = { six = 0.28 }\n',
        2,
        "models.MiniMax-Hailuo-2.3.per_clip.768P.six",
        "whole number of seconds",
    ),
    ('[models."MiniMax-H3"]\nper_second = { "768P" = 0.08\n', 2, "toml", "line 2"),
]


@pytest.mark.parametrize(("text", "line", "field", "words"), BAD_OVERRIDES)
def test_a_bad_override_names_file_line_and_field(tmp_path, text, line, field, words):
    path = _override(tmp_path, text)
    with pytest.raises(PriceTableError) as caught:
        load_price_table(path)
    err = caught.value
    assert (err.path, err.line, err.field) == (str(path), line, field)
    assert words in str(err)
    assert str(err).startswith(f"{path}:{line}: {field}: ")
    assert isinstance(err, ValidationError)


def test_an_override_that_is_not_utf8_names_its_line(tmp_path):
    path = tmp_path / "prices.toml"
    path.write_bytes("# ok\n# 价格\n".encode("gbk"))
    with pytest.raises(PriceTableError) as caught:
        load_price_table(path)
    assert (caught.value.line, caught.value.field) == (2, "file")


def test_an_override_with_a_bom_is_read(tmp_path):
    path = tmp_path / "prices.toml"
    path.write_bytes(b"\xef\xbb\xbf" + b'[models."image-01"]\nper_image = 0.01\n')
    assert load_price_table(path).get("image-01").per_image == D("0.01")


def test_a_complete_table_must_name_currency_date_source_and_models():
    with pytest.raises(PriceTableError, match="as_of: is required"):
        parse_table('currency = "USD"\nsource = "x"\n[models."a"]\nkind = "image"\nper_image = 1\n')
    with pytest.raises(PriceTableError, match="states no price"):
        parse_table(
            'currency = "USD"\nas_of = "2026-10"\nsource = "x"\n[models."a"]\nkind = "image"\n'
        )


def test_parse_with_override_is_the_pure_core_of_the_loader(shipped):
    table = parse_with_override(shipped_text(), '[models."image-01"]\nper_image = 0.02\n', "p.toml")
    assert table.get("image-01").per_image == D("0.02")
    assert table.override_path == "p.toml"


def test_key_lines_find_quoted_dotted_and_inline_keys():
    text = (
        '# c\ncurrency = "USD"\n\n[models."MiniMax-H3.5"]\nkind = "video"\n'
        'per_second = { "768P" = 0.1 }\n[models.\'lit\'.per_clip]\n"720P" = { 6 = 1 }\n'
        'models.x.kind = "image"\n'
    )
    lines = key_lines(text)
    assert lines[("currency",)] == 2
    assert lines[("models", "MiniMax-H3.5")] == 4
    assert lines[("models", "MiniMax-H3.5", "per_second")] == 6
    assert lines[("models", "lit", "per_clip", "720P")] == 8
    assert lines[("models", "lit", "per_clip", "models", "x", "kind")] == 9


@pytest.mark.parametrize("value", ["5", " 0.48 ", 3, "0"])
def test_parse_money_accepts_amounts(value):
    assert parse_money(value, "SLATE_BUDGET_DAILY") == D(str(value).strip())


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "five", "", True, None])
def test_parse_money_refuses_what_is_not_an_amount(value):
    with pytest.raises(ValidationError) as caught:
        parse_money(value, "SLATE_BUDGET_DAILY")
    assert caught.value.field == "SLATE_BUDGET_DAILY"
