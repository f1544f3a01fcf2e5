"""Iterative-deepening alpha-beta for any :class:`~.interface.GameState`.

Used for the small games (tic-tac-toe, Tatedrez) where the draughts engine's
raw-int search does not apply.  Same limits and reports as the engine:
:class:`~.limits.SearchLimits` in, obeyed by the same :class:`~.budget.SearchBudget`
(``nodes N`` stops at N), :class:`~.limits.SearchInfo` after each completed iteration
(and a last one, counting all the nodes, after an iteration cut short), a
:class:`~.limits.SearchResult` out, whose moves are the game's own move values.

The search is fail-soft negamax alpha-beta with a transposition table keyed
by ``state.key()`` (the TT move is tried first), mate scores adjusted by ply,
and an early end once an iteration saw no node cut off by the depth limit:
the game tree is then fully solved and deeper iterations change nothing.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable, Dict, Hashable, List, Optional, Tuple

from .budget import MAX_DEPTH, POLL_NODES, SearchAborted, SearchBudget
from .interface import WIN, GameContractError, GameState, RootMoves, ply_adjusted
from .limits import SearchInfo, SearchLimits, SearchResult, score_to_protocol
from .tt import EXACT, LOWER, UPPER, TranspositionTable, cutoff

__all__ = ["search_game_state", "MAX_DEPTH", "POLL_NODES"]

SOLVED = 1 << 20  # TT depth of an entry whose subtree reached no depth limit
INFINITY = WIN + 1
DEFAULT_HASH_MB = 8


def _white_to_move(state: GameState) -> Optional[bool]:
    """Which clock belongs to the side to move, if the state says (else None)."""
    side = getattr(state, "side_to_move", None)
    if side is None:
        side = getattr(state, "white_to_move", None)
        return side if isinstance(side, bool) else None
    return str(side).lower() in ("white", "w", "x")


def search_game_state(state: GameState, limits: SearchLimits = SearchLimits(),
                      on_info: Optional[Callable[[SearchInfo], None]] = None,
                      stop: Optional[threading.Event] = None,
                      hash_mb: int = DEFAULT_HASH_MB) -> SearchResult:
    """Search ``state`` under ``limits``; see the module docstring.

    ``best_move`` is a legal move of ``state`` (the first legal move if the
    search is stopped before depth 1 completes), None only when the game is
    over.  ``stop`` is polled every :data:`POLL_NODES` nodes.  ``ponder`` is
    treated like ``infinite`` (the small games have no ponderhit).  ``limits.searchmoves``
    restricts the root; one line is reported whatever ``limits.multipv`` says.
    """
    stop = stop if stop is not None else threading.Event()
    start = time.perf_counter()
    root_moves = state.legal_moves() if state.terminal_score() is None else []
    if not root_moves:
        return SearchResult(None, None, None, None, 0, 0, 1, 0, ())
    chosen = [move for move in root_moves if move in limits.searchmoves]
    if chosen and len(chosen) < len(root_moves):  # searchmoves: a root of those moves only
        state, root_moves = RootMoves(state, chosen), chosen
    budget = SearchBudget(limits, _white_to_move(state), stop, None, start)
    table = TranspositionTable(hash_mb)
    tt: Dict[Hashable, Tuple[int, int, int, Any]] = table.table
    counters = {"nodes": 0, "seldepth": 0, "next_poll": POLL_NODES, "horizon": 0}
    budget_poll = budget.poll

    def negamax(s: GameState, depth: int, alpha: int, beta: int, ply: int) -> Tuple[int, List[Any]]:
        """Fail-soft alpha-beta; returns (score, principal variation)."""
        counters["nodes"] += 1
        if counters["nodes"] >= counters["next_poll"]:
            counters["next_poll"] = budget_poll(counters["nodes"])  # SearchAborted: out of budget
        if ply > counters["seldepth"]:
            counters["seldepth"] = ply
        terminal = s.terminal_score()
        if terminal is not None:
            return ply_adjusted(terminal, ply), []
        if depth <= 0:
            counters["horizon"] += 1
            return s.evaluate(), []
        key = s.key()
        entry = tt.get(key)
        tt_move = None
        if entry is not None:
            tt_move = entry[3]
            score = cutoff(entry, depth, alpha, beta, ply) if ply > 0 else None
            if score is not None:
                if entry[0] < SOLVED:
                    counters["horizon"] += 1  # the entry's subtree was cut by depth
                return score, [tt_move] if tt_move is not None else []
        moves = s.legal_moves()
        if not moves:
            raise GameContractError(f"{type(s).__name__} has no legal moves but is not finished")
        if tt_move is not None and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        alpha0 = alpha
        horizon0 = counters["horizon"]
        best, best_move, best_line = -INFINITY, moves[0], []
        for move in moves:
            score, line = negamax(s.play(move), depth - 1, -beta, -alpha, ply + 1)
            score = -score
            if score > best:
                best, best_move, best_line = score, move, [move] + line
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = LOWER if best >= beta else (EXACT if best > alpha0 else UPPER)
        # A subtree without depth cut-offs is solved: valid at any depth.
        table.store(key, depth if counters["horizon"] != horizon0 else SOLVED,
                    best, flag, best_move, ply)
        return best, best_line

    best_move = root_moves[0]
    best_score: Optional[int] = None
    best_pv: List[Any] = [best_move]
    completed = 0

    def report(depth: int) -> None:
        if on_info is not None and best_score is not None:
            elapsed = time.perf_counter() - start
            cp, mate = score_to_protocol(best_score)
            on_info(SearchInfo(depth, max(depth, counters["seldepth"]), cp, mate,
                               counters["nodes"], int(counters["nodes"] / max(elapsed, 1e-6)),
                               int(elapsed * 1000), table.hashfull(), tuple(best_pv)))

    try:
        for depth in range(1, budget.depth_limit + 1):
            counters["horizon"] = 0
            score, line = negamax(state, depth, -INFINITY, INFINITY, 0)
            budget.first_iteration = False
            budget.completed_depth = completed = depth
            if line:
                best_move, best_pv = line[0], line
            best_score = score
            report(depth)
            if not counters["horizon"]:
                break  # solved: no line was cut by the depth limit
            if limits.mate is not None and (WIN - score <= 2 * limits.mate - 1
                                            or depth >= 2 * limits.mate + 1):
                break  # the win asked for is found, or there is none that short
            if not budget.another_iteration(depth, counters["nodes"], len(root_moves) == 1):
                break
    except SearchAborted:
        report(completed)  # the iteration cut short searched nodes of its own: count them all
    elapsed = time.perf_counter() - start
    cp, mate = score_to_protocol(best_score) if best_score is not None else (None, None)
    ponder = best_pv[1] if len(best_pv) > 1 else None
    return SearchResult(best_move, ponder, cp, mate, completed,
                        max(completed, counters["seldepth"]), counters["nodes"],
                        int(elapsed * 1000), tuple(best_pv))
