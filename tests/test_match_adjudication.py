"""Adjudication (protocol/match/adjudication.py): ``--resign``, ``--draw`` and
``--adjudicate-tables``, each off by default, recorded in the PDN and counted in the table."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import List, Optional

import pytest

from draughts_engine.game import Game
from draughts_engine.pdn import read_games
from protocol.match import MatchError, MatchRunner, config_from_args
from protocol.match.adjudication import (Adjudicator, parse_draw, parse_resign, score_of)
from protocol.client.reports import InfoReport

PY = sys.executable
SERVER = f"{PY} -m protocol"
NAMES = {"white": "W", "black": "B"}


def _feed(adjudicator: Adjudicator, scores: List[Optional[int]], game: Game):
    """Scores of alternate moves, White first; the first verdict (and its move number)."""
    for number, score in enumerate(scores):
        verdict = adjudicator.scored("white" if number % 2 == 0 else "black", score, game)
        if verdict is not None:
            return number, verdict
    return None


def test_rule_parsing_names_the_bad_token():
    assert parse_resign(None) is None and parse_draw(None) is None
    assert parse_resign(["movecount=3", "score=400"]).twosided is False
    assert parse_draw(["movecount=8", "score=5"]).movenumber == 0
    for tokens, words in ((["score=400"], "movecount="), (["score=x", "movecount=3"], "score"),
                          (["score=4", "movecount=3", "twosided=maybe"], "twosided"),
                          (["depth=4"], "'depth=4'")):
        with pytest.raises(MatchError, match=words):
            parse_resign(tokens)
    with pytest.raises(MatchError, match="given twice"):
        parse_draw(["score=1", "score=2", "movecount=1"])


def test_resign_by_the_losers_own_score_and_twosided():
    game = Game("english")
    one = Adjudicator(NAMES, parse_resign(["score=300", "movecount=3"]))
    # Black's own scores -300, -500, then a move without a score, then three in a row
    found = _feed(one, [0, -300, 10, -500, 20, None, 30, -300, 40, -310, 50, -900], game)
    assert found is not None and found[0] == 11
    assert found[1].outcome == "white" and found[1].kind == "resign"
    assert "Black (B) scored -300 or less for 3 moves in a row" in found[1].reason
    both = Adjudicator(NAMES, parse_resign(["score=300", "movecount=2", "twosided=true"]))
    assert _feed(both, [0, -400, 100, -400, 200, -400], game) is None  # White does not agree
    found = _feed(Adjudicator(NAMES, both.resign), [300, -400, 350, -400], game)
    assert found is not None and found[0] == 3 and found[1].outcome == "white"


def _play_and_feed(adjudicator: Adjudicator, scores: List[Optional[int]]):
    """Play a legal move before each score (White first); the first verdict and its index."""
    game = Game("english")
    for number, score in enumerate(scores):
        game.push(game.legal_moves()[0])
        verdict = adjudicator.scored("white" if number % 2 == 0 else "black", score, game)
        if verdict is not None:
            return number, verdict
    return None


def test_draw_after_the_move_number_with_both_scores_near_zero():
    rule = parse_draw(["movenumber=2", "movecount=2", "score=10"])
    # moves 1 and 2 (plies 1..4) do not count: no draw however level the scores
    assert _play_and_feed(Adjudicator(NAMES, draw=rule), [0, 0, 0, 0]) is None
    # White's 3rd and 4th moves (plies 5, 7) and Black's (plies 6, 8), all within 10
    found = _play_and_feed(Adjudicator(NAMES, draw=rule), [0, 0, 0, 0, 3, -4, 2, 10])
    assert found is not None and found[0] == 7
    assert found[1].outcome == "draw" and found[1].kind == "draw"
    assert "within 10 of 0 for 2 moves in a row after move 2" in found[1].reason
    assert _play_and_feed(Adjudicator(NAMES, draw=rule), [0, 0, 0, 0, 3, -4, 2, 11]) is None


def test_score_of_takes_the_last_score_and_mates_beyond_any_cp():
    assert score_of([InfoReport(score_cp=12), InfoReport(depth=3)]) == 12
    assert score_of([InfoReport(score_cp=12), InfoReport(score_mate=-3)]) < -100000
    assert score_of([]) is None


def _run(args: List[str]):
    out, err = io.StringIO(), io.StringIO()
    code = MatchRunner(config_from_args(args), out, err).run()
    return code, out.getvalue(), err.getvalue()


def test_two_kings_against_one_is_adjudicated_at_once_by_the_tables(tmp_path: Path):
    openings = tmp_path / "kk.fen"
    openings.write_text("W:WK14,K18:BK1\n", encoding="utf-8")
    pdn = tmp_path / "kk.pdn"
    code, out, err = _run(["--engine", "name=a", f"cmd={SERVER}", "depth=1",
                           "--engine", "name=b", f"cmd={SERVER}", "depth=1",
                           "--openings", str(openings), "--games", "2", "--concurrency", "1",
                           "--adjudicate-tables", "--pdn", str(pdn)])
    assert code == 0, err
    games = read_games(pdn.read_text(encoding="utf-8"))
    assert [g.tags["Adjudication"] for g in games] == ["tables", "tables"]
    assert [g.ply for g in games] == [0, 0] and [g.tags["Result"] for g in games] == ["1-0"] * 2
    assert "Terminations: adjudication 2" in out and "Adjudications: tables 2" in out


def test_resign_ends_a_lopsided_match_early_and_says_so_in_the_pdn(tmp_path: Path):
    pdn = tmp_path / "resign.pdn"
    code, out, err = _run(["--engine", "name=deep", f"cmd={SERVER}", "depth=4",
                           "--engine", "name=shallow", f"cmd={SERVER}", "depth=1",
                           "--resign", "score=200", "movecount=2", "--games", "2",
                           "--concurrency", "2", "--pdn", str(pdn)])
    assert code == 0, err
    text = pdn.read_text(encoding="utf-8")
    games = read_games(text)
    resigned = [g for g in games if g.tags.get("Adjudication") == "resign"]
    assert resigned, out
    assert all(game.tags["Termination"] == "adjudication" for game in resigned)
    assert text.count("{resign adjudication: ") == len(resigned)
    assert f"Adjudications: resign {len(resigned)}" in out


def test_no_tables_for_a_variant_is_one_clear_error(monkeypatch):
    import protocol.match.adjudication as adjudication

    class NoTables:
        max_pieces = 0

    monkeypatch.setitem(adjudication._TABLES, "english", NoTables())
    with pytest.raises(MatchError, match="no endgame databases for english"):
        config_from_args(["--engine", "cmd=a", "depth=1", "--engine", "cmd=b", "depth=1",
                          "--adjudicate-tables"])
