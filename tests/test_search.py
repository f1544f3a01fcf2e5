"""Tests of the search layer: classic searches on draughts, the engine, TT,
time management, limits, the generic search and the tactics suite."""
from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any, List, Sequence, Tuple

import pytest

from draughts_engine.eval import evaluator
from draughts_engine.game import Game
from draughts_engine.move import Move
from draughts_engine.position import Position
from draughts_engine.search.classic import alphabeta, minimax, negamax, negascout
from draughts_engine.search.draughts_state import DraughtsState
from draughts_engine.search.engine import ALGORITHMS, UnknownAlgorithmError, bench
from draughts_engine.search.engine import Searcher as Engine
from draughts_engine.search.generic import search_game_state
from draughts_engine.search.interface import LOSS, MATE_BOUND, WIN, GameState
from draughts_engine.search.limits import (InvalidLimitsError, SearchInfo, SearchLimits,
                                           mate_in_moves, score_to_protocol)
from draughts_engine.search.timeman import MIN_BUDGET, deadlines
from draughts_engine.search.tt import (EXACT, LOWER, UPPER, InvalidHashSizeError,
                                       TranspositionTable, from_tt, to_tt)
from draughts_engine.variants import variant_names

DATA = Path(__file__).parent / "data"
VARIANTS = variant_names()


def random_positions(variant: str, count: int, seed: int, kings: bool = True,
                     max_plies: int = 40) -> List[Position]:
    """Positions reached by seeded random play from the start (not finished)."""
    rng = random.Random(seed)
    out: List[Position] = []
    while len(out) < count:
        position = Position.start(variant)
        for _ in range(rng.randrange(4, max_plies)):
            moves = position.raw_moves()
            if not moves:
                break
            position = position.play_raw(rng.choice(moves))
        if position.raw_moves() and (kings or not position.kings):
            out.append(position)
    return out


# ---------------------------------------------------------------------------
# The classic family on draughts.

@pytest.mark.heavy
@pytest.mark.parametrize("variant", VARIANTS)
def test_classic_searches_agree_on_random_positions(variant: str) -> None:
    minimax_nodes = pruned_nodes = 0
    for position in random_positions(variant, 4, seed=11):
        state = DraughtsState(position)
        max_depth = 4
        for depth in range(1, max_depth + 1):
            results = {f.__name__: f(state, depth) for f in (minimax, negamax, alphabeta, negascout)}
            scores = {r.score for r in results.values()}
            assert len(scores) == 1, (position.fen(), depth, results)
            assert len({r.best_move for r in results.values()}) == 1
            assert results["minimax"].nodes == results["negamax"].nodes
            assert results["alphabeta"].nodes <= results["minimax"].nodes
            if (variant in ("english", "russian", "brazilian", "international")
                    and results["minimax"].nodes >= 100):
                # (a re-search may cost negascout more than minimax on a tiny tree: 10
                # nodes against 7, and 37 against 29, at depths 3 and 4 of one International
                # position with the blocks patterns)
                assert results["negascout"].nodes <= results["minimax"].nodes
            if depth >= 3:
                minimax_nodes += results["minimax"].nodes
                pruned_nodes += results["alphabeta"].nodes + results["negascout"].nodes
    if variant in ("english", "russian", "brazilian", "international"):
        assert pruned_nodes < minimax_nodes  # both together visit fewer than minimax alone
    else:  # the later variants' random positions make smaller trees: each prunes alone
        assert pruned_nodes < 2 * minimax_nodes


def test_draughts_state_contract() -> None:
    position = Position.from_fen("W:W27:B1,2", "english")
    state = DraughtsState(position)
    assert isinstance(state, GameState)
    assert state.terminal_score() is None
    assert state.key() == position.raw
    move = state.legal_moves()[0]
    child = state.play(move)
    assert child.position == position.play_raw(move)
    assert state.to_move(move).pdn() in ("27-23", "27-24")
    lost = DraughtsState(Position.from_fen("W:W:B1,2", "english"))
    assert lost.terminal_score() == LOSS and lost.legal_moves() == []
    assert abs(state.evaluate()) < MATE_BOUND


# ---------------------------------------------------------------------------
# The engine against a plain full-width reference.

def reference_score(position: Position, depth: int, evaluation: str = "full") -> int:
    """Full-width negamax with the engine's documented quiescence rules.

    Captures are forced, so a side that must capture is never scored
    statically; at the horizon a capture threatened by the opponent gets one
    more ply; a single legal reply does not count as a ply.
    """
    gen = position.generator
    evaluate = evaluator(evaluation, position.variant).evaluate

    def quiesce(w: int, b: int, k: int, wtm: bool, ply: int, horizon: bool) -> int:
        moves = gen.moves(w, b, k, wtm)
        if not moves:
            return -(WIN - ply)
        if moves[0][2] or (horizon and gen.has_capture(w, b, k, not wtm)):
            return max(-quiesce(*gen.play(w, b, k, wtm, m), not wtm, ply + 1, False) for m in moves)
        return evaluate(w, b, k, wtm)

    def search(w: int, b: int, k: int, wtm: bool, d: int, ply: int) -> int:
        if d <= 0:
            return quiesce(w, b, k, wtm, ply, True)
        moves = gen.moves(w, b, k, wtm)
        if not moves:
            return -(WIN - ply)
        d1 = d if len(moves) == 1 else d - 1
        return max(-search(*gen.play(w, b, k, wtm, m), not wtm, d1, ply + 1) for m in moves)

    return search(*position.raw, depth, 0)


@pytest.mark.parametrize("variant", VARIANTS)
def test_engine_without_pruning_equals_full_width_reference(variant: str) -> None:
    engine = Engine(hash_mb=4, pruning=False)
    # Men only: no position can repeat, so the reference needs no history.
    for position in random_positions(variant, 3, seed=5, kings=False):
        for depth in (1, 2, 3):
            engine.new_game()
            result = engine.search(position, SearchLimits(depth=depth))
            expected = reference_score(position, depth)
            got = result.score_cp if result.score_cp is not None else None
            if abs(expected) >= MATE_BOUND:
                assert result.mate_in == mate_in_moves(expected)
            else:
                assert got == expected, (position.fen(), depth)
            assert result.best_move in position.legal_moves()


@pytest.mark.parametrize("variant", VARIANTS)
def test_engine_returns_legal_moves_on_random_positions(variant: str) -> None:
    engine = Engine(hash_mb=4)
    for position in random_positions(variant, 6, seed=23):
        result = engine.search(position, SearchLimits(depth=4))
        legal = position.legal_moves()
        assert result.best_move in legal
        assert result.pv and result.pv[0] == result.best_move
        if result.ponder_move is not None:
            assert result.ponder_move in position.play(result.best_move).legal_moves()
        # The PV is a legal line.
        p = position
        for move in result.pv:
            assert move in p.legal_moves()
            p = p.play(move)


def test_pruned_search_is_never_worse_than_reference_by_much() -> None:
    """With pruning on, the chosen move is at least nearly as good (judged by
    the full-width reference one ply shallower) as the reference's best."""
    for variant in ("english", "international"):
        engine = Engine(hash_mb=4)
        for position in random_positions(variant, 3, seed=3, kings=False):
            result = engine.search(position, SearchLimits(depth=3))
            best = reference_score(position, 3)
            chosen = -reference_score(position.play(result.best_move), 2)
            assert chosen >= best - 60, (position.fen(), result.best_move.pdn())


@pytest.mark.parametrize("variant", VARIANTS)
def test_fast_capture_test_matches_the_generator(variant: str) -> None:
    """The search's hot test (``has_capture`` on masks) agrees with the capture generator."""
    kings_seen = 0
    for position in random_positions(variant, 150, seed=31, max_plies=150):
        gen = position.generator
        w, b, k, _ = position.raw
        kings_seen += k != 0
        for wtm in (True, False):
            assert gen.has_capture(w, b, k, wtm) == bool(gen.captures(w, b, k, wtm)), position.fen()
    assert kings_seen >= (0 if variant == "breakthrough" else 11)  # a king ends breakthrough


# ---------------------------------------------------------------------------
# The engine's contract.

def test_no_legal_move_gives_none() -> None:
    for algorithm in ALGORITHMS:
        engine = Engine(algorithm=algorithm)
        result = engine.search(Position.from_fen("W:W:B1,2", "english"), SearchLimits(depth=3))
        assert result.best_move is None and result.ponder_move is None
    blocked = Position.from_fen("W:W29:B25,22", "english")  # the white man cannot move
    assert not blocked.legal_moves()
    assert Engine().search(blocked, SearchLimits(depth=5)).best_move is None


def test_single_legal_move_is_returned() -> None:
    position = Position.from_fen("W:W29:B1", "english")
    assert len(position.legal_moves()) == 1
    result = Engine().search(position, SearchLimits(depth=6))
    assert result.best_move == position.legal_moves()[0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_stopped_at_once_still_returns_a_legal_move(variant: str) -> None:
    stop = threading.Event()
    stop.set()
    for position in [Position.start(variant)] + random_positions(variant, 3, seed=8):
        result = Engine().search(position, SearchLimits(infinite=True), stop=stop)
        assert result.best_move in position.legal_moves()


def test_stop_from_another_thread_ends_infinite_search_quickly() -> None:
    stop = threading.Event()
    position = Position.start("international")
    out = {}

    def run() -> None:
        out["result"] = Engine().search(position, SearchLimits(infinite=True), stop=stop)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(0.3)
    assert thread.is_alive()  # infinite: still searching
    stop.set()
    stopped = time.monotonic()
    thread.join(5.0)
    assert not thread.is_alive()
    # Polled every few hundred nodes (milliseconds); the margin holds on a host many times
    # slower than this one (stop latency figures: bench/latency.py).
    assert time.monotonic() - stopped < 10.0
    assert out["result"].best_move in position.legal_moves()
    assert out["result"].depth >= 1


def test_movetime_is_respected_generously() -> None:
    began = time.monotonic()
    result = Engine().search(Position.start("international"), SearchLimits(movetime_ms=200))
    assert time.monotonic() - began < 20.0  # it ends by the move time, not by a depth
    assert result.best_move in Position.start("international").legal_moves()


def test_clock_is_respected_generously() -> None:
    position = Position.start("english")  # Black to move
    began = time.monotonic()
    result = Engine().search(position, SearchLimits(wtime_ms=100000, btime_ms=600, binc_ms=0))
    assert time.monotonic() - began < 20.0  # Black's 0.6 s clock bounds it, not White's
    assert result.best_move in position.legal_moves()


def test_node_limit_is_respected() -> None:
    result = Engine().search(Position.start("english"), SearchLimits(nodes=3000))
    assert result.nodes < 3000 + 2000
    assert result.best_move in Position.start("english").legal_moves()


def test_ponder_runs_until_ponderhit_then_obeys_its_limits() -> None:
    engine = Engine()
    position = Position.start("english")
    out = {}

    def run() -> None:
        out["result"] = engine.search(position, SearchLimits(ponder=True, movetime_ms=100))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(0.5)
    assert thread.is_alive()  # pondering ignores the move time
    engine.ponderhit()
    thread.join(3.0)
    assert not thread.is_alive()
    assert out["result"].best_move in position.legal_moves()


def test_ponderhit_past_the_depth_limit_ends_the_running_iteration() -> None:
    """``go ponder depth 2``, pondered to depth 6: the first poll after the ponderhit (in the
    middle of iteration 7) ends the search, not the end of that iteration."""
    from draughts_engine.search.budget import SearchAborted, SearchBudget

    stop, ponderhit = threading.Event(), threading.Event()
    budget = SearchBudget(SearchLimits(ponder=True, depth=2), True, stop, ponderhit, 0.0)
    budget.first_iteration = False
    budget.completed_depth = 6
    budget.poll(1000)  # still pondering: searches on
    ponderhit.set()
    with pytest.raises(SearchAborted):
        budget.poll(2000)


def test_a_ponderhit_during_the_iteration_after_the_depth_limit_ends_that_iteration(
        monkeypatch) -> None:
    """End to end (the driver records each completed depth for the budget): a ``go ponder
    depth 2`` searched to depth 6 gets its ponderhit in the middle of iteration 7, which then
    ends at the next poll; the result is depth 6's."""
    from draughts_engine.search import budget as budget_module

    engine = Engine()
    reported: List[int] = []
    poll = budget_module.SearchBudget.poll

    def poll_then_ponderhit(self, nodes: int) -> int:
        if reported and reported[-1] == 6 and not self.ponderhit.is_set():
            engine.ponderhit()  # inside iteration 7, once it has searched a few nodes
        return poll(self, nodes)

    monkeypatch.setattr(budget_module.SearchBudget, "poll", poll_then_ponderhit)
    result = engine.search(Position.start("international"), SearchLimits(ponder=True, depth=2),
                           on_info=lambda info: reported.append(info.depth))
    # each completed depth, then one report of the whole count after the cut iteration 7
    assert reported == [1, 2, 3, 4, 5, 6, 6] and result.depth == 6


def test_on_info_is_called_in_the_search_thread_after_each_iteration() -> None:
    infos: List[Tuple[SearchInfo, int]] = []
    Engine().search(Position.start("english"), SearchLimits(depth=5),
                    on_info=lambda info: infos.append((info, threading.get_ident())))
    assert [i.depth for i, _ in infos] == [1, 2, 3, 4, 5]
    assert {ident for _, ident in infos} == {threading.get_ident()}
    nodes = [i.nodes for i, _ in infos]
    assert nodes == sorted(nodes)
    for info, _ in infos:
        assert info.seldepth >= info.depth
        assert 0 <= info.hashfull <= 1000
        assert (info.score_cp is None) != (info.mate_in is None)
        assert info.pv


def test_fixed_depth_search_is_deterministic() -> None:
    position = random_positions("russian", 1, seed=2)[0]
    engine = Engine()
    first = engine.search(position, SearchLimits(depth=6))
    engine.new_game()
    second = engine.search(position, SearchLimits(depth=6))
    assert (first.nodes, first.best_move, first.score_cp) == (second.nodes, second.best_move,
                                                               second.score_cp)


def test_bench_signature_is_deterministic() -> None:
    a, b = bench(2), bench(2)
    assert a.nodes == b.nodes > 0
    assert len(a.positions) >= 6


def test_classic_algorithms_through_the_engine() -> None:
    position = random_positions("english", 1, seed=4, kings=False)[0]
    expected = minimax(DraughtsState(position), 3)
    for algorithm in ALGORITHMS[1:]:
        infos: List[SearchInfo] = []
        engine = Engine(algorithm=algorithm)
        result = engine.search(position, SearchLimits(depth=3), on_info=infos.append)
        assert result.best_move.raw == expected.best_move
        assert result.score_cp == expected.score
        assert [info.depth for info in infos] == [1, 2, 3]


@pytest.mark.parametrize("algorithm", ALGORITHMS[1:])
def test_classic_search_obeys_stop(algorithm: str) -> None:
    # A depth no classic search could finish: stop must end it with a legal move.
    position = Position.start("international")
    stop = threading.Event()
    infos: List[SearchInfo] = []

    def on_info(info: SearchInfo) -> None:
        infos.append(info)
        if info.depth == 2:
            stop.set()

    result = Engine(algorithm=algorithm).search(position, SearchLimits(depth=30),
                                                on_info=on_info, stop=stop)
    assert [info.depth for info in infos] == [1, 2]
    assert result.best_move in position.legal_moves() and result.depth == 2


def test_classic_search_obeys_a_node_limit() -> None:
    result = Engine(algorithm="minimax").search(Position.start("english"),
                                                SearchLimits(depth=30, nodes=3000))
    assert result.best_move is not None and result.depth < 30
    assert result.nodes < 3000 + 2 * 256


def test_option_errors_are_value_errors() -> None:
    engine = Engine()
    with pytest.raises(UnknownAlgorithmError):
        engine.set_algorithm("mtdf")
    with pytest.raises(ValueError):
        engine.set_evaluation("magic")
    with pytest.raises(InvalidHashSizeError):
        engine.set_hash_size(0)
    engine.set_hash_size(2)
    assert engine.hash_mb == 2


# ---------------------------------------------------------------------------
# Draws by repetition.

def test_repetition_with_the_history_scores_a_draw() -> None:
    # White (one king) is lost against three kings unless it repeats.
    game = Game("english", fen="W:WK26:BK1,2,3")
    for text in ("26-30", "1-5", "30-26", "5-1"):
        game.push(text)
    position = game.position
    engine = Engine()
    without = engine.search(position, SearchLimits(depth=6))
    assert without.score_cp is None or without.score_cp < -100
    engine.new_game()
    with_history = engine.search(position, SearchLimits(depth=6), history=game.search_history())
    assert with_history.score_cp == 0
    assert with_history.best_move.pdn() == "26-30"


def test_repetition_inside_the_search_scores_a_draw() -> None:
    # Two kings each, far apart: nothing to win, the search sees repetitions.
    position = Position.from_fen("W:WK29,K32:BK1,K4", "english")
    result = Engine().search(position, SearchLimits(depth=9))
    assert result.score_cp is not None and abs(result.score_cp) < 50


# ---------------------------------------------------------------------------
# Tactics: forced wins with the expected move and the depth that finds it.

def load_tactics() -> List[Tuple[str, str, str, int, str]]:
    rows = []
    for path in sorted(DATA.glob("tactics*.txt")):
        for line in path.read_text().splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            variant, fen, move, depth, note = [part.strip() for part in line.split("|")]
            rows.append((variant, fen, move, int(depth), note))
    return rows


TACTICS = load_tactics()


@pytest.mark.parametrize("variant,fen,move,depth,note", TACTICS,
                         ids=[f"{t[0]}-{t[4].split()[0]}-{i}" for i, t in enumerate(TACTICS)])
def test_tactics(variant: str, fen: str, move: str, depth: int, note: str) -> None:
    position = Position.from_fen(fen, variant)
    result = Engine(hash_mb=8).search(position, SearchLimits(depth=depth))
    assert result.best_move.pdn() == move, f"{note}: got {result.best_move.pdn()} ({result})"
    if "mate" in note:
        assert result.mate_in is not None and result.mate_in > 0
    else:
        # won material: a score of at least half a man, or (the tuned evaluation may see some
        # compensation) a positive score with the principal variation ending a piece up
        assert (result.mate_in is not None or result.score_cp >= 50
                or (result.score_cp > 0 and piece_gain(position, result.pv) >= 1)), note


def piece_gain(position: Position, line: Sequence[Move]) -> int:
    """How many pieces the side to move of ``position`` gains, against its opponent's,
    once ``line`` is played."""
    end = position
    for move in line:
        end = end.play(move)
    sign = 1 if position.white_to_move else -1
    edge = [bin(p.white).count("1") - bin(p.black).count("1") for p in (position, end)]
    return sign * (edge[1] - edge[0])


def test_tactics_cover_every_variant_and_kind() -> None:
    variants = {t[0] for t in TACTICS}
    assert variants == set(VARIANTS)
    notes = " ".join(t[4] for t in TACTICS)
    for kind in ("shot", "breakthrough", "mate"):
        assert kind in notes


# ---------------------------------------------------------------------------
# Transposition table, limits, time management.

def test_tt_respects_its_size_bound() -> None:
    table = TranspositionTable(1)
    assert table.capacity > 1000
    for i in range(3 * table.capacity):
        table.store((i, i, 0, True), i % 7, 0, EXACT, None, 0)
        assert len(table) <= table.capacity
    assert 0 < table.hashfull() <= 1000
    # make_room keeps the deepest entries.
    depths = [entry[0] for entry in table.table.values()]
    assert min(depths) >= 0 and max(depths) == 6
    table.clear()
    assert len(table) == 0 and table.hashfull() == 0


def test_tt_store_and_probe_with_mate_adjustment() -> None:
    table = TranspositionTable(1)
    table.store("k", 5, WIN - 7, LOWER, "m", 3)   # a win 7 plies from the root, seen at ply 3
    depth, score, flag, move = table.probe("k", 1)  # reached again at ply 1: win in 5
    assert (depth, score, flag, move) == (5, WIN - 5, LOWER, "m")
    assert from_tt(to_tt(-(WIN - 9), 4), 4) == -(WIN - 9)
    assert to_tt(123, 9) == 123
    table.store("k", 6, 10, UPPER, None, 0)
    assert table.probe("k", 0)[3] == "m"  # no move: the old move is kept
    assert table.probe("missing", 0) is None


def test_tt_resize_validates() -> None:
    table = TranspositionTable(1)
    small = table.capacity
    table.resize(4)
    assert table.capacity >= 3 * small
    with pytest.raises(InvalidHashSizeError):
        table.resize(-1)


def test_limits_validate() -> None:
    with pytest.raises(InvalidLimitsError):
        SearchLimits(depth=0)
    with pytest.raises(InvalidLimitsError):
        SearchLimits(movetime_ms=-5)
    assert SearchLimits(wtime_ms=1, btime_ms=1).has_clock and not SearchLimits(depth=3).is_timed
    with pytest.raises(InvalidLimitsError):
        SearchLimits(wtime_ms=1)


def test_mate_conversion() -> None:
    assert mate_in_moves(WIN - 1) == 1
    assert mate_in_moves(WIN - 3) == 2
    assert mate_in_moves(-(WIN - 2)) == -1
    assert mate_in_moves(-(WIN - 4)) == -2
    assert score_to_protocol(35) == (35, None)
    assert score_to_protocol(WIN - 5) == (None, 3)


def test_deadlines() -> None:
    assert deadlines(SearchLimits(depth=5), True).soft is None
    fixed = deadlines(SearchLimits(movetime_ms=1000, move_overhead_ms=50), True)
    assert fixed.soft == fixed.hard == pytest.approx(0.95)
    assert deadlines(SearchLimits(movetime_ms=1), True).soft == MIN_BUDGET
    clock = deadlines(SearchLimits(wtime_ms=60000, btime_ms=1000, winc_ms=1000), True)
    assert 1.0 < clock.soft < 5.0 and clock.soft <= clock.hard <= 30.0
    black = deadlines(SearchLimits(wtime_ms=60000, btime_ms=1000), False)
    assert black.hard <= 0.5  # never more than a safe fraction of what is left
    assert deadlines(SearchLimits(wtime_ms=0, btime_ms=0), True).soft == MIN_BUDGET
    assert deadlines(SearchLimits(infinite=True), True).hard is None
    togo = deadlines(SearchLimits(wtime_ms=10000, btime_ms=10000, movestogo=2), True)
    assert togo.soft == pytest.approx((10.0 - 0.03) / 2)


# ---------------------------------------------------------------------------
# The generic search on the small games.

def test_generic_search_solves_tictactoe() -> None:
    from draughts_engine.games.tictactoe import TicTacToe
    infos: List[SearchInfo] = []
    result = search_game_state(TicTacToe.start(), SearchLimits(depth=20), on_info=infos.append)
    assert result.score_cp == 0 and result.best_move in TicTacToe.start().legal_moves()
    assert infos and infos[-1].depth <= 9  # solved: stops before the depth limit
    # X to move wins at once on c1 (square 2) with a3-b2 or a1-b1 lines ...
    won = TicTacToe.from_fen("xx1/oo1/3 x")
    result = search_game_state(won, SearchLimits(depth=5))
    assert result.mate_in == 1
    assert won.play(result.best_move).terminal_score() is not None


def test_generic_search_respects_stop_and_game_over() -> None:
    from draughts_engine.games.tatedrez import Tatedrez
    stop = threading.Event()
    stop.set()
    state = Tatedrez.start()
    result = search_game_state(state, SearchLimits(infinite=True), stop=stop)
    assert result.best_move in state.legal_moves()
    began = time.monotonic()
    result = search_game_state(state, SearchLimits(movetime_ms=200))
    assert time.monotonic() - began < 20.0 and result.best_move in state.legal_moves()


# ---------------------------------------------------------------------------
# The search package's shape: its names, deprecated aliases, and the named
# parts of the engine's search (budget, aspiration window, repetition, TT cutoff).

def test_searcher_is_the_search_class_and_the_old_aliases_are_gone() -> None:
    """Removed at 0.1.0 (CHANGELOG.md): ``engine.Engine`` (now ``Searcher``) and
    ``classic.SearchResult`` (now ``ClassicResult``)."""
    import importlib

    from draughts_engine.search.classic import ClassicResult
    engine = importlib.import_module("draughts_engine.search.engine")
    classic = importlib.import_module("draughts_engine.search.classic")
    assert "Searcher" in engine.__all__ and "Engine" not in engine.__all__
    assert not hasattr(engine, "Engine") and not hasattr(classic, "SearchResult")
    assert isinstance(negamax(DraughtsState(Position.start("english")), 1), ClassicResult)


def test_search_package_lists_what_it_offers() -> None:
    import draughts_engine.search as search
    from draughts_engine.search import limits
    from draughts_engine.search.engine import Searcher
    assert search.__all__ == sorted(search.__all__) and "Searcher" in search.__all__
    for name in search.__all__:
        assert getattr(search, name) is not None, name
    assert search.Searcher is Searcher and search.SearchResult is limits.SearchResult
    assert set(search.__all__) <= set(dir(search))
    with pytest.raises(AttributeError):
        search.Engine  # noqa: B018 - the old name is only in search.engine


def test_tt_cutoff_decides_only_deep_enough_entries_that_settle_the_window() -> None:
    from draughts_engine.search.tt import cutoff
    assert cutoff((5, 40, EXACT, None), 5, -10, 10, 0) == 40
    assert cutoff((4, 40, EXACT, None), 5, -10, 10, 0) is None        # too shallow
    assert cutoff((5, 40, LOWER, None), 3, -10, 10, 0) == 40          # fails high
    assert cutoff((5, 5, LOWER, None), 3, -10, 10, 0) is None          # a lower bound inside
    assert cutoff((5, -40, UPPER, None), 3, -10, 10, 0) == -40        # fails low
    assert cutoff((5, -5, UPPER, None), 3, -10, 10, 0) is None
    # A stored win 7 plies from its node, reached at ply 2: win in 5 from the root's view.
    assert cutoff((5, WIN - 7 + 2, EXACT, None), 5, -10, 10, 2) == WIN - 7
    assert cutoff((5, -(WIN - 4), EXACT, None), 5, -10, 10, 3) == -(WIN - 7)


def test_tt_move_is_the_stored_move() -> None:
    table = TranspositionTable(1)
    assert table.move("k") is None
    table.store("k", 2, 0, EXACT, "m", 0)
    assert table.move("k") == "m"


def test_budget_polls_limits_and_decides_iterations() -> None:
    from draughts_engine.search.budget import POLL_NODES, SearchAborted, SearchBudget
    stop, ponderhit = threading.Event(), threading.Event()
    budget = SearchBudget(SearchLimits(nodes=1000), True, stop, ponderhit, time.perf_counter())
    assert budget.poll(900) == 900 + POLL_NODES  # the first iteration always completes
    budget.first_iteration = False
    assert budget.poll(900) == 1000               # next poll exactly at the node limit
    with pytest.raises(SearchAborted):
        budget.poll(1000)
    assert budget.another_iteration(3, 500, False)
    assert not budget.another_iteration(3, 1000, False)
    stop.set()
    assert not budget.another_iteration(3, 0, False)
    with pytest.raises(SearchAborted):
        budget.poll(0)
    stop.clear()
    pondering = SearchBudget(SearchLimits(ponder=True, depth=2), True, stop, ponderhit,
                             time.perf_counter())
    assert pondering.another_iteration(5, 0, False) and pondering.pondering
    ponderhit.set()                                # now depth 2 applies
    assert not pondering.another_iteration(5, 0, False) and not pondering.pondering
    clock = SearchBudget(SearchLimits(movetime_ms=60000), True, stop, ponderhit,
                         time.perf_counter())
    assert clock.another_iteration(1, 0, False)
    assert not clock.another_iteration(1, 0, True)  # a single legal move under a clock


def test_fixed_move_time_starts_iterations_until_its_deadline() -> None:
    """Under ``movetime`` unused time is lost: a new iteration starts until the
    deadline (the driver plays the best move of the one cut short); under a clock
    the search saves time and starts none after CLOCK_SAVING of the soft deadline."""
    from draughts_engine.search.budget import CLOCK_SAVING, SearchBudget
    stop, ponderhit = threading.Event(), threading.Event()
    late = (CLOCK_SAVING + 1.0) / 2  # between CLOCK_SAVING and the whole of the soft deadline

    def budget_at(limits: SearchLimits, share: float) -> SearchBudget:
        budget = SearchBudget(limits, True, stop, ponderhit, time.perf_counter())
        assert budget.soft is not None
        budget.clock_start = time.perf_counter() - share * budget.soft
        return budget

    fixed = SearchLimits(movetime_ms=600000)
    clock = SearchLimits(wtime_ms=600000 * 30, btime_ms=600000 * 30)
    assert budget_at(fixed, late).another_iteration(5, 0, False)
    assert not budget_at(fixed, 1.01).another_iteration(5, 0, False)
    assert not budget_at(clock, late).another_iteration(5, 0, False)
    assert budget_at(clock, CLOCK_SAVING / 2).another_iteration(5, 0, False)
    both = SearchLimits(movetime_ms=600000, wtime_ms=600000 * 30, btime_ms=600000 * 30)
    assert not budget_at(both, late).another_iteration(5, 0, False)


def test_search_window_widens_until_the_score_fits() -> None:
    from draughts_engine.search.pvs import ASPIRATION, search_window
    from draughts_engine.search.tree import INFINITY
    windows: List[Tuple[int, int]] = []

    def root_search(depth: int, alpha: int, beta: int) -> Tuple[int, str]:
        windows.append((alpha, beta))
        return min(max(500, alpha), beta), "m"    # fail-hard stand-in whose true score is 500

    assert search_window(root_search, 6, 0) == (500, "m")
    assert windows[0] == (-ASPIRATION, ASPIRATION) and len(windows) > 2
    assert windows[-1][0] < 500 < windows[-1][1]
    windows.clear()
    assert search_window(root_search, 3, 0) == (500, "m")
    assert windows == [(-INFINITY, INFINITY)]      # shallow: a full window at once


def test_repetition_test_looks_back_over_reversible_plies_only() -> None:
    from draughts_engine.search.tree import make_repetition_test
    a, b, c = (1, 2, 0, True), (3, 4, 0, False), (5, 6, 0, True)
    path = [a, b, c, b, a]                         # a at index 0 and 4 (same side to move)
    repeated = make_repetition_test(path, no_progress=50)
    assert repeated(a, 4, 4)                       # four reversible plies reach back to index 0
    assert not repeated(a, 4, 3)                   # an irreversible move in between
    assert make_repetition_test(path, no_progress=4)(c, 4, 4)  # the no-progress count


# ---------------------------------------------------------------------------
# The search does not depend on the order in which the generator lists moves.

ORDER_POSITIONS = [
    ("english", "B:W21-32:B1-12", 8),
    ("english", "W:W17,20,21,22,23,27,28,29,31,32:B1,2,3,4,5,9,10,12,13,15", 7),
    ("russian", "B:W19,22,25,26,27,28,29,31,32:B1,2,3,4,5,6,7,11,12", 7),
    ("international", "W:W28,31,35,36,37,38,41,42,43,45,46,47,48,49,50"
                      ":B1,2,3,4,5,6,7,9,10,11,12,15,17,19,21", 5),
    ("international", "W:WK47,33,34:B14,19,23,29", 6),  # a king's captures of equal size
]


@pytest.mark.parametrize("variant,fen,depth", ORDER_POSITIONS)
def test_search_ignores_the_generators_move_order(monkeypatch: pytest.MonkeyPatch,
                                                  variant: str, fen: str, depth: int) -> None:
    position = Position.from_fen(fen, variant)
    plain = Engine().search(position, SearchLimits(depth=depth))
    generator = position.generator
    moves = generator.moves

    def reversed_moves(w: int, b: int, k: int, wtm: bool) -> list:
        found = moves(w, b, k, wtm)
        found.reverse()
        return found

    monkeypatch.setattr(generator, "moves", reversed_moves)
    turned = Engine().search(position, SearchLimits(depth=depth))
    assert (turned.nodes, turned.best_move, turned.score_cp, turned.pv) == \
        (plain.nodes, plain.best_move, plain.score_cp, plain.pv)


def test_the_repetition_test_reads_a_bounded_stretch_of_a_long_history() -> None:
    """A game of thousands of kings' moves in a row: each node compares at most
    REPETITION_SCAN plies back, and a draw by the move count needs no comparison at all."""
    from draughts_engine.search.tree import REPETITION_SCAN, make_repetition_test

    class CountingList(list):
        reads = 0

        def __getitem__(self, index):  # type: ignore[override]
            CountingList.reads += 1
            return super().__getitem__(index)

    plies = 200_000
    path = CountingList((i, 0, 0, True) for i in range(plies))
    key = (-1, 0, 0, True)  # never in the history
    assert make_repetition_test(path, 1 << 30)(key, plies - 1, plies - 1) is False
    assert CountingList.reads <= REPETITION_SCAN // 2 + 1
    CountingList.reads = 0
    assert make_repetition_test(path, 50)(key, plies - 1, plies - 1) is True
    assert CountingList.reads == 0
    path[plies - 5] = key  # a repetition within reach is still found
    assert make_repetition_test(path, 1 << 30)(key, plies - 1, plies - 1) is True


def test_a_node_limit_is_reached_and_reported_by_the_last_info() -> None:
    """``nodes N``: the search stops once N nodes are searched (within the iteration that
    reaches them), and the last report counts them all (PROTOCOL.md, ``go nodes``)."""
    infos: List[Any] = []
    result = Engine().search(Position.start("international"), SearchLimits(nodes=20000),
                             on_info=infos.append)
    assert infos[-1].nodes == result.nodes == 20000
    assert infos[-1].depth == infos[-2].depth == result.depth  # the cut iteration adds no depth
