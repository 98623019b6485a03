"""The fault soak's held phase (tests/support/soak.py, issue 38): what it still owes when the
kill phase ends is decided by the counts alone, never by how fast the machine ran."""

from __future__ import annotations

import pytest

from tests.support.soak import Owed, held_phase


def test_a_loaded_machine_short_of_faults_owes_rate_limits_and_no_kill():
    # CI at load 15-24: 8 workers killed before they sent much, 2 faults; the shard asserts 2, 4
    assert held_phase(kills=8, faults=2, least=(2, 4)) == Owed(kills=0, rate_limits=2)


def test_a_quiet_machine_short_of_kills_owes_kills_and_no_fault():
    # the first worker settled the other slots before its kill timer ran out
    assert held_phase(kills=0, faults=6, least=(3, 4)) == Owed(kills=3, rate_limits=0)


@pytest.mark.parametrize(("kills", "faults"), [(3, 4), (9, 30)])
def test_nothing_is_owed_once_the_least_is_reached(kills, faults):
    assert held_phase(kills, faults, least=(3, 4)) == Owed(kills=0, rate_limits=0)


def test_both_short_owe_both():
    assert held_phase(kills=1, faults=0, least=(3, 4)) == Owed(kills=2, rate_limits=4)
