"""The one source of randomness for generated tokens, ids, keys and passwords.

Without a seed it draws from the operating system; with ``--seed N`` every
value is reproducible for the same sequence of requests. Handlers run one at
a time (inside the store's transaction lock), so the sequence of draws does
not depend on thread scheduling.
"""

import random


class Randomness(random.Random):
    """``random.Random`` seeded by ``seed``, or the system source for ``None``."""

    def __init__(self, seed=None):
        super().__init__(seed)
        self._system = random.SystemRandom() if seed is None else None

    def random(self):
        return self._system.random() if self._system else super().random()

    def getrandbits(self, k):
        return self._system.getrandbits(k) if self._system else super().getrandbits(k)

    def token_bytes(self, count):
        return self.getrandbits(8 * count).to_bytes(count, "big")

    def token_hex(self, count):
        return self.token_bytes(count).hex()
