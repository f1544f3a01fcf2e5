"""The engine's tree search: :func:`make_tree_search` (node search, quiescence, root moves).

One search builds one :class:`TreeSearch`: closures over the search's tables
and counters, because CPython reads closure and local names much faster
than attributes and this is the engine's innermost recursion.  Positions are
raw ints ``(w, b, k, wtm)`` and moves the generator's :data:`~..movegen.RawMove`
tuples.  What the parts do:

* ``node``: fail-soft principal variation search with a transposition table,
  mate distance pruning, static pruning near the horizon, late move
  reductions of quiet late moves (never when either side has a capture
  pending), and a single legal reply not counted as a ply;
* ``quiesce``: a position where the side to move must capture is never
  scored statically (all captures are searched); at the horizon, a position
  where the opponent threatens a capture gets one more ply;
* ``root_search``: the same over the root moves, which it reorders best first;
* a repetition (in the search path or the game history) or the variant's
  no-progress count scores as a draw (:func:`make_repetition_test`);
* a position the endgame databases cover (``probe``) is not searched: it
  scores its exact result, a win or loss as a mate score with the
  database's distance, a draw 0.
"""
from __future__ import annotations

from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from ..bitboard import popcount
from ..movegen import MoveGenerator, RawMove
from ..runtime import compile_apart
from .budget import POLL_NODES, SearchBudget
from .interface import MATE_BOUND, WIN
from .ordering import LMR, Killers, make_move_ordering
from .shared_table import FINGERPRINT_MASK, SharedAccess
from .tt import EXACT, LOWER, UPPER, TranspositionTable, cutoff

__all__ = ["TreeSearch", "make_tree_search", "make_repetition_test", "MAX_PLY", "INFINITY",
           "PRUNE_DEPTH", "RFP_MARGIN", "FUTILITY_MARGINS", "PROBE_MARGIN", "SHARED_DEPTH"]

MAX_PLY = 256
"""Deepest ply (with extensions and quiescence) a search path may reach."""

INFINITY = WIN + 1
PRUNE_DEPTH = 3       # static pruning only this close to the horizon ...
RFP_MARGIN = 80       # ... fail high if eval - RFP_MARGIN * depth >= beta
FUTILITY_MARGINS = (0, 150, 250, 1 << 20)  # ... fail low if eval + margin[depth] <= alpha
REPETITION_SCAN = 1024  # plies of reversible history compared for a repetition, at most
PROBE_MARGIN = 8      # endgame databases asked when the root has at most this many pieces more
SHARED_DEPTH = 2      # nodes this far from the horizon, or more, use the shared table

#: A raw position: (white, black, kings, white_to_move).
RawPosition = Tuple[int, int, int, bool]

#: ``probe(w, b, k, wtm, counted) -> (result, plies) or None``: an endgame database.
Probe = Callable[[int, int, int, bool, int], Optional[Tuple[int, int]]]

#: ``on_root_move(depth, move, index)``: the root move about to be searched.
RootMoveHook = Callable[[int, RawMove, int], None]


class TreeSearch(NamedTuple):
    """The entry points of one search's tree (see :func:`make_tree_search`)."""

    #: ``root_search(depth, alpha, beta, first=0) -> (score, best move)``: fail-soft PVS
    #: of the root moves from index ``first`` on to ``depth``; puts the best one at index
    #: ``first`` (the moves before it, lines already searched by MultiPV, stay in place).
    #: Only a search of every root move (``first`` 0, root not restricted) is stored
    #: in the table, and only it updates ``best_so_far``.
    root_search: Callable[..., Tuple[int, RawMove]]
    #: ``counters() -> (nodes, seldepth)`` so far.
    counters: Callable[[], Tuple[int, int]]
    #: ``best_so_far() -> move or None``: the best root move of the running
    #: iteration, once one has raised alpha (for a search aborted mid-iteration).
    best_so_far: Callable[[], Optional[RawMove]]
    #: ``pv() -> tuple``: the principal variation of the last root search.
    pv: Callable[[], Tuple[RawMove, ...]]
    #: ``new_iteration()``: forget ``best_so_far`` (call before each depth).
    new_iteration: Callable[[], None]
    #: ``tbhits() -> int``: positions the endgame databases answered so far.
    tbhits: Callable[[], int]


def make_repetition_test(path: List[Optional[RawPosition]],
                         no_progress: int) -> Callable[[RawPosition, int, int], bool]:
    """``repeated(key, hp, rev) -> bool``: is the position ``key`` at ``path[hp]`` a draw?

    ``path`` holds the game history and the positions of the search path, one
    per ply; ``rev`` counts the reversible plies (kings' quiet moves) before
    ``hp``: only those positions can repeat, and only with the same side to
    move (every other ply).  ``no_progress`` plies of them are a draw by rule.
    Call it only when ``rev >= 4`` (no repetition is possible before).  At most
    :data:`REPETITION_SCAN` plies back are compared (a game of thousands of kings' moves in a
    row would otherwise cost that many comparisons at every node).
    """
    def repeated(key: RawPosition, hp: int, rev: int) -> bool:
        if rev >= no_progress:
            return True
        i = hp - 4
        lo = hp - (rev if rev < REPETITION_SCAN else REPETITION_SCAN)
        while i >= lo:
            if path[i] == key:
                return True
            i -= 2
        return False

    return repeated


def make_tree_search(gen: MoveGenerator, evaluate: Callable[[int, int, int, bool], int], *,
                     majority: bool, no_progress: int, table: TranspositionTable,
                     history: Dict[int, int], killers: Killers, prune: bool,
                     game_path: List[RawPosition], root_moves: List[RawMove],
                     budget: SearchBudget, probe: Optional[Probe] = None,
                     probe_pieces: int = 0, no_moves_wins: bool = False,
                     restricted_root: bool = False,
                     on_root_move: Optional[RootMoveHook] = None,
                     shared: Optional[SharedAccess] = None) -> TreeSearch:
    """The tree of one search.

    ``evaluate(w, b, k, wtm)`` is the static evaluation for the side to move;
    ``majority`` the variant's majority rule (all captures then take as many
    pieces: no capture ordering); ``no_progress`` the plies of kings' moves
    that draw by rule.  ``game_path`` holds the positions since the last irreversible move, oldest
    first, ending with the root; ``root_moves`` the root's legal moves (not
    empty; reordered in place).  ``history`` and ``killers`` are the move
    ordering's tables (updated in place), ``table`` the transposition table,
    ``prune`` turns late move reductions and static pruning on.  The search
    polls ``budget`` and lets :class:`~.budget.SearchAborted` through.
    ``probe(w, b, k, wtm, counted)`` answers positions of at most ``probe_pieces``
    pieces with ``(result, plies)`` (+1/0/-1 for the side to move, plies to the
    end) or None (:meth:`~..endgame.EndgameTables.probe`; ``counted`` gets ``rev``);
    it is asked when the root has at most :data:`PROBE_MARGIN` pieces more.
    ``no_moves_wins``: a side without a legal move has won (antidraughts), not lost.
    ``restricted_root``: ``root_moves`` are not all the legal moves (``searchmoves``), so
    the root's result is not stored in the table.  ``on_root_move(depth, move, index)`` is
    called before each root move is searched (``index`` in ``root_moves``).
    ``shared``: a table shared with the other processes of a parallel search
    (:mod:`.shared_table`); nodes at least :data:`SHARED_DEPTH` plies from the horizon
    store their result there too, and read it there when ``table`` has nothing as deep.
    """
    # ---- names bound for the hot loops ------------------------------------------------
    # In the closures below a position is (w, b, k, wtm): the white pieces, the
    # black pieces, the kings of both sides, and whether White is to move;
    # nw, nb, nk, nwtm are the same after a move m.  Other short names:
    #   ply    plies from the root;  depth  plies left to the horizon;
    #   rev    reversible plies (kings' quiet moves) in a row before this node;
    #   hp     this node's index in ``path`` (the game history, then one slot per ply);
    #   pvt    the PV table: pvt[ply] is the best line found from ``ply`` (pv nodes);
    #   kl     the killer slots of this ply;  d1  the children's depth;
    #   r      a late move reduction;  ext  1 when a single reply extends the line;
    #   tt     the transposition table's dict (entries: see .tt);  lmr  the LMR table;
    #   NO_MOVES  -1 (the side without a move has lost) or +1 (antidraughts: won).
    moves_of = gen.moves
    play = gen.play
    has_capture = gen.has_capture
    has_quiet = gen.has_quiet
    tt = table.table
    tt_get = tt.get
    capacity = table.capacity
    make_room = table.make_room
    order, remember, sort_captures = make_move_ordering(history, majority)
    pvt: List[tuple] = [()] * (MAX_PLY + 2)
    lmr = LMR
    WIN_ = WIN
    MATE = MATE_BOUND
    NO_MOVES = 1 if no_moves_wins else -1
    base = len(game_path) - 1          # ``path`` index of the root
    root = game_path[-1]
    rw, rb, rk, rwtm = root
    root_rev = base                    # every game position before the root may repeat
    root_capture = root_moves[0][2]
    # Room for MAX_PLY plies of main search plus the capture chains after them.
    path: List[Optional[RawPosition]] = list(game_path) + [None] * (MAX_PLY + 128)
    repeated = make_repetition_test(path, no_progress)
    budget_poll = budget.poll
    nodes = 0                          # nodes searched (root, main search and quiescence)
    tbhits = 0                         # positions the endgame databases answered
    pc = popcount
    # Ask the databases only where a search can get down to their pieces (a root
    # with many more pieces would need a long run of captures): a bool tested first
    # costs the other searches next to nothing.
    probing = probe is not None and pc(rw | rb) <= probe_pieces + PROBE_MARGIN
    seldepth = 0                       # deepest ply reached
    next_poll = POLL_NODES             # node count of the next budget poll
    current_best: List[Optional[RawMove]] = [None]
    sharing = shared is not None
    shared_probe = shared.probe if shared is not None else None
    shared_store = shared.store if shared is not None else None
    FP = FINGERPRINT_MASK

    def table_score(w: int, b: int, k: int, wtm: bool, rev: int, ply: int) -> Optional[int]:
        """The databases' exact score of a position they cover (a win or loss as a mate
        score with their distance, a draw 0), else None."""
        nonlocal tbhits
        found = probe(w, b, k, wtm, rev)  # type: ignore[misc]
        if found is None:
            return None
        tbhits += 1
        if found[0]:
            return WIN_ - ply - found[1] if found[0] > 0 else ply + found[1] - WIN_
        return 0

    def poll() -> None:
        """Ask the budget whether to go on (raises SearchAborted when not)."""
        nonlocal next_poll
        next_poll = budget_poll(nodes)

    def quiesce(w: int, b: int, k: int, wtm: bool, alpha: int, beta: int, ply: int,
                rev: int, horizon: bool) -> int:
        """Resolve captures; ``horizon``: one quiet ply if the opponent threatens one.

        Fail-soft like :func:`node`; the static evaluation stands for a quiet
        position without threats.
        """
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
            if repeated(key, hp, rev):
                return 0
        if probing and pc(w | b) <= probe_pieces:
            known = table_score(w, b, k, wtm, rev, ply)
            if known is not None:
                return known
        if has_capture(w, b, k, wtm):
            moves = moves_of(w, b, k, wtm)
            if len(moves) > 1:
                sort_captures(moves, k)
            quiet = False
        elif not has_quiet(w, b, k, wtm):
            return NO_MOVES * (WIN_ - ply)
        elif horizon and ply < MAX_PLY - 4 and has_capture(w, b, k, not wtm):
            # A capture is threatened: let the side to move answer it.
            path[base + ply] = (w, b, k, wtm)
            moves = moves_of(w, b, k, wtm)
            if len(moves) > 1:
                order(moves, 0, k, None, killers[ply])
            quiet = True
        else:
            return evaluate(w, b, k, wtm)
        best = -INFINITY
        nwtm = not wtm
        for m in moves:
            nw, nb, nk = play(w, b, k, wtm, m)
            nrev = rev + 1 if quiet and k & m[0] else 0  # a capture is irreversible
            score = -quiesce(nw, nb, nk, nwtm, -beta, -alpha, ply + 1, nrev, False)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    compile_apart(quiesce)  # PyPy: compiled once, not copied into each trace of ``node``

    def node(w: int, b: int, k: int, wtm: bool, depth: int, alpha: int, beta: int,
             ply: int, rev: int) -> int:
        """Fail-soft PVS: the score of the position for its side to move.

        A result ``<= alpha`` is an upper bound, ``>= beta`` a lower bound,
        otherwise exact.  Raises SearchAborted when the search must end.
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
        if rev >= 4 and repeated(key, hp, rev):
            return 0
        if probing and pc(w | b) <= probe_pieces:
            known = table_score(w, b, k, wtm, rev, ply)
            if known is not None:
                return known
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
            if entry[0] >= depth and not pv:  # (cutoff checks the depth too; this saves a call)
                score = cutoff(entry, depth, alpha, beta, ply)
                if score is not None:
                    return score
        shared_move = 0
        if sharing and depth >= SHARED_DEPTH and (entry is None or entry[0] < depth):
            found = shared_probe(key)  # type: ignore[misc]
            if found is not None:
                if found[0] >= depth and not pv:
                    score = cutoff(found, depth, alpha, beta, ply)
                    if score is not None:
                        return score
                if tt_move is None:
                    shared_move = found[3]
        moves = moves_of(w, b, k, wtm)
        if not moves:
            return NO_MOVES * (WIN_ - ply)
        n = len(moves)
        if shared_move and n > 1:
            for m in moves:
                if (hash(m) & FP) | 1 == shared_move:
                    tt_move = m
                    break
        capture = moves[0][2]
        threatened = None  # whether the opponent could capture now (computed when needed)
        if prune and not pv and depth <= PRUNE_DEPTH and not capture and -MATE < beta < MATE:
            # Shallow quiet node: trust the static evaluation far from the window.
            threatened = has_capture(w, b, k, not wtm)
            if not threatened:
                ev = evaluate(w, b, k, wtm)
                if ev - RFP_MARGIN * depth >= beta:
                    return ev
                if ev + FUTILITY_MARGINS[depth] <= alpha:
                    return ev
        kl = killers[ply]
        if n > 1:
            order(moves, capture, k, tt_move, kl)
        ext = 1 if n == 1 and ply < MAX_PLY - 8 else 0
        d1 = depth - 1 + ext
        alpha0 = alpha
        best = -INFINITY
        best_move = None
        nwtm = not wtm
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
                            remember(m, kl, depth)
                        break
        # Store (the steps of TranspositionTable.store, written out for speed).
        if best >= beta:
            flag = LOWER
        elif best > alpha0:
            flag = EXACT
        else:
            flag = UPPER
            if tt_move is not None:
                best_move = tt_move  # no move was best: keep the old one
        if len(tt) >= capacity:
            make_room()
        stored = best
        if stored >= MATE:
            stored += ply
        elif stored <= -MATE:
            stored -= ply
        tt[key] = (depth, stored, flag, best_move)
        if sharing and depth >= SHARED_DEPTH:
            shared_store(key, depth, stored, flag, best_move)  # type: ignore[misc]
        return best

    def root_search(depth: int, alpha: int, beta: int, first: int = 0) -> Tuple[int, RawMove]:
        """PVS over the root moves (see :class:`TreeSearch`)."""
        nonlocal nodes
        nodes += 1
        alpha0 = alpha
        path[base] = root
        pvt[0] = ()
        best = -INFINITY
        best_move = root_moves[first]
        nwtm = not rwtm
        ext = 1 if len(root_moves) == 1 else 0
        d1 = depth - 1 + ext
        whole = first == 0
        for i, m in enumerate(root_moves[first:] if first else root_moves):
            if on_root_move is not None:
                on_root_move(depth, m, first + i)
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
                    if whole:
                        current_best[0] = m
                    if alpha >= beta:
                        break
        root_moves.remove(best_move)
        root_moves.insert(first, best_move)
        if whole and not restricted_root:
            if len(tt) >= capacity:
                make_room()
            flag = LOWER if best >= beta else (EXACT if best > alpha0 else UPPER)
            tt[root] = (depth, best, flag, best_move)  # ply 0: no mate adjustment
        return best, best_move

    def counters() -> Tuple[int, int]:
        return nodes, seldepth

    def best_so_far() -> Optional[RawMove]:
        return current_best[0]

    def pv() -> Tuple[RawMove, ...]:
        return pvt[0]

    def new_iteration() -> None:
        current_best[0] = None

    def hits() -> int:
        return tbhits

    return TreeSearch(root_search, counters, best_so_far, pv, new_iteration, hits)
