"""The two shapes of the hot code give the same results, on whichever interpreter runs the tests.

The hot modules pick a shape once, at import (``draughts_engine.runtime.TRACED``:
PyPy's traced shape on PyPy, CPython's interpreted shape elsewhere).  Here
both shapes are built side by side in one process and compared: bit counts,
move lists in order, perft counts, move ordering; and, in fresh processes with
the shape forced by ``DRAUGHTS_TRACED``, the ``bench`` signature and searches at
fixed depth.  The TT entry size is measured on every interpreter.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional

import pytest

from draughts_engine import runtime
from draughts_engine.eval import handset, terms, tuned as evalmodel
from draughts_engine.eval.terms import make_runaways
from draughts_engine.errors import InvalidFenError
from draughts_engine.bitboard import popcount, popcount_bin, popcount_swar
from draughts_engine.movegen import MoveGenerator, RawMove
from draughts_engine.movegen.generator import play
from draughts_engine.perft import perft_make, perft_raw
from draughts_engine.position import Position
from draughts_engine.search.ordering import (make_move_ordering_keyed, make_move_ordering_traced,
                                             sort_descending)
from draughts_engine.search.tt import (DEFAULT_ENTRY_BYTES, GC_ROUNDING, PYPY_ENTRY_BYTES,
                                       entry_bytes, entry_bytes_gc,
                                       entry_bytes_getsizeof)
from draughts_engine.variants import get_variant, variant_names

ROOT = Path(__file__).resolve().parent.parent
#: The variants built by :class:`MoveGenerator` (the orthogonal families have generators of
#: their own, with one shape).
VARIANTS = [name for name in variant_names()
            if not get_variant(name).all_squares and not get_variant(name).orthogonal_captures]


def generators(variant: str) -> Dict[str, MoveGenerator]:
    """Both shapes of one variant's generator."""
    v = get_variant(variant)
    return {"interpreted": MoveGenerator(v, traced=False), "traced": MoveGenerator(v, traced=True)}


def random_positions(variant: str, count: int, seed: int) -> List[Position]:
    """Positions of seeded random games (every ply kept) and seeded random placements
    with kings, so that every branch of the generators is visited."""
    rng = random.Random(f"{seed}-{variant}")
    out: List[Position] = []
    while len(out) < count // 2:
        position = Position.start(variant)
        for _ in range(rng.randrange(10, 120)):
            moves = position.raw_moves()
            if not moves:
                break
            out.append(position)
            position = position.play_raw(rng.choice(moves))
    geo = Position.start(variant).geometry
    while len(out) < count:
        squares = rng.sample(range(1, geo.squares + 1), rng.randint(2, 18))
        cut = rng.randint(1, len(squares) - 1)
        parts = {"W": [], "B": []}
        for i, square in enumerate(squares):
            colour = "W" if i < cut else "B"
            crown_row = square <= geo.half if colour == "W" else square > geo.squares - geo.half
            king = crown_row or rng.random() < 0.4
            parts[colour].append(("K" if king else "") + str(square))
        fen = f"{rng.choice('WB')}:W{','.join(parts['W'])}:B{','.join(parts['B'])}"
        try:
            out.append(Position.from_fen(fen, variant))
        except InvalidFenError:  # a man on its crown row where numbering is turned
            continue
    return out


# ---------------------------------------------------------------------------
# Bit counts.

def test_the_popcounts_agree() -> None:
    rng = random.Random(5)
    samples = [0, 1, 2, 3, (1 << 54) - 1, (1 << 63) - 1, (1 << 64) - 1, 1 << 63, 0x5555555555555555]
    samples += [rng.getrandbits(rng.randint(1, 64)) for _ in range(5000)]
    for x in samples:
        expected = bin(x).count("1")
        assert popcount_bin(x) == expected
        assert popcount_swar(x) == expected, hex(x)
        assert popcount(x) == expected


def test_the_shape_is_chosen_by_the_interpreter_unless_forced() -> None:
    forced = os.environ.get(runtime.TRACED_ENV)
    expected = runtime.PYPY if forced is None else forced.strip() == "1"
    assert runtime.TRACED is expected
    assert (popcount is popcount_swar) is runtime.TRACED
    assert Position.start("english").generator.traced is runtime.TRACED
    assert runtime.tune_jit() is (runtime.PYPY and bool(os.environ.get(runtime.JIT_PARAMS_ENV,
                                                                        runtime.JIT_PARAMS)))


# ---------------------------------------------------------------------------
# Move generation and perft.

@pytest.mark.parametrize("variant", VARIANTS)
def test_both_generators_give_the_same_moves_in_the_same_order(variant: str) -> None:
    gens = generators(variant)
    names = ("moves", "captures", "quiet_moves", "count", "has_capture", "has_quiet")
    for position in random_positions(variant, 300, seed=13):
        raw = position.raw
        results = {shape: {name: getattr(gen, name)(*raw) for name in names}
                   for shape, gen in gens.items()}
        assert results["traced"] == results["interpreted"], position.fen()
        for move in results["traced"]["moves"]:
            assert (gens["traced"].count_after(*raw, move)
                    == gens["interpreted"].count_after(*raw, move)), (position.fen(), move)
        assert (gens["traced"].capture_paths(*raw)
                == gens["interpreted"].capture_paths(*raw)), position.fen()


@pytest.mark.parametrize("variant,depth", [("english", 6), ("russian", 5), ("brazilian", 5),
                                           ("international", 4)])
def test_both_generators_count_the_published_perft(variant: str, depth: int) -> None:
    published = {"english": 36768, "russian": 7482, "brazilian": 7473, "international": 4265}
    for gen in generators(variant).values():
        start = Position.start(variant)
        assert perft_raw(gen, *start.raw, depth) == published[variant]
        assert perft_make(gen, *start.raw, depth - 1) == perft_raw(gen, *start.raw, depth - 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_both_generators_count_the_same_trees_below_positions_with_kings(variant: str) -> None:
    gens = generators(variant)
    for position in random_positions(variant, 30, seed=17)[15:]:
        counts = {shape: perft_raw(gen, *position.raw, 3) for shape, gen in gens.items()}
        assert counts["traced"] == counts["interpreted"], position.fen()


@pytest.mark.parametrize("variant", VARIANTS)
def test_both_generators_play_every_move_alike(variant: str) -> None:
    """The traced generator's branch-free ``play`` (boards up to 10x10) against :func:`play`,
    for every legal move of positions of games and placements with kings."""
    gen = generators(variant)["traced"]
    for position in random_positions(variant, 200, seed=23):
        raw = position.raw
        for move in position.raw_moves():
            assert gen.play(*raw, move) == play(*raw, move), (position.fen(), move)


# ---------------------------------------------------------------------------
# Move ordering.

def test_sort_descending_is_a_stable_reverse_sort() -> None:
    rng = random.Random(3)
    for _ in range(500):
        n = rng.randint(0, 20)
        scores = [rng.randint(-3, 3) for _ in range(n)]
        items = [(i, 0, 0, False) for i in range(n)]
        expected = sorted(zip(scores, items), key=lambda pair: pair[0], reverse=True)
        moves = list(items)
        sort_descending(moves, list(scores))
        assert moves == [item for _, item in expected]


def test_both_orderings_order_alike() -> None:
    rng = random.Random(9)
    positions = random_positions("russian", 200, seed=21) + random_positions("english", 100,
                                                                               seed=22)
    for majority in (False, True):
        history: Dict[int, int] = {}
        keyed = make_move_ordering_keyed(history, majority)
        traced = make_move_ordering_traced(history, majority)
        for position in positions:
            moves = position.raw_moves()
            k = position.kings
            capture = moves[0][2]
            pick = lambda: rng.choice(moves) if rng.random() < 0.6 else None  # noqa: E731
            tt_move: Optional[RawMove] = pick()
            killers = [pick(), pick()]
            if killers[0] == killers[1]:
                killers[1] = None
            a, b = list(moves), list(moves)
            keyed.order(a, capture, k, tt_move, list(killers))
            traced.order(b, capture, k, tt_move, list(killers))
            assert a == b, position.fen()
            if capture:
                a, b = list(moves), list(moves)
                keyed.sort_captures(a, k)
                traced.sort_captures(b, k)
                assert a == b
            elif rng.random() < 0.5:
                keyed.remember(rng.choice(moves), [None, None], rng.randint(1, 9))


# ---------------------------------------------------------------------------
# The tuned evaluation.

@pytest.mark.parametrize("variant", ["english", "russian", "international"])
def test_both_shapes_of_the_tuned_evaluation_score_alike(variant: str) -> None:
    """The shipped weights and random ones, over games and placements with kings (runaway
    men beside the other side's kings, kings only, crowded boards)."""
    v = get_variant(variant)
    rng = random.Random(5)
    names = evalmodel.feature_names(v)
    for weights in (evalmodel.load_weights(v),
                    {name: rng.randint(-60, 60) for name in names}):
        assert weights
        interpreted = evalmodel.build_linear(v, weights, traced=False)
        traced = evalmodel.build_linear(v, weights, traced=True)
        for position in random_positions(variant, 400, seed=31):
            w, b, k, wtm = position.raw
            assert interpreted(w, b, k, wtm) == traced(w, b, k, wtm), position.fen()
            assert interpreted(w, b, k, wtm, True) == traced(w, b, k, wtm, True)


#: The diagonal boards (the hand-set evaluation's), 8x8 to 12x12.
HAND_VARIANTS = [name for name in variant_names() if not get_variant(name).all_squares]


@pytest.mark.parametrize("variant", HAND_VARIANTS)
def test_both_shapes_of_the_hand_set_evaluation_score_alike(variant: str) -> None:
    v = get_variant(variant)
    interpreted = handset.build_handset(v, traced=False)
    traced = handset.build_handset(v, traced=True)
    for position in random_positions(variant, 300, seed=41):
        w, b, k, wtm = position.raw
        assert interpreted(w, b, k, wtm) == traced(w, b, k, wtm), position.fen()
        assert interpreted(w, b, k, wtm, True) == traced(w, b, k, wtm, True)


def test_runaways_row_by_row_equal_the_cones() -> None:
    """make_runaways against each man's cone, on boards crowded near promotion."""
    rng = random.Random(8)
    for variant in ("english", "international", "canadian"):
        geo = Position.start(variant).geometry
        cones = terms.board_tables(geo.size)  # each man's cone, as the interpreted shape tests it
        bonus = [0, 40, 30, 20, 10]
        runaways = make_runaways(geo, bonus)
        for _ in range(300):
            squares = rng.sample(range(1, geo.squares + 1), rng.randint(1, geo.squares // 2))
            white = geo.mask_of(n for n in squares if rng.random() < 0.5)
            black = geo.mask_of(squares) ^ white
            kings = geo.mask_of(n for n in squares if rng.random() < 0.2)
            expected = 0
            for sign, men, cone_of, other_kings in (
                    (1, white & ~kings, lambda n: cones.cone(n, True), black & kings),
                    (-1, black & ~kings, lambda n: cones.cone(n, False), white & kings)):
                for n in geo.squares_of(men):
                    row = geo.row_col(n)[0]
                    to_go = row if sign > 0 else geo.size - 1 - row
                    if 1 <= to_go <= 4 and not cone_of(n) & (white | black):
                        expected += sign * (bonus[to_go] >> 1 if other_kings else bonus[to_go])
            assert runaways(white | black, white & ~kings, black & ~kings,
                            popcount(white & kings), popcount(black & kings)) == expected


# ---------------------------------------------------------------------------
# The same searches in fresh processes, each shape forced.

SEARCH_SCRIPT = r"""
import json, sys
from draughts_engine import runtime
from draughts_engine.errors import InvalidFenError
from draughts_engine.position import Position
from draughts_engine.search.engine import Searcher, bench
from draughts_engine.search.limits import SearchLimits
out = {"traced": runtime.TRACED, "bench": bench().nodes, "searches": []}
for variant, fen, depth in json.loads(sys.argv[1]):
    position = Position.start(variant) if fen is None else Position.from_fen(fen, variant)
    r = Searcher(hash_mb=1).search(position, SearchLimits(depth=depth))
    out["searches"].append([variant, r.best_move.pdn(), r.score_cp, r.mate_in, r.nodes,
                            r.seldepth, [m.pdn() for m in r.pv]])
print(json.dumps(out))
"""

#: (variant, FEN or None, depth): a 1 MiB table fills up in the deeper ones,
#: so replacement is compared too.
SEARCHES = [("english", None, 9), ("russian", "B:W19,22,25,26,27,28,29,31,32:B1,2,3,4,5,6,7,11,12", 7),
            ("brazilian", None, 7), ("international", None, 7),
            ("international", "W:WK47,K3,28:B14,19,29,31,42,K45", 6)]


def run_search_script(traced: bool) -> dict:
    env = dict(os.environ, **{runtime.TRACED_ENV: "1" if traced else "0"})
    done = subprocess.run([sys.executable, "-c", SEARCH_SCRIPT, json.dumps(SEARCHES)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_both_shapes_search_alike_and_sign_the_bench_alike() -> None:
    interpreted, traced = run_search_script(False), run_search_script(True)
    assert (interpreted["traced"], traced["traced"]) == (False, True)
    assert interpreted["bench"] == traced["bench"] == 35280
    assert interpreted["searches"] == traced["searches"]


# ---------------------------------------------------------------------------
# The transposition table's entry size: measured on CPython, fixed on PyPy (and checked
# there against what the collector counts).

def test_the_entry_size_holds_on_this_interpreter() -> None:
    size = entry_bytes()
    assert size == entry_bytes() and 100 <= size <= 2000
    if runtime.PYPY:
        # A fixed figure (the same capacity in every run), within a rounding step or two
        # of what PyPy's collector counts for the sample entries.
        assert size == PYPY_ENTRY_BYTES
        # Measured in a fresh process: threads left by earlier tests allocate while the
        # collector is read, and their garbage counts as the table's.
        measure = "from draughts_engine.search.tt import entry_bytes_gc; print(entry_bytes_gc())"
        done = subprocess.run([sys.executable, "-c", measure], cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        measured = None if done.stdout.strip() == "None" else int(done.stdout)
        assert measured is None or abs(measured - size) <= 2 * GC_ROUNDING
    else:
        assert entry_bytes_gc() is None  # no PyPy collector statistics here
        assert size == entry_bytes_getsizeof()
