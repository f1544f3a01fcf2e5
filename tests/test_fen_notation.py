"""FEN in and out, move text in and out, and the named errors of bad input."""
from __future__ import annotations

import random

import pytest

from draughts_engine import (AmbiguousMoveError, Game, IllegalMoveError, InvalidFenError,
                             InvalidMoveError, Position, get_variant, parse_move)
from draughts_engine.notation import move_text, parse_hub_move

VARIANTS = ("english", "russian", "brazilian", "international")


def state(game: Game):
    """Everything a failed call must leave as it was."""
    return (game.position.fen(), game.ply, [m.pdn() for m in game.moves],
            [m.pdn() for m in getattr(game, "_redo", [])], game.position.zobrist, game.position.key())


# ---- FEN round trips ------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_start_position_fen_round_trip(variant):
    v = get_variant(variant)
    start = Position.start(variant)
    half, rows = v.size // 2, v.start_rows
    assert start.counts() == {"white_men": half * rows, "white_kings": 0,
                              "black_men": half * rows, "black_kings": 0}
    assert start.turn == v.first
    fen = start.fen()
    assert "-" not in fen                       # ranges are expanded on output
    again = Position.from_fen(fen, variant)
    assert again == start and again.fen() == fen
    assert again.zobrist == start.zobrist and again.key() == start.key()
    assert Position.from_fen(v.start_fen(), variant) == start


@pytest.mark.parametrize("fen,variant,expected", [
    ("B:W21-32:B1-12", "english", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
    ("W:WK47:B14,19,29,31,42", "international", "W:WK47:B14,19,29,31,42"),
    ("W:W15-17,K9:BK1-3", "international", "W:WK9,15,16,17:BK1,K2,K3"),  # K applies to a range
    ("W:B1,2:W31,32", "english", "W:W31,32:B1,2"),               # colour order does not matter
    ("w:wk21,22:bk1", "english", "W:WK21,22:BK1"),               # lower case
    ('"B:W21,22:B1,2."', "english", "B:W21,22:B1,2"),            # quotes and final dot
    ("W:W21:B1:H0:F1", "english", "W:W21:B1"),                   # move counters ignored
    ("W: W 21 , 22 : B 1 ", "english", "W:W21,22:B1"),          # blanks
    ("W:W21,22:B", "english", "W:W21,22:B"),                     # a side without pieces
    ("B::B1", "russian", "B:W:B1"),
    ("W:Wc3,e3,Kh8:Bd6,f6,Ka1", "russian", "W:WK4,22,23:B10,11,K29"),   # algebraic on 8x8
    ("W:WC3,E3:BD6", "brazilian", "W:W22,23:B10"),
    ("W:Wa1-c1:Bb8", "english", "W:W29,30:B1"),                  # an algebraic range runs over PDN numbers
])
def test_fen_input_forms(fen, variant, expected):
    position = Position.from_fen(fen, variant)
    assert position.fen() == expected
    assert Position.from_fen(position.fen(), variant) == position


def test_algebraic_and_numeric_fen_agree():
    geo = Position.start("russian").geometry
    numeric = "W:W21,22,K31:B5,K12"
    algebraic = "W:W" + ",".join([geo.algebraic(21), geo.algebraic(22), "K" + geo.algebraic(31)]) \
        + ":B" + ",".join([geo.algebraic(5), "K" + geo.algebraic(12)])
    assert algebraic == "W:Wa3,c3,Ke1:Ba7,Kh6"
    assert Position.from_fen(algebraic, "russian") == Position.from_fen(numeric, "russian")


def test_random_positions_round_trip():
    rng = random.Random(7)
    for variant in VARIANTS:
        position = Position.start(variant)
        for _ in range(150):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
            again = Position.from_fen(position.fen(), variant)
            assert again == position and hash(again) == hash(position)
            assert again.zobrist == position.zobrist and again.key() == position.key()
            assert repr(position) == f"Position.from_fen({position.fen()!r}, {variant!r})"


def test_side_to_move_and_variant_are_part_of_identity():
    a = Position.from_fen("W:W21:B1", "english")
    b = Position.from_fen("B:W21:B1", "english")
    c = Position.from_fen("W:W21:B1", "russian")
    assert a != b and a.zobrist != b.zobrist and a.key() != b.key()
    assert a != c


# ---- malformed FEN ------------------------------------------------------------------------
@pytest.mark.parametrize("variant,fen,part", [
    ("english", "", "empty"),
    ("english", "   ", "empty"),
    ("english", "X:W21:B1", "'X'"),                     # bad side to move
    ("english", "WB:W21:B1", "'WB'"),
    ("english", "hello", "'hello'"),                    # garbage
    ("english", "W:W21a:B1", "'21a'"),                  # bad square
    ("english", "W:W21;B1", "'21;B1'"),
    ("english", "W:WK:B1", "''"),
    ("english", "W:W33:B1", "33"),                      # off the board
    ("english", "W:W0:B1", "0"),
    ("international", "W:W51:B1", "51"),
    ("international", "W:Wc3:B1", "'c3'"),             # algebraic only on 8x8
    ("english", "W:Wc4:B1", "'c4'"),                    # a light square
    ("english", "W:W21,21:B1", "21"),                   # duplicate square
    ("english", "W:W21:B21", "21"),
    ("english", "W:W20-24:B24", "24"),
    ("english", "W:W3:B20", "square 3"),                # white man on its promotion row
    ("english", "W:W20:B30", "square 30"),              # black man on its promotion row
    ("international", "W:W5:B20", "square 5"),
    ("international", "W:W30:B46", "square 46"),
    ("english", "W:W10-5:B20", "'10-5'"),               # backwards range
    ("english", "W:W21:W22", "W given twice"),
    ("english", "W:W21:B1:Z3", "'Z3'"),
])
def test_malformed_fen_names_the_bad_part(variant, fen, part):
    with pytest.raises(InvalidFenError) as info:
        Position.from_fen(fen, variant)
    assert part in str(info.value)


def test_fen_must_be_text():
    with pytest.raises(InvalidFenError):
        Position.from_fen(None, "english")  # type: ignore[arg-type]


def test_kings_may_stand_on_the_promotion_rows():
    p = Position.from_fen("W:WK1:BK32", "english")
    assert p.piece_at(1) == "W" and p.piece_at(32) == "B"


def test_fen_with_superscript_digit_raises_invalid_fen_error():
    with pytest.raises(InvalidFenError):
        Position.from_fen("W:W²:B20", "english")


# ---- move text out ---------------------------------------------------------------------------
def test_move_text_output():
    p = Position.start("english")
    assert sorted(m.pdn() for m in p.legal_moves()) == sorted(
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])
    p = Position.from_fen("W:WK47:B14,19,29,31,42", "international")
    for m in p.legal_moves():
        assert m.pdn().startswith("47x") and m.pdn().endswith("x36") and m.pdn().count("x") == 4
        assert m.pdn(full_path=False) == "47x36"
        assert m.hub() == "47x36x" + "x".join(map(str, m.captured))
        assert str(m) == m.pdn()


def test_algebraic_move_text():
    p = Position.start("russian")
    texts = {move_text(m, algebraic=True, position=p) for m in p.legal_moves()}
    assert texts == {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}
    for m in p.legal_moves():
        assert parse_move(p, move_text(m, algebraic=True, position=p)) == m
    p = Position.from_fen("W:W11:B6,7", "russian")
    (m1, m2) = sorted(p.legal_moves(), key=lambda m: m.end)
    assert move_text(m1, algebraic=True, position=p) == "f6xd8xb6"


# ---- move text in --------------------------------------------------------------------------------
@pytest.mark.parametrize("variant,fen,text,expected", [
    ("english", None, "11-15", "11-15"),
    ("english", None, " 11-15 ", "11-15"),
    ("english", None, "b6-a5", "9-13"),          # algebraic on 8x8
    ("english", None, "B6-A5", "9-13"),
    ("russian", None, "c3-d4", "22-18"),
    ("international", None, "32-28", "32-28"),
    ("english", "W:W22,31:B11,18,27", "22x8", "22x15x8"),        # short form of a unique capture
    ("english", "W:W22,31:B11,18,27", "22x15x8", "22x15x8"),
    ("english", "W:W22,31:B11,18,27", "22-8", "22x15x8"),
    ("international", "W:WK47:B14,19,29,31,42", "47x33x24x13x36", "47x38x24x13x36"),
])
def test_parse_move_accepts(variant, fen, text, expected):
    p = Position.from_fen(fen, variant) if fen else Position.start(variant)
    assert parse_move(p, text).pdn() == expected
    assert p.play(text) == p.play(parse_move(p, text))


@pytest.mark.parametrize("variant,fen,text,error", [
    ("english", None, "", InvalidMoveError),
    ("english", None, "11", InvalidMoveError),
    ("english", None, "11--15", InvalidMoveError),
    ("english", None, "x11-15", InvalidMoveError),
    ("english", None, "11-15!", InvalidMoveError),
    ("english", None, "33-34", InvalidMoveError),          # off the board
    ("english", None, "0-4", InvalidMoveError),
    ("english", None, "11-15 19", InvalidMoveError),
    ("english", None, "eleven-15", InvalidMoveError),
    ("english", None, "c4-d5", InvalidMoveError),          # light squares
    ("international", None, "c3-d4", InvalidMoveError),    # no algebraic on 10x10
    ("international", None, "51-46", InvalidMoveError),
    ("english", None, "11-16x20", IllegalMoveError),
    ("english", None, "22-18", IllegalMoveError),          # White's man, Black to move
    ("english", None, "11-18", IllegalMoveError),
    ("english", None, "15-19", IllegalMoveError),          # empty square
    ("english", None, "a3-b4", IllegalMoveError),
    ("english", "W:W22,32:B18", "32-27", IllegalMoveError),   # capture is compulsory
    ("english", "W:W22,31:B11,18,27", "22x15", IllegalMoveError),  # unfinished capture
    ("international", "W:WK47:B14,19,29,31,42", "47x36", AmbiguousMoveError),
    ("international", "W:WK47:B14,19,29,31,42", "47x38x36", AmbiguousMoveError),
    ("russian", "W:WK29:B15", "29x15", IllegalMoveError),
])
def test_parse_move_errors_leave_the_position_untouched(variant, fen, text, error):
    p = Position.from_fen(fen, variant) if fen else Position.start(variant)
    before = (p.fen(), p.zobrist, p.key())
    with pytest.raises(error) as info:
        parse_move(p, text)
    assert text.strip() in str(info.value) or not text.strip()
    with pytest.raises(error):
        p.play(text)
    assert (p.fen(), p.zobrist, p.key()) == before
    game = Game(variant, fen=fen)
    game.push(game.legal_moves()[0])
    game.pop()                            # leave something on the redo list
    saved = state(game)
    with pytest.raises(error):
        game.push(text)
    assert state(game) == saved


def test_move_must_be_text():
    p = Position.start("english")
    with pytest.raises(InvalidMoveError):
        parse_move(p, None)  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError):
        parse_move(p, 1115)  # type: ignore[arg-type]


def test_ambiguity_error_lists_the_candidates():
    p = Position.from_fen("W:WK47:B14,19,29,31,42", "international")
    with pytest.raises(AmbiguousMoveError) as info:
        parse_move(p, "47x36")
    message = str(info.value)
    assert "47x38x24x13x36" in message and "47x38x20x9x36" in message


def test_illegal_move_error_lists_legal_moves():
    p = Position.start("english")
    with pytest.raises(IllegalMoveError) as info:
        parse_move(p, "22-18")
    assert "11-15" in str(info.value)


def test_hub_move_text():
    p = Position.from_fen("W:WK47:B14,19,29,31,42", "international")
    m = parse_hub_move(p, "47x36x42x31x29x19")
    assert m.captured == (19, 29, 31, 42) and parse_hub_move(p, m.hub()) == m
    assert parse_hub_move(p, "47x36x19x29x31x42") == m      # captured squares in any order
    with pytest.raises(AmbiguousMoveError):
        parse_hub_move(p, "47x36")
    with pytest.raises(IllegalMoveError):
        parse_hub_move(p, "47x36x14x19x29x31")
    q = Position.start("international")
    assert parse_hub_move(q, "32-28").pdn() == "32-28"


def test_move_with_superscript_digit_raises_invalid_move_error():
    with pytest.raises(InvalidMoveError):
        parse_move(Position.start("english"), "²-5")


# ---- each variant's own notation: numbers, or algebraic squares for Russian and Brazilian -------
def random_position(variant: str, seed: int, plies: int) -> Position:
    rng = random.Random(seed)
    position = Position.start(variant)
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(rng.choice(moves))
    return position


def test_each_variant_says_which_notation_it_writes():
    assert {name: get_variant(name).notation for name in VARIANTS} == {
        "english": "numeric", "russian": "algebraic", "brazilian": "algebraic",
        "international": "numeric"}


@pytest.mark.parametrize("variant", ["russian", "brazilian"])
def test_fen_stays_numeric_unless_algebraic_is_asked_for(variant):
    start = Position.start(variant)
    assert start.fen() == "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    algebraic = "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8"
    assert start.fen("algebraic") == start.fen(None) == algebraic
    assert Position.from_fen("B:WKa1:Bh8,Kb8", variant).fen("algebraic") == "B:WKa1:BKb8,h8"


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(4))
def test_fen_in_the_variant_notation_round_trips(variant, seed):
    position = random_position(variant, seed, 30 + seed)
    assert Position.from_fen(position.fen(None), variant) == position
    assert Position.from_fen(position.fen("numeric"), variant) == position
    if get_variant(variant).size == 8:
        assert Position.from_fen(position.fen("algebraic"), variant) == position


def test_algebraic_text_is_refused_for_10x10_and_unknown_notations():
    start = Position.start("international")
    assert start.fen(None) == start.fen()
    with pytest.raises(ValueError, match="8x8"):
        start.fen("algebraic")
    with pytest.raises(ValueError, match="unknown notation"):
        Position.start("russian").fen("roman")


@pytest.mark.parametrize("variant,numeric,algebraic", [
    ("russian", "22-18", "c3-d4"),
    ("brazilian", "24-20", "g3-h4"),
    ("english", "11-15", "f6-e5"),
])
def test_move_text_in_either_notation(variant, numeric, algebraic):
    position = Position.start(variant)
    move = parse_move(position, numeric)
    assert position.move_text(move, "numeric") == move.pdn() == numeric
    assert position.move_text(move, "algebraic") == algebraic
    assert position.move_text(move) == (algebraic if variant != "english" else numeric)
    assert parse_move(position, algebraic) == move


def test_algebraic_capture_lists_every_landing_square():
    position = Position.from_fen("W:WKa1:Bc3,e5,f6,d2", "russian")
    texts = {position.move_text(m) for m in position.legal_moves()}
    assert texts and all(t.startswith("a1x") and t.count("x") >= 1 for t in texts)
    for move in position.legal_moves():
        assert parse_move(position, position.move_text(move)) == move


def test_russian_colon_capture_sign_is_read():
    position = Position.from_fen("W:Wc3:Bd4", "russian")
    assert position.move_text(parse_move(position, "c3:e5")) == "c3xe5"


@pytest.mark.parametrize("variant,first", [("russian", "1. c3-d4"), ("brazilian", "1. c3-d4"),
                                           ("english", "1. 11-15"), ("international", "1. 32-28")])
def test_pdn_writes_the_variant_notation_and_numbers_on_request(variant, first):
    game = Game(variant)
    game.push(first.split()[1])
    assert game.to_pdn().rstrip().splitlines()[-1] == first + " *"
    numbered = game.to_pdn(notation="numeric").rstrip().splitlines()[-1]
    assert numbered == f"1. {game.moves[0].pdn()} *"
    assert Game.from_pdn(game.to_pdn()).positions == game.positions
    assert Game.from_pdn(game.to_pdn(notation="numeric")).positions == game.positions


def test_a_full_path_names_its_capture_even_inside_a_longer_one() -> None:
    """English W:WK2:B6,7,8,14,15: 2x11x4 is a capture of its own, and its squares also lie on
    2x9x18x11x4. Written out in full it names that capture (the engine writes it so); the
    shorter '2x4' stays ambiguous."""
    from draughts_engine.notation import parse_move
    position = Position.from_fen("W:WK2:B6,7,8,14,15", "english")
    assert sorted(m.pdn() for m in position.legal_moves()) == [
        "2x11x4", "2x9x18x11x2", "2x9x18x11x4"]
    for move in position.legal_moves():
        assert parse_move(position, move.pdn()) == move  # every move's own text round-trips
    with pytest.raises(AmbiguousMoveError):
        parse_move(position, "2x4")


def test_fen_move_counters_are_skipped_and_a_bad_one_is_named():
    from draughts_engine.errors import InvalidFenError
    from draughts_engine.position import Position

    assert Position.from_fen("W:W31:B1:H0:F1", "international").fen() == "W:W31:B1"
    with pytest.raises(InvalidFenError, match="move counter 'Hx'"):
        Position.from_fen("W:W31:B1:Hx", "international")
    with pytest.raises(InvalidFenError, match="must start with W or B"):
        Position.from_fen("W:W31:B1:Zz", "international")
