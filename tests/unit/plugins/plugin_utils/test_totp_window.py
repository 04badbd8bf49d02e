# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""TotpWindow: RFC 6238 windows, and fetches that end with time left, on a fake clock."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.plugin_utils._totp_window import (
    ATTEMPTS,
    TotpWindow,
    TotpWindowMissed,
)
from ansible_collections.credvault.vault.tests.unit.fakes import FakeClock

# A window of 30 seconds starts at every multiple of 30 since the epoch; 1_800_000_000 is one.
WINDOW_START = 1_800_000_000


def timed(clock, period=30, min_validity=10):
    return TotpWindow(period, min_validity, clock=clock.time, sleep=clock.sleep)


def request(clock, *durations):
    """A fetch taking ``durations[n]`` seconds the n-th time; it returns the window it started in and is counted."""
    starts = []

    def fetch():
        starts.append(clock.now)
        clock.now += durations[len(starts) - 1]
        return int(starts[-1] // 30)

    fetch.starts = starts
    return fetch


@pytest.mark.parametrize(
    "moment, window",
    # RFC 6238 appendix B: T0 = 0, X = 30 and the T of each test time.
    [(59, 0x1), (1111111109, 0x23523EC), (1111111111, 0x23523ED), (1234567890, 0x273EF07), (20000000000, 0x27BC86AA)],
)
def test_windows_are_those_of_rfc_6238(moment, window):
    assert timed(FakeClock(0)).window(moment) == window


def test_time_left_counts_to_the_next_multiple_of_the_period():
    window = timed(FakeClock(0), period=6, min_validity=1)
    assert [window.time_left(moment) for moment in (60, 61.5, 65.75)] == [6, 4.5, 0.25]


def test_no_wait_when_enough_time_is_left():
    clock = FakeClock(WINDOW_START + 19.5)
    fetch = request(clock, 0.4)
    assert timed(clock).fetch(fetch) == WINDOW_START // 30
    assert clock.sleeps == [] and fetch.starts == [WINDOW_START + 19.5]


def test_too_little_time_left_waits_for_the_next_window():
    clock = FakeClock(WINDOW_START + 25)
    fetch = request(clock, 0.4)
    assert timed(clock).fetch(fetch) == WINDOW_START // 30 + 1
    assert clock.sleeps == [5] and fetch.starts == [WINDOW_START + 30]


def test_a_window_that_rolls_over_during_the_request_is_fetched_again_at_once():
    clock = FakeClock(WINDOW_START + 28.5)
    fetch = request(clock, 2, 0.4)
    assert timed(clock, min_validity=1).fetch(fetch) == WINDOW_START // 30 + 1
    assert clock.sleeps == [] and fetch.starts == [WINDOW_START + 28.5, WINDOW_START + 30.5]


def test_a_request_that_ends_with_too_little_time_left_is_fetched_again_in_the_next_window():
    clock = FakeClock(WINDOW_START + 19.5)
    fetch = request(clock, 1, 0.4)
    assert timed(clock).fetch(fetch) == WINDOW_START // 30 + 1
    assert clock.sleeps == [9.5] and fetch.starts == [WINDOW_START + 19.5, WINDOW_START + 30]


def test_a_vault_too_slow_for_the_margin_is_given_up_on():
    clock = FakeClock(WINDOW_START)
    fetch = request(clock, *[25] * ATTEMPTS)
    with pytest.raises(TotpWindowMissed):
        timed(clock).fetch(fetch)
    assert len(fetch.starts) == ATTEMPTS == 3


def test_a_failure_is_returned_whatever_its_timing():
    clock = FakeClock(WINDOW_START + 19.5)
    fetch = request(clock, 25)
    assert timed(clock).fetch(fetch, failed=lambda result: True) == WINDOW_START // 30
    assert clock.sleeps == [] and len(fetch.starts) == 1
