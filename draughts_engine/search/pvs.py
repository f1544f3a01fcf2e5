"""One run of the engine's own search: :class:`PvsSearch` (iterative deepening and reports).

:class:`PvsSearch` sets a search up (root moves, budget, the tree of
:mod:`.tree`), deepens one ply at a time with aspiration windows
(:func:`search_window`), reports each completed iteration and turns the
raw result into :class:`~..move.Move` values.  The search itself is
:func:`~.tree.make_tree_search`'s; the limits are :class:`~.budget.SearchBudget`'s.
With endgame databases (:class:`~..endgame.EndgameTables`), a root they cover
has its moves ordered by the databases' results first (so that even a search
stopped at once plays the best one), and the tree asks them at every node.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..bitboard import popcount
from ..eval import evaluator
from ..move import Move
from ..movegen import RawMove
from ..position import Position
from ..variants import LOSE_GOAL
from .budget import MAX_DEPTH, SearchAborted, SearchBudget
from .interface import MATE_BOUND, WIN
from .limits import SearchInfo, SearchLimits, SearchResult, score_to_protocol
from .ordering import age_history, new_killers, sort_root_moves
from .tree import INFINITY, MAX_PLY, make_tree_search
from .tt import TranspositionTable

__all__ = ["PvsSearch", "search_window", "ASPIRATION", "to_move"]

ASPIRATION = 40
"""Half-width of the first aspiration window (centi-men)."""

RawPosition = Tuple[int, int, int, bool]


def search_window(root_search: Callable[[int, int, int], Tuple[int, RawMove]], depth: int,
                  previous: Optional[int]) -> Tuple[int, RawMove]:
    """``root_search`` to ``depth``: from depth 4 in a window around the ``previous``
    iteration's score (widened, three times more each time, until the score falls
    inside; fully open past 1000), else with a full window."""
    if depth < 4 or previous is None or abs(previous) >= MATE_BOUND:
        return root_search(depth, -INFINITY, INFINITY)
    delta = ASPIRATION
    alpha, beta = previous - delta, previous + delta
    while True:
        score, move = root_search(depth, alpha, beta)
        if score <= alpha:
            alpha = max(-INFINITY, alpha - delta)
        elif score >= beta:
            beta = min(INFINITY, beta + delta)
        else:
            return score, move
        delta *= 3
        if delta > 1000:
            alpha, beta = -INFINITY, INFINITY


class PvsSearch:
    """One run of the engine's own search (the state of a single ``Searcher.search`` call).

    ``table``, ``move_history`` (the history heuristic's scores) and
    ``ponderhit`` belong to the :class:`~.engine.Searcher` and outlive the run;
    ``evaluation`` names the evaluation, ``pruning`` turns selective search on,
    ``endgame`` (an :class:`~..endgame.EndgameTables` of the position's variant, or
    None) gives exact results of the positions it covers.
    See :meth:`~.engine.Searcher.search` for the rest.
    """

    def __init__(self, position: Position, limits: SearchLimits,
                 history: Sequence[RawPosition],
                 on_info: Optional[Callable[[SearchInfo], None]],
                 stop: Optional[threading.Event], *, table: TranspositionTable,
                 move_history: Dict[int, int], ponderhit: threading.Event,
                 evaluation: str, pruning: bool, endgame: Any = None) -> None:
        self.position = position
        self.limits = limits
        root = position.raw
        hist = [tuple(h) for h in history]
        if not hist or hist[-1] != root:
            hist.append(root)
        self.history = hist
        self.on_info = on_info
        self.stop = stop if stop is not None else threading.Event()
        self.table = table
        self.move_history = move_history
        self.ponderhit = ponderhit
        self.evaluation = evaluation
        self.pruning = pruning
        self.endgame = endgame
        self.root_tbhits = 0

    def run(self) -> SearchResult:
        """Search to the limits; the result's move is legal (None: no legal move)."""
        position = self.position
        start = time.perf_counter()
        age_history(self.move_history)
        budget = SearchBudget(self.limits, position.white_to_move, self.stop, self.ponderhit, start)
        root_moves = position.generator.moves(*position.raw)
        if not root_moves:
            return SearchResult(None, None, None, None, 0, 0, 0, 0, ())
        sort_root_moves(root_moves, position.kings, self.move_history)
        tt_move = self.table.move(position.raw)
        if tt_move is not None and tt_move in root_moves:
            root_moves.remove(tt_move)
            root_moves.insert(0, tt_move)
        probe = None
        probe_pieces = 0
        if self.endgame is not None and self.endgame.max_pieces:
            probe, probe_pieces = self.endgame.probe, self.endgame.max_pieces
            if popcount(position.white | position.black) <= probe_pieces:
                self._order_by_tables(root_moves, probe)
        variant = position.variant
        draw = variant.draw
        tree = make_tree_search(
            position.generator, evaluator(self.evaluation, variant).evaluate,
            majority=variant.majority_capture,
            no_progress=draw.no_progress_plies or draw.kings_only_plies or (1 << 30),
            table=self.table, history=self.move_history, killers=new_killers(MAX_PLY + 2),
            prune=self.pruning, game_path=self.history, root_moves=root_moves, budget=budget,
            probe=probe, probe_pieces=probe_pieces, no_moves_wins=variant.goal == LOSE_GOAL)
        self.tree = tree

        best_move: RawMove = root_moves[0]
        best_score: Optional[int] = None
        best_pv: Tuple[RawMove, ...] = (best_move,)
        completed = 0
        done_seldepth = 0
        try:
            for depth in range(1, MAX_DEPTH + 1):
                if depth > budget.depth_limit:
                    break
                tree.new_iteration()
                score, move = search_window(tree.root_search, depth, best_score)
                budget.first_iteration = False
                budget.completed_depth = completed = depth
                nodes, seldepth = tree.counters()
                done_seldepth = max(seldepth, depth)
                best_move, best_score = move, score
                pv = tree.pv()
                best_pv = pv if pv and pv[0] == move else (move,)
                if self.on_info is not None:
                    self.on_info(self._info(depth, done_seldepth, score, nodes,
                                            time.perf_counter() - start, best_pv))
                if abs(score) >= MATE_BOUND and depth >= WIN - abs(score) + 4:
                    break  # a forced result, searched beyond its length
                if not budget.another_iteration(depth, nodes, len(root_moves) == 1):
                    break
        except SearchAborted:
            moved = tree.best_so_far()
            if moved is not None and moved != best_move:
                best_move = moved
                best_pv = (best_move,)
            # The iteration cut short searched nodes of its own: a last report with the
            # whole count (a GUI, and ``go nodes N``, read the last info line's nodes).
            if self.on_info is not None and best_score is not None:
                nodes, _ = tree.counters()
                self.on_info(self._info(completed, done_seldepth, best_score, nodes,
                                        time.perf_counter() - start, best_pv))
        nodes, _ = tree.counters()
        return self._result(best_move, best_score, best_pv, completed, done_seldepth, nodes,
                            time.perf_counter() - start)

    def _order_by_tables(self, root_moves: List[RawMove], probe: Callable) -> None:
        """Put the root moves in the order of the databases' results (best first:
        the quickest win, then draws, then the slowest loss), when they know the
        position after every move."""
        w, b, k, wtm = self.position.raw
        rev = len(self.history) - 1
        scores = {}
        for m in root_moves:
            nw, nb, nk = self.position.generator.play(w, b, k, wtm, m)
            found = probe(nw, nb, nk, not wtm, rev + 1 if k & m[0] and not m[2] else 0)
            if found is None:
                return
            self.root_tbhits += 1
            result, plies = found
            scores[m] = 0 if not result else (-(WIN - plies) if result > 0 else WIN - plies)
        root_moves.sort(key=lambda m: scores[m], reverse=True)

    # ---- reporting ------------------------------------------------------------------------
    def _moves_of_pv(self, pv: Sequence[RawMove]) -> Tuple[Move, ...]:
        """Convert a raw PV to Move values, stopping at the first illegal move."""
        out = []
        pos = self.position
        for raw in pv:
            legal = pos.raw_moves()
            if raw not in legal:
                break
            out.append(to_move(pos, raw))
            pos = pos.play_raw(raw)
        return tuple(out)

    def _info(self, depth: int, seldepth: int, score: int, nodes: int, elapsed: float,
              pv: Sequence[RawMove]) -> SearchInfo:
        cp, mate = score_to_protocol(score)
        return SearchInfo(depth, seldepth, cp, mate, nodes, int(nodes / max(elapsed, 1e-6)),
                          int(elapsed * 1000), self.table.hashfull(), self._moves_of_pv(pv),
                          self.root_tbhits + self.tree.tbhits())

    def _result(self, best_move: RawMove, score: Optional[int], pv: Sequence[RawMove], depth: int,
                seldepth: int, nodes: int, elapsed: float) -> SearchResult:
        moves = self._moves_of_pv(pv)
        if not moves or moves[0].raw != best_move:
            moves = (to_move(self.position, best_move),)
        ponder = moves[1] if len(moves) > 1 else self._ponder_from_tt(best_move)
        cp, mate = score_to_protocol(score) if score is not None else (None, None)
        return SearchResult(moves[0], ponder, cp, mate, depth, seldepth, nodes,
                            int(elapsed * 1000), moves)

    def _ponder_from_tt(self, best_move: RawMove) -> Optional[Move]:
        """The expected reply to ``best_move``: the table's move of the position after it."""
        child = self.position.play_raw(best_move)
        reply = self.table.move(child.raw)
        if reply is None or reply not in child.raw_moves():
            return None
        return to_move(child, reply)


def to_move(position: Position, raw: RawMove) -> Move:
    """The :class:`Move` of a legal raw move of ``position``."""
    if not raw[2]:
        geo = position.geometry
        s, e = geo.square_of_bit(raw[0]), geo.square_of_bit(raw[1])
        return Move(s, e, (), bool(raw[3]), (s, e), raw)
    for move in position.legal_moves():
        if move.raw == raw:
            return move
    raise ValueError(f"{raw!r} is not a legal move of {position.fen()}")
