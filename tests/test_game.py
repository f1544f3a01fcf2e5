"""Game records: push/pop/undo/redo, results, draw rules and PDN in/out."""
from __future__ import annotations

import random
from typing import Callable, List, Optional

import pytest

from draughts_engine import (Game, IllegalMoveError, InvalidMoveError, InvalidPdnError, Position,
                             UndoError)
from draughts_engine.pdn import read_games, write_game

VARIANTS = ("english", "russian", "brazilian", "international")


def snapshot(game: Game):
    """Everything that must be restored exactly (position, hashes, record, result)."""
    p = game.position
    return (p.fen(), p.zobrist, p.key(), game.ply, [m.pdn() for m in game.moves],
            [q.fen() for q in game.positions], game.counters[-1], game.result())


def random_game(variant: str, plies: int, seed: int, fen: Optional[str] = None) -> Game:
    rng = random.Random(seed)
    game = Game(variant, fen=fen)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves or game.result().is_over:
            break
        game.push(rng.choice(moves))
    return game


# ---- push / pop / undo / redo --------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_undo_and_redo_restore_exact_positions_and_hashes(variant):
    game = random_game(variant, 0, 0)
    rng = random.Random(variant)
    states = [snapshot(game)]
    for _ in range(40):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
        states.append(snapshot(game))
        # the hash of a position reached by play equals that of the same position read from FEN
        fresh = Position.from_fen(game.position.fen(), variant)
        assert fresh.zobrist == game.position.zobrist and fresh.key() == game.position.key()
    n = game.ply
    assert n >= 10
    last_five = list(game.moves[n - 5:])
    undone = game.undo(5)
    assert undone == last_five[::-1] and snapshot(game) == states[n - 5]
    game.redo()
    assert snapshot(game) == states[n - 4]
    game.pop()
    assert snapshot(game) == states[n - 5]
    for k in range(n - 5, 0, -1):
        game.pop()
        assert snapshot(game) == states[k - 1]
    for k in range(1, n + 1):
        game.redo()
        assert snapshot(game) == states[k]
    with pytest.raises(UndoError):
        game.redo()
    assert snapshot(game) == states[n]
    assert game.undo(0) == [] and snapshot(game) == states[n]
    game.undo(n)
    assert snapshot(game) == states[0]


def test_undo_past_the_start_changes_nothing():
    game = random_game("english", 6, 1)
    saved = snapshot(game)
    with pytest.raises(UndoError):
        game.undo(7)
    assert snapshot(game) == saved
    with pytest.raises(UndoError):
        game.undo(-1)
    assert snapshot(game) == saved
    game.undo(6)
    with pytest.raises(UndoError):
        game.pop()
    with pytest.raises(UndoError):
        game.undo(1)
    assert game.ply == 0 and game.position == Position.start("english")
    # the redo list survived the failed calls
    for _ in range(6):
        game.redo()
    assert snapshot(game) == saved


def test_redo_on_a_fresh_game_raises():
    game = Game("russian")
    with pytest.raises(UndoError):
        game.redo()
    assert game.ply == 0


def test_push_clears_the_redo_list():
    game = Game("english")
    game.push("11-15")
    game.pop()
    game.push("9-14")
    with pytest.raises(UndoError):
        game.redo()
    assert [m.pdn() for m in game.moves] == ["9-14"]


def test_push_accepts_moves_and_text_and_rejects_foreign_moves():
    game = Game("english")
    move = game.legal_moves()[0]
    assert game.push(move) == move
    saved = snapshot(game)
    with pytest.raises(IllegalMoveError):
        game.push(move)                # Black's move, White to move now
    other = Position.from_fen("W:W22:B18", "english").legal_moves()[0]
    with pytest.raises(IllegalMoveError):
        game.push(other)
    assert snapshot(game) == saved


def test_push_all_is_atomic():
    game = Game("english")
    game.push("11-15")
    game.push("23-19")
    game.pop()                              # leaves 23-19 on the redo list
    saved = snapshot(game)
    with pytest.raises(IllegalMoveError):
        game.push_all(["22-18", "15x22", "25x18", "12-16", "12-16"])
    assert snapshot(game) == saved
    with pytest.raises(InvalidMoveError):
        game.push_all(["22-18", "garbage"])
    assert snapshot(game) == saved
    assert game.redo().pdn() == "23-19"    # the redo list is back too
    game.pop()
    done = game.push_all(["22-18", "15x22", "25x18"])
    assert [m.pdn() for m in done] == ["22-18", "15x22", "25x18"] and game.ply == 4
    assert game.push_all([]) == [] and game.ply == 4


# ---- results -----------------------------------------------------------------------------------
@pytest.mark.parametrize("variant,fen,winner", [
    ("english", "B:W21,22:B", "white"),            # Black has no piece
    ("international", "W:W:B1", "black"),
    ("english", "W:W29:B22,25", "black"),          # White's only man is blocked
    ("russian", "W:W29:B22,25", "black"),
    ("english", "B:W9,14,18,20:B5", "white"),      # Black's only man is blocked
])
def test_no_legal_move_loses(variant, fen, winner):
    game = Game(variant, fen=fen)
    assert game.legal_moves() == []
    result = game.result()
    assert result.outcome == winner and result.is_over
    assert "no legal move" in result.reason and result.code == "no-moves"
    assert result.score_text() == {"white": "1-0", "black": "0-1"}[winner]
    assert result.score_text(international=True) == {"white": "2-0", "black": "0-2"}[winner]


@pytest.mark.parametrize("variant,fen,winner", [
    ("international", "W:W28:B", "white"),          # set up with Black out of pieces
    ("english", "B:B5:W", "black"),
    ("russian", "W:WK28:B", "white"),
    ("antidraughts", "W:W28:B", "black"),           # there, the side without pieces has won
])
def test_a_side_without_pieces_has_lost_even_when_not_to_move(variant, fen, winner):
    result = Game(variant, fen=fen).result()
    assert result.is_over and result.outcome == winner
    assert "has no pieces" in result.reason and result.code == "no-moves"


@pytest.mark.parametrize("fen,winner", [
    ("W:WK1,46:B5,20", "white"),     # set up after White crowned: over, even with White to move
    ("B:WK1,46:B5,20", "white"),
    ("W:W46:BK5,20", "black"),
])
def test_breakthrough_position_with_a_king_is_won_by_its_owner(fen, winner):
    result = Game("breakthrough", fen=fen).result()
    assert result.is_over and result.outcome == winner and "crowned a king" in result.reason


def test_capturing_the_last_piece_wins():
    game = Game("english", fen="W:W22:B18")
    assert game.result().outcome is None and game.result().score_text() == "*"
    game.push("22x15")
    assert game.result().outcome == "white"
    game.pop()
    assert game.result().outcome is None


@pytest.mark.parametrize("variant,fen,move", [
    ("english", "W:W13,14,18,20:B5", "13-9"),
    ("russian", "W:W6,9,14,17:B5", "6-1"),      # the man promotes and Black's 5 is blocked
])
def test_blocked_side_loses_after_the_move(variant, fen, move):
    game = Game(variant, fen=fen)
    assert game.result().outcome is None
    game.push(move)
    assert game.legal_moves() == [] and game.position.counts()["black_men"] == 1
    assert game.result().outcome == "white"
    assert game.result().code == "no-moves"


# ---- draw rules ----------------------------------------------------------------------------------
def _quiet_king_moves(position: Position, seen,
                      keep: Callable[[Position], bool] = lambda after: True) -> list:
    """Non-capturing king moves to positions not in ``seen`` (and that ``keep`` accepts)
    after which the opponent has a move and no capture."""
    out = []
    for move in position.legal_moves():
        if move.captured or position.piece_at(move.start) not in ("W", "B"):
            continue
        after = position.play(move)
        if after in seen or after.has_capture() or not after.raw_moves() or not keep(after):
            continue
        out.append((move, after))
    return out


def king_walk(game: Game, plies: int, check: Callable[[Game], None],
              keep: Callable[[Position], bool] = lambda after: True) -> None:
    """Play ``plies`` non-capturing king moves, every one to a position not seen before
    in the game (so repetition never triggers), never offering a capture, each to a
    position ``keep`` accepts.  The walk is
    found by a depth-first search (deterministic), then played with ``check(game)``
    before every move."""
    seen = set(game.positions)
    path: List = []
    budget = [20000]

    def search(position: Position, left: int) -> bool:
        if left == 0:
            return True
        budget[0] -= 1
        assert budget[0] > 0, f"no king walk of {plies} plies from {game.position.fen()}"
        for move, after in _quiet_king_moves(position, seen, keep):
            seen.add(after)
            path.append(move)
            if search(after, left - 1):
                return True
            path.pop()
            seen.discard(after)
        return False

    assert search(game.position, plies), f"no king walk of {plies} plies from {game.position.fen()}"
    for move in path:
        check(game)
        game.push(move)


def ongoing(game: Game) -> None:
    assert game.result().outcome is None, (game.ply, game.result())


@pytest.mark.parametrize("variant,fen,plies,code", [
    # English: 40 moves each without a man move or capture
    ("english", "W:WK29,K32:BK1,K4", 80, "move-rule"),
    ("english", "B:WK29,K32,21:BK1,K4,12", 80, "move-rule"),
    # International: 25 moves each of kings only (men stand still)
    ("international", "W:WK33,45,50:BK18,1,6", 50, "move-rule"),
    # International: 3 pieces (one a king) against a lone king, 16 moves each
    ("international", "W:WK33,45,50:BK18", 32, "endgame-rule"),
    ("international", "B:WK33,K45,K50:BK18", 32, "endgame-rule"),
    # International: 2 pieces (one a king) against a lone king, 5 moves each; also king vs king
    ("international", "W:WK33,45:BK18", 10, "endgame-rule"),
    ("international", "W:WK33:BK18", 10, "endgame-rule"),
    # Russian: 15 moves of kings only; 3 kings against a lone king, 15 moves
    ("russian", "W:WK25,29,30:BK12,1,2", 30, "move-rule"),
    ("russian", "W:WK25,K29,K30:BK12", 30, None),
    ("russian", "W:WK25,K29,K30,K31:BK12", 30, None),
])
def test_draw_rule_triggers_on_the_right_ply(variant, fen, plies, code):
    game = Game(variant, fen=fen)
    king_walk(game, plies, ongoing)
    assert game.ply == plies
    result = game.result()
    assert result.outcome == "draw", result
    if code:
        assert result.code == code, result
    assert result.score_text() == "1/2-1/2" and result.score_text(international=True) == "1-1"
    # undo one ply: no longer drawn; redo: drawn again
    game.pop()
    assert game.result().outcome is None
    game.redo()
    assert game.result() == result


def test_rules_with_man_material_do_not_start_early():
    # 2 men + king against a lone king in Russian is not "3 kings against 1": no ending rule,
    # and the kings-only count still needs 30 plies.
    game = Game("russian", fen="W:WK25,29,30:BK12")
    king_walk(game, 30, ongoing)
    assert game.result().outcome == "draw" and game.result().code == "move-rule"


def test_international_ending_count_survives_a_man_move():
    # 3 pieces (a king and two men) against a lone king: a man move resets the kings-only
    # count but not the 16-move ending count.
    game = Game("international", fen="W:WK33,45,50:BK18")
    king_walk(game, 10, ongoing)
    assert game.position.turn == "white"
    game.push("50-44")
    assert game.counters[-1].quiet_plies == 0 and game.counters[-1].ending_plies == 11
    king_walk(game, 21, ongoing)
    assert game.ply == 32 and game.result().code == "endgame-rule"


def test_ending_count_starts_when_the_ending_arises():
    # International: White's king takes Black's man on 33, leaving king + man against a lone
    # king: 5 moves each from that capture.
    game = Game("international", fen="W:WK28,45:BK3,33")
    assert game.counters[-1].ending_plies == -1
    game.push("28x44")
    assert game.counters[-1].ending_plies == 0
    assert game.result().outcome is None
    king_walk(game, 10, ongoing)
    assert game.ply == 11 and game.result().code == "endgame-rule"


def test_threefold_repetition():
    game = Game("english", fen="W:WK29:BK4")
    shuffle = ["29-25", "4-8", "25-29", "8-4"]
    for i in range(8):
        assert game.result().outcome is None, i
        assert game.repetitions() == (1 if i < 4 else 2)
        game.push(shuffle[i % 4])
    assert game.ply == 8 and game.repetitions() == 3
    result = game.result()
    assert result.outcome == "draw" and result.code == "repetition"
    game.pop()
    assert game.result().outcome is None


def test_repetition_needs_the_same_side_to_move():
    # Russian flying king: 29-25, 25-22, 22-29 brings the pieces back in three moves,
    # so after five plies the board is the start board with the other side to move.
    game = Game("russian", fen="W:WK29:BK1")
    game.push_all(["29-25", "1-5", "25-22", "5-1", "22-29"])
    start, now = game.positions[0], game.position
    assert (start.white, start.black, start.kings) == (now.white, now.black, now.kings)
    assert start != now and start.key() != now.key() and start.zobrist != now.zobrist
    assert game.repetitions() == 1


def test_repetition_count_restarts_after_a_man_move():
    game = Game("english", fen="W:WK29,21:BK4")
    game.push_all(["29-25", "4-8", "25-29", "8-4"])
    assert game.repetitions() == 2
    game.push("21-17")
    assert game.repetitions() == 1
    game.push_all(["4-8", "29-25", "8-4", "25-29"])
    assert game.repetitions() == 2 and game.result().outcome is None
    game.push_all(["4-8", "29-25", "8-4", "25-29"])
    assert game.repetitions() == 3 and game.result().code == "repetition"
    assert len(game.search_history()) == 9      # from the position after 21-17 to now


# ---- PDN -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pdn_write_then_read_gives_the_same_game(variant, seed):
    game = random_game(variant, 200, seed)
    game.tags["Event"] = 'Test "quoted" \\ event'
    text = game.to_pdn()
    assert text == write_game(game)
    (again,) = read_games(text)
    assert again.variant is game.variant
    assert [m.pdn() for m in again.moves] == [m.pdn() for m in game.moves]
    assert again.positions == game.positions
    assert again.tags["Event"] == 'Test "quoted" \\ event'
    assert again.tags["Result"] == game.result().score_text(international=variant == "international")
    assert again.result() == game.result()


@pytest.mark.parametrize("variant,fen,moves", [
    ("english", "W:W21-32:B1-12", ["22-18", "11-15"]),               # the second mover starts
    ("international", "W:WK47:B14,19,29,31,42", ["47x38x24x13x36"]),
    ("russian", "B:WK29:B7,15", ["7-11"]),
])
def test_pdn_with_setup_fen(variant, fen, moves):
    game = Game(variant, fen=fen)
    game.push_all(moves)
    text = game.to_pdn()
    assert '[SetUp "1"]' in text and f'[FEN "{game.start.fen(None)}"]' in text   # the variant's notation
    again = Game.from_pdn(text)
    assert again.start == game.start and again.positions == game.positions


@pytest.mark.parametrize("variant,fen,move,score", [
    ("international", "W:W28:B23", "28x19", "2-0"),
    ("english", "B:W22:B18", "18x25", "0-1"),
])
def test_pdn_finished_game_result(variant, fen, move, score):
    game = Game(variant, fen=fen)
    game.push(move)
    assert game.result().is_over
    text = game.to_pdn()
    assert f'[Result "{score}"]' in text and text.rstrip().endswith(score)
    again = Game.from_pdn(text)
    assert again.tags["Result"] == score and again.result() == game.result()


COLLECTION = """[Event "first"]
[GameType "21"]

1. 11-15 {a comment
over two lines} 23-19 $1 2. 8-11!? (2. 9-14 {a (parenthesis) in a comment} 27-23
  (2... 7-11 3. 22-18)) 22-17 ; a comment to the end of the line 12-16
3.9-14 17-13 3... 4-8 1-0

[Event "second"]
[GameType "20"]
[FEN "W:W31-50:B1-20"]
1. 32-28 19-23 2. 28x19 14x23 *

[Event "third"]
1. 11-15 24-20 12. 8-11 $14 27-24!

[Event "fourth"]
[GameType "25"]
1. c3-d4 f6-e5 2. d4xf6 g7xe5 1/2-1/2
"""


def test_pdn_collection_with_comments_variations_nags_and_numbers():
    games = read_games(COLLECTION)
    assert [g.tags.get("Event") for g in games] == ["first", "second", "third", "fourth"]
    assert [g.variant.name for g in games] == ["english", "international", "english", "russian"]
    assert [m.pdn() for m in games[0].moves] == ["11-15", "23-19", "8-11", "22-17", "9-14", "17-13", "4-8"]
    assert games[0].tags["Result"] == "1-0"
    assert [m.pdn() for m in games[1].moves] == ["32-28", "19-23", "28x19", "14x23"]
    assert [m.pdn() for m in games[2].moves] == ["11-15", "24-20", "8-11", "27-24"]
    assert [m.pdn() for m in games[3].moves] == ["22-18", "11-15", "18x11", "8x15"]   # algebraic input
    assert games[3].tags["Result"] == "1/2-1/2"
    assert read_games("") == []


def test_pdn_default_variant_argument():
    (game,) = read_games("1. 32-28 19-23 *", "international")
    assert game.variant.name == "international" and game.ply == 2


@pytest.mark.parametrize("text,line", [
    ('[Event "x"]\n[GameType "21"]\n\n1. 11-15 {comment\nspanning\nlines} 23-19 2. 8-11 (2. 9-14 {c\n} 27-23)\n'
     '22-17 3. 11-16 16-20 *\n', 8),                           # illegal move after comments and variations
    ('[Event "x"]\n1. 11-15 23-19\n2. 99-100 *', 3),            # off-board square
    ('1. 11-15 23-19\n\n2. 8-11 22-17 3. 11-15 *', 3),          # moving from an empty square
    ('[GameType "20"]\n[FEN "W:WK47:B14,19,29,31,42"]\n1. 47x36 *', 3),  # ambiguous
    ('[GameType "99"]\n1. 11-15 *', 1),                          # the line of the tag
    ('[FEN "Z:W1"]\n1. 11-15 *', 1),
    ('1. 11-15\n{unterminated', 2),
    ('[Event "x"\n1. 11-15 *', 1),
    ('1. 11-15 ) *', 1),
])
def test_bad_pdn_names_the_line(text, line):
    with pytest.raises(InvalidPdnError) as info:
        read_games(text, source="games.pdn")
    assert f"games.pdn:{line}:" in str(info.value)


def test_pdn_semicolon_comment_inside_a_variation():
    text = "1. 11-15 23-19 (1... 22-18 ; a comment with ) in it\n 2. 15x22) 2. 8-11 *"
    (game,) = read_games(text)
    assert [m.pdn() for m in game.moves] == ["11-15", "23-19", "8-11"]
