"""Game clocks for the front ends: a time control and the two clocks of one game.

A :class:`ClockSetting` is either *minutes + increment* (``5+3``: five minutes each, three
seconds added after each move) or *time per move* (``move 10``: ten seconds for each move,
what is left is not kept). :class:`GameClock` runs the clock of the side to move: a move
charges its player the time it took (and adds the increment); a clock at zero has *fallen*
(:meth:`GameClock.fallen`), and by the rules of draughts the player who runs out of time
loses the game (:func:`flag_outcome`). An engine playing on a clock is sent it as
``go wtime btime winc binc`` (:meth:`GameClock.limits`); on time per move, as ``movetime``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Dict, Optional

from draughts_engine.game import GameResult
from draughts_engine.search.limits import SearchLimits

from .records import Outcome, PlayError

__all__ = ["ClockSetting", "GameClock", "ClockSettingError", "flag_outcome", "MAX_MINUTES"]

MAX_MINUTES = 600
MAX_INCREMENT_S = 600
ENGINE_MARGIN_MS = 100
"""Time kept back from an engine's time per move for the round trip."""


class ClockSettingError(PlayError):
    """A time control that cannot be read or is out of range."""


@dataclass(frozen=True)
class ClockSetting:
    """``base_ms`` each (``per_move``: for each move) and ``increment_ms`` added per move."""

    base_ms: int
    increment_ms: int = 0
    per_move: bool = False

    @classmethod
    def parse(cls, text: str) -> "ClockSetting":
        """``M+S`` (minutes, increment in seconds; ``M`` may have decimals) or ``move S``
        (seconds per move). Raises :class:`ClockSettingError`."""
        words = text.strip().lower().split()
        try:
            if len(words) == 2 and words[0] == "move":
                seconds = float(words[1])
                return cls.of(seconds / 60, 0, per_move=True)
            if len(words) == 2 and words[0] != "move":  # 1+0 in a link's query reads 1 0
                return cls.of(float(words[0]), float(words[1]))
            if len(words) == 1:
                minutes, _, increment = words[0].partition("+")
                return cls.of(float(minutes), float(increment or 0))
        except ValueError:
            pass
        raise ClockSettingError(f"not a time control: {text!r} (give minutes+increment such "
                               "as 5+3, or move SECONDS)")

    @classmethod
    def of(cls, minutes: float, increment_s: float = 0, per_move: bool = False) -> "ClockSetting":
        """From minutes and seconds; raises :class:`ClockSettingError` out of range."""
        if not 0 < minutes <= MAX_MINUTES or not 0 <= increment_s <= MAX_INCREMENT_S:
            raise ClockSettingError(f"a clock needs 0 < minutes <= {MAX_MINUTES} and an "
                                   f"increment of 0..{MAX_INCREMENT_S} seconds")
        base = round(minutes * 60_000)
        if base < 1000:
            raise ClockSettingError("a clock needs at least one second")
        return cls(base, round(increment_s * 1000), per_move)

    def describe(self) -> str:
        if self.per_move:
            return f"{self.base_ms / 1000:g} s per move"
        return f"{self.base_ms / 60_000:g}+{self.increment_ms / 1000:g}"


def flag_outcome(side: str, variant: str) -> Outcome:
    """The end of a game whose ``side`` ran out of time: the other side wins."""
    winner = "black" if side == "white" else "white"
    result = GameResult(winner, f"{side.capitalize()} ran out of time", "time")
    return Outcome(winner, result.reason, result.pdn(variant))


class GameClock:
    """The two clocks of one game under ``control`` (``now``: seconds, monotonic)."""

    def __init__(self, control: ClockSetting, now: Callable[[], float] = time.monotonic) -> None:
        self.control = control
        self.now = now
        self.remaining: Dict[str, int] = {"white": control.base_ms, "black": control.base_ms}
        self.running: Optional[str] = None
        self._since = 0.0

    def left(self, side: str) -> int:
        """Milliseconds ``side`` has now (may be negative once fallen)."""
        left = self.remaining[side]
        if self.running == side:
            left -= round((self.now() - self._since) * 1000)
        return left

    def start(self, side: str) -> None:
        """Run ``side``'s clock (per move: from a full move's time)."""
        self.pause()
        if self.control.per_move:
            self.remaining[side] = self.control.base_ms
        self.running = side
        self._since = self.now()

    def pause(self) -> None:
        """Stop the running clock, keeping what it has left."""
        if self.running is not None:
            self.remaining[self.running] = self.left(self.running)
            self.running = None

    def fallen(self) -> Optional[str]:
        """The side whose clock has reached zero, if any."""
        for side in ("white", "black"):
            if self.left(side) <= 0:
                return side
        return None

    def moved(self, side: str) -> bool:
        """``side`` has moved: charge its time, add the increment, run the other's clock.
        Returns False (nothing changed) when its clock had fallen before the move."""
        if self.left(side) <= 0:
            self.pause()
            return False
        self.pause()
        self.remaining[side] += self.control.increment_ms
        self.start("black" if side == "white" else "white")
        return True

    def ms_until_flag(self) -> Optional[int]:
        """Milliseconds until the running clock falls (None when none runs)."""
        return None if self.running is None else max(0, self.left(self.running))

    def limits(self, side: str) -> SearchLimits:
        """The search limits of an engine playing ``side`` on this clock."""
        if self.control.per_move:
            return SearchLimits(movetime_ms=max(1, self.left(side) - ENGINE_MARGIN_MS))
        return SearchLimits(wtime_ms=max(1, self.left("white")),
                            btime_ms=max(1, self.left("black")),
                            winc_ms=self.control.increment_ms, binc_ms=self.control.increment_ms)

    def to_json(self) -> Dict[str, object]:
        return {"white_ms": self.left("white"), "black_ms": self.left("black"),
                "running": self.running, "control": self.control.describe(),
                "increment_ms": self.control.increment_ms, "per_move": self.control.per_move}
