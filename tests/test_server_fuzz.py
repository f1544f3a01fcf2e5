"""Thousands of random and mutated lines to one server process (see tests/protocol_fuzz.py)."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from draughts_engine.game import Game  # noqa: E402
from protocol.client import Engine  # noqa: E402
from protocol_fuzz import expected_effect, make_lines  # noqa: E402

SERVER = [sys.executable, "-m", "protocol"]


def run_fuzz(count: int, seed: int) -> None:
    lines = make_lines(count, seed)
    game = Game("english")
    expected_errors = 0
    readyoks = 1  # the final isready
    for line in lines:
        game, is_error = expected_effect(game, line)
        expected_errors += is_error
        if not is_error and line.split()[:1] == ["isready"]:
            readyoks += 1
    with Engine.popen(SERVER, timeout=60) as engine:
        for line in lines:
            engine.send_raw(line)
        engine.send_raw("isready")
        answers = []
        for _ in range(readyoks):
            answers += engine.read_until(lambda a: a == "readyok", timeout=120)
        errors = [a for a in answers if a.startswith("error ")]
        assert len(errors) == expected_errors
        engine.send_raw("d")
        block = engine.read_until(lambda a: a.startswith("state"), timeout=30)
        fen = next(a[4:] for a in block if a.startswith("fen "))
        assert fen == game.position.fen()
        ply = next(a[4:] for a in block if a.startswith("ply "))
        assert int(ply) == game.ply
        assert engine.quit() == 0


def test_three_thousand_mutated_lines() -> None:
    run_fuzz(3000, seed=11)
