"""Search limits in python-chess's words: :class:`Limit` (seconds, ``white_clock``...).

:class:`~draughts_engine.search.limits.SearchLimits` is the one limits type of the engine, in
the protocol's units (``movetime_ms``, ``wtime_ms``...).  :class:`Limit` is the friendly name
for scripts, shaped like python-chess's ``chess.engine.Limit``; every client call that takes
limits takes either (:func:`search_limits` converts)::

    engine.go(Limit(time=0.5))                              # go movetime 500
    engine.go(Limit(white_clock=60, black_clock=60, white_inc=1, black_inc=1))
"""

from __future__ import annotations

import numbers
import re
from dataclasses import dataclass, fields
from typing import Any, Dict, Optional, Union

from draughts_engine.search.limits import MAX_TIME_MS, InvalidLimitsError, SearchLimits

__all__ = ["Limit", "search_limits"]

#: Limit's names for SearchLimits' fields, and the factor from Limit's unit to SearchLimits'.
_FIELDS = {"time": ("movetime_ms", 1000), "depth": ("depth", 1), "nodes": ("nodes", 1),
           "white_clock": ("wtime_ms", 1000), "black_clock": ("btime_ms", 1000),
           "white_inc": ("winc_ms", 1000), "black_inc": ("binc_ms", 1000),
           "remaining_moves": ("movestogo", 1), "mate": ("mate", 1),
           "infinite": ("infinite", None), "ponder": ("ponder", None)}

#: The longest time a limit can give, in seconds (the protocol's bound on milliseconds).
MAX_SECONDS = MAX_TIME_MS / 1000

_LIMIT_NAME = {field: name for name, (field, _) in _FIELDS.items()}
_SEARCH_NAMES = re.compile(r"\b(" + "|".join(_LIMIT_NAME) + r")\b")

#: Names from ``go`` and SearchLimits that people reach for, with Limit's name for each.
_ALIASES = {"movetime": "time", "movetime_ms": "time", "wtime": "white_clock",
            "wtime_ms": "white_clock", "btime": "black_clock", "btime_ms": "black_clock",
            "winc": "white_inc", "winc_ms": "white_inc", "binc": "black_inc",
            "binc_ms": "black_inc", "movestogo": "remaining_moves", "clock_id": None}


@dataclass(frozen=True)
class Limit:
    """When a search ends, in seconds (python-chess's ``chess.engine.Limit``).

    ``time``: seconds for this move (``go movetime``); ``depth`` in plies; ``nodes``;
    ``white_clock``/``black_clock``: seconds left on each clock (both, for a clock), with
    ``white_inc``/``black_inc`` seconds added per move and ``remaining_moves`` to the next
    time control; ``mate``: until a win in that many moves is found (``go mate``);
    ``infinite``: until stopped; ``ponder``: until ``ponderhit`` or stopped.
    The search ends at the first limit reached.  A name that is not a limit raises
    :class:`TypeError` naming the valid ones; a value out of range
    :class:`~draughts_engine.search.limits.InvalidLimitsError` (a ``ValueError``).

    >>> Limit(time=0.5).search_limits() == SearchLimits(movetime_ms=500)
    True
    >>> Limit(depth=6, nodes=10000)
    Limit(depth=6, nodes=10000)
    """

    time: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    white_clock: Optional[float] = None
    black_clock: Optional[float] = None
    white_inc: Optional[float] = None
    black_inc: Optional[float] = None
    remaining_moves: Optional[int] = None
    mate: Optional[int] = None
    infinite: bool = False
    ponder: bool = False

    def __new__(cls, *args: Any, **kwargs: Any) -> "Limit":
        for name in kwargs:  # before __init__, so that the message can name the limits
            if name not in _FIELDS:
                raise TypeError(_unknown(name))
        return super().__new__(cls)

    def __post_init__(self) -> None:
        for name, (_, factor) in _FIELDS.items():
            value = getattr(self, name)
            if factor != 1000 or value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise InvalidLimitsError(f"{name} is a number of seconds, got {value!r}")
            if not 0 <= value <= MAX_SECONDS:  # (NaN compares false)
                raise InvalidLimitsError(f"{name} must be in 0..{MAX_SECONDS} seconds, "
                                         f"got {value!r}")
        if self.time is not None and self.time <= 0:
            raise InvalidLimitsError(f"time must be more than 0 seconds, got {self.time!r}")
        self.search_limits()  # the other checks of SearchLimits, in Limit's words

    def search_limits(self) -> SearchLimits:
        """The same limits as a :class:`SearchLimits` (seconds rounded to whole milliseconds;
        a move time to at least 1 ms)."""
        values: Dict[str, Any] = {}
        for name, (field, factor) in _FIELDS.items():
            value = getattr(self, name)
            if value is None or value is False:
                continue
            if factor == 1000:
                value = max(1, round(value * 1000)) if name == "time" else round(value * 1000)
            values[field] = value
        try:
            return SearchLimits(**values)
        except InvalidLimitsError as exc:
            raise InvalidLimitsError(_SEARCH_NAMES.sub(lambda m: _LIMIT_NAME[m.group()],
                                                       str(exc))) from None

    def __repr__(self) -> str:
        given = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if getattr(self, f.name) != f.default]
        return f"Limit({', '.join(given)})"


def _unknown(name: str) -> str:
    """The message for a keyword that is not a limit: the right name if we can guess it."""
    known = f"The limits are: {', '.join(_FIELDS)}."
    if _ALIASES.get(name):
        hint = _ALIASES[name]
        unit = " (in seconds)" if _FIELDS[hint][1] == 1000 else ""
        return f"Limit() has no limit {name!r}: did you mean {hint}={unit}? {known}"
    if name in _ALIASES:
        return f"Limit() has no limit {name!r}: the protocol has no such limit. {known}"
    return f"Limit() has no limit {name!r}. {known}"


def search_limits(limits: Union[Limit, SearchLimits]) -> SearchLimits:
    """``limits`` as a :class:`SearchLimits` (a :class:`Limit` converted; a SearchLimits as
    it is); :class:`TypeError` for anything else."""
    if isinstance(limits, SearchLimits):
        return limits
    if isinstance(limits, Limit):
        return limits.search_limits()
    raise TypeError(f"limits are a protocol.client.Limit (seconds: Limit(time=0.5), "
                    f"Limit(depth=6)) or a SearchLimits, got {limits!r}")
