"""A clock that a test moves by hand, for code that takes a ``clock`` callable."""
from __future__ import annotations


class FakeClock:
    """Calling it reads ``now``, in seconds; the test moves it on with ``clock.now += s``."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
