"""draughts_engine: rules, search and evaluation for draughts, in pure Python.

The table of contents:

* :mod:`.variants` rule sets as data (:func:`get_variant`)
* :mod:`.bitboard` square/bit layout
* :mod:`.movegen` legal moves on raw bitboards (the hot path)
* :mod:`.position` immutable positions, FEN, hash keys
* :mod:`.move`, :mod:`.notation` move values and PDN move text
* :mod:`.game` game records, undo/redo, draw rules, results
* :mod:`.pdn` PDN games in and out
* :mod:`.perft` move-tree counts
* :mod:`.search`, :mod:`.evaluate` the brain
"""
from __future__ import annotations

from .errors import (AmbiguousMoveError, DraughtsError, IllegalMoveError, InvalidFenError,
                     InvalidMoveError, InvalidPdnError, UndoError)
from .game import Game, GameResult
from .move import Move
from .notation import parse_move
from .perft import perft
from .position import Position
from .variants import UnknownVariantError, Variant, get_variant, variant_names

__version__ = "0.1.0"

__all__ = ["Position", "Move", "Game", "GameResult", "Variant", "get_variant", "variant_names",
           "parse_move", "perft", "DraughtsError", "InvalidFenError", "InvalidMoveError",
           "IllegalMoveError", "AmbiguousMoveError", "InvalidPdnError", "UndoError",
           "UnknownVariantError", "__version__"]
