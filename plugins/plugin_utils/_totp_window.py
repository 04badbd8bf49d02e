# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""TOTP codes fetched early enough in their window to still be valid where they are used.

Windows are those of RFC 6238 as the vault computes them: ``period`` seconds long and aligned to the Unix epoch,
so a code changes at every multiple of the period. The vault cannot report an account's period, so the caller
gives it; the controller's clock is taken to agree with the vault's.
"""

from __future__ import annotations

import time

# Fetches per call: the first, one after the window rolled over during the request, and one more in case the
# vault answered too slowly again. A vault that cannot answer within ``period - min_validity`` seconds three times
# running never will; the caller is told so instead of waiting for ever.
ATTEMPTS = 3


class TotpWindowMissed(Exception):
    """No fetch of ``ATTEMPTS`` ended in the window it started in with ``min_validity`` seconds left."""


class TotpWindow:
    """``fetch(function)``: ``function()``'s result, called so that it ends with at least ``min_validity`` seconds
    left in the window it started in. ``clock`` and ``sleep`` are ``time.time`` and ``time.sleep`` but in tests."""

    def __init__(self, period, min_validity, clock=time.time, sleep=time.sleep):
        self.period = period
        self.min_validity = min_validity
        self.clock = clock
        self.sleep = sleep

    def window(self, moment):
        return int(moment // self.period)

    def time_left(self, moment):
        return self.period - moment % self.period

    def fetch(self, function, failed=lambda result: False):
        """``failed(result)`` true: the result holds a failure rather than codes, returned whatever its timing."""
        for dummy_attempt in range(ATTEMPTS):
            self._wait_for_time_left()
            started = self.clock()
            result = function()
            ended = self.clock()
            if failed(result) or (
                self.window(started) == self.window(ended) and self.time_left(ended) >= self.min_validity
            ):
                return result
        raise TotpWindowMissed()

    def _wait_for_time_left(self):
        """Sleep until the next window opens when the current one has less than ``min_validity`` seconds left."""
        left = self.time_left(self.clock())
        if left < self.min_validity:
            self.sleep(left)
