"""A web board's clocks: the players' time control (:mod:`protocol.play.clock`) and the timer
that wakes the board when the running clock reaches zero, so that a fallen flag ends the game
even while nobody acts.

The board calls these from the thread that drives its controller (an action, or its worker),
with its state lock held where :meth:`BoardClocks.arm` says so; the timer only calls back.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Dict, Optional

from draughts_engine.search.limits import SearchLimits
from protocol.play.clock import ClockSetting, GameClock, flag_outcome
from protocol.play.controller import GameController

__all__ = ["BoardClocks"]

FLAG_MARGIN_S = 0.05
"""The timer fires this long after the clock should reach zero (it is then surely at zero)."""


class BoardClocks:
    """The clocks of one board (:attr:`clock`: ``None`` without a time control), read by
    ``time_source``; ``on_flag`` is called (on a timer thread) once the running clock may
    have reached zero."""

    def __init__(self, time_source: Callable[[], float], on_flag: Callable[[], None]) -> None:
        self.time_source = time_source
        self.on_flag = on_flag
        self.clock: Optional[GameClock] = None
        self._timer: Optional[threading.Timer] = None
        self._armed: Any = None  # what the timer was set for

    def reset(self, control: Optional[ClockSetting], side: Optional[str]) -> None:
        """Fresh clocks of ``control`` (none without one), ``side``'s running (``None``:
        none runs, as when the game is over)."""
        self.clock = None if control is None else GameClock(control, self.time_source)
        if self.clock is not None and side is not None:
            self.clock.start(side)

    def pause(self) -> None:
        """Stop the running clock (looking back, a review, a finished game)."""
        if self.clock is not None:
            self.clock.pause()

    def moved(self, side: str) -> None:
        """``side`` played: its clock stops (and gets its increment), the other one runs."""
        if self.clock is not None:
            self.clock.moved(side)

    def start_turn(self, side: str) -> Optional[SearchLimits]:
        """``side``'s engine starts thinking: its clock runs; the limits it searches under
        (``None`` without clocks)."""
        if self.clock is None:
            return None
        if self.clock.running != side:
            self.clock.start(side)
        return self.clock.limits(side)

    def fallen(self) -> Optional[str]:
        """The side whose clock is at zero, if any (``None`` without clocks)."""
        return None if self.clock is None else self.clock.fallen()

    def end_on_flag(self, controller: GameController) -> bool:
        """A running clock at zero ends the game: its side loses (the rules of draughts).
        Returns whether it ended the game now."""
        clock = self.clock
        if clock is None or clock.running is None:
            return False
        side = clock.fallen()
        if side is None or controller.result().is_over:
            return False
        clock.pause()
        controller.end_game(flag_outcome(side, controller.variant))
        return True

    def arm(self, closed: bool) -> None:
        """Set the timer for the running clock's zero (none when no clock runs or the board is
        ``closed``); a no-op while that has not changed. Caller holds the board's state lock."""
        clock = self.clock
        wanted = None if clock is None or closed else (clock.running, clock.remaining[
            clock.running] if clock.running else None, id(clock))
        if wanted == self._armed:
            return
        self._armed = wanted
        self.cancel()
        if clock is None or clock.running is None or closed:
            return
        delay = (clock.ms_until_flag() or 0) / 1000 + FLAG_MARGIN_S
        timer = threading.Timer(delay, self.on_flag)
        timer.daemon = True
        self._timer = timer
        timer.start()

    def cancel(self) -> None:
        """Stop the timer, if set."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def to_json(self) -> Optional[Dict[str, object]]:
        """The clocks as the page draws them (``None`` without clocks)."""
        return None if self.clock is None else self.clock.to_json()
