"""PDN interop: what we write, we read back (every variant, GameType, SetUp/FEN, results, tags);
collections with comments, variations and NAGs; errors that name the file and the line."""
from __future__ import annotations

import random
from pathlib import Path
from typing import List

import pytest

from draughts_engine.errors import InvalidPdnError
from draughts_engine.game import Game
from draughts_engine.pdn import read_games, write_game
from draughts_engine.position import Position
from draughts_engine.variants import VARIANTS, get_variant

VARIANT_NAMES = sorted(VARIANTS)


def random_game(variant: str, seed: int, max_plies: int = 300, fen: str = "") -> Game:
    rng = random.Random(seed)
    game = Game(variant, fen=fen or None)
    while game.ply < max_plies and not game.result().is_over:
        game.push(rng.choice(game.position.legal_moves()))
    return game


def tags_of(text: str) -> dict:
    out = {}
    for line in text.splitlines():
        if line.startswith("[") and line.endswith("]"):
            name, _, rest = line[1:-1].partition(" ")
            out[name] = rest[1:-1]
    return out


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_written_games_read_back_with_the_same_moves_and_result(variant: str, seed: int,
                                                                tmp_path: Path) -> None:
    game = random_game(variant, seed)
    text = write_game(game, {"White": "draughts-engine", "Black": "random mover"})
    tags = tags_of(text)
    assert tags["GameType"] == str(get_variant(variant).game_type)
    assert "FEN" not in tags and "SetUp" not in tags
    expected = game.result().pdn(variant)  # the variant's tokens (2-0 on 10x10 and 12x12)
    assert tags["Result"] == expected
    assert text.rstrip().endswith(expected)
    path = tmp_path / f"{variant}.pdn"
    path.write_text(text)
    (back,) = read_games(path.read_text(), source=str(path))  # the variant comes from GameType
    assert back.variant is game.variant
    assert [m.pdn() for m in back.moves] == [m.pdn() for m in game.moves]
    assert back.position == game.position
    assert back.tags["Result"] == expected and back.tags["White"] == "draughts-engine"
    assert back.result().outcome == game.result().outcome


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_games_from_a_set_up_position_carry_setup_and_fen(variant: str) -> None:
    opening = random_game(variant, 11, max_plies=9)  # odd: the second mover is to move
    start_fen = opening.position.fen()
    game = random_game(variant, 12, max_plies=30, fen=start_fen)
    text = write_game(game)
    tags = tags_of(text)
    assert tags["SetUp"] == "1" and tags["FEN"] == opening.position.fen(None)  # the variant's notation
    body = text.split("\n\n", 1)[1]
    assert body.lstrip().startswith("1...") or body.lstrip().startswith("1.")
    (back,) = read_games(text)
    assert back.start == Position.from_fen(start_fen, variant)
    assert [m.pdn() for m in back.moves] == [m.pdn() for m in game.moves]
    assert back.position == game.position


def test_tags_with_quotes_and_backslashes_round_trip() -> None:
    game = random_game("english", 3, max_plies=6)
    event = 'Club "Open" \\ round'
    (back,) = read_games(write_game(game, {"Event": event, "Annotator": "x"}))
    assert back.tags["Event"] == event and back.tags["Annotator"] == "x"


def test_a_collection_of_our_games_reads_back_in_order_with_each_variant() -> None:
    games = [random_game(variant, seed, max_plies=40)
             for seed, variant in enumerate(VARIANT_NAMES * 2)]
    text = "".join(write_game(game, {"Round": str(i + 1)}) for i, game in enumerate(games))
    back = read_games(text, source="all.pdn")
    assert len(back) == len(games)
    for i, (original, copy) in enumerate(zip(games, back)):
        assert copy.variant is original.variant
        assert copy.tags["Round"] == str(i + 1)
        assert [m.pdn() for m in copy.moves] == [m.pdn() for m in original.moves]


COLLECTION = """\
; a collection as other programs write it
[Event "Club"]
[White "A"]
[Black "B"]
[Result "*"]
[GameType "20"]

{ an opening comment }
1. 32-28 19-23 {a comment
spanning two lines} 2. 28x19 (2. 33-29 23x34 (2... 14-19 {inside}) 40x29) 14x23 $1
3. 37-32!? 10-14 ; the rest of this line is a comment 4. 31-26
4.31-27 *

[Event "Second"]
[GameType "21"]
[Result "1-0"]
1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 {forced} 21x14 1-0

1. 11-15 24-20 2. 8-11 *
[Event "Russian"]
[GameType "25"]
[SetUp "1"]
[FEN "W:Wc3,e1:Bd4,f6"]
1. c3xe5xg7 1-0
"""


def test_collections_with_comments_variations_and_nags_are_read() -> None:
    games = read_games(COLLECTION, variant="english", source="club.pdn")
    assert len(games) == 4
    first, second, third, fourth = games
    assert first.variant.name == "international"
    assert [m.pdn() for m in first.moves] == ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14",
                                              "31-27"]
    assert first.tags["Event"] == "Club" and first.tags["Result"] == "*"
    assert second.variant.name == "english" and second.tags["Result"] == "1-0"
    assert [m.pdn() for m in second.moves][-2:] == ["10x17", "21x14"]
    assert third.variant.name == "english" and len(third.moves) == 3  # no tags: the default variant
    assert fourth.variant.name == "russian" and fourth.moves[0].captured
    assert fourth.result().outcome == "white"


@pytest.mark.parametrize("text, line, words", [
    ('[Event "x"]\n[GameType "20"]\n\n1. 32-28 19-23\n2. 28-22 *\n', 5, "move"),
    ('[Event "x"]\n1. 11-15 {never closed\n23-19 *\n', 2, "unterminated comment"),
    ('[GameType "99"]\n1. 11-15 *\n', 1, "unsupported GameType"),   # the line of the tag
    ('[FEN "W:W99:B1"]\n\n1. 11-15 *\n', 1, "off the board"),
    ('1. 11-15 23-19 )\n', 1, "')' without '('"),
    ('\n\n1. 11-15 (23-19 \n 8-11\n', 3, "unterminated variation"),
    ('[Event "x]\n', 1, "unterminated tag"),
])
def test_errors_name_the_file_and_line(text: str, line: int, words: str) -> None:
    with pytest.raises(InvalidPdnError) as info:
        read_games(text, source="games.pdn")
    message = str(info.value)
    assert message.startswith(f"games.pdn:{line}:"), message
    assert words in message


def test_reading_stops_at_the_first_bad_game_but_keeps_its_line() -> None:
    good = write_game(random_game("international", 5, max_plies=20))
    lines_before = good.count("\n")
    bad = '[GameType "20"]\n\n1. 32-29 *\n'
    with pytest.raises(InvalidPdnError, match=rf"^two.pdn:{lines_before + 3}:"):
        read_games(good + bad, source="two.pdn")


def test_english_and_international_result_tokens() -> None:
    for variant, tokens in (("english", ("1-0", "0-1", "1/2-1/2")), ("international", ("2-0", "0-2", "1-1"))):
        found: List[str] = []
        for seed in range(40):
            game = random_game(variant, seed, max_plies=400)
            text = write_game(game)
            result = tags_of(text)["Result"]
            if result != "*":
                found.append(result)
                (back,) = read_games(text)
                assert back.tags["Result"] == result
            if len(set(found)) >= 2:
                break
        assert found and set(found) <= set(tokens)


def test_a_game_with_tags_only_stays_a_game_of_its_own():
    from draughts_engine.pdn import read_games
    games = read_games('[Event "a"]\n[White "x"]\n\n[Event "b"]\n1. 11-15 *\n')
    assert [g.tags.get("Event") for g in games] == ["a", "b"]
    assert [len(g.moves) for g in games] == [0, 1]
    assert "White" not in games[1].tags


@pytest.mark.parametrize("char", ["\n", "\r", "\r\n", "\t", "\x00", "\x1b", "\x7f", "\x85",
                                  "\u2028", "\u2029", "\x0b", "\x0c"])
def test_a_control_character_in_a_tag_value_never_breaks_the_file(char: str) -> None:
    game = random_game("english", 4, max_plies=6)
    text = game.to_pdn({"Event": f"Club{char}night", "White": f'a{char}"b"\\'})
    header = text.split("\n\n", 1)[0]
    assert len(header.splitlines()) == len(header.split("\n")) == header.count("[")
    (back,) = read_games(text)
    spaces = " " * len(char)
    assert back.tags["Event"] == f"Club{spaces}night"
    assert back.tags["White"] == f'a{spaces}"b"\\'
    assert [m.pdn() for m in back.moves] == [m.pdn() for m in game.moves]


@pytest.mark.parametrize("name", ["", "Two words", "Line\nbreak", 'Quo"te', "Brack]et"])
def test_a_tag_name_no_reader_could_take_back_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="not a PDN tag name"):
        Game("english").to_pdn({name: "x"})
