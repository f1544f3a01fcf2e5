"""The web board's tree of variations (protocol.web.tree through WebBoard, people only: no
engine runs): a move after going back is a side line; promote, delete, PDN out and in."""
from __future__ import annotations

import pytest

from protocol.play.controller import PlayError
from protocol.web.board import BoardSettings, Players, WebBoard
from protocol.web.engines import EngineBook


@pytest.fixture
def board():
    web_board = WebBoard("t", BoardSettings("english", players=Players(None, None)),
                         EngineBook([]))
    yield web_board
    web_board.close()


def texts(state):
    return [move["text"] for move in state["line"]]


def play(board, *moves):
    for move in moves:
        board.act("move", text=move)
    return board.snapshot()


def test_a_move_after_going_back_is_a_side_line_and_the_pdn_keeps_both(board) -> None:
    play(board, "11-15", "23-19", "8-11", "22-17")
    board.act("goto", ply=2)
    state = play(board, "9-13")
    assert texts(state) == ["11-15", "23-19", "9-13"]
    assert [[m["text"] for m in side] for side in state["line"][2]["variations"]] == \
        [["8-11", "22-17"]]
    movetext = " ".join(state["pdn"].split("\n\n")[1].split())
    assert movetext == "1. 11-15 23-19 2. 8-11 (2. 9-13) 2... 22-17 *"
    board.act("pdn", text=state["pdn"])
    again = board.snapshot()
    assert texts(again) == ["11-15", "23-19", "8-11", "22-17"]
    assert [[m["text"] for m in side] for side in again["line"][2]["variations"]] == [["9-13"]]


def test_promote_and_delete(board) -> None:
    play(board, "11-15", "23-19")
    board.act("goto", ply=1)
    state = play(board, "22-18")
    side = state["line"][1]
    board.act("promote", node=side["id"])
    assert "1. 11-15 22-18 (1... 23-19) *" in " ".join(board.snapshot()["pdn"].split())
    board.act("delete", node=side["id"])
    state = board.snapshot()
    assert state["ply"] == 1 and texts(state) == ["11-15", "23-19"]
    assert state["line"][1]["variations"] == []
    with pytest.raises(PlayError):
        board.act("node", node=side["id"])


def test_clicking_a_side_lines_move_goes_there_with_its_continuation(board) -> None:
    play(board, "11-15", "23-19", "8-11")
    board.act("goto", ply=1)
    play(board, "22-18")
    old = board.snapshot()["line"][1]["variations"][0][0]
    board.act("node", node=old["id"])
    state = board.snapshot()
    assert state["ply"] == 2 and texts(state) == ["11-15", "23-19", "8-11"]


def test_engines_weakened_by_elo_are_named_so_and_told() -> None:
    from draughts_engine.search.limits import SearchLimits
    lines = []
    from protocol.play.controller import GameController, PlayerSpec
    spec = PlayerSpec.parse(["engine", "elo=700", "level=2"])
    assert spec.describe() == "engine level=2 elo=700"
    with GameController("english", white=spec, black=PlayerSpec.human(),
                        engine_log=lines.append) as controller:
        controller.play("11-15")
        controller.engine_move()
        assert controller.player_name("white").endswith("(Elo 700, level 2)")
    assert "> setoption name UCI_Elo value 700" in lines
    web_board = WebBoard("e", BoardSettings("english", players=Players(
        "draughts-engine", None, SearchLimits(depth=2), elo=800)), EngineBook([]))
    try:
        assert "Elo 800" in web_board.snapshot()["players"]["white"]["name"]
    finally:
        web_board.close()
