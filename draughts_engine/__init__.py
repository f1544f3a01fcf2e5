"""draughts_engine: rules, search and evaluation for draughts, in pure Python.

The table of contents (each module one concern; arrows of import run down the list):

* :mod:`.errors` -- the error classes (all :class:`DraughtsError`, a ``ValueError``)
* :mod:`.variants` -- rule sets as frozen data, every per-variant fact
  (:func:`get_variant`, :class:`Variant`, :class:`~.variants.DrawRules`)
* :mod:`.runtime` -- CPython or PyPy: which shape the hot code takes
* :mod:`.bitboard` -- square <-> bit layout of the diagonal boards (8x8, 10x10, 12x12);
  :mod:`.fullboard` -- the same for the all-squares boards (Turkish)
* :mod:`.movegen` -- legal moves on raw bitboards (the hot path; a package)
* :mod:`.move`, :mod:`.notation` -- the :class:`Move` value; move and square text in
  and out, in numbers or (8x8) algebraic squares (:func:`parse_move`, :func:`format_move`)
* :mod:`.position` -- immutable positions, FEN in and out, hash keys (:class:`Position`)
* :mod:`.pdn_reader`, :mod:`.pdn_writer` -- PDN lexing and reading, one game at a time;
  writing one game (neither needs the game class)
* :mod:`.game` -- game records: undo/redo, draw rules, results (:class:`Game`)
* :mod:`.pdn` -- PDN collections: :func:`read_games`, :func:`iter_games`,
  :func:`stream_games`, :func:`write_game`
* :mod:`.perft` -- move-tree counts (:func:`perft`); :mod:`.cli` its command line,
  ``python -m draughts_engine perft``
* :mod:`.eval` -- static evaluation by name (:func:`~.eval.evaluator`; a package): the
  tuned model (``eval/tuned.py``), the hand-set one (``eval/handset.py``), the textbook
  count (``eval/classic.py``), the all-squares boards' (``eval/allsquares.py``), the shared
  terms (``eval/terms.py``)
* :mod:`.endgame` -- endgame databases: build, store, probe (a package)
* :mod:`.search` -- the searches and their limits (a package)
* :mod:`.games` -- tic-tac-toe and Tatedrez on the same search interface

>>> p = Position.start("russian")
>>> p.fen("algebraic")[:20], perft(p, 3)
('W:Wa1,a3,b2,c1,c3,d2', 302)
"""
from __future__ import annotations

import sys as _sys
from importlib import import_module as _import_module
from typing import Any as _Any, Dict as _Dict, List as _List

__version__ = "0.1.0"

#: Exported name -> the module of this package that defines it.
_WHERE: _Dict[str, str] = {
    **dict.fromkeys(["AmbiguousMoveError", "DraughtsError", "GameOverError", "IllegalMoveError",
                     "InvalidFenError", "InvalidMoveError", "InvalidPdnError", "UndoError"],
                    "errors"),
    **dict.fromkeys(["Game", "GameResult"], "game"),
    "Move": "move",
    **dict.fromkeys(["format_move", "parse_move"], "notation"),
    **dict.fromkeys(["iter_games", "read_games", "stream_games", "write_game"], "pdn"),
    "perft": "perft",
    "Position": "position",
    **dict.fromkeys(["ALGEBRAIC", "NUMERIC", "UnknownVariantError", "Variant", "get_variant",
                     "variant_for_game_type", "variant_names"], "variants"),
}


def __getattr__(name: str) -> _Any:
    """A name of ``__all__`` not loaded yet (see below): its module is imported now."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> _List[str]:
    return sorted(set(globals()) | set(__all__))


# A program importing the package gets its names at once.  While ``python -m`` locates the
# module it is about to run (``sys.argv[0]`` is "-m" until then) they load on first use
# instead: the command's own guard then meets a Ctrl-C during the loading and ends the
# command with status 130 and nothing printed (``draughts_engine.__main__``, and
# ``protocol.launch`` for the commands of ``protocol``); the package never ends the process.
if _sys.argv[:1] != ["-m"]:
    from .errors import (AmbiguousMoveError, DraughtsError, GameOverError, IllegalMoveError,
                         InvalidFenError, InvalidMoveError, InvalidPdnError, UndoError)
    from .game import Game, GameResult
    from .move import Move
    from .notation import format_move, parse_move
    from .pdn import iter_games, read_games, stream_games, write_game
    from .perft import perft
    from .position import Position
    from .variants import (ALGEBRAIC, NUMERIC, UnknownVariantError, Variant, get_variant,
                           variant_for_game_type, variant_names)

__all__ = ["Position", "Move", "Game", "GameResult", "Variant", "get_variant", "variant_names",
           "variant_for_game_type", "NUMERIC", "ALGEBRAIC", "parse_move", "format_move", "perft",
           "read_games", "iter_games", "stream_games", "write_game",
           "DraughtsError", "InvalidFenError", "InvalidMoveError", "IllegalMoveError",
           "AmbiguousMoveError", "InvalidPdnError", "GameOverError", "UndoError",
           "UnknownVariantError", "__version__"]
