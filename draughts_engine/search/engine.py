"""The draughts search engine: iterative-deepening PVS on raw bitboards.

:class:`Engine` owns the options (hash size, evaluation, algorithm) and the
state kept between searches of a game (transposition table, history
heuristic).  :meth:`Engine.search` searches a :class:`~.position.Position`
under :class:`~.limits.SearchLimits`, reports each completed iteration
through ``on_info`` (in the calling thread) and returns a
:class:`~.limits.SearchResult`.  It never prints.

The tree search (``pvs``) works on plain ints: positions are the raw tuples
``(white, black, kings, white_to_move)`` and moves the generator's tuples
(see :mod:`draughts_engine.movegen`); :class:`~.move.Move` values are made
only for the result and the reports.  Its parts:

* principal variation search with fail-soft bounds and aspiration windows;
* a transposition table keyed by the exact raw position (:mod:`.tt`);
* move ordering: TT move, then (captures being forced) the larger captures
  first, or for quiet moves the killer moves and the history heuristic;
* late move reductions of quiet late moves, never when either side has a
  capture pending;
* a single legal reply is not counted as a ply (forced lines extend);
* quiescence: a position where the side to move must capture is never
  scored statically, all captures are searched; at the horizon, a position
  where the opponent threatens a capture gets one more ply;
* mate scores ``win_in(ply)`` / ``loss_in(ply)`` (fastest win, slowest loss);
* a repetition (in the search path or of the game history) and the
  variant's no-progress count score as a draw;
* limits: depth, nodes, move time, clock (via :mod:`.timeman`), ``stop``
  (polled every :data:`POLL_NODES` nodes), ``infinite``, ``ponder``.

The classic searches of :mod:`.classic` are available by name: they search
:class:`~.draughts_state.DraughtsState` to ``limits.depth`` (default
:data:`DEFAULT_CLASSIC_DEPTH`) one ply deeper at a time, report each completed
depth, and obey ``stop``, ``infinite``, ``movetime_ms`` and ``nodes`` (polled every
:data:`~.classic.STOP_POLL_NODES` nodes); clocks and ponder are not theirs.

Not modelled in the search: the lone-king ending move limits of the draw
rules (the game record applies them), and contempt (a draw scores 0).
"""
from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..bitboard import popcount
from ..evaluate import evaluator
from ..move import Move
from ..movegen import RawMove
from ..position import Position
from .classic import SEARCHES, SearchStopped
from .draughts_state import DraughtsState
from .interface import MATE_BOUND, WIN
from .limits import SearchInfo, SearchLimits, SearchResult, score_to_protocol
from .timeman import deadlines
from .tt import EXACT, LOWER, UPPER, TranspositionTable

__all__ = ["Engine", "UnknownAlgorithmError", "ALGORITHMS", "MAX_DEPTH", "DEFAULT_CLASSIC_DEPTH",
           "POLL_NODES", "BenchResult", "BENCH_POSITIONS", "BENCH_DEPTH", "bench"]

ALGORITHMS = ("pvs", "minimax", "negamax", "alphabeta", "negascout")
"""Search algorithms by name: the engine's own, then the textbook family."""

MAX_DEPTH = 99
"""Deepest nominal iteration (also the cap of ``infinite`` and ``ponder`` searches)."""

MAX_PLY = 256
"""Deepest ply (with extensions and quiescence) a search path may reach."""

DEFAULT_CLASSIC_DEPTH = 4
"""Depth of a classic search when the limits give none."""

POLL_NODES = 256
"""Nodes between two checks of ``stop``, the clock and the node limit."""

INFINITY = WIN + 1
ASPIRATION = 40       # half-width of the first aspiration window (centi-men)
PRUNE_DEPTH = 3       # static pruning only this close to the horizon ...
RFP_MARGIN = 80       # ... fail high if eval - RFP_MARGIN * depth >= beta
FUTILITY_MARGINS = (0, 150, 250, 1 << 20)  # ... fail low if eval + margin[depth] <= alpha


class UnknownAlgorithmError(ValueError):
    """Raised for a search algorithm name not in :data:`ALGORITHMS`."""


class _Abort(Exception):
    """Internal: the search was stopped or ran out of budget."""


def _lmr_table() -> Tuple[Tuple[int, ...], ...]:
    """Reductions by (depth, move index) for quiet late moves."""
    table = []
    for depth in range(64):
        row = []
        for index in range(64):
            if depth < 2 or index < 2:
                row.append(0)
            else:
                r = int(1.0 + math.log(depth) * math.log(index) / 1.5)
                row.append(max(1, min(r, depth - 1)))
        table.append(tuple(row))
    return tuple(table)


_LMR = _lmr_table()


def _has_quiet(board: int, half: int, white: int, black: int, kings: int, white_to_move: bool) -> bool:
    """Whether the side to move has a non-capturing move (exact when it has no capture)."""
    empty = board ^ white ^ black
    half1 = half + 1
    if white_to_move:
        own_kings = white & kings
        men = white ^ own_kings
        if ((men >> half) | (men >> half1)) & empty:
            return True
    else:
        own_kings = black & kings
        men = black ^ own_kings
        if ((men << half) | (men << half1)) & empty:
            return True
    return bool(own_kings and ((own_kings >> half) | (own_kings >> half1)
                               | (own_kings << half) | (own_kings << half1)) & empty)


class Engine:
    """A draughts engine: options, tables kept between searches, and :meth:`search`.

    One search at a time (the protocol layer runs it in a worker thread);
    :meth:`ponderhit` may be called from another thread while it runs.
    """

    def __init__(self, hash_mb: int = 16, evaluation: str = "full", algorithm: str = "pvs",
                 pruning: bool = True) -> None:
        """``pruning=False`` turns off the selective parts of ``pvs`` (late move
        reductions, static pruning near the horizon): its score then equals a
        full-width alpha-beta search with the same quiescence (for tests and analysis)."""
        self.pruning = pruning
        self._tt = TranspositionTable(hash_mb)
        self._history: Dict[int, int] = {}
        self._ponderhit = threading.Event()
        self.evaluation = "full"
        self.algorithm = "pvs"
        self.set_evaluation(evaluation)
        self.set_algorithm(algorithm)

    # ---- options ------------------------------------------------------------------
    @property
    def hash_mb(self) -> int:
        """The transposition table's size bound in MiB."""
        return self._tt.size_mb

    def new_game(self) -> None:
        """Forget everything learnt: transposition table, killers and history."""
        self._tt.clear()
        self._history.clear()

    def set_hash_size(self, mb: int) -> None:
        """Resize (and clear) the transposition table; ``InvalidHashSizeError`` if out of range."""
        self._tt.resize(mb)

    def set_evaluation(self, name: str) -> None:
        """Choose the evaluation by name (``UnknownEvaluationError`` if unknown)."""
        evaluator(name, "english")  # validates the name
        self.evaluation = name.strip().lower()
        self._tt.clear()

    def set_algorithm(self, name: str) -> None:
        """Choose the search algorithm: one of :data:`ALGORITHMS`."""
        key = name.strip().lower() if isinstance(name, str) else name
        if key not in ALGORITHMS:
            raise UnknownAlgorithmError(
                f"unknown search algorithm {name!r} (known: {', '.join(ALGORITHMS)})")
        self.algorithm = key

    def hashfull(self) -> int:
        """Transposition table fill, per mille."""
        return self._tt.hashfull()

    def ponderhit(self) -> None:
        """The opponent played the expected move: a ``ponder`` search becomes a
        normal search under its limits, counted from now.

        Thread-safe.  The signal is latched until the current (or, if none is
        running yet, the next) search ends, and ignored by non-ponder searches.
        """
        self._ponderhit.set()

    # ---- searching ------------------------------------------------------------------
    def search(self, position: Position, limits: SearchLimits = SearchLimits(),
               history: Sequence[Tuple[int, int, int, bool]] = (),
               on_info: Optional[Callable[[SearchInfo], None]] = None,
               stop: Optional[threading.Event] = None) -> SearchResult:
        """Search ``position`` under ``limits``.

        ``history`` holds the raw positions since the last irreversible move,
        oldest first, ending with the root (``Game.search_history()``); a
        history not ending with the root gets the root appended.  ``on_info``
        is called after each completed iteration, in this thread.  ``stop``
        ends the search within a few milliseconds.

        The result's ``best_move`` is always a legal move of ``position``, also
        when stopped at once; it is None only when there is no legal move.
        """
        try:
            if self.algorithm != "pvs":
                return self._search_classic(position, limits, on_info, stop)
            return _PvsSearch(self, position, limits, history, on_info, stop).run()
        finally:
            self._ponderhit.clear()

    def _search_classic(self, position: Position, limits: SearchLimits,
                        on_info: Optional[Callable[[SearchInfo], None]],
                        stop: Optional[threading.Event]) -> SearchResult:
        """A classic search, deepened one ply at a time to ``limits.depth``.

        Each completed depth is reported; ``stop``, ``movetime_ms`` and ``nodes``
        end the search within :data:`~.classic.STOP_POLL_NODES` nodes, and the
        best move of the last completed depth is played (the first legal move
        when not even depth 1 was completed).
        """
        infinite = limits.infinite or limits.ponder
        depth = MAX_DEPTH if infinite else (limits.depth or DEFAULT_CLASSIC_DEPTH)
        state = DraughtsState(position, self.evaluation)
        start = time.perf_counter()
        legal = state.legal_moves()
        if not legal:
            return SearchResult(None, None, None, None, 0, 0, 1, 0, ())
        deadline = None if limits.movetime_ms is None or infinite \
            else start + limits.movetime_ms / 1000.0
        node_limit = None if infinite else limits.nodes
        total = 0

        def should_stop(nodes: int) -> bool:  # nodes: of the running iteration
            if stop is not None and stop.is_set():
                return True
            if deadline is not None and time.perf_counter() >= deadline:
                return True
            return node_limit is not None and total + nodes >= node_limit

        best = SearchResult(state.to_move(legal[0]), None, None, None, 0, 0, 1, 0,
                            (state.to_move(legal[0]),))
        for iteration in range(1, depth + 1):
            try:
                found = SEARCHES[self.algorithm](state, iteration, should_stop)
            except SearchStopped as exc:
                total += exc.nodes
                break
            total += found.nodes
            ms = int((time.perf_counter() - start) * 1000)
            move = state.to_move(found.best_move)
            cp, mate = score_to_protocol(found.score)
            best = SearchResult(move, None, cp, mate, iteration, iteration, total, ms, (move,))
            if on_info is not None:
                on_info(SearchInfo(iteration, iteration, cp, mate, total,
                                   total * 1000 // max(ms, 1), ms, 0, (move,)))
            if should_stop(0):
                break
        ms = int((time.perf_counter() - start) * 1000)
        return SearchResult(best.best_move, None, best.score_cp, best.mate_in, best.depth,
                            best.seldepth, total, ms, best.pv)

    def bench(self, depth: Optional[int] = None,
              on_position: Optional[Callable[[str, str, SearchResult], None]] = None) -> "BenchResult":
        """:func:`bench` with this engine's options; leaves the table cleared."""
        return bench(depth, self, on_position)


class _PvsSearch:
    """One run of the engine's own search (state of a single ``Engine.search`` call)."""

    def __init__(self, engine: Engine, position: Position, limits: SearchLimits,
                 history: Sequence[Tuple[int, int, int, bool]],
                 on_info: Optional[Callable[[SearchInfo], None]],
                 stop: Optional[threading.Event]) -> None:
        self.engine = engine
        self.position = position
        self.limits = limits
        root = position.raw
        hist = list(history)
        if not hist or tuple(hist[-1]) != root:
            hist.append(root)
        self.history = [tuple(h) for h in hist]
        self.on_info = on_info
        self.stop = stop if stop is not None else threading.Event()

    # The whole tree search is one closure over locals, for speed.
    def run(self) -> SearchResult:  # noqa: C901 - the search is long by nature
        engine = self.engine
        position = self.position
        limits = self.limits
        stop = self.stop
        ponderhit = engine._ponderhit
        start = time.perf_counter()
        gen = position.generator
        variant = position.variant
        moves_of = gen.moves
        play = gen.play
        has_capture = gen.has_capture
        evaluate = evaluator(engine.evaluation, variant).evaluate
        board = gen.geometry.board
        half = gen.geometry.half
        pc = popcount
        majority = variant.majority_capture
        draw = variant.draw
        no_progress = draw.no_progress_plies or draw.kings_only_plies or (1 << 30)
        table = engine._tt
        tt = table.table
        tt_get = tt.get
        capacity = table.capacity
        make_room = table.make_room
        hist = engine._history
        for key in list(hist):  # age the history between searches
            hist[key] >>= 2
        hist_get = hist.get

        def history_key(m: RawMove) -> int:
            return hist_get(m[0] - m[1], 0)
        killers: List[List[Optional[RawMove]]] = [[None, None] for _ in range(MAX_PLY + 2)]
        pvt: List[tuple] = [()] * (MAX_PLY + 2)
        lmr = _LMR
        prune = engine.pruning
        WIN_ = WIN
        MATE = MATE_BOUND
        history = self.history
        base = len(history) - 1
        # Room for MAX_PLY plies of main search plus the capture chains after them.
        path: List[Optional[tuple]] = history + [None] * (MAX_PLY + 128)
        root_rev = base
        root = position.raw

        # ---- limits --------------------------------------------------------------------
        pondering = limits.ponder
        unlimited = limits.infinite or limits.ponder
        node_limit = None if unlimited else limits.nodes
        depth_limit = MAX_DEPTH if unlimited else min(MAX_DEPTH, limits.depth or MAX_DEPTH)
        soft = hard = None
        if not unlimited:
            dl = deadlines(limits, position.white_to_move)
            soft, hard = dl.soft, dl.hard
        clock_start = start
        node_base = 0
        nodes = 0
        seldepth = 0
        next_poll = POLL_NODES
        in_first_iteration = True

        def check_ponderhit() -> None:
            """After ``ponderhit``: apply the limits of ``go ponder``, counted from now."""
            nonlocal pondering, node_limit, depth_limit, soft, hard, clock_start, node_base
            if ponderhit.is_set():
                pondering = False
                clock_start = time.perf_counter()
                node_base = nodes
                node_limit = limits.nodes
                depth_limit = min(MAX_DEPTH, limits.depth or MAX_DEPTH)
                dl = deadlines(limits, position.white_to_move)
                soft, hard = dl.soft, dl.hard

        def poll() -> None:
            """Check stop, ponderhit, clock and node limit; raise _Abort when done."""
            nonlocal next_poll
            next_poll = nodes + POLL_NODES
            if stop.is_set():
                raise _Abort
            if pondering:
                check_ponderhit()
            if in_first_iteration:
                return
            if node_limit is not None:
                if nodes - node_base >= node_limit:
                    raise _Abort
                next_poll = min(next_poll, node_base + node_limit)
            if hard is not None and time.perf_counter() - clock_start >= hard:
                raise _Abort

        # ---- quiescence ------------------------------------------------------------------
        def quiesce(w: int, b: int, k: int, wtm: bool, alpha: int, beta: int, ply: int,
                    rev: int, horizon: bool) -> int:
            """Resolve captures; ``horizon``: one quiet ply if the opponent threatens one."""
            nonlocal nodes, seldepth
            nodes += 1
            if nodes >= next_poll:
                poll()
            if ply > seldepth:
                seldepth = ply
            if rev >= 4:
                key = (w, b, k, wtm)
                hp = base + ply
                path[hp] = key
                i = hp - 4
                lo = hp - rev
                while i >= lo:
                    if path[i] == key:
                        return 0
                    i -= 2
                if rev >= no_progress:
                    return 0
            if has_capture(w, b, k, wtm):
                moves = moves_of(w, b, k, wtm)
                if len(moves) > 1 and not majority:
                    moves.sort(key=lambda m: pc(m[2]) + pc(m[2] & k), reverse=True)
                best = -INFINITY
                nwtm = not wtm
                for m in moves:
                    nw, nb, nk = play(w, b, k, wtm, m)
                    score = -quiesce(nw, nb, nk, nwtm, -beta, -alpha, ply + 1, 0, False)
                    if score > best:
                        best = score
                        if score > alpha:
                            alpha = score
                            if alpha >= beta:
                                break
                return best
            if not _has_quiet(board, half, w, b, k, wtm):
                return -WIN_ + ply
            if horizon and ply < MAX_PLY - 4 and has_capture(w, b, k, not wtm):
                # A capture is threatened: let the side to move answer it.
                best = -INFINITY
                nwtm = not wtm
                path[base + ply] = (w, b, k, wtm)
                for m in moves_of(w, b, k, wtm):
                    nw, nb, nk = play(w, b, k, wtm, m)
                    nrev = rev + 1 if k & m[0] else 0
                    score = -quiesce(nw, nb, nk, nwtm, -beta, -alpha, ply + 1, nrev, False)
                    if score > best:
                        best = score
                        if score > alpha:
                            alpha = score
                            if alpha >= beta:
                                break
                return best
            return evaluate(w, b, k, wtm)

        # ---- main search ------------------------------------------------------------------
        def node(w: int, b: int, k: int, wtm: bool, depth: int, alpha: int, beta: int,
                 ply: int, rev: int) -> int:
            """Fail-soft PVS: the score of the position for its side to move.

            A result ``<= alpha`` is an upper bound, ``>= beta`` a lower bound,
            otherwise exact.  Raises _Abort when the search must end.
            """
            nonlocal nodes, seldepth
            if depth <= 0 or ply >= MAX_PLY:
                return quiesce(w, b, k, wtm, alpha, beta, ply, rev, True)
            nodes += 1
            if nodes >= next_poll:
                poll()
            if ply > seldepth:
                seldepth = ply
            key = (w, b, k, wtm)
            hp = base + ply
            path[hp] = key
            if rev >= 4:
                i = hp - 4
                lo = hp - rev
                while i >= lo:
                    if path[i] == key:
                        return 0
                    i -= 2
                if rev >= no_progress:
                    return 0
            # mate distance pruning
            if alpha < -WIN_ + ply:
                alpha = -WIN_ + ply
                if alpha >= beta:
                    return alpha
            if beta > WIN_ - ply - 1:
                beta = WIN_ - ply - 1
                if alpha >= beta:
                    return beta
            pv = beta - alpha > 1
            entry = tt_get(key)
            tt_move = None
            if entry is not None:
                tt_move = entry[3]
                if entry[0] >= depth and not pv:
                    score = entry[1]
                    if score >= MATE:
                        score -= ply
                    elif score <= -MATE:
                        score += ply
                    flag = entry[2]
                    if flag == EXACT or (score >= beta if flag == LOWER else score <= alpha):
                        return score
            moves = moves_of(w, b, k, wtm)
            if not moves:
                return -WIN_ + ply
            n = len(moves)
            capture = moves[0][2]
            threatened = None
            if prune and not pv and depth <= PRUNE_DEPTH and not capture and -MATE < beta < MATE:
                # Shallow quiet node: trust the static evaluation far from the window.
                threatened = has_capture(w, b, k, not wtm)
                if not threatened:
                    ev = evaluate(w, b, k, wtm)
                    if ev - RFP_MARGIN * depth >= beta:
                        return ev
                    if ev + FUTILITY_MARGINS[depth] <= alpha:
                        return ev
            if n > 1:
                if capture:
                    if not majority:
                        moves.sort(key=lambda m: pc(m[2]) + pc(m[2] & k), reverse=True)
                else:
                    moves.sort(key=history_key, reverse=True)
                    kl = killers[ply]
                    for killer in (kl[1], kl[0]):
                        if killer is not None and killer != tt_move and killer in moves:
                            moves.remove(killer)
                            moves.insert(0, killer)
                if tt_move is not None and tt_move in moves:
                    moves.remove(tt_move)
                    moves.insert(0, tt_move)
            ext = 1 if n == 1 and ply < MAX_PLY - 8 else 0
            d1 = depth - 1 + ext
            alpha0 = alpha
            best = -INFINITY
            best_move = None
            nwtm = not wtm
            kl = killers[ply]
            if pv:
                pvt[ply] = ()
            for i, m in enumerate(moves):
                nw, nb, nk = play(w, b, k, wtm, m)
                nrev = rev + 1 if (k & m[0]) and not capture else 0
                if i == 0:
                    if pv:
                        pvt[ply + 1] = ()
                    score = -node(nw, nb, nk, nwtm, d1, -beta, -alpha, ply + 1, nrev)
                else:
                    r = 0
                    if prune and depth >= 2 and i >= 2 and not capture and m != kl[0] and m != kl[1]:
                        if threatened is None:
                            threatened = has_capture(w, b, k, nwtm)
                        if not threatened and not has_capture(nw, nb, nk, nwtm):
                            r = lmr[depth if depth < 64 else 63][i if i < 64 else 63]
                    score = -node(nw, nb, nk, nwtm, d1 - r, -alpha - 1, -alpha, ply + 1, nrev)
                    if r and score > alpha:
                        score = -node(nw, nb, nk, nwtm, d1, -alpha - 1, -alpha, ply + 1, nrev)
                    if pv and alpha < score < beta:
                        pvt[ply + 1] = ()
                        score = -node(nw, nb, nk, nwtm, d1, -beta, -alpha, ply + 1, nrev)
                if score > best:
                    best = score
                    best_move = m
                    if score > alpha:
                        alpha = score
                        if pv:
                            pvt[ply] = (m,) + pvt[ply + 1]
                        if alpha >= beta:
                            if not capture:
                                if kl[0] != m:
                                    kl[1] = kl[0]
                                    kl[0] = m
                                hk = m[0] - m[1]
                                hist[hk] = hist_get(hk, 0) + depth * depth
                            break
            if best >= beta:
                flag = LOWER
            elif best > alpha0:
                flag = EXACT
            else:
                flag = UPPER
                if tt_move is not None:
                    best_move = tt_move
            if len(tt) >= capacity:
                make_room()
            stored = best
            if stored >= MATE:
                stored += ply
            elif stored <= -MATE:
                stored -= ply
            tt[key] = (depth, stored, flag, best_move)
            return best

        # ---- root ----------------------------------------------------------------------------
        root_moves = moves_of(*root)
        if not root_moves:
            return SearchResult(None, None, None, None, 0, 0, 0, 0, ())
        entry = tt_get(root)
        if entry is not None and entry[3] in root_moves:
            root_moves.remove(entry[3])
            root_moves.insert(0, entry[3])
        rw, rb, rk, rwtm = root
        root_capture = root_moves[0][2]
        current_best: List[Optional[RawMove]] = [None]

        def root_search(depth: int, alpha: int, beta: int) -> Tuple[int, RawMove]:
            """PVS over the root moves; reorders them best first."""
            nonlocal nodes
            nodes += 1
            alpha0 = alpha
            path[base] = root
            pvt[0] = ()
            best = -INFINITY
            best_move = root_moves[0]
            nwtm = not rwtm
            ext = 1 if len(root_moves) == 1 else 0
            d1 = depth - 1 + ext
            for i, m in enumerate(root_moves):
                nw, nb, nk = play(rw, rb, rk, rwtm, m)
                nrev = root_rev + 1 if (rk & m[0]) and not root_capture else 0
                pvt[1] = ()
                if i == 0:
                    score = -node(nw, nb, nk, nwtm, d1, -beta, -alpha, 1, nrev)
                else:
                    score = -node(nw, nb, nk, nwtm, d1, -alpha - 1, -alpha, 1, nrev)
                    if alpha < score < beta:
                        pvt[1] = ()
                        score = -node(nw, nb, nk, nwtm, d1, -beta, -alpha, 1, nrev)
                if score > best:
                    best = score
                    best_move = m
                    if score > alpha:
                        alpha = score
                        pvt[0] = (m,) + pvt[1]
                        current_best[0] = m
                        if alpha >= beta:
                            break
            root_moves.remove(best_move)
            root_moves.insert(0, best_move)
            if len(tt) >= capacity:
                make_room()
            flag = LOWER if best >= beta else (EXACT if best > alpha0 else UPPER)
            tt[root] = (depth, best, flag, best_move)  # ply 0: no mate adjustment
            return best, best_move

        # ---- iterative deepening -------------------------------------------------------------
        best_move: RawMove = root_moves[0]
        best_score: Optional[int] = None
        best_pv: Tuple[RawMove, ...] = (best_move,)
        completed = 0
        done_seldepth = 0
        try:
            for depth in range(1, MAX_DEPTH + 1):
                if depth > depth_limit:
                    break
                current_best[0] = None
                if depth >= 4 and best_score is not None and abs(best_score) < MATE:
                    delta = ASPIRATION
                    alpha, beta = best_score - delta, best_score + delta
                    while True:
                        score, move = root_search(depth, alpha, beta)
                        if score <= alpha:
                            alpha = max(-INFINITY, alpha - delta)
                        elif score >= beta:
                            beta = min(INFINITY, beta + delta)
                        else:
                            break
                        delta *= 3
                        if delta > 1000:
                            alpha, beta = -INFINITY, INFINITY
                else:
                    score, move = root_search(depth, -INFINITY, INFINITY)
                in_first_iteration = False
                completed = depth
                done_seldepth = max(seldepth, depth)
                best_move, best_score = move, score
                best_pv = pvt[0] if pvt[0] and pvt[0][0] == move else (move,)
                elapsed = time.perf_counter() - start
                if self.on_info is not None:
                    self.on_info(self._info(depth, done_seldepth, score, nodes, elapsed, best_pv))
                if stop.is_set():
                    break
                if abs(score) >= MATE and depth >= WIN - abs(score) + 4:
                    break  # a forced result, searched beyond its length
                if pondering:
                    check_ponderhit()
                    if pondering:
                        continue
                if depth >= depth_limit:
                    break
                if len(root_moves) == 1 and soft is not None:
                    break
                if soft is not None:
                    used = time.perf_counter() - clock_start
                    if used >= soft or used >= 0.6 * soft and depth >= 2:
                        break
                if node_limit is not None and nodes - node_base >= node_limit:
                    break
        except _Abort:
            if current_best[0] is not None and current_best[0] != best_move:
                best_move = current_best[0]
                best_pv = (best_move,)
        elapsed = time.perf_counter() - start
        return self._result(best_move, best_score, best_pv, completed, done_seldepth, nodes, elapsed)

    # ---- reporting ------------------------------------------------------------------------
    def _moves_of_pv(self, pv: Sequence[RawMove]) -> Tuple[Move, ...]:
        """Convert a raw PV to Move values, stopping at the first illegal move."""
        out = []
        pos = self.position
        for raw in pv:
            legal = pos.raw_moves()
            if raw not in legal:
                break
            move = _to_move(pos, raw)
            out.append(move)
            pos = pos.play_raw(raw)
        return tuple(out)

    def _info(self, depth: int, seldepth: int, score: int, nodes: int, elapsed: float,
              pv: Sequence[RawMove]) -> SearchInfo:
        cp, mate = score_to_protocol(score)
        return SearchInfo(depth, seldepth, cp, mate, nodes, int(nodes / max(elapsed, 1e-6)),
                          int(elapsed * 1000), self.engine.hashfull(), self._moves_of_pv(pv))

    def _result(self, best_move: RawMove, score: Optional[int], pv: Sequence[RawMove], depth: int,
                seldepth: int, nodes: int, elapsed: float) -> SearchResult:
        moves = self._moves_of_pv(pv)
        if not moves or moves[0].raw != best_move:
            moves = (_to_move(self.position, best_move),)
        ponder = moves[1] if len(moves) > 1 else self._ponder_from_tt(best_move)
        cp, mate = score_to_protocol(score) if score is not None else (None, None)
        return SearchResult(moves[0], ponder, cp, mate, depth, seldepth, nodes,
                            int(elapsed * 1000), moves)

    def _ponder_from_tt(self, best_move: RawMove) -> Optional[Move]:
        child = self.position.play_raw(best_move)
        entry = self.engine._tt.table.get(child.raw)
        if entry is None or entry[3] is None or entry[3] not in child.raw_moves():
            return None
        return _to_move(child, entry[3])


def _to_move(position: Position, raw: RawMove) -> Move:
    """The :class:`Move` of a legal raw move of ``position``."""
    if not raw[2]:
        geo = position.geometry
        s, e = geo.square_of_bit(raw[0]), geo.square_of_bit(raw[1])
        return Move(s, e, (), bool(raw[3]), (s, e), raw)
    for move in position.legal_moves():
        if move.raw == raw:
            return move
    raise ValueError(f"{raw!r} is not a legal move of {position.fen()}")


# ---------------------------------------------------------------------------
# bench: a deterministic node-count signature.

BENCH_DEPTH = 6
"""Default depth of :func:`bench`."""

BENCH_POSITIONS: Tuple[Tuple[str, str], ...] = (
    ("english", "B:W21-32:B1-12"),
    ("english", "W:W17,20,21,22,23,27,28,29,31,32:B1,2,3,4,5,9,10,12,13,15"),
    ("english", "B:W21,22,25,27,28,29,30,31:B2,3,4,5,6,13,15,16"),
    ("russian", "W:W21-32:B1-12"),
    ("russian", "B:W19,22,25,26,27,28,29,31,32:B1,2,3,4,5,6,7,11,12"),
    ("brazilian", "W:W21-32:B1-12"),
    ("international", "W:W31-50:B1-20"),
    ("international", "W:W28,31,35,36,37,38,41,42,43,45,46,47,48,49,50"
                      ":B1,2,3,4,5,6,7,9,10,11,12,15,17,19,21"),
)
"""(variant, FEN) pairs searched by :func:`bench`."""


@dataclass(frozen=True)
class BenchResult:
    """Total nodes (the signature), time, and per-position ``(variant, fen, nodes, ms)``."""

    nodes: int
    time_ms: int
    positions: Tuple[Tuple[str, str, int, int], ...]

    @property
    def nps(self) -> int:
        return int(self.nodes * 1000 / max(self.time_ms, 1))


def bench(depth: Optional[int] = None, engine: Optional[Engine] = None,
          on_position: Optional[Callable[[str, str, SearchResult], None]] = None) -> BenchResult:
    """Search every :data:`BENCH_POSITIONS` entry to ``depth`` (default
    :data:`BENCH_DEPTH`) with a cleared table; the total node count depends
    only on the code, the depth and the engine's options."""
    depth = depth or BENCH_DEPTH
    engine = engine or Engine()
    total = 0
    total_ms = 0
    rows = []
    for variant, fen in BENCH_POSITIONS:
        engine.new_game()
        position = Position.from_fen(fen, variant)
        result = engine.search(position, SearchLimits(depth=depth), stop=threading.Event())
        total += result.nodes
        total_ms += result.time_ms
        rows.append((variant, fen, result.nodes, result.time_ms))
        if on_position is not None:
            on_position(variant, fen, result)
    engine.new_game()
    return BenchResult(total, total_ms, tuple(rows))
