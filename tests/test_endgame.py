"""Endgame databases: known results of the small endings, checked against the
rules and against a plain full-width search written here (independent of the
solver: it only asks the move generator for moves)."""
from __future__ import annotations

import random
from itertools import combinations
from typing import Dict, Tuple

import pytest

from draughts_engine import Position, get_variant
from draughts_engine.endgame import (DRAW_RESULT, LOSS_RESULT, WIN_RESULT, EndgameTables,
                                     Material, count_rule)
from draughts_engine.endgame.build import build_all
from draughts_engine.endgame.index import MaterialIndex, flip
from draughts_engine.endgame.material import materials_up_to
from draughts_engine.endgame.table import DRAW, LOSS, WIN
from draughts_engine.movegen import generator_for

VARIANTS = ("english", "russian", "brazilian", "international")
THREE_PIECES = [m.name for m in materials_up_to(3)]

# The long diagonals (a1-h8 on 8x8, 46-5 on 10x10), the "main road" of the theory books.
MAIN_DIAGONAL = {8: (29, 25, 22, 18, 15, 11, 8, 4), 10: (46, 41, 37, 32, 28, 23, 19, 14, 10, 5)}


class FullWidth:
    """A plain full-width search over the move generator, memoised by (position, plies).

    ``wins_within(p, n)``: the side to move can force the end of the game (the
    opponent without a move or without pieces) in at most ``n`` plies.
    ``loses_within(p, n)``: the opponent can.  No draw rule is modelled: callers
    stay within the count of the ending.
    """

    def __init__(self, variant: str) -> None:
        self.gen = generator_for(variant)
        self.memo: Dict[Tuple[int, int, int, bool, int, bool], bool] = {}

    def children(self, w: int, b: int, k: int, wtm: bool):
        for m in self.gen.moves(w, b, k, wtm):
            yield self.gen.play(w, b, k, wtm, m) + (not wtm,)

    def wins_within(self, w: int, b: int, k: int, wtm: bool, n: int) -> bool:
        if n <= 0:
            return False
        key = (w, b, k, wtm, n, True)
        if key not in self.memo:
            self.memo[key] = any(self.loses_within(*c, n - 1) for c in self.children(w, b, k, wtm))
        return self.memo[key]

    def loses_within(self, w: int, b: int, k: int, wtm: bool, n: int) -> bool:
        key = (w, b, k, wtm, n, False)
        if key not in self.memo:
            kids = list(self.children(w, b, k, wtm))
            self.memo[key] = not kids or (n > 1 and all(self.wins_within(*c, n - 1) for c in kids))
        return self.memo[key]

    def distance(self, raw, most: int):
        """``(result, plies)`` of the shortest forced end within ``most`` plies, or None."""
        for n in range(0, most + 1):
            if self.wins_within(*raw, n):
                return WIN_RESULT, n
            if self.loses_within(*raw, n):
                return LOSS_RESULT, n
        return None


@pytest.fixture(scope="module", params=VARIANTS)
def tables(request) -> EndgameTables:
    return EndgameTables(request.param)


def probe(variant: str, fen: str, counted: int = 0):
    p = Position.from_fen(fen, variant)
    return EndgameTables(variant).probe(*p.raw, counted=counted)


# ---- what comes with the package ---------------------------------------------------------

def test_every_two_and_three_piece_ending_comes_with_the_package(tables):
    assert tables.max_pieces >= 3
    for name in THREE_PIECES:
        assert tables.covers(Material.parse(name)), name
        assert tables.table(Material.parse(name)) is not None, tables.errors
    assert not tables.errors


def test_a_material_without_a_table_is_not_answered():
    tables = EndgameTables("international")
    p = Position.from_fen("W:WK1,K2,K3,K4,K5:BK50", "international")
    assert tables.probe(*p.raw) is None
    assert tables.probe(*Position.start("international").raw) is None


# ---- English ------------------------------------------------------------------------------

def test_english_two_kings_beat_a_king_except_when_jammed_in_a_single_corner():
    """With nothing to capture and the two kings to move, they win everywhere but
    in five positions (and their mirror images) where they are jammed in a single
    corner; a full-width search to 40 plies finds no win there either."""
    tables = EndgameTables("english")
    table = tables.table(Material.parse("KKvK"))
    gen = generator_for("english")
    single_corners = Position.start("english").geometry.mask_of((3, 4, 8, 12, 21, 25, 29, 30))
    draws = []
    wins = 0
    for i in range(table.index.size):
        w, b, k, wtm = table.index.decode(i)
        if not wtm or gen.has_capture(w, b, k, True) or gen.has_capture(w, b, k, False):
            continue
        result, _ = tables.probe(w, b, k, True)
        if result == DRAW_RESULT:
            draws.append((w, b, k, wtm))
        else:
            assert result == WIN_RESULT
            wins += 1
    assert wins > 12000 and len(draws) == 10
    search = FullWidth("english")
    for raw in draws:
        assert not raw[0] & ~single_corners
        assert not search.wins_within(*raw, 40), Position("english", *raw).fen()


def test_english_longest_two_kings_win_is_seventeen_moves():
    assert probe("english", "W:WK31,K32:BK19") == (WIN_RESULT, 33)
    p = Position.from_fen("W:WK31,K32:BK19", "english")
    assert FullWidth("english").distance(p.raw, 33) == (WIN_RESULT, 33)


def test_english_two_kings_win_with_the_distance_a_full_width_search_finds():
    tables = EndgameTables("english")
    table = tables.table(Material.parse("KKvK"))
    search = FullWidth("english")
    rng = random.Random(16)
    short = [i for i in range(table.index.size) if table.wdl[i] in (WIN, LOSS) and table.dtm(i) <= 11]
    for i in rng.sample(short, 40):
        raw = table.index.decode(i)
        assert search.distance(raw, 11) == tables.probe(*raw), Position("english", *raw).fen()


def test_english_king_against_king_is_a_draw_unless_a_capture_is_forced_within_a_few_moves():
    """Every position of 1 king against 1 king agrees with a full-width search
    to 12 plies: the wins are short forced captures, everything else is drawn."""
    tables = EndgameTables("english")
    table = tables.table(Material.parse("KvK"))
    search = FullWidth("english")
    draws = 0
    for i in range(table.index.size):
        raw = table.index.decode(i)
        expected = search.distance(raw, 12)
        assert tables.probe(*raw) == (expected or (DRAW_RESULT, 0)), Position("english", *raw).fen()
        draws += expected is None
    assert draws > table.index.size // 2
    assert probe("english", "W:WK1:BK32") == (DRAW_RESULT, 0)


def test_english_forty_move_rule_never_cuts_a_three_piece_win():
    rule = count_rule(get_variant("english"), Material.parse("KKvK"))
    assert (rule.limit, rule.men_reset) == (80, True)
    table = EndgameTables("english").table(Material.parse("KKvK"))
    assert max(table.dtz) < rule.limit


# ---- International: the lone-king counts ---------------------------------------------------

def test_international_two_kings_against_a_king_is_drawn_by_the_five_move_rule():
    """2 kings against 1 king: only short tactical wins (a capture at once, or a
    king offered so the lone king must take and be taken) fit in 5 moves each;
    the lone king on the long diagonal, to move and with nothing to take, draws."""
    variant = "international"
    tables = EndgameTables(variant)
    table = tables.table(Material.parse("KKvK"))
    assert (table.rule.limit, table.rule.men_reset) == (10, False)
    gen = generator_for(variant)
    diagonal = Position.start(variant).geometry.mask_of(MAIN_DIAGONAL[10])
    wins = draws = 0
    for i in range(table.index.size):
        w, b, k, wtm = table.index.decode(i)
        result, plies = tables.probe(w, b, k, wtm)
        if result == WIN_RESULT:
            assert plies <= 10
        if not wtm and b & diagonal and not w & diagonal and not gen.has_capture(w, b, k, False):
            assert result == DRAW_RESULT, Position(variant, w, b, k, wtm).fen()
        if wtm and not gen.has_capture(w, b, k, True):
            wins += result == WIN_RESULT
            draws += result == DRAW_RESULT
    assert draws > 10 * wins
    assert probe(variant, "W:WK36,K47:BK28") == (DRAW_RESULT, 0)
    # The lone king in corner 5 has one diagonal, held by the king on 46: a waiting move
    # (47-41) and it must step along it into 46's capture.
    tactic = Position.from_fen("W:WK46,K47:BK5", variant)
    assert tables.probe(*tactic.raw) == (WIN_RESULT, 3) == FullWidth(variant).distance(tactic.raw, 3)
    assert probe(variant, "W:WK28,K47:BK23") == (WIN_RESULT, 1)  # 28x19: an immediate capture


@pytest.mark.heavy
def test_international_two_kings_agree_with_a_full_width_search_within_the_count():
    tables = EndgameTables("international")
    table = tables.table(Material.parse("KKvK"))
    search = FullWidth("international")
    rng = random.Random(5)
    for i in rng.sample(range(table.index.size), 25):
        raw = table.index.decode(i)
        expected = search.distance(raw, 10)
        assert tables.probe(*raw) == (expected or (DRAW_RESULT, 0)), \
            Position("international", *raw).fen()


def test_international_lone_king_count_turns_a_late_win_into_a_draw():
    """A win 7 plies away with 4 plies already counted of the 10 allowed is a draw."""
    tables = EndgameTables("international")
    table = tables.table(Material.parse("KKvK"))
    i = next(i for i in range(table.index.size)
             if table.wdl[i] == WIN and table.dtz[i] == 7 and table.index.decode(i)[3])
    raw = table.index.decode(i)
    assert tables.probe(*raw, counted=0) == (WIN_RESULT, 7)
    assert tables.probe(*raw, counted=3) == (WIN_RESULT, 7)
    assert tables.probe(*raw, counted=4) == (DRAW_RESULT, 0)


def test_lone_king_counts_are_read_from_the_variant():
    cases = {
        ("international", "KKvK"): (10, False), ("international", "KMvK"): (10, False),
        ("international", "KvK"): (10, False), ("international", "KKKvK"): (32, False),
        ("international", "KMMvK"): (32, False), ("international", "MMvK"): (50, True),
        ("international", "KKvKK"): (50, True), ("brazilian", "KKvK"): (10, False),
        ("russian", "KKKvK"): (30, False), ("russian", "KKvK"): (10, False),
        ("russian", "KMvK"): (10, False),
        ("russian", "KKMvK"): (30, True), ("english", "KKKvK"): (80, True),
    }
    for (variant, name), expected in cases.items():
        rule = count_rule(get_variant(variant), Material.parse(name))
        assert (rule.limit, rule.men_reset) == expected, (variant, name)
        assert count_rule(get_variant(variant), Material.parse(name).flipped()) == rule


# ---- every committed table against the full-width search --------------------------------

@pytest.mark.heavy
@pytest.mark.parametrize("name", THREE_PIECES)
def test_database_agrees_with_full_width_search_on_random_positions(tables, name):
    """Random positions whose result is at most 9 plies away (or a draw) in the
    database; a draw is checked to have no forced end within the count (or 9 plies)."""
    table = tables.table(Material.parse(name))
    search = FullWidth(tables.variant.name)
    rng = random.Random(name)
    limit = table.rule.limit
    used = [i for i in range(table.index.size) if table.wdl[i] != 3]
    checked = 0
    for i in rng.sample(used, min(60, len(used))):
        raw = table.index.decode(i)
        result, plies = tables.probe(*raw)
        if result == DRAW_RESULT:
            found = search.distance(raw, min(9, limit))
            assert found is None, (Position(tables.variant, *raw).fen(), found)
        elif plies <= 9:
            assert search.distance(raw, plies) == (result, plies), Position(tables.variant, *raw).fen()
        else:
            continue
        checked += 1
        if checked == 12:
            break
    assert checked


# ---- symmetry and index ----------------------------------------------------------------------

@pytest.mark.heavy
@pytest.mark.parametrize("variant", ["english", "international"])
def test_index_round_trips_every_position(variant):
    for name in ("KvK", "KMvK", "MvM", "KKvM"):
        ix = MaterialIndex(get_variant(variant), Material.parse(name))
        seen = 0
        for i in range(ix.size):
            raw = ix.decode(i)
            if raw is None:
                continue
            assert ix.encode(*raw) == i
            assert Material.of(*raw[:3]) == ix.material
            seen += 1
        assert seen > 0.9 * ix.size


def test_turned_board_with_colours_exchanged_gives_the_same_result(tables):
    table = tables.table(Material.parse("KMvK"))
    ix = table.index
    rng = random.Random(3)
    for i in rng.sample(range(ix.size), 200):
        raw = ix.decode(i)
        if raw is None:
            continue
        turned = flip(*raw, ix.squares, ix.bit_of, ix.square0)
        assert Material.of(*turned[:3]) == Material.parse("KvKM")
        assert tables.probe(*turned) == tables.probe(*raw)


def test_material_names_parse_and_canonical_form():
    m = Material.parse("kmvk")
    assert (m.name, m.pieces, m.men) == ("KMvK", 3, 1)
    assert Material.parse("KvKM").canonical() == m
    assert m.flipped().name == "KvKM"
    for bad in ("KK", "vK", "KXvK", "", "Kv"):
        with pytest.raises(ValueError):
            Material.parse(bad)


def test_solver_matches_committed_tables():
    """Solving again gives the committed files' values (the files are not stale)."""
    built = build_all("russian", 3, [Material.parse("KKvK")])
    tables = EndgameTables("russian")
    for material, table in built.items():
        committed = tables.table(material)
        assert bytes(committed.wdl) == bytes(table.wdl), material
        assert list(committed.dtz) == list(table.dtz) and list(committed.tail) == list(table.tail)


# ---- three kings against a king: the main diagonal ---------------------------------------

def _three_kings_census(variant: str):
    """Results of 3 kings against a lone king, by who moves, where the lone king
    stands (on the main diagonal or not) and whether the kings hold it, for the
    positions where neither side has a capture."""
    tables = EndgameTables(variant)
    table = tables.table(Material.parse("KKKvK"))
    assert table is not None, f"{variant} KKKvK should come with the package"
    gen = generator_for(variant)
    geo = table.index.geometry
    diagonal = geo.mask_of(MAIN_DIAGONAL[geo.size])
    census: Dict[tuple, Dict[int, int]] = {}
    longest = 0
    for i in range(table.index.size):
        if table.wdl[i] == 3:
            continue
        w, b, k, wtm = table.index.decode(i)
        result = tables.probe(w, b, k, wtm)
        if result[0] == WIN_RESULT:
            longest = max(longest, table.dtz[i])
        if gen.has_capture(w, b, k, True) or gen.has_capture(w, b, k, False):
            continue
        key = ("kings" if wtm else "lone", bool(b & diagonal), bool(w & diagonal))
        counts = census.setdefault(key, {})
        counts[result[0]] = counts.get(result[0], 0) + 1
    return census, longest


@pytest.mark.heavy
def test_russian_three_kings_win_when_the_lone_king_is_off_the_main_road():
    """Petrov's triangle: three kings to move beat a lone king that is off the main
    road (a1-h8) within the 15-move count; a lone king on the road, to move,
    with the kings off it, holds the draw."""
    census, longest = _three_kings_census("russian")
    assert set(census[("kings", False, True)]) == {WIN_RESULT}
    assert set(census[("kings", False, False)]) == {WIN_RESULT}
    assert set(census[("lone", True, False)]) == {DRAW_RESULT}
    assert 20 < longest <= 30


def test_international_three_kings_against_a_king_is_drawn_but_for_the_coups():
    """On 10x10 three kings cannot force a lone king in 16 moves: only short
    combinations ("coups") win, and none against a lone king on the long
    diagonal (46-5) with nothing to take.  The coups of the old books (Hoyle):
    kings on 46, 37, 27 against 11, and on 19, 27, 37 against 11, win; a lone
    king on 46 against 13, 16, 27 must not go to 5, 10 or 14, but draws on
    41, 37, 28 or 23."""
    variant = "international"
    tables = EndgameTables(variant)
    table = tables.table(Material.parse("KKKvK"))
    assert max(table.dtz) <= 13  # no long win at all (12 plies; a loss 13), with or without the count
    gen = generator_for(variant)
    geo = table.index.geometry
    diagonal = MAIN_DIAGONAL[10]
    off = [s for s in range(1, 51) if s not in diagonal]
    rng = random.Random(46)
    held = {WIN_RESULT: 0, DRAW_RESULT: 0, LOSS_RESULT: 0}
    for lone in diagonal:
        for kings in rng.sample(list(combinations(off, 3)), 400):
            w, b = geo.mask_of(kings), geo.mask_of((lone,))
            if gen.has_capture(w, b, w | b, False) or gen.has_capture(w, b, w | b, True):
                continue
            assert tables.probe(w, b, w | b, False) == (DRAW_RESULT, 0), (lone, kings)
    for _ in range(3000):
        squares = rng.sample(range(1, 51), 4)
        w, b = geo.mask_of(squares[:3]), geo.mask_of(squares[3:])
        if (squares[3] in diagonal or not set(squares[:3]) & set(diagonal)
                or gen.has_capture(w, b, w | b, False) or gen.has_capture(w, b, w | b, True)):
            continue
        held[tables.probe(w, b, w | b, True)[0]] += 1
    assert held[DRAW_RESULT] > 4 * held[WIN_RESULT] > 0 and held[LOSS_RESULT] == 0
    variant = "international"
    tables = EndgameTables(variant)
    for fen in ("W:WK46,K37,K27:BK11", "W:WK19,K27,K37:BK11"):
        assert tables.probe(*Position.from_fen(fen, variant).raw)[0] == WIN_RESULT, fen
    lone = Position.from_fen("W:WK46:BK13,K16,K27", variant)
    after = {m.pdn(): tables.probe(*lone.play(m).raw)[0] for m in lone.legal_moves()}
    for square in (5, 10, 14):
        assert after[f"46-{square}"] == WIN_RESULT  # won for the three kings, now to move
    for square in (41, 37, 28, 23):
        assert after[f"46-{square}"] == DRAW_RESULT
    first_coup = Position.from_fen("W:WK46,K37,K27:BK11", variant)
    assert FullWidth(variant).distance(first_coup.raw, 3) == tables.probe(*first_coup.raw)


# ---- variants beyond the committed tables ----------------------------------------------------

@pytest.mark.heavy
def test_canadian_tables_on_the_twelve_by_twelve_board_agree_with_full_width_search(tmp_path):
    """72 playing squares: the index and the solver are not bound to 64 squares."""
    from draughts_engine.endgame.store import file_name, save

    built = build_all("canadian", 2)
    for material, table in built.items():
        save(table, str(tmp_path / file_name(material)))
    tables = EndgameTables("canadian", folders=[tmp_path])
    search = FullWidth("canadian")
    rng = random.Random(12)
    for material, table in built.items():
        ix = table.index
        assert ix.squares == 72
        used = [i for i in range(ix.size) if table.wdl[i] != 3]
        checked = 0
        for i in rng.sample(used, len(used)):
            raw = ix.decode(i)
            assert ix.encode(*raw) == i
            result, plies = tables.probe(*raw)
            if result == DRAW_RESULT:
                assert search.distance(raw, 5) is None, Position(get_variant("canadian"), *raw).fen()
            elif plies <= 5:
                assert search.distance(raw, plies) == (result, plies)
            else:
                continue
            checked += 1
            if checked == 15:
                break
        assert checked == 15, material.name


@pytest.mark.parametrize("variant", ["turkish", "frisian", "frysk", "antidraughts", "breakthrough"])
def test_variants_the_tables_cannot_describe_are_refused_and_never_probed(variant):
    from draughts_engine.endgame.build import solve
    from draughts_engine.endgame.material import unsupported_reason

    assert unsupported_reason(get_variant(variant))
    with pytest.raises(ValueError, match="no endgame tables"):
        solve(variant, Material.parse("KvK"), {})
    assert EndgameTables(variant).max_pieces == 0
