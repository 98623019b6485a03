"""Fault specs of the demo provider (``--fault`` / ``--demo-fault``): names, values, refusals."""

from __future__ import annotations

import pytest

from app.sim.config import ALWAYS, FAULTS, RANDOM_DEFAULT, Faults, parse_faults


def test_bare_counted_switch_means_always_and_numbers_mean_next_n() -> None:
    assert parse_faults("rate-limit") == {"rate_limit": ALWAYS}
    assert parse_faults(["rate_limit=2"]) == {"rate_limit": 2}


def test_kebab_snake_commas_and_repeats() -> None:
    assert parse_faults(["lose-create-response=1, slow=30", "status_word=completed"]) == {
        "lose_create_response": 1,
        "slow": 30.0,
        "status_word": "completed",
    }
    assert parse_faults("status-word") == {"status_word": ""}  # an empty word
    assert parse_faults(None) == {} and parse_faults("") == {}


def test_a_code_alone_switches_its_counter_on() -> None:
    assert parse_faults("create-error-code=2061") == {
        "create_error_code": 2061,
        "create_error": ALWAYS,
    }
    assert parse_faults("create-error=1,create-error-code=1030") == {
        "create_error": 1,
        "create_error_code": 1030,
    }
    assert parse_faults("content-fail-code=1026")["content_fail"] == ALWAYS


def test_random() -> None:
    assert parse_faults("random=0.1") == {"random": {name: 0.1 for name in RANDOM_DEFAULT}}
    assert parse_faults("random.overloaded=0.5") == {"random": {"overloaded": 0.5}}


@pytest.mark.parametrize(
    "spec",
    [
        "nonsense",
        "slow=-1",
        "slow=nan",
        "slow=inf",
        "rate-limit=-2",
        "rate-limit=x",
        "random=1.5",
        "random.nothing=0.1",
        "random.slow=0.1",
        "create-error-code=abc",
    ],
)
def test_bad_specs_are_refused_naming_the_part(spec: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_faults(spec)
    assert spec.split("=")[0].replace("random.", "").replace("-", "_") in str(info.value).replace(
        "-", "_"
    )


def test_every_switch_is_a_field_and_every_field_a_switch() -> None:
    fields = set(Faults.__dataclass_fields__) - {"random"}
    assert fields == set(FAULTS)
    faults = Faults()
    faults.update(**{k: v for k, v in parse_faults(",".join(FAULTS)).items()})
    assert faults.rate_limit == ALWAYS and faults.slow == 600.0
