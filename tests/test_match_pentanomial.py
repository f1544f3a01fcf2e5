"""Statistics over game pairs (protocol/match/elo.py, report.py): pentanomial counts, the Elo
and interval from them, the pentanomial SPRT, and the same table from a match and from
``merge`` of its PDN files."""

from __future__ import annotations

import math
from typing import List

import pytest

from protocol.match import FinishedGame, SprtConfig, format_report, summarize
from protocol.match.elo import (elo_interval, elo_to_score, pentanomial_interval, sprt_llr,
                                sprt_llr_pentanomial)
from protocol.match.report import sprt_state


def _pairs(outcomes: List[str]) -> List[FinishedGame]:
    """Games of A and B in plan order (A White in even indexes); outcomes from A's side."""
    records = []
    for index, outcome in enumerate(outcomes):
        white, black = ("A", "B") if index % 2 == 0 else ("B", "A")
        winner = {"w": "A", "l": "B"}.get(outcome)
        result = "draw" if winner is None else ("white" if winner == white else "black")
        records.append(FinishedGame(index, white, black, result))
    return records


def test_pairs_are_counted_by_the_points_of_the_first_engine():
    # pairs: (w, l) = 1, (w, w) = 2, (d, l) = 0.5, (l, l) = 0, (w, d) = 1.5, and a lone game
    stats = summarize(_pairs(list("wlwwdlllwdw"))).pairs[0]
    assert (stats.first, stats.second) == ("A", "B")
    assert stats.pentanomial == [1, 1, 1, 1, 1] and stats.pairs == 5 and stats.games == 11


def test_pentanomial_interval_known_values():
    est = pentanomial_interval([1, 2, 10, 5, 2])
    assert est.games == 40 and est.score == pytest.approx(0.5625)
    assert est.elo == pytest.approx(43.66, abs=0.01)
    stderr = math.sqrt(1.109375 / 20 / 20)  # per-game pair scores 0 .. 1 around 0.5625
    assert est.high == pytest.approx(-400 * math.log10(1 / (0.5625 + 1.959964 * stderr) - 1),
                                     abs=1e-3)
    assert math.isnan(pentanomial_interval([0] * 5).elo)
    with pytest.raises(ValueError):
        pentanomial_interval([1, 2, 3])


def test_pairs_that_cancel_out_give_a_narrower_interval_than_independent_games():
    # every opening won once by each side: the trinomial model sees 50% with a wide spread,
    # the pentanomial one sees 20 pairs of exactly 1 point each
    records = _pairs(list("wl" * 20))
    stats = summarize(records).pairs[0]
    assert stats.pentanomial == [0, 0, 20, 0, 0]
    assert pentanomial_interval(stats.pentanomial).error == 0.0
    assert elo_interval(stats.wins, stats.draws, stats.losses).error > 50


def test_pentanomial_sprt():
    s0, s1 = 0.5, elo_to_score(10)
    # n pairs won twice: the constrained MLEs put everything on 2 and 0, LLR ~ n ln(s1/s0)
    assert sprt_llr_pentanomial([0, 0, 0, 0, 50], 0, 10) == pytest.approx(
        50 * math.log(s1 / s0), rel=1e-2)
    assert sprt_llr_pentanomial([0] * 5, 0, 10) == 0.0
    assert sprt_llr_pentanomial([40, 0, 10, 0, 10], 0, 10) < 0
    config = SprtConfig.parse(["elo0=0", "elo1=200"])
    assert config.model == "auto" and str(config) == "elo0=0 elo1=200 alpha=0.05 beta=0.05"
    stats = summarize(_pairs(list("ww" * 8))).pairs[0]
    assert sprt_state(stats, config).model == "pentanomial"
    assert sprt_state(stats, config).verdict == "H1"
    assert sprt_state(summarize(_pairs(list("ww" * 7))).pairs[0], config).verdict is None
    trinomial = SprtConfig.parse(["elo0=0", "elo1=200", "model=trinomial"])
    state = sprt_state(stats, trinomial)
    assert state.model == "trinomial" and state.llr == pytest.approx(sprt_llr(16, 0, 0, 0, 200))
    with pytest.raises(ValueError, match="model"):
        SprtConfig.parse(["model=binomial"])


def test_report_shows_pairs_and_both_sprt_models():
    lines = format_report(_pairs(list("wwwdddlw")), ["A", "B"], SprtConfig())
    text = "\n".join(lines)
    assert "game pairs" in text and "Ptnml(0-2) of A vs B: [0, 0, 2, 1, 1]" in text
    assert "(pentanomial, 4 pairs)" in text and "trinomial LLR" in text
    assert lines[-1].startswith("Score of A vs B: 4 - 1 - 3")
