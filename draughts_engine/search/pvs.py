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
from functools import partial
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..bitboard import popcount
from ..eval import evaluator
from ..move import Move
from ..movegen import RawMove
from ..position import Position
from ..variants import LOSE_GOAL
from .budget import MAX_DEPTH, SearchAborted, SearchBudget
from .eval_cache import EvaluationCache
from .interface import MATE_BOUND, WIN
from .limits import (LOWERBOUND, UPPERBOUND, RootMoveInfo, SearchInfo, SearchLimits,
                     SearchResult, score_to_protocol)
from .ordering import age_history, new_killers, sort_root_moves
from .parallel_role import FollowingBudget, HelperAhead, ParallelRole, PublishingBudget
from .shared_table import HelperResult, move_fingerprint
from .tree import INFINITY, MAX_PLY, make_tree_search
from .tt import TranspositionTable

__all__ = ["PvsSearch", "search_window", "root_move_named", "ASPIRATION", "to_move"]

ASPIRATION = 40
"""Half-width of the first aspiration window (centi-men)."""

REPORT_AFTER = 1.0
"""Seconds of search before ``currmove`` reports and failed aspiration windows are reported."""

CURRMOVE_INTERVAL = 0.25
"""Seconds between two ``currmove`` reports, at least."""

RawPosition = Tuple[int, int, int, bool]


def search_window(root_search: Callable[[int, int, int], Tuple[int, RawMove]], depth: int,
                  previous: Optional[int],
                  on_bound: Optional[Callable[[int, str], None]] = None) -> Tuple[int, RawMove]:
    """``root_search`` to ``depth``: from depth 4 in a window around the ``previous``
    iteration's score (widened, three times more each time, until the score falls
    inside; fully open past 1000), else with a full window.  ``on_bound(score, bound)``
    hears of each failed window (``bound``: :data:`~.limits.LOWERBOUND` when the score
    failed high, :data:`~.limits.UPPERBOUND` when it failed low)."""
    if depth < 4 or previous is None or abs(previous) >= MATE_BOUND:
        return root_search(depth, -INFINITY, INFINITY)
    delta = ASPIRATION
    alpha, beta = previous - delta, previous + delta
    while True:
        score, move = root_search(depth, alpha, beta)
        if score <= alpha:
            if on_bound is not None:
                on_bound(score, UPPERBOUND)
            alpha = max(-INFINITY, alpha - delta)
        elif score >= beta:
            if on_bound is not None:
                on_bound(score, LOWERBOUND)
            beta = min(INFINITY, beta + delta)
        else:
            return score, move
        delta *= 3
        if delta > 1000:
            alpha, beta = -INFINITY, INFINITY


def root_move_named(root_moves: Sequence[RawMove], fingerprint: int) -> Optional[RawMove]:
    """The root move whose :func:`~.shared_table.move_fingerprint` is ``fingerprint`` (what a
    helper publishes of its move), or None."""
    return next((m for m in root_moves if move_fingerprint(m) == fingerprint), None)


class PvsSearch:
    """One run of the engine's own search (the state of a single ``Searcher.search`` call).

    ``table``, ``move_history`` (the history heuristic's scores) and
    ``ponderhit`` belong to the :class:`~.engine.Searcher` and outlive the run;
    ``evaluation`` names the evaluation, ``pruning`` turns selective search on,
    ``endgame`` (an :class:`~..endgame.EndgameTables` of the position's variant, or
    None) gives exact results of the positions it covers; ``eval_cache`` (the searcher's,
    kept between runs; a new one when None) remembers static evaluations.
    See :meth:`~.engine.Searcher.search` for the rest.
    """

    def __init__(self, position: Position, limits: SearchLimits,
                 history: Sequence[RawPosition],
                 on_info: Optional[Callable[[SearchInfo], None]],
                 stop: Optional[threading.Event], *, table: TranspositionTable,
                 move_history: Dict[int, int], ponderhit: threading.Event,
                 evaluation: str, pruning: bool, endgame: Any = None,
                 on_root_move: Optional[Callable[[RootMoveInfo], None]] = None,
                 parallel: Optional[ParallelRole] = None,
                 eval_cache: Optional[EvaluationCache] = None) -> None:
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
        self.on_root_move = on_root_move
        self.parallel = parallel
        self.eval_cache = eval_cache if eval_cache is not None else EvaluationCache()
        self.root_tbhits = 0

    def run(self) -> SearchResult:
        """Search to the limits; the result's move is legal (None: no legal move).

        With ``limits.multipv`` K above 1, each depth searches K lines: line 1 over every
        root move, line I over the moves that are not the first moves of lines 1..I-1;
        the lines are then sorted best first and reported together.  ``bestmove`` is
        line 1's move.  ``limits.searchmoves`` keeps only those root moves;
        ``limits.mate`` N searches without pruning to 2N+1 plies at most and ends once
        a win in N moves at most is found.
        """
        position = self.position
        limits = self.limits
        start = time.perf_counter()
        age_history(self.move_history)
        parallel = self.parallel
        ahead: Optional[Tuple[HelperResult, RawMove]] = None  # a helper's result to take

        def helper_ahead(depth: int) -> bool:
            """Whether a helper has completed ``depth`` (its result then in ``ahead``)."""
            nonlocal ahead
            found = parallel.helper_best()  # type: ignore[union-attr,misc]
            if found is None or found.depth < depth:
                return False
            move = root_move_named(root_moves, found.fingerprint)
            if move is None:
                return False
            ahead = (found, move)
            return True

        if parallel is not None and parallel.publish_nodes is not None:
            budget: SearchBudget = PublishingBudget(parallel.publish_nodes, limits,
                                                    position.white_to_move, self.stop,
                                                    self.ponderhit, start)
        elif parallel is not None and parallel.helper_best is not None:
            budget = FollowingBudget(helper_ahead, limits, position.white_to_move, self.stop,
                                     self.ponderhit, start)
        else:
            budget = SearchBudget(limits, position.white_to_move, self.stop, self.ponderhit,
                                  start)
        root_moves = position.generator.moves(*position.raw)
        if not root_moves:
            return SearchResult(None, None, None, None, 0, 0, 0, 0, ())
        restricted = False
        if limits.searchmoves:
            wanted = {getattr(move, "raw", move) for move in limits.searchmoves}
            chosen = [m for m in root_moves if m in wanted]
            if chosen and len(chosen) < len(root_moves):
                root_moves, restricted = chosen, True
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
        mate = limits.mate
        variant = position.variant
        draw = variant.draw
        tree = make_tree_search(
            position.generator, self.eval_cache.wrap(evaluator(self.evaluation, variant).evaluate),
            majority=variant.majority_capture,
            no_progress=draw.no_progress_plies or draw.kings_only_plies or (1 << 30),
            table=self.table, history=self.move_history, killers=new_killers(MAX_PLY + 2),
            prune=self.pruning and mate is None, game_path=self.history, root_moves=root_moves,
            budget=budget, probe=probe, probe_pieces=probe_pieces,
            no_moves_wins=variant.goal == LOSE_GOAL, restricted_root=restricted,
            on_root_move=self._root_move_reporter(start) if self.on_root_move else None,
            shared=parallel.table.access() if parallel is not None else None)
        self.tree = tree
        self.root_moves = root_moves

        lines = min(limits.multipv, len(root_moves))
        last_depth = min(MAX_DEPTH, 2 * mate + 1) if mate is not None else MAX_DEPTH
        line_scores: List[Optional[int]] = [None] * lines
        best_move: RawMove = root_moves[0]
        best_score: Optional[int] = None
        best_pv: Tuple[RawMove, ...] = (best_move,)
        completed = 0
        best_depth = 0  # the depth of best_score: line 1 of a depth may end before the others
        done_seldepth = 0
        line = 0
        skip = parallel.skip if parallel is not None else None
        # The main process of a parallel search takes an iteration a helper completed first
        # (one line, all root moves, no mate search: what a helper searches too).
        following = (budget if isinstance(budget, FollowingBudget) and lines == 1
                     and not restricted and mate is None else None)
        try:
            for depth in range(1, last_depth + 1):
                if depth > budget.depth_limit:
                    break
                if depth <= completed or (skip is not None and skip(depth)):
                    continue
                tree.new_iteration()
                found: List[Tuple[int, Tuple[RawMove, ...]]] = []
                ahead = None
                try:
                    if following is not None:
                        following.iteration = depth
                        if not following.first_iteration and helper_ahead(depth):
                            raise HelperAhead
                    for line in range(lines):
                        score, move = self._search_line(tree, depth, line, line_scores[line],
                                                        start)
                        pv = tree.pv()
                        pv = pv if pv and pv[0] == move else (move,)
                        found.append((score, pv))
                        if line == 0:
                            best_move, best_score, best_pv = move, score, pv
                            best_depth = depth
                            budget.first_iteration = False
                except HelperAhead:
                    taken, move = ahead  # type: ignore[misc]
                    depth = best_depth = taken.depth
                    best_move, best_score = move, taken.score
                    best_pv = self._shared_pv(parallel, move, depth)  # type: ignore[arg-type]
                    found = [(best_score, best_pv)]
                    root_moves.remove(move)  # (searched first next, as after an iteration)
                    root_moves.insert(0, move)
                finally:
                    if following is not None:
                        following.iteration = 0
                budget.completed_depth = completed = depth
                nodes, seldepth = tree.counters()
                done_seldepth = max(seldepth, depth)
                if lines > 1:  # best first, the root moves in the same order
                    found.sort(key=lambda item: -item[0])
                    root_moves[:lines] = [pv[0] for _, pv in found]
                    best_score, best_pv = found[0]
                    best_move = best_pv[0]
                line_scores = [score for score, _ in found]
                if parallel is not None and parallel.publish_result is not None:
                    parallel.publish_result(depth, best_score, best_move)
                if self.on_info is not None:
                    elapsed = time.perf_counter() - start
                    for number, (score, pv) in enumerate(found, 1):
                        self.on_info(self._info(depth, done_seldepth, score, nodes, elapsed, pv,
                                                number if lines > 1 else 0))
                score = found[0][0]
                if mate is not None and WIN - score <= 2 * mate - 1:
                    break  # the win asked for is proven
                if lines == 1 and abs(score) >= MATE_BOUND and depth >= WIN - abs(score) + 4:
                    break  # a forced result, searched beyond its length
                if not budget.another_iteration(depth, nodes, len(root_moves) == 1):
                    break
        except SearchAborted:
            moved = tree.best_so_far() if line == 0 else None
            if moved is not None and moved != best_move:
                best_move = moved
                best_pv = (best_move,)
            # The iteration cut short searched nodes of its own: a last report with the
            # whole count (a GUI, and ``go nodes N``, read the last info line's nodes).
            if self.on_info is not None and best_score is not None:
                nodes, _ = tree.counters()
                self.on_info(self._info(best_depth, max(done_seldepth, best_depth), best_score,
                                        nodes, time.perf_counter() - start, best_pv,
                                        1 if lines > 1 else 0))
        if parallel is not None and parallel.helper_best is not None and not restricted:
            adopted = self._adopt_helper_result(parallel, completed, start)
            if adopted is not None:
                best_move, best_score, best_pv, completed = adopted
        nodes, _ = tree.counters()
        if parallel is not None and parallel.helper_nodes is not None:
            nodes += parallel.helper_nodes()
        return self._result(best_move, best_score, best_pv, completed, done_seldepth, nodes,
                            time.perf_counter() - start)

    def _adopt_helper_result(self, parallel: ParallelRole, completed: int, start: float
                             ) -> Optional[Tuple[RawMove, int, Tuple[RawMove, ...], int]]:
        """A helper's result completed deeper than this search's ``completed`` depth, as
        ``(move, score, pv, depth)`` (its line reported), or None: the deeper search knows
        better (the helpers search other depths than this process)."""
        found = parallel.helper_best()  # type: ignore[misc]
        if found is None or found.depth <= completed:
            return None
        move = root_move_named(self.root_moves, found.fingerprint)
        if move is None:
            return None
        pv = self._shared_pv(parallel, move, found.depth)
        if self.on_info is not None:
            nodes, seldepth = self.tree.counters()  # (_info adds the helpers' nodes)
            self.on_info(self._info(found.depth, max(seldepth, found.depth), found.score,
                                    nodes, time.perf_counter() - start, pv))
        return move, found.score, pv, found.depth

    def _shared_pv(self, parallel: ParallelRole, first: RawMove,
                   length: int) -> Tuple[RawMove, ...]:
        """``first`` and the best moves the shared table holds after it (``length`` at most)."""
        probe = parallel.table.access().probe
        generator = self.position.generator
        w, b, k, wtm = self.position.raw
        pv = [first]
        seen = {(w, b, k, wtm)}
        move = first
        while len(pv) < length:
            w, b, k = generator.play(w, b, k, wtm, move)
            wtm = not wtm
            key = (w, b, k, wtm)
            if key in seen:
                break
            seen.add(key)
            entry = probe(key)
            if entry is None or not entry[3]:
                break
            move = next((m for m in generator.moves(w, b, k, wtm)
                         if move_fingerprint(m) == entry[3]), None)
            if move is None:
                break
            pv.append(move)
        return tuple(pv)

    def _search_line(self, tree: Any, depth: int, line: int, previous: Optional[int],
                     start: float) -> Tuple[int, RawMove]:
        """Line ``line`` (0 = the best) of iteration ``depth``, in an aspiration window
        around its ``previous`` score; a failed window is reported once the search has
        run :data:`REPORT_AFTER` seconds."""
        root_search = partial(tree.root_search, first=line) if line else tree.root_search
        return search_window(root_search, depth, previous,
                             self._bound_reporter(tree, depth, line, start))

    def _bound_reporter(self, tree: Any, depth: int, line: int,
                        start: float) -> Optional[Callable[[int, str], None]]:
        """``search_window``'s ``on_bound`` for line ``line``: a report with the bound once
        the search has run :data:`REPORT_AFTER` seconds (None without ``on_info``)."""
        if self.on_info is None:
            return None
        on_info = self.on_info
        lines = self.limits.multipv

        def on_bound(score: int, bound: str) -> None:
            elapsed = time.perf_counter() - start
            if elapsed >= REPORT_AFTER:
                nodes, seldepth = tree.counters()
                pv = tree.pv() or (self.root_moves[line],)
                on_info(self._info(depth, max(seldepth, depth), score, nodes, elapsed, pv,
                                   line + 1 if lines > 1 else 0, bound))

        return on_bound


    def _root_move_reporter(self, start: float) -> Callable[[int, RawMove, int], None]:
        """The tree's root-move hook: a :class:`~.limits.RootMoveInfo` to ``on_root_move``
        once the search has run :data:`REPORT_AFTER` seconds, every
        :data:`CURRMOVE_INTERVAL` seconds at most."""
        last = [0.0]
        position = self.position
        report = self.on_root_move

        def on_root_move(depth: int, move: RawMove, index: int) -> None:
            now = time.perf_counter()
            if now - start >= REPORT_AFTER and now - last[0] >= CURRMOVE_INTERVAL:
                last[0] = now
                report(RootMoveInfo(depth, to_move(position, move), index + 1))

        return on_root_move

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
              pv: Sequence[RawMove], multipv: int = 0, bound: str = "") -> SearchInfo:
        cp, mate = score_to_protocol(score)
        if self.parallel is not None and self.parallel.helper_nodes is not None:
            nodes += self.parallel.helper_nodes()
        return SearchInfo(depth, seldepth, cp, mate, nodes, int(nodes / max(elapsed, 1e-6)),
                          int(elapsed * 1000), self.table.hashfull(), self._moves_of_pv(pv),
                          self.root_tbhits + self.tree.tbhits(), multipv, bound)

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
