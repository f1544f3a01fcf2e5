"""The draughts search engine: :class:`Searcher` (options, tables kept between searches, search).

:class:`Searcher` owns the options (hash size, evaluation, algorithm, pruning)
and the state kept between the searches of a game (transposition table,
history heuristic).  :meth:`Searcher.search` searches a
:class:`~..position.Position` under :class:`~.limits.SearchLimits`, reports
each completed iteration through ``on_info`` (in the calling thread) and
returns a :class:`~.limits.SearchResult`.  It never prints.

The engine's own search (``pvs``) is :class:`~.pvs.PvsSearch`: iterative
deepening with aspiration windows over the tree search of :mod:`.tree`
(principal variation search, transposition table :mod:`.tt`, move ordering
:mod:`.ordering`, quiescence), within the limits of :mod:`.budget` (depth,
nodes, move time, clock via :mod:`.timeman`, ``stop`` polled every
:data:`POLL_NODES` nodes, ``infinite``, ``ponder``).  Mate scores are
``win_in(ply)`` / ``loss_in(ply)``; a repetition (in the search path or of the
game history) and the variant's no-progress count score as a draw.

The classic searches of :mod:`.classic` are available by name: they search
:class:`~.draughts_state.DraughtsState` to ``limits.depth`` (default
:data:`DEFAULT_CLASSIC_DEPTH`) one ply deeper at a time, report each completed
depth, and obey the same :class:`~.budget.SearchBudget` as the engine's search
(``stop``, nodes, move time, clock, ``infinite``, ``ponder``).

Endgame databases (:mod:`..endgame`, on unless ``endgame_tables=False``) give
the exact result of the positions they cover, under the variant's draw rules
including the lone-king ending counts, read against the plies since the last
man move or capture.  Not modelled elsewhere in the search: those counts (the
game record applies them), and contempt (a draw scores 0).

(``protocol.client.Engine`` is the client's engine: it drives an engine process.)
"""
from __future__ import annotations

import dataclasses
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from ..bitboard import popcount
from ..book import BookError, BookPlayer
from ..eval import evaluation_key
from ..position import Position
from .budget import MAX_DEPTH, POLL_NODES, SearchAborted, SearchBudget
from .classic import SEARCHES, SearchStopped
from .draughts_state import DraughtsState
from .eval_cache import EvaluationCache
from .interface import WIN, RootMoves
from .skill import Skill, choose_line
from .limits import RootMoveInfo, SearchInfo, SearchLimits, SearchResult, score_to_protocol
from ..runtime import max_threads
from .parallel import HelperPool
from .parallel_role import ParallelRole
from .pvs import PvsSearch
from .tree import MAX_PLY, PROBE_MARGIN
from .tt import TranspositionTable

__all__ = ["Searcher", "UnknownAlgorithmError", "ALGORITHMS", "MAX_DEPTH", "MAX_PLY",
           "DEFAULT_CLASSIC_DEPTH", "POLL_NODES", "BenchResult", "BENCH_POSITIONS", "BENCH_DEPTH",
           "bench"]

ALGORITHMS = ("pvs", "minimax", "negamax", "alphabeta", "negascout")
"""Search algorithms by name: the engine's own, then the textbook family."""

DEFAULT_CLASSIC_DEPTH = 4
"""Depth of a classic search when the limits give none."""

ENDGAME_PIECES = 5 + PROBE_MARGIN
"""Searches of positions with more pieces do not ask the endgame databases (of
at most 5 pieces) and do not even load their package."""


class UnknownAlgorithmError(ValueError):
    """Raised for a search algorithm name not in :data:`ALGORITHMS`."""


class Searcher:
    """A draughts engine: options, tables kept between searches, and :meth:`search`.

    One search at a time (the protocol layer runs it in a worker thread);
    :meth:`ponderhit` may be called from another thread while it runs.
    """

    def __init__(self, hash_mb: int = 16, evaluation: str = "full", algorithm: str = "pvs",
                 pruning: bool = True, endgame_tables: bool = True) -> None:
        """``pruning=False`` turns off the selective parts of ``pvs`` (late move
        reductions, static pruning near the horizon): its score then equals a
        full-width alpha-beta search with the same quiescence (for tests and analysis).
        ``endgame_tables=False`` searches without the endgame databases."""
        self.pruning = pruning
        self.endgame_tables = endgame_tables
        self._endgame: Dict[str, Any] = {}  # variant name -> EndgameTables, made on first use
        self._tt = TranspositionTable(hash_mb)
        self._eval_cache = EvaluationCache()
        self._history: Dict[int, int] = {}
        self._ponderhit = threading.Event()
        self.evaluation = "full"
        self.algorithm = "pvs"
        self.skill: Optional[Skill] = None  # UCI_LimitStrength: see set_skill
        self.book: Optional[BookPlayer] = None  # OwnBook: see set_book
        self.threads = 1  # processes per search: see set_threads
        self._pool: Optional[HelperPool] = None
        self.set_evaluation(evaluation)
        self.set_algorithm(algorithm)

    # ---- options ------------------------------------------------------------------
    @property
    def hash_mb(self) -> int:
        """The transposition table's size bound in MiB."""
        return self._tt.size_mb

    def new_game(self) -> None:
        """Forget everything learnt: transposition table, remembered evaluations, killers
        and history (the helpers' too)."""
        self._tt.clear()
        self._eval_cache.clear()
        self._history.clear()
        if self._pool is not None:
            self._pool.new_game()

    def set_threads(self, count: int) -> None:
        """Search with ``count`` processes (1..:func:`~..runtime.max_threads`): this one and
        ``count - 1`` helpers, started now and kept until :meth:`close` or the next change.

        Raises ValueError for a count out of range, :class:`~.parallel.HelperError` when
        the helpers cannot be started (the engine then searches in one process).
        """
        if not isinstance(count, int) or not 1 <= count <= max_threads():
            raise ValueError(f"threads must be 1..{max_threads()}, got {count!r}")
        if count == self.threads and (count == 1 or self._pool is not None):
            return
        self._close_pool()
        self.threads = 1
        if count > 1:
            self._pool = HelperPool(count - 1, self.hash_mb)
            self.threads = count

    def helper_pids(self) -> Tuple[int, ...]:
        """The process ids of the running helpers (none with one thread)."""
        return tuple(self._pool.pids()) if self._pool is not None else ()

    def close(self) -> None:
        """End the helper processes (the engine then searches in one process)."""
        self._close_pool()
        self.threads = 1

    def _close_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    def set_skill(self, skill: Optional[Skill]) -> None:
        """Play at the strength of ``skill`` (a :class:`~.skill.Skill`), or at full
        strength (None)."""
        self.skill = skill

    def set_book(self, book: Optional[BookPlayer]) -> None:
        """Play the moves of ``book`` (a :class:`~..book.BookPlayer`) where it has some (see
        :meth:`book_move`), or no book (None)."""
        self.book = book

    def book_move(self, position: Position, limits: SearchLimits, ply: int) -> Optional[Any]:
        """The book's move for ``position``, ``ply`` plies into the game, or None: no book,
        not in the book, or a search the book does not answer.

        The book answers a search for a move in a game: a clock or a move time, one line,
        all root moves, full strength.  It never answers ``infinite``, ``ponder``, ``mate``,
        ``searchmoves``, MultiPV above 1, a fixed depth or node count (an analysis, a test
        of the search) or a weakened engine (its strength was calibrated without a book).
        A book that cannot be read counts as no book.
        """
        if self.book is None or self.skill is not None:
            return None
        if (not limits.wants_best_move_only or limits.infinite or limits.ponder
                or limits.depth is not None or limits.nodes is not None or not limits.is_timed):
            return None
        try:
            return self.book.choose(position, ply)
        except BookError:
            return None

    def clear_hash(self) -> None:
        """Empty the transposition table, and the helpers' and the shared one (the game and
        the move ordering's history stay)."""
        self._tt.clear()
        if self._pool is not None:
            self._pool.clear_hash()

    def set_hash_size(self, mb: int) -> None:
        """Resize (and clear) the transposition table (and the helpers' shared table);
        ``InvalidHashSizeError`` if out of range."""
        self._tt.resize(mb)
        if self._pool is not None:
            threads = self.threads
            self._close_pool()
            self.threads = 1
            self.set_threads(threads)

    def set_evaluation(self, name: str) -> None:
        """Choose the evaluation by name (``UnknownEvaluationError`` if unknown); the
        tables, the helpers' and the shared one too, are emptied (see :meth:`clear_hash`)."""
        self.evaluation = evaluation_key(name)  # validates the name (builds nothing)
        self.clear_hash()

    def set_algorithm(self, name: str) -> None:
        """Choose the search algorithm: one of :data:`ALGORITHMS`."""
        key = name.strip().lower() if isinstance(name, str) else name
        if key not in ALGORITHMS:
            raise UnknownAlgorithmError(
                f"unknown search algorithm {name!r} (known: {', '.join(ALGORITHMS)})")
        self.algorithm = key

    def set_endgame_tables(self, on: bool) -> None:
        """Use the endgame databases (True) or not; tables already read stay in memory."""
        self.endgame_tables = bool(on)

    def endgame(self, position: Position) -> Any:
        """The :class:`~..endgame.EndgameTables` of ``position``'s variant (files are
        read on first probe), or None when the databases are off or ``position``
        has more than :data:`ENDGAME_PIECES` pieces."""
        if not self.endgame_tables or popcount(position.white | position.black) > ENDGAME_PIECES:
            return None  # (a search from there would not reach the databases' pieces)
        name = position.variant.name
        tables = self._endgame.get(name)
        if tables is None:
            from ..endgame import EndgameTables
            tables = self._endgame[name] = EndgameTables(position.variant)
        return tables

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

    def forget_ponderhit(self) -> None:
        """Drop a ``ponderhit`` that came when no search could use it any more (the ponder
        search had already ended): it must not turn the next ponder search into a normal one.
        Thread-safe."""
        self._ponderhit.clear()

    # ---- searching ------------------------------------------------------------------
    def search(self, position: Position, limits: SearchLimits = SearchLimits(),
               history: Sequence[Tuple[int, int, int, bool]] = (),
               on_info: Optional[Callable[[SearchInfo], None]] = None,
               stop: Optional[threading.Event] = None,
               on_root_move: Optional[Callable[[RootMoveInfo], None]] = None) -> SearchResult:
        """Search ``position`` under ``limits``.

        ``history`` holds the raw positions since the last irreversible move,
        oldest first, ending with the root (``Game.search_history()``); a
        history not ending with the root gets the root appended.  ``on_info``
        is called after each completed iteration, in this thread (once per line
        with ``limits.multipv`` above 1); ``on_root_move`` hears which root move is
        searched once the search has run a second (the engine's own search only).
        ``stop`` ends the search within a few milliseconds.

        The result's ``best_move`` is always a legal move of ``position`` (one of
        ``limits.searchmoves`` when given), also when stopped at once; it is None only
        when there is no legal move.
        """
        if self.skill is not None:
            return self._search_weakened(position, limits, history, on_info, stop, on_root_move)
        try:
            if self.algorithm != "pvs":
                return self._search_classic(position, limits, on_info, stop)
            pool = self._pool
            if pool is None or not limits.wants_best_move_only:
                return self.search_pvs(position, limits, history, on_info, stop, on_root_move)
            role = pool.start(position, history, self.evaluation, self.pruning,
                              self.endgame_tables, len(history))
            try:
                return self.search_pvs(position, limits, history, on_info, stop, on_root_move,
                                       role)
            finally:
                pool.stop()
        finally:
            self._ponderhit.clear()

    def search_pvs(self, position: Position, limits: SearchLimits,
                   history: Sequence[Tuple[int, int, int, bool]] = (),
                   on_info: Optional[Callable[[SearchInfo], None]] = None,
                   stop: Optional[threading.Event] = None,
                   on_root_move: Optional[Callable[[RootMoveInfo], None]] = None,
                   parallel: Optional[ParallelRole] = None) -> SearchResult:
        """The engine's own search (:class:`~.pvs.PvsSearch`) in one process, or as one of
        the processes of a parallel search (``parallel``: its role)."""
        return PvsSearch(position, limits, history, on_info, stop, table=self._tt,
                         move_history=self._history, ponderhit=self._ponderhit,
                         evaluation=self.evaluation, pruning=self.pruning,
                         endgame=self.endgame(position), on_root_move=on_root_move,
                         parallel=parallel, eval_cache=self._eval_cache).run()

    def _search_weakened(self, position: Position, limits: SearchLimits,
                         history: Sequence[Tuple[int, int, int, bool]],
                         on_info: Optional[Callable[[SearchInfo], None]],
                         stop: Optional[threading.Event],
                         on_root_move: Optional[Callable[[RootMoveInfo], None]]) -> SearchResult:
        """The search of :attr:`skill`: its depth and lines (:meth:`Skill.limits
        <.skill.Skill.limits>`), then the move :func:`~.skill.choose_line` picks among the
        lines of the last completed depth.  ``on_info`` sees the lines the caller asked
        for (``limits.multipv``) only, and with more than one asked for, the move is the first
        move of one of them."""
        skill = self.skill
        assert skill is not None
        wanted = limits.multipv
        lines: Dict[int, SearchInfo] = {}

        def report(info: SearchInfo) -> None:
            number = info.multipv or 1
            if not info.bound:
                if number == 1:
                    lines.clear()
                lines[number] = info
            if on_info is not None and number <= wanted:
                on_info(info if wanted > 1 else dataclasses.replace(info, multipv=0))

        self.skill = None  # the search below is the engine's own, with the skill's limits
        try:
            result = self.search(position, skill.limits(limits), history, report, stop,
                                 on_root_move)
        finally:
            self.skill = skill
        # With several lines asked for, the move is one of those shown; else one of all.
        choices = [(_line_value(info), info) for number, info in sorted(lines.items())
                   if info.pv and (wanted <= 1 or number <= wanted)]
        if result.best_move is None or not choices:
            return result
        chosen = choose_line(choices, skill.noise, skill.generator(position.fen()))
        if chosen.pv[0] == result.best_move:
            return result
        pv = tuple(chosen.pv)
        return dataclasses.replace(result, best_move=pv[0],
                                   ponder_move=pv[1] if len(pv) > 1 else None,
                                   score_cp=chosen.score_cp, mate_in=chosen.mate_in, pv=pv)

    def _search_classic(self, position: Position, limits: SearchLimits,
                        on_info: Optional[Callable[[SearchInfo], None]],
                        stop: Optional[threading.Event]) -> SearchResult:
        """A classic search, one ply deeper at a time, under a :class:`~.budget.SearchBudget`
        (the depth limit :data:`DEFAULT_CLASSIC_DEPTH` when the limits give no depth, nodes,
        time, mate or infinite limit).

        Each completed depth is reported; a cut iteration adds a last report that counts
        its nodes too.  The best move of the last completed depth is played (the first
        legal move when not even depth 1 was completed).  ``searchmoves`` and ``multipv``
        are obeyed by searching a :class:`~.interface.RootMoves` root: the lines of a
        depth are K searches, each over the moves the lines before it did not take;
        ``mate`` N ends the search at 2N+1 plies, or once such a win is found.
        """
        start = time.perf_counter()
        state = DraughtsState(position, self.evaluation)
        legal = state.legal_moves()
        if not legal:
            return SearchResult(None, None, None, None, 0, 0, 1, 0, ())
        if limits.searchmoves:
            wanted = {getattr(move, "raw", move) for move in limits.searchmoves}
            legal = [move for move in legal if move in wanted] or legal
        # A full-width search without any limit of its own would not end: the default depth
        # stands in for one (never for a node, time or infinite limit, which end it).
        unlimited = (limits.depth is None and limits.nodes is None and not limits.is_timed
                     and not limits.infinite and limits.mate is None)
        last_depth = MAX_DEPTH if limits.mate is None else min(MAX_DEPTH, 2 * limits.mate + 1)
        budget = SearchBudget(limits, position.white_to_move,
                              stop if stop is not None else threading.Event(), self._ponderhit,
                              start,
                              default_depth=DEFAULT_CLASSIC_DEPTH if unlimited else last_depth)
        done = 0  # nodes of the completed searches

        def poll(nodes: int) -> Optional[int]:  # nodes: of the running search
            try:
                return budget.poll(done + nodes) - done
            except SearchAborted:
                return None

        first = state.to_move(legal[0])
        best = SearchResult(first, None, None, None, 0, 0, 1, 0, (first,))
        search = SEARCHES[self.algorithm]
        lines = min(limits.multipv, len(legal))
        for iteration in range(1, budget.depth_limit + 1):
            found = []
            left = list(legal)
            try:
                for _ in range(lines):
                    result = search(RootMoves(state, left), iteration, poll)
                    done += result.nodes
                    found.append(result)
                    left.remove(result.best_move)
            except SearchStopped as exc:
                done += exc.nodes
                if on_info is not None and best.depth:
                    on_info(self._classic_info(best, done, start, 1 if lines > 1 else 0))
                break
            budget.first_iteration = False
            budget.completed_depth = iteration
            found.sort(key=lambda result: -result.score)  # stable: ties keep their order
            infos = []
            for number, result in enumerate(found, 1):
                move = state.to_move(result.best_move)
                cp, mate = score_to_protocol(result.score)
                infos.append(SearchResult(move, None, cp, mate, iteration, iteration, done, 0,
                                          (move,)))
                if on_info is not None:
                    on_info(self._classic_info(infos[-1], done, start, number if lines > 1 else 0))
            best = infos[0]
            if limits.mate is not None and WIN - found[0].score <= 2 * limits.mate - 1:
                break
            if not budget.another_iteration(iteration, done, len(legal) == 1):
                break
        ms = int((time.perf_counter() - start) * 1000)
        return SearchResult(best.best_move, None, best.score_cp, best.mate_in, best.depth,
                            best.seldepth, done, ms, best.pv)

    @staticmethod
    def _classic_info(best: SearchResult, nodes: int, start: float,
                      multipv: int = 0) -> SearchInfo:
        ms = int((time.perf_counter() - start) * 1000)
        return SearchInfo(best.depth, best.seldepth, best.score_cp, best.mate_in, nodes,
                          nodes * 1000 // max(ms, 1), ms, 0, best.pv, multipv=multipv)

    def bench(self, depth: Optional[int] = None,
              on_position: Optional[Callable[[str, str, SearchResult], None]] = None) -> "BenchResult":
        """:func:`bench` with this engine's options, in this process alone (a signature
        must not depend on racing helpers); leaves the table cleared."""
        pool, self._pool = self._pool, None
        try:
            return bench(depth, self, on_position)
        finally:
            self._pool = pool


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


def _line_value(info: SearchInfo) -> int:
    """A reported line's score as one number (a mate in n moves beyond every evaluation)."""
    if info.mate_in is not None:
        return WIN - 2 * info.mate_in if info.mate_in > 0 else -WIN - 2 * info.mate_in
    return info.score_cp or 0


@dataclass(frozen=True)
class BenchResult:
    """Total nodes (the signature), time, and per-position ``(variant, fen, nodes, ms)``."""

    nodes: int
    time_ms: int
    positions: Tuple[Tuple[str, str, int, int], ...]

    @property
    def nps(self) -> int:
        return int(self.nodes * 1000 / max(self.time_ms, 1))


def bench(depth: Optional[int] = None, engine: Optional[Searcher] = None,
          on_position: Optional[Callable[[str, str, SearchResult], None]] = None) -> BenchResult:
    """Search every :data:`BENCH_POSITIONS` entry to ``depth`` (default
    :data:`BENCH_DEPTH`) with a cleared table; the total node count depends
    only on the code, the depth and the engine's options."""
    depth = depth or BENCH_DEPTH
    engine = engine or Searcher()
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

