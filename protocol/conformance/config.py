"""What a run is asked to do (:class:`Config`) and what a check gives back
(:class:`CheckResult`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import FrozenSet, Optional, Tuple

__all__ = ["PASS", "FAIL", "SKIP", "DEFAULT_STOP_THRESHOLD_MS", "DEFAULT_TIMEOUT",
           "HUB_DEFAULT_THRESHOLD_MS", "HUB_DEFAULT_TIMEOUT", "Config", "CheckResult"]

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"

DEFAULT_STOP_THRESHOLD_MS = 500
"""Default worst acceptable latency of ``stop`` and of ``isready`` during a search, in ms."""

DEFAULT_TIMEOUT = 5.0
"""Default seconds to wait for any single answer."""

HUB_DEFAULT_THRESHOLD_MS = 1000
"""Default lateness allowed to a Hub engine's timed answers (``done``, ``stop``, ``quit``),
in ms."""

HUB_DEFAULT_TIMEOUT = 10.0
"""Default seconds to wait for any single answer of a Hub engine."""

MIN_CHECK_TIME = 1.0
"""A check starts only with more than this many seconds of the suite's budget left."""


@dataclass(frozen=True)
class Config:
    """What to run and how patiently.

    ``timeout``: seconds to wait for any single answer (and the unit of each check's budget);
    ``stop_threshold_ms``: the worst acceptable latency of ``stop``, ``isready`` during a search
    and time-limit overshoot; ``grace``: seconds to watch for lines that must not come (a
    second ``bestmove``, a ``bestmove`` held back); ``total_timeout``: the whole run's budget;
    ``hub``: judge a Hub v2 engine instead (only ``timeout`` and ``stop_threshold_ms``, the
    margin of its timed answers, apply).
    """

    command: Tuple[str, ...]
    variant: str = "english"
    timeout: float = DEFAULT_TIMEOUT
    stop_threshold_ms: int = DEFAULT_STOP_THRESHOLD_MS
    stop_samples: int = 5
    grace: float = 0.3
    total_timeout: float = 300.0
    only: Optional[FrozenSet[int]] = None
    verbose: bool = False
    transcript_lines: int = 14
    hub: bool = False

    @property
    def threshold(self) -> float:
        """``stop_threshold_ms`` in seconds."""
        return self.stop_threshold_ms / 1000


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check; ``transcript`` is kept for FAIL only."""

    number: int
    name: str
    status: str
    reason: str
    seconds: float
    transcript: Tuple[str, ...] = ()
