# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""credvault.vault.vault_password with totp_min_validity and totp_period, on a fake clock."""

from __future__ import annotations

from functools import partial

import pytest
from ansible.errors import AnsibleLookupError

from ansible_collections.credvault.vault.plugins.lookup import vault_password
from ansible_collections.credvault.vault.plugins.plugin_utils._totp_window import TotpWindow
from ansible_collections.credvault.vault.tests.unit.fakes import FakeClock
from ansible_collections.credvault.vault.tests.unit.plugins.lookup.scripted_vault import ANSWERS, CONNECTION
from ansible_collections.credvault.vault.tests.unit.plugins.plugin_utils.test_totp_window import WINDOW_START

PERIOD = 6


@pytest.fixture
def clock(monkeypatch):
    """The lookup's clock; starts 2 seconds into a window of ``PERIOD`` seconds."""
    fake = FakeClock(WINDOW_START + 2)
    monkeypatch.setattr(vault_password, "TotpWindow", partial(TotpWindow, clock=fake.time, sleep=fake.sleep))
    return fake


@pytest.fixture
def lookup(lookup_plugin, vault, clock):
    """``lookup(*terms, **kwargs)`` with field=totp; each FETCH_CURRENT_TOTP takes ``clock.request`` seconds and
    answers the code of the window it started in (the window's number, as six digits)."""
    vault.answers.update(ANSWERS)
    clock.request = 0.2

    def current_totp(path, details, query):
        code = "%06d" % (int(clock.now // PERIOD) % 1000000)
        clock.now += clock.request
        return {"TOTP": code}

    vault.answers["get_totp"] = current_totp

    def run(*terms, **kwargs):
        """A keyword given as None is not given at all."""
        options = dict(CONNECTION, field="totp", totp_period=PERIOD)
        options.update(kwargs)
        options = {name: value for name, value in options.items() if value is not None}
        return lookup_plugin("vault_password").run(list(terms), variables={}, **options)

    return run


def code_of_window(moment):
    return "%06d" % (int(moment // PERIOD) % 1000000)


def totp_fetches(vault):
    return [key for key, *dummy in vault.calls if key == "get_totp"]


def test_enough_time_left_is_not_waited_for(lookup, vault, clock):
    assert lookup("web/app", totp_min_validity=3) == [code_of_window(WINDOW_START)]
    assert clock.sleeps == [] and len(totp_fetches(vault)) == 1


def test_too_little_time_left_waits_for_the_next_window(lookup, vault, clock):
    assert lookup("web/app", totp_min_validity=5) == [code_of_window(WINDOW_START + PERIOD)]
    assert clock.sleeps == [4] and len(totp_fetches(vault)) == 1


def test_many_terms_wait_once_for_the_call(lookup, vault, clock):
    assert lookup("web/root", "web/app", "db/root", totp_min_validity=5) == [code_of_window(WINDOW_START + 6)] * 3
    assert clock.sleeps == [4] and len(totp_fetches(vault)) == 3


def test_a_window_that_rolls_over_during_the_request_is_fetched_again(lookup, vault, clock):
    clock.now = WINDOW_START + 4.8
    clock.request = 1.5
    assert lookup("web/app", totp_min_validity=1) == [code_of_window(WINDOW_START + PERIOD)]
    assert clock.sleeps == [] and len(totp_fetches(vault)) == 2


def test_without_totp_min_validity_the_current_code_is_returned_whatever_is_left(lookup, vault, clock):
    clock.now = WINDOW_START + 5.9
    assert lookup("web/app") == [code_of_window(WINDOW_START)]
    assert clock.sleeps == [] and len(totp_fetches(vault)) == 1


def test_a_vault_too_slow_for_the_margin_fails_after_three_fetches(lookup, vault, clock):
    clock.request = 2
    with pytest.raises(AnsibleLookupError) as caught:
        lookup("web/app", totp_min_validity=5)
    assert str(caught.value).startswith(
        "vault_password: no TOTP code with totp_min_validity seconds left in its window after 3 attempts"
    )
    assert len(totp_fetches(vault)) == 3


@pytest.mark.parametrize(
    "options, message",
    [
        ({"totp_min_validity": 6}, "totp_min_validity must be less than totp_period (the account's TOTP_VALIDITY"),
        ({"totp_min_validity": 30, "totp_period": 30}, "totp_min_validity must be less than totp_period"),
        # totp_period=None: not given, so 30 seconds.
        ({"totp_min_validity": 31, "totp_period": None}, "totp_min_validity must be less than totp_period"),
        ({"totp_min_validity": -1}, "totp_min_validity must be 0 or more seconds"),
        ({"totp_period": 0}, "totp_period must be 1 or more seconds"),
        ({"field": "password", "totp_min_validity": 5}, "totp_min_validity= and totp_period= apply only to field=totp"),
        ({"field": "password", "totp_period": None, "totp_min_validity": 5}, "totp_min_validity= applies only to"),
        ({"field": "password", "totp_period": None, "totp_min_validity": 0}, "totp_min_validity= applies only to"),
    ],
)
def test_options_are_checked_before_anything_is_sent(lookup, vault, options, message):
    with pytest.raises(AnsibleLookupError) as caught:
        lookup("web/app", **options)
    assert str(caught.value).startswith("vault_password: " + message)
    assert vault.clients == []


def test_the_period_is_30_seconds_unless_set(lookup, vault, clock):
    assert lookup("web/app", totp_period=None, totp_min_validity=29) == [code_of_window(WINDOW_START + 30)]
    assert clock.sleeps == [28]


def test_a_term_that_fails_is_not_fetched_again_and_fails_the_call(lookup, vault, clock):
    clock.request = 2
    with pytest.raises(AnsibleLookupError) as caught:
        lookup("web/app", "web/nobody", totp_min_validity=5)
    assert str(caught.value).startswith("vault_password: not found: ")
    assert len(totp_fetches(vault)) == 1
