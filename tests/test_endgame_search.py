"""The endgame databases in the search: exact scores at depth 1, tbhits, the option."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from draughts_engine import Game, Position
from draughts_engine.endgame import DRAW_RESULT, LOSS_RESULT, WIN_RESULT, EndgameTables, Material
from draughts_engine.search.engine import Searcher
from draughts_engine.search.limits import SearchLimits
from draughts_engine.endgame.table import WIN
from draughts_engine.search.tree import PROBE_MARGIN

ROOT = Path(__file__).resolve().parent.parent
DEPTH_1 = SearchLimits(depth=1)


def search(fen: str, variant: str, searcher=None, history=(), limits=DEPTH_1):
    infos = []
    position = Position.from_fen(fen, variant)
    result = (searcher or Searcher()).search(position, limits, history=history,
                                             on_info=infos.append)
    return position, result, infos


def positions_of(variant: str, name: str, wanted, count: int, seed: int):
    """``count`` random positions of a material whose probe result satisfies ``wanted``."""
    tables = EndgameTables(variant)
    table = tables.table(Material.parse(name))
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        raw = table.index.decode(rng.randrange(table.index.size))
        if raw is not None and wanted(tables.probe(*raw)):
            out.append(Position(variant, *raw))
    return tables, out


def value_after(tables: EndgameTables, position: Position, move):
    """The databases' value of the position after ``move`` (a side without pieces has lost)."""
    child = position.play(move)
    if not child.raw_moves():
        return LOSS_RESULT, 0
    return tables.probe(*child.raw)


def test_two_kings_against_a_king_scored_exactly_at_depth_1_english():
    """The bar: ``mate N`` with the database's distance, the move on a shortest win."""
    tables, wins = positions_of("english", "KKvK", lambda r: r[0] == WIN_RESULT, 12, 1)
    searcher = Searcher()
    for position in wins:
        _, plies = tables.probe(*position.raw)
        result = searcher.search(position, DEPTH_1)
        assert result.mate_in == (plies + 1) // 2, position.fen()
        assert value_after(tables, position, result.best_move) == (LOSS_RESULT, plies - 1)


def test_longest_english_two_kings_win_is_mate_17_at_depth_1():
    position, result, infos = search("W:WK31,K32:BK19", "english")
    assert (infos[-1].depth, infos[-1].mate_in, result.mate_in) == (1, 17, 17)
    assert infos[-1].tbhits > 0
    assert EndgameTables("english").probe(*position.play(result.best_move).raw) == (LOSS_RESULT, 32)


def test_lone_king_defends_longest_at_depth_1():
    tables, losses = positions_of("english", "KKvK", lambda r: r[0] == LOSS_RESULT and r[1] > 8, 6, 2)
    for position in losses:
        _, plies = tables.probe(*position.raw)
        result = Searcher().search(position, DEPTH_1)
        assert result.mate_in == -(plies // 2)
        assert value_after(tables, position, result.best_move) == (WIN_RESULT, plies - 1)


def test_two_kings_against_a_king_is_a_draw_at_depth_1_international():
    """Under the 5-move rule: ``score cp 0`` where the databases say draw, a mate
    score only where the rules give a win."""
    tables, draws = positions_of("international", "KKvK", lambda r: r == (DRAW_RESULT, 0), 10, 3)
    for position in draws:
        result = Searcher().search(position, DEPTH_1)
        assert (result.score_cp, result.mate_in) == (0, None), position.fen()
    _, wins = positions_of("international", "KKvK", lambda r: r[0] == WIN_RESULT, 6, 4)
    for position in wins:
        result = Searcher().search(position, DEPTH_1)
        assert result.mate_in == (tables.probe(*position.raw)[1] + 1) // 2, position.fen()


def test_lone_king_count_already_running_turns_the_win_into_a_draw():
    """A win 7 plies away in 2 kings against a king (International) with 4 plies of the
    5-move count gone (the game history) is a draw; with a fresh count it is mate 4."""
    tables = EndgameTables("international")
    table = tables.table(Material.parse("KKvK"))
    i = next(i for i in range(table.index.size)
             if table.wdl[i] == WIN and table.dtz[i] == 7 and table.tail[i] == 0
             and table.index.decode(i)[3])
    root = Position("international", *table.index.decode(i))
    fen = root.fen()
    assert search(fen, "international")[1].mate_in == 4
    earlier = [Position.from_fen(f, "international").raw
               for f in ("B:WK1,K2:BK50", "W:WK1,K2:BK45", "B:WK1,K7:BK45", "W:WK1,K7:BK50")]
    _, result, _ = search(fen, "international", history=earlier + [root.raw])
    assert (result.score_cp, result.mate_in) == (0, None)


def test_search_without_the_databases_has_no_tbhits():
    searcher = Searcher(endgame_tables=False)
    _, result, infos = search("W:WK31,K32:BK19", "english", searcher)
    assert infos[-1].tbhits == 0 and result.mate_in is None
    searcher.set_endgame_tables(True)
    _, result, infos = search("W:WK31,K32:BK19", "english", searcher)
    assert infos[-1].tbhits > 0 and result.mate_in == 17


def test_databases_are_not_asked_far_from_their_pieces():
    _, _, infos = search("W:W21-32:B1-12", "english", limits=SearchLimits(depth=3))
    assert infos[-1].tbhits == 0
    assert PROBE_MARGIN >= 4


def test_a_search_stopped_at_once_plays_the_databases_best_move():
    position = Position.from_fen("W:WK31,K32:BK19", "english")
    tables = EndgameTables("english")
    result = Searcher().search(position, SearchLimits(nodes=1))
    assert tables.probe(*position.play(result.best_move).raw) == (LOSS_RESULT, 32)


@pytest.mark.parametrize("variant, name", [("english", "KMvK"), ("international", "KMvK"),
                                           ("russian", "KKKvK")])
def test_engine_converts_database_wins_within_the_draw_rules(variant, name):
    """Both sides play depth-1 searches from won positions: the game record (which
    applies every draw rule) ends in a win for the right side after exactly the
    databases' number of plies."""
    tables, wins = positions_of(variant, name, lambda r: r[0] == WIN_RESULT and r[1] > 8, 3, 5)
    searcher = Searcher()
    for position in wins:
        _, plies = tables.probe(*position.raw)
        game = Game(start=position)
        while not game.result().is_over:
            game.push(searcher.search(game.position, DEPTH_1, history=game.search_history()).best_move)
        assert game.result().outcome == position.turn, (position.fen(), game.result())
        assert game.ply == plies, position.fen()


def run_server(script: str):
    """The server's stdout lines for ``script`` (no ``quit``: at the end of input a
    search with a limit of its own finishes first)."""
    done = subprocess.run([sys.executable, "-m", "protocol"], input=script, capture_output=True,
                          text=True, timeout=120, cwd=str(ROOT))
    return done.stdout.splitlines()


def test_server_reports_mate_and_tbhits_and_the_option_turns_them_off():
    position = "setoption name Variant value english\nposition fen W:WK31,K32:BK19\n"
    lines = run_server("uci\n" + position + "go depth 1\n")
    assert "option name EndgameTables type check default true" in lines
    info = [line for line in lines if line.startswith("info depth")][-1]
    assert " score mate 17 " in info and " tbhits " in info
    assert info.index("hashfull") < info.index("tbhits") < info.index(" pv ")
    lines = run_server("setoption name EndgameTables value false\n" + position + "go depth 1\n")
    info = [line for line in lines if line.startswith("info depth")][-1]
    assert " tbhits " not in info and " score mate " not in info
