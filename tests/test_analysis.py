"""Analysis (PROTOCOL.md sections 4 and 5): MultiPV, searchmoves, go mate, currmove and bounds,
skill (UCI_LimitStrength, UCI_Elo, Seed), Clear Hash, over the engine, the server and the
reference client."""

from __future__ import annotations

import io
import sys
from typing import Dict, List, Tuple

import pytest

from draughts_engine.position import Position
from draughts_engine.search import pvs
from draughts_engine.search.engine import Searcher
from draughts_engine.search.interface import MATE_BOUND
from draughts_engine.search.limits import (InvalidLimitsError, RootMoveInfo, SearchInfo,
                                           SearchLimits)
from draughts_engine.search.pvs import search_window
from draughts_engine.search.skill import (ELO_DEFAULT, ELO_MAX, ELO_MIN, SKILL_TABLE, Skill,
                                          choose_line)
from protocol.client import Engine, Limit
from protocol.hub.client import HubEngine
from protocol.server import Server

ENGINE = [sys.executable, "-m", "protocol"]


def lines_by_depth(infos: List[SearchInfo]) -> Dict[int, Dict[int, SearchInfo]]:
    by_depth: Dict[int, Dict[int, SearchInfo]] = {}
    for info in infos:
        by_depth.setdefault(info.depth, {})[info.multipv] = info
    return by_depth


def score(info: SearchInfo) -> int:
    if info.mate_in is not None:
        return 10 ** 6 - info.mate_in if info.mate_in > 0 else -10 ** 6 - info.mate_in
    return info.score_cp or 0


# --------------------------------------------------------------------------- MultiPV

@pytest.mark.parametrize("algorithm", ["pvs", "alphabeta"])
def test_multipv_lines_are_numbered_distinct_and_best_first(algorithm: str) -> None:
    position = Position.start("international")
    infos: List[SearchInfo] = []
    depth = 5 if algorithm == "pvs" else 2
    result = Searcher(hash_mb=4, algorithm=algorithm).search(
        position, SearchLimits(depth=depth, multipv=3), on_info=infos.append)
    by_depth = lines_by_depth(infos)
    assert sorted(by_depth) == list(range(1, depth + 1))
    for lines in by_depth.values():
        assert sorted(lines) == [1, 2, 3]
        firsts = [lines[n].pv[0] for n in (1, 2, 3)]
        assert len(set(firsts)) == 3
        scores = [score(lines[n]) for n in (1, 2, 3)]
        assert scores == sorted(scores, reverse=True)
    assert result.best_move == by_depth[depth][1].pv[0]


def test_multipv_above_the_legal_moves_gives_one_line_per_move() -> None:
    position = Position.start("english")  # 7 legal moves
    infos: List[SearchInfo] = []
    Searcher(hash_mb=4).search(position, SearchLimits(depth=3, multipv=50), on_info=infos.append)
    for lines in lines_by_depth(infos).values():
        assert sorted(lines) == list(range(1, 8))
        assert {lines[n].pv[0] for n in lines} == set(position.legal_moves())


def test_multipv_one_reports_no_line_number_and_the_same_search() -> None:
    position = Position.start("international")
    plain: List[SearchInfo] = []
    one: List[SearchInfo] = []
    first = Searcher(hash_mb=4).search(position, SearchLimits(depth=5), on_info=plain.append)
    second = Searcher(hash_mb=4).search(position, SearchLimits(depth=5, multipv=1),
                                        on_info=one.append)
    assert all(info.multipv == 0 for info in plain)
    assert [(i.pv, i.nodes, i.score_cp) for i in plain] == [(i.pv, i.nodes, i.score_cp)
                                                              for i in one]
    assert first.best_move == second.best_move


def test_multipv_out_of_range_is_refused() -> None:
    with pytest.raises(InvalidLimitsError):
        SearchLimits(multipv=0)


# --------------------------------------------------------------------------- searchmoves, mate

@pytest.mark.parametrize("algorithm", ["pvs", "negamax"])
def test_searchmoves_restrict_the_root(algorithm: str) -> None:
    position = Position.start("international")
    chosen = tuple(m for m in position.legal_moves() if m.pdn() in ("31-26", "35-30"))
    infos: List[SearchInfo] = []
    result = Searcher(hash_mb=4, algorithm=algorithm).search(
        position, SearchLimits(depth=3 if algorithm == "pvs" else 2, searchmoves=chosen),
        on_info=infos.append)
    assert result.best_move in chosen
    assert infos and all(info.pv[0] in chosen for info in infos)


def test_searchmoves_with_multipv_gives_a_line_per_move() -> None:
    position = Position.start("international")
    chosen = tuple(m for m in position.legal_moves() if m.pdn() in ("31-26", "35-30"))
    infos: List[SearchInfo] = []
    Searcher(hash_mb=4).search(position, SearchLimits(depth=3, multipv=5, searchmoves=chosen),
                               on_info=infos.append)
    for lines in lines_by_depth(infos).values():
        assert sorted(lines) == [1, 2] and {lines[1].pv[0], lines[2].pv[0]} == set(chosen)


@pytest.mark.parametrize("variant, fen, winning", [
    ("english", "W:WK28,K15:BK26", "15-18"),
    ("international", "W:WK16,K48,K28:BK3", "16-21"),
])
@pytest.mark.parametrize("tables", [False, True])
def test_go_mate_finds_a_known_win_in_three(variant: str, fen: str, winning: str,
                                            tables: bool) -> None:
    position = Position.from_fen(fen, variant)
    result = Searcher(hash_mb=4, endgame_tables=tables).search(position, SearchLimits(mate=3))
    assert result.mate_in is not None and 0 < result.mate_in <= 3
    assert result.best_move.pdn() == winning


def test_go_mate_without_a_win_ends_at_its_depth() -> None:
    position = Position.start("english")
    infos: List[SearchInfo] = []
    result = Searcher(hash_mb=4).search(position, SearchLimits(mate=2), on_info=infos.append)
    assert result.mate_in is None and max(i.depth for i in infos) == 5  # 2N+1 plies


def test_mate_limits() -> None:
    assert SearchLimits(mate=3).is_bounded
    with pytest.raises(InvalidLimitsError):
        SearchLimits(mate=3, infinite=True)
    assert SearchLimits(infinite=True, searchmoves=("x",), multipv=2).infinite


# --------------------------------------------------------------------------- currmove, bounds

def test_currmove_reports_come_once_the_search_has_run_its_second(monkeypatch) -> None:
    monkeypatch.setattr(pvs, "REPORT_AFTER", 0.0)
    monkeypatch.setattr(pvs, "CURRMOVE_INTERVAL", 0.0)
    position = Position.start("english")
    moves: List[RootMoveInfo] = []
    Searcher(hash_mb=4).search(position, SearchLimits(depth=3), on_root_move=moves.append)
    assert moves and {info.move for info in moves} == set(position.legal_moves())
    for depth in (1, 2, 3):
        numbers = [info.number for info in moves if info.depth == depth]
        assert numbers[0] == 1 and numbers == sorted(numbers)


def test_currmove_stays_quiet_in_a_short_search() -> None:
    moves: List[RootMoveInfo] = []
    Searcher(hash_mb=4).search(Position.start("english"), SearchLimits(depth=2),
                               on_root_move=moves.append)
    assert moves == []


def test_a_failed_aspiration_window_is_reported_as_a_bound() -> None:
    answers = iter([(100, "a"), (300, "a"), (150, "a")])  # fails high twice, then fits
    bounds: List[tuple] = []
    result = search_window(lambda depth, alpha, beta: next(answers), 6, 0,
                           lambda value, bound: bounds.append((value, bound)))
    assert result == (150, "a")
    assert bounds == [(100, "lowerbound"), (300, "lowerbound")]
    answers = iter([(-100, "b"), (5, "b")])
    bounds.clear()
    search_window(lambda depth, alpha, beta: next(answers), 6, 0,
                  lambda value, bound: bounds.append((value, bound)))
    assert bounds == [(-100, "upperbound")]


# --------------------------------------------------------------------------- skill

def test_skill_table_is_ordered_and_covers_the_range() -> None:
    elos = [row[0] for row in SKILL_TABLE]
    assert elos == sorted(elos) and (ELO_MIN, ELO_MAX) == (elos[0], elos[-1])
    assert ELO_DEFAULT == (ELO_MIN + ELO_MAX) // 2
    depths = [Skill.of_elo(elo).depth for elo in range(ELO_MIN, ELO_MAX + 1, 50)]
    assert depths == sorted(depths)
    assert Skill.of_elo(ELO_MIN - 500) == Skill.of_elo(ELO_MIN)


def test_choose_line_without_noise_plays_the_best_and_never_gives_a_win_away() -> None:
    import random
    lines = [(40, "a"), (20, "b"), (-300, "c")]
    assert choose_line(lines, 0) == "a"
    picks = {choose_line(lines, 100, random.Random(seed)) for seed in range(200)}
    assert picks == {"a", "b"}
    won = [(MATE_BOUND + 10, "win"), (200, "x")]
    assert {choose_line(won, 10_000, random.Random(seed)) for seed in range(50)} == {"win"}


def test_a_fixed_seed_plays_the_same_move_again() -> None:
    position = Position.start("international")
    engine = Searcher(hash_mb=4)
    engine.set_skill(Skill.of_elo(ELO_MIN, seed=7))
    moves = set()
    for _ in range(3):
        engine.new_game()
        moves.add(engine.search(position, SearchLimits()).best_move)
    assert len(moves) == 1


def test_weakest_skill_searches_depth_one_with_several_lines() -> None:
    infos: List[SearchInfo] = []
    engine = Searcher(hash_mb=4)
    engine.set_skill(Skill.of_elo(ELO_MIN, seed=1))
    result = engine.search(Position.start("international"), SearchLimits(depth=9),
                           on_info=infos.append)
    assert max(info.depth for info in infos) == Skill.of_elo(ELO_MIN).depth
    assert all(info.multipv == 0 for info in infos)  # the caller asked for one line
    assert result.best_move in Position.start("international").legal_moves()


# --------------------------------------------------------------------------- the server

def run_server(script: str) -> List[str]:
    out = io.StringIO()
    Server(io.BytesIO(script.encode()), out, io.StringIO()).run()
    return out.getvalue().splitlines()


def test_server_writes_multipv_lines_and_bestmove_of_line_one() -> None:
    lines = run_server("setoption name Variant value international\n"
                       "setoption name MultiPV value 3\ngo depth 3\n")
    infos = [line for line in lines if line.startswith("info depth")]
    assert [line.split()[6] for line in infos] == ["1", "2", "3"] * 3
    assert lines[-1].split()[1] == infos[-3].split(" pv ")[1].split()[0]


def test_server_refuses_bad_searchmoves_and_buttons_with_values() -> None:
    lines = run_server("go depth 2 searchmoves 11-15 11-19\ngo searchmoves\ngo mate 50\n"
                       "setoption name Clear Hash value 1\nsetoption name Clear Hash\n"
                       "go depth 1 searchmoves 9-13\n")
    errors = [line for line in lines if line.startswith("error")]
    assert errors[0].startswith("error go: searchmoves: ") and "11-19" in errors[0]
    assert errors[1] == "error go: searchmoves needs at least one move"
    assert errors[2] == "error go: mate must be in 1..49, got 50"
    assert errors[3] == "error setoption: Clear Hash is a button and takes no value, got '1'"
    assert len(errors) == 4 and lines[-1].startswith("bestmove 9-13")


def test_limit_strength_options_reach_the_engine() -> None:
    lines = run_server("setoption name UCI_LimitStrength value true\n"
                       f"setoption name UCI_Elo value {ELO_MIN}\ngo depth 8\n")
    depths = [int(line.split()[2]) for line in lines if line.startswith("info depth")]
    assert max(depths) == Skill.of_elo(ELO_MIN).depth


# --------------------------------------------------------------------------- the client

@pytest.fixture(scope="module")
def engine():
    with Engine.popen(ENGINE) as client:
        client.set_option("Variant", "international")
        yield client


def test_client_analyse_returns_the_lines_best_first(engine) -> None:
    engine.position()
    lines = engine.analyse(Limit(depth=4), multipv=3)
    assert [line.multipv for line in lines] == [1, 2, 3]
    assert len({line.pv[0] for line in lines}) == 3 and all(l.depth == 4 for l in lines)
    single = engine.analyse(Limit(depth=2), multipv=1)
    assert len(single) == 1 and single[0].multipv is None


def test_client_analysis_stops_the_search_when_the_block_ends(engine) -> None:
    engine.position()
    with engine.analysis(multipv=2) as analysis:
        for report in analysis:
            if report.depth and report.depth >= 3 and report.multipv == 2:
                break
    assert analysis.result is not None and analysis.result.bestmove
    assert len(analysis.lines) == 2
    engine.is_ready()  # idle again: the search was stopped and its bestmove read


def test_hub_client_analyses_one_line_and_refuses_more() -> None:
    with HubEngine.popen(ENGINE) as hub:
        with pytest.raises(ValueError, match="one line"):
            hub.analyse(Limit(depth=2), multipv=3)
        lines = hub.analyse(Limit(depth=2), multipv=1)
        assert len(lines) == 1 and lines[0].pv


# --------------------------------------------------------------------------- review findings

def run_server_with_stop(script: str) -> Tuple[List[str], str]:
    """``script``, then a ``stop`` once the first search has started (a held search)."""
    out, err = io.StringIO(), io.StringIO()
    Server(io.BytesIO((script + "isready\nstop\n").encode()), out, err).run()
    return out.getvalue().splitlines(), err.getvalue()


def test_a_weakened_engine_analyses_and_ponders_at_its_depth() -> None:
    depth = Skill.of_elo(ELO_MIN).depth
    for go in ("go infinite", "go ponder"):
        lines, err = run_server_with_stop("setoption name UCI_LimitStrength value true\n"
                                          f"setoption name UCI_Elo value {ELO_MIN}\n{go}\n")
        depths = [int(line.split()[2]) for line in lines if line.startswith("info depth")]
        assert depths and max(depths) == depth, (go, lines, err)
        assert err == "" and lines[-1].startswith("bestmove "), (go, lines, err)


def test_a_weakened_engine_with_multipv_writes_numbered_lines_only() -> None:
    lines = run_server("setoption name Variant value international\n"
                       "setoption name UCI_LimitStrength value true\n"
                       "setoption name UCI_Elo value 700\nsetoption name MultiPV value 3\n"
                       "go depth 9\nsetoption name Seed value 3\ngo depth 9\n")
    infos = [line for line in lines if line.startswith("info depth")]
    assert infos and all(" multipv " in line for line in infos), infos
    for number, line in enumerate(lines):
        if line.startswith("bestmove"):
            shown = [info for info in lines[:number] if info.startswith("info depth")][-3:]
            assert line.split()[1] in {info.split(" pv ")[1].split()[0] for info in shown}


def test_the_client_sends_searchmoves_and_root_moves(engine) -> None:
    engine.position()
    result = engine.go(SearchLimits(depth=3, searchmoves=("31-26", "35-30")))
    assert result.bestmove in ("31-26", "35-30")
    lines = engine.analyse(Limit(depth=3), multipv=3, root_moves=["31-26", "35-30"])
    assert sorted(line.pv[0] for line in lines) == ["31-26", "35-30"]
    with pytest.raises(ValueError, match="1..500"):
        engine.analyse(Limit(depth=1), multipv=501)


def test_the_hub_client_names_skill_options_and_refuses_what_hub_cannot_say() -> None:
    with HubEngine.popen(ENGINE) as hub:
        hub.set_option("UCI_LimitStrength", True)
        hub.set_option("UCI_Elo", ELO_MIN)
        assert hub.go(Limit(depth=5)).bestmove
        with pytest.raises(ValueError, match="searchmoves or mate"):
            hub.go(Limit(mate=2))
