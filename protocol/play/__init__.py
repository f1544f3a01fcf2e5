"""Play, watch and replay games: the terminal front end and the game logic it shares.

UI-independent (no printing, no terminal code), for every front end:

* :mod:`protocol.play.controller`: :class:`GameController`, one game between two players
  (people, our engine, any engine command; engines driven through the reference clients);
* :mod:`protocol.play.records`: :class:`GameRecord` (draughts and the small games behind one
  interface), :class:`BoardView`, the errors;
* :mod:`protocol.play.players`: :class:`PlayerSpec` (``human``, ``engine``,
  ``cmd:<command> proto=hub``) and :class:`EnginePlayer`.

The terminal program (``python3 -m protocol.play``, ``draughts-play``): :mod:`.cli` (arguments),
:mod:`.terminal` (the game loop), :mod:`.render` (board drawing), :mod:`.replay` (``--replay``).
docs/play.md is the user's guide.
"""
from __future__ import annotations

from protocol.launch import PackageLoading

with PackageLoading():  # Ctrl-C while `python3 -m protocol.play` loads: status 130, quietly
    from .controller import DEFAULT_LIMITS, GameController, Hint, NotYourTurnError, PlayedMove
    from .players import EngineFailure, EnginePlayer, PlayerSpec, PlayerSpecError, level_limits
    from .records import (VARIANTS, BoardView, Cell, GameFinishedError, GameRecord, LoadError,
                          MoveRejected, Outcome, PlayError, UndoRedoError, new_record,
                          records_from_text)


__all__ = [
    "GameController", "PlayedMove", "Hint", "NotYourTurnError", "DEFAULT_LIMITS",
    "PlayerSpec", "PlayerSpecError", "EnginePlayer", "EngineFailure", "level_limits",
    "GameRecord", "BoardView", "Cell", "Outcome", "VARIANTS", "new_record", "records_from_text",
    "PlayError", "MoveRejected", "GameFinishedError", "UndoRedoError", "LoadError",
]
