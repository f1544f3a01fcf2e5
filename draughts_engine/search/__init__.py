"""Searches: the engine's own (iterative-deepening PVS) and the textbook family.

Table of contents, by module:

* :mod:`.engine`: :class:`Searcher` (options, tables kept between searches,
  ``search``), :data:`ALGORITHMS`, :func:`bench` (the node-count signature);
* :mod:`.limits`: :class:`SearchLimits` in, :class:`SearchInfo` reports and a
  :class:`SearchResult` out;
* :mod:`.pvs`: one run of the engine's search (iterative deepening, aspiration
  windows, reports); :mod:`.tree`: its node search, quiescence and root move
  loop (the hot code); :mod:`.ordering`: move ordering and reductions;
  :mod:`.budget`: the limits of a running search; :mod:`.timeman`: deadlines
  from clocks; :mod:`.tt`: the transposition table;
* :mod:`.interface`: the ``GameState`` protocol and scores (``WIN``, ``win_in``);
  :mod:`.classic`: minimax, negamax, alpha-beta, NegaScout over any ``GameState``;
  :mod:`.generic`: iterative-deepening alpha-beta for any ``GameState`` (the
  small games); :mod:`.draughts_state`: draughts positions as ``GameState``.

Every name of ``__all__`` can be imported from here; the module behind it is
loaded on first use, so importing ``draughts_engine.search.limits`` alone
stays cheap.

>>> from draughts_engine.search import Searcher, SearchLimits
>>> from draughts_engine import Position
>>> Searcher().search(Position.start("english"), SearchLimits(depth=2)).best_move is not None
True
"""
from __future__ import annotations

from importlib import import_module
from typing import Any, Dict, List

#: Exported name -> the module of this package that defines it.
_WHERE: Dict[str, str] = {
    **dict.fromkeys(["Searcher", "UnknownAlgorithmError", "ALGORITHMS", "DEFAULT_CLASSIC_DEPTH",
                     "bench", "BenchResult", "BENCH_POSITIONS", "BENCH_DEPTH"], "engine"),
    **dict.fromkeys(["SearchLimits", "SearchInfo", "SearchResult", "InvalidLimitsError",
                     "score_to_protocol", "mate_in_moves", "LIMIT_RANGES", "CLOCK_FIELDS",
                     "MAX_DEPTH"], "limits"),
    **dict.fromkeys(["SearchBudget", "SearchAborted", "POLL_NODES"], "budget"),
    **dict.fromkeys(["Deadlines", "deadlines"], "timeman"),
    **dict.fromkeys(["TranspositionTable", "InvalidHashSizeError"], "tt"),
    **dict.fromkeys(["GameState", "GameContractError", "WIN", "LOSS", "MATE_BOUND", "win_in",
                     "loss_in", "is_decisive", "ply_adjusted"], "interface"),
    **dict.fromkeys(["minimax", "negamax", "alphabeta", "negascout", "SEARCHES", "ClassicResult",
                     "SearchStopped"], "classic"),
    "search_game_state": "generic",
    "DraughtsState": "draughts_state",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
