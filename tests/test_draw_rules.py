"""Move-count draw rules named after the rule they test (FMJD, Russian FMJD-64 7.2.x,
Brazilian): when a count starts, when it goes on and when it starts afresh.

Repetitions are avoided and every walk is found by a deterministic search, so each
test checks one rule.  Sources: docs/variants.md.
"""
from typing import Callable, Optional

from draughts_engine import Game, Position
from draughts_engine.variants import get_variant

from test_game import king_walk


def play(game: Game, moves: str) -> Optional[int]:
    """Play ``moves``; the ply on which the game ended first (None: still going)."""
    ended = None
    for move in moves.split():
        game.push(move)
        if ended is None and game.result().is_over:
            ended = game.ply
    return ended


def endgame_rule_ply(variant: str, fen: str, moves: str) -> Optional[int]:
    """Play ``moves`` from ``fen``: the ply on which the game ended, once it has ended by the
    endgame rule."""
    game = Game(variant, fen=fen)
    ended = play(game, moves)
    assert game.result().code == "endgame-rule"
    return ended


def walk(game: Game, plies: int, keep: Callable[[Position], bool]) -> None:
    """Play ``plies`` quiet king moves to new positions that ``keep`` accepts and that
    offer no capture (:func:`test_game.king_walk`), checking that the game goes on
    before each one."""
    def ongoing(g: Game) -> None:
        assert g.result().outcome is None, (g.ply, g.result())

    king_walk(game, plies, ongoing, keep)


# ---- FMJD (International and the variants sharing its rules) ---------------------------------

def test_fmjd_five_move_count_goes_on_through_a_promotion():
    # King and man against king: the man promotes on ply 3; still the same class.
    assert endgame_rule_ply("international", "W:WK46,9:BK45",
                            "46-32 45-34 9-3 34-7 3-9 7-45 9-31 45-1 32-19 1-40") == 10


def test_fmjd_sixteen_move_count_goes_on_through_promotions():
    moves = ("46-41 45-12 41-37 12-26 37-23 26-48 23-41 48-34 41-28 34-45 9-3 45-40 28-33 40-7 "
             "3-17 7-2 33-42 2-13 17-6 13-27 6-28 27-9 28-23 9-3 42-24 3-25 23-46 25-43 24-20 "
             "43-39 20-47 39-33")
    assert endgame_rule_ply("international", "W:WK46,9,10:BK45", moves) == 32


def test_fmjd_five_move_count_goes_on_through_a_capture_inside_the_class():
    # King and man against king; the lone king takes the man on ply 4: king against king
    # is the same class, so the count started at ply 0 ends the game at ply 10.
    assert endgame_rule_ply("international", "W:W22,K30:BK42",
                            "22-17 42-26 30-43 26x3 43-30 3-9 30-24 9-25 24-29 25-20") == 10


def test_fmjd_count_starts_afresh_when_the_class_changes():
    # Three kings against a king (16 moves) become two kings against a king (5 moves)
    # when the lone king takes one: a new count from that capture.
    game = Game("international", fen="W:WK1,K2,K3:BK50")
    king_walk(game, 4, lambda g: None)
    offer = next(m for m in game.legal_moves() if game.position.play(m).has_capture())
    game.push(offer)
    assert game.counters[-1].ending_plies == 5
    game.push(game.legal_moves()[0])
    assert game.counters[-1].ending_plies == 0
    king_walk(game, 9, lambda g: None)
    assert game.result().outcome is None
    king_walk(game, 1, lambda g: None)
    assert game.result().code == "endgame-rule"


# ---- Russian (FMJD-64 rules 7.2.4-7.2.8) ------------------------------------------------------

def test_russian_7_2_8_two_kings_against_a_king_five_moves():
    assert endgame_rule_ply("russian", "W:WK1,K2:BK29",
                            "1-28 29-18 28-32 18-15 2-9 15-25 9-2 25-29 32-27 29-4") == 10


def test_russian_7_2_7_lone_king_on_the_main_road_five_moves():
    game = Game("russian", fen="W:WK1,K2,K3:BK29")
    geo = game.position.geometry
    road = geo.mask_of(geo.square_at(7 - i, i) for i in range(8))
    assert game.counters[-1].road_plies == 0

    def lone_king_alone_on_the_road(position: Position) -> bool:
        return (position.white | position.black) & road == position.black

    walk(game, 10, lone_king_alone_on_the_road)
    result = game.result()
    assert result.outcome == "draw" and "main road" in result.reason, result


def test_russian_7_2_4_three_kings_off_the_road_have_fifteen_moves():
    game = Game("russian", fen="W:WK1,K2,K3:BK26")
    geo = game.position.geometry
    road = geo.mask_of(geo.square_at(7 - i, i) for i in range(8))
    walk(game, 29, lambda position: not (position.white | position.black) & road)
    assert game.result().outcome is None
    walk(game, 1, lambda position: not (position.white | position.black) & road)
    assert game.result().code in ("endgame-rule", "move-rule")


def test_russian_7_2_6_endings_with_a_king_each_count_until_the_material_changes():
    rules = get_variant("russian").draw
    assert rules.ending(1, 1, 1, 1).plies == 60         # 4 pieces: 30 moves each
    assert rules.ending(2, 1, 1, 1).plies == 60         # 5 pieces
    assert rules.ending(2, 2, 1, 1).plies == 120        # 6 pieces: 60 moves each
    assert rules.ending(3, 1, 3, 1) is None             # 8 pieces: no such count
    assert rules.ending(2, 0, 1, 1) is None             # a side without a king
    # a promotion changes the material: another class, a new count
    assert rules.ending(1, 1, 1, 1).key != rules.ending(0, 2, 1, 1).key
    # International has no such rule
    assert get_variant("international").draw.ending(1, 1, 1, 1) is None


def test_russian_7_2_6_count_survives_man_moves():
    # King and man each: man moves reset the kings-only count (7.2.5) but not 7.2.6.
    game = Game("russian", fen="W:WK29,21:BK4,12")
    game.push_all(["21-17", "12-16"])
    assert game.counters[-1].quiet_plies == 0 and game.counters[-1].ending_plies == 2


# ---- Brazilian --------------------------------------------------------------------------------

def test_brazilian_twenty_moves_each_of_kings_only():
    game = Game("brazilian", fen="W:WK29,K30,9:BK4,K3,24")
    moves = ("30-25 3-8 25-21 8-12 21-3 12-19 3-14 19-12 14-17 12-3 17-13 3-21 13-26 21-3 26-30 "
             "3-10 30-12 10-21 12-23 21-3 23-26 3-21 26-23 21-30 23-14 30-19 14-17 19-12 17-10 "
             "12-19")
    assert play(game, moves) is None  # 15 moves each: not yet
    king_walk(game, 10, lambda g: None)
    assert game.ply == 40 and game.result().code == "move-rule"


def test_endgame_tables_continue_the_count_inside_a_class():
    from draughts_engine.endgame.material import Material, same_count
    international, russian = get_variant("international"), get_variant("russian")
    kmk, kkk, kkkk, kk = (Material.parse(n) for n in ("KMvK", "KKvK", "KKKvK", "KvK"))
    assert same_count(international, kmk, kkk) and same_count(international, kkk, kk)
    assert not same_count(international, kkkk, kkk)        # 16 moves -> 5 moves: a new count
    assert same_count(russian, kmk, kkk)                     # 7.2.8 never starts afresh
    assert not same_count(russian, Material.parse("KKKKvK"), kkkk)   # 7.2.4: new correlation
