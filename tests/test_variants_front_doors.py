"""The later diagonal families through every door: records, boards, PDN, the server, Hub.

The rules themselves are tested by the perft tables, the rule positions, the reference
generator and pydraughts; this file checks the facts around them (docs/variants.md).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from draughts_engine import Game, Position, get_variant, variant_for_game_type
from draughts_engine.eval import MAN_VALUE, evaluate
from draughts_engine.pdn import read_games
from draughts_engine.variants import CROWN_GOAL, LOSE_GOAL
from protocol.hub.wire import VARIANT_VALUES

ROOT = Path(__file__).resolve().parent.parent
LATER = ("italian", "spanish", "portuguese", "czech", "pool", "thai", "canadian",
         "antidraughts", "breakthrough", "killer")


@pytest.mark.parametrize("name,game_type,first,size,squares", [
    ("italian", 22, "white", 8, 32), ("spanish", 24, "white", 8, 32),
    ("portuguese", 28, "white", 8, 32), ("czech", 29, "white", 8, 32),
    ("pool", 23, "black", 8, 32), ("thai", 31, "black", 8, 32),
    ("canadian", 27, "white", 12, 72),
])
def test_pdn_game_types_and_boards(name, game_type, first, size, squares):
    variant = get_variant(name)
    assert variant.game_type == game_type and variant_for_game_type(game_type) is variant
    assert variant.first == first and variant.size == size and variant.squares == squares
    start = Position.start(variant)
    men = {"thai": 8, "canadian": 30}.get(name, 12)
    assert start.counts() == {"white_men": men, "white_kings": 0, "black_men": men,
                              "black_kings": 0}


def test_international_game_variants_share_game_type_20_with_a_variant_tag():
    assert variant_for_game_type(20).name == "international"
    for name, tag in (("antidraughts", "Antidraughts"), ("breakthrough", "Breakthrough"),
                      ("killer", "Killer")):
        assert variant_for_game_type(20, tag).name == name
        game = Game(name)
        game.push_all(["32-28", "19-23"])
        text = game.to_pdn()
        assert '[GameType "20"]' in text and f'[Variant "{tag}"]' in text
        (back,) = read_games(text)
        assert back.variant.name == name and back.position == game.position


def test_turned_boards_are_numbered_as_their_players_see_them():
    italian = get_variant("italian").geometry
    assert (italian.algebraic(1), italian.algebraic(32)) == ("a8", "h1")
    assert italian.square_at(7, 0) == 0 and italian.square_at(7, 7) == 32  # a1 light, h1 dark
    spanish = get_variant("spanish").geometry
    assert (spanish.algebraic(1), spanish.algebraic(4), spanish.algebraic(32)) == ("h1", "b1", "a8")
    assert Position.start("spanish").fen().startswith("W:W1,2,3,4,5,6,7,8,9,10,11,12:B21")
    # White's men move towards the high numbers in Spanish, towards 1 elsewhere
    assert {m.pdn() for m in Position.start("spanish").legal_moves()} == {
        "9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"}
    assert get_variant("czech").notation == "algebraic"


def test_hub_names_include_scans():
    for hub, name in (("killer", "killer"), ("bt", "breakthrough"), ("losing", "antidraughts")):
        assert hub in VARIANT_VALUES and get_variant(hub).name == name
    for name in LATER:
        assert get_variant(name).hub_name in VARIANT_VALUES


def test_goals_decide_the_result_and_the_evaluation():
    assert get_variant("antidraughts").goal == LOSE_GOAL
    assert get_variant("breakthrough").goal == CROWN_GOAL
    lost_all = Game("antidraughts", fen="B:W25:B")         # Black has no piece: Black has won
    assert lost_all.result().outcome == "black"
    crowned = Game("breakthrough", fen="W:W6:B45")
    crowned.push("6-1")
    assert crowned.result().outcome == "white" and "crowned" in crowned.result().reason
    assert not crowned.legal_moves()
    up = Position.from_fen("W:W31,32,33:B1,2", "antidraughts")  # a man more is a burden
    assert evaluate(up) < 0 < evaluate(Position.from_fen("W:W31,32,33:B1,2", "international"))
    assert evaluate(Position.from_fen("W:W6,45:B5,10", "breakthrough")) > MAN_VALUE // 2


@pytest.mark.parametrize("variant", LATER)
def test_server_answers_a_legal_bestmove_at_depth_6(variant):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    commands = f"setoption name Variant value {variant}\nposition startpos\ngo depth 6\nisready\nquit\n"
    done = subprocess.run([sys.executable, "-m", "protocol"], input=commands, cwd=str(ROOT),
                          env=env, capture_output=True, text=True, timeout=300)
    lines = [line for line in done.stdout.splitlines() if line.startswith("bestmove ")]
    assert len(lines) == 1 and not any(line.startswith("error") for line in done.stdout.splitlines())
    best = lines[0].split()[1]
    assert best in {m.pdn() for m in Position.start(variant).legal_moves()}
