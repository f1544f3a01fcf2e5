"""The terminal front end's analysis: ``review`` (a game review as text), ``lines N`` (the
engine's MultiPV), and the clock of :mod:`protocol.play.clock` (a fake time source)."""
from __future__ import annotations

import io

from protocol.play.cli import main
from protocol.play.clock import GameClock, ClockSetting, flag_outcome


def run(commands: str, *flags: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    status = main(["--variant", "english", *flags], stdin=io.StringIO(commands), stdout=out,
                  stderr=err)
    assert status == 0, err.getvalue()
    return out.getvalue()


def test_review_marks_a_man_given_away_with_the_better_move() -> None:
    text = run("11-15\n23-19\n12-16\n19x12\nreview 3\nquit\n",
               "--white", "human", "--black", "human")
    review = text.split("Review (depth 3", 1)[1]
    line = next(row for row in review.splitlines() if row.strip().startswith("2.")
                and "12-16" in row)
    assert "blunder" in line or "mistake" in line, line
    assert "better " in line
    assert "Black: average loss" in text and "White: average loss" in text


def test_lines_shows_the_engines_best_lines() -> None:
    text = run("lines 3\nlines 9\nquit\n", "--black", "human", "--white", "engine",
               "--level", "3")
    rows = [row.strip() for row in text.splitlines() if row.strip()[:2] in ("1.", "2.", "3.")
            and "  " in row.strip()]
    assert [row[:2] for row in rows[-3:]] == ["1.", "2.", "3."], text
    assert "lines: N must be 1..5" in text


def test_the_clock_charges_moves_adds_the_increment_and_falls() -> None:
    now = [0.0]
    clock = GameClock(ClockSetting.parse("1+2"), lambda: now[0])
    clock.start("black")
    now[0] = 10.0
    assert clock.moved("black") and clock.running == "white"
    assert clock.left("black") == 52_000
    now[0] = 71.0
    assert clock.fallen() == "white" and not clock.moved("white")
    assert flag_outcome("white", "international").score == "0-2"
    per_move = GameClock(ClockSetting.parse("move 5"), lambda: now[0])
    per_move.start("white")
    now[0] += 4
    per_move.moved("white")
    per_move.start("white")
    assert per_move.left("white") == 5000
