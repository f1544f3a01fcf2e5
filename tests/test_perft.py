"""Perft against the published tables (tests/data/perft.txt) and the perft CLI."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import pytest

from draughts_engine import Position, UnknownVariantError, get_variant
from draughts_engine.perft import divide, perft, perft_make

sys.path.insert(0, os.path.dirname(__file__))
from helpers_tables import position_rows  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "perft.txt"
MAX_NODES = int(os.environ.get("PERFT_MAX_NODES", "250000"))


def load_table() -> List[Tuple[str, str, str, List[int]]]:
    return [(name, variant, fen, [int(c) for c in counts.split()])
            for _, name, variant, fen, counts in position_rows(DATA)]


TABLE = load_table()
CASES = [pytest.param(variant, fen, depth, count, id=f"{name}-d{depth}")
         for name, variant, fen, counts in TABLE
         for depth, count in enumerate(counts, 1) if count <= MAX_NODES]


def known(variant: str) -> bool:
    try:
        get_variant(variant)
    except UnknownVariantError:
        return False
    return True


def test_table_is_loaded():
    names = {row[0] for row in TABLE}
    assert {"english-start", "russian-start", "brazilian-start", "international-start",
            "international-kings", "international-middlegame", "international-promotion-race"} <= names
    deepest = {}
    for case in CASES:
        variant, fen, depth, _ = case.values
        deepest[(variant, fen)] = max(depth, deepest.get((variant, fen), 0))
    if MAX_NODES >= 250000:
        # the default budget: depth 7 on 8x8, 6 for International, 5+ for the other positions
        for name, variant, fen, _ in TABLE:
            want = {"english-start": 7, "russian-start": 7, "brazilian-start": 7,
                    "international-start": 6}.get(name, 5)
            assert deepest[(variant, fen)] >= want, name


@pytest.mark.parametrize("variant,fen,depth,count", CASES)
def test_perft_table(variant, fen, depth, count):
    if not known(variant):
        pytest.skip(f"variant {variant} not supported")
    assert perft(Position.from_fen(fen, variant), depth) == count


@pytest.mark.parametrize("name,variant,fen", [(r[0], r[1], r[2]) for r in TABLE if r[0].endswith("-start")])
def test_start_positions_match_the_table(name, variant, fen):
    if not known(variant):
        pytest.skip(f"variant {variant} not supported")
    assert Position.start(variant) == Position.from_fen(fen, variant)
    assert get_variant(variant).start_fen() == fen


@pytest.mark.parametrize("name,variant,fen,counts", TABLE)
def test_perft_make_agrees_with_bulk_counting(name, variant, fen, counts):
    position = Position.from_fen(fen, variant)
    depth = 4 if position.geometry.size == 8 else 3
    assert perft_make(position.generator, *position.raw, depth) == perft(position, depth) == counts[depth - 1]


@pytest.mark.parametrize("name,variant,fen,counts", TABLE)
def test_divide_sums_to_perft(name, variant, fen, counts):
    position = Position.from_fen(fen, variant)
    rows = divide(position, 3)
    assert [text for text, _ in rows] == [m.pdn() for m in position.legal_moves()]
    assert len(rows) == counts[0]
    assert sum(n for _, n in rows) == counts[2]


def test_perft_small_depths():
    position = Position.start("english")
    assert perft(position, 0) == 1
    assert perft(position, 1) == 7
    with pytest.raises(ValueError):
        perft(position, -1)
    with pytest.raises(ValueError):
        divide(position, 0)


def test_perft_of_a_position_without_moves():
    position = Position.from_fen("W:W:B1,2", "english")  # White has no piece
    assert position.legal_moves() == []
    assert perft(position, 1) == 0 and perft(position, 3) == 0


# ---- the command line ----------------------------------------------------------------
def run_cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "draughts_engine", "perft", *args],
                          cwd=str(ROOT), env=env, capture_output=True, text=True, timeout=120)


def test_cli_perft_english_depth_5():
    proc = run_cli("--variant", "english", "--depth", "5")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[-1] == "nodes 7361"
    assert len(lines) == 1       # stdout carries only the result; timing goes to stderr


def test_cli_divide_sums_to_total():
    proc = run_cli("--variant", "international", "--depth", "3", "--divide")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[-1] == "nodes 658"
    rows = [line.rsplit(": ", 1) for line in lines[:-1]]
    assert len(rows) == 9
    assert sum(int(n) for _, n in rows) == 658
    assert {m for m, _ in rows} == {m.pdn() for m in Position.start("international").legal_moves()}


def test_cli_fen_and_alias():
    proc = run_cli("--variant", "normal", "--depth", "2", "--fen", "W:W6,7,8,9,10:B41,42,43,44,45")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "nodes 81"


@pytest.mark.parametrize("args", [
    ("--variant", "english", "--depth", "-1"),
    ("--variant", "english", "--depth", "31"),
    ("--variant", "english", "--depth", "9" * 5000),
    ("--variant", "english", "--depth", "2", "--fen", "X:W1:B2"),
    ("--variant", "english", "--depth", "2", "--fen", "W:W" + "1" * 5000 + ":B2"),
    ("--variant", "nosuchgame", "--depth", "2"),
    ("--depth", "2", "--bogus"),
])
def test_cli_errors_are_one_line_and_status_2(args):
    proc = run_cli(*args)
    assert proc.returncode == 2
    assert "nodes" not in proc.stdout
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert len(proc.stderr) < 300


# ---------------------------------------------------------------------------
# The generator's entry points (draughts_engine.movegen) agree with each other
# along random games, kings and long captures included.

@pytest.mark.parametrize("variant", ["english", "russian", "brazilian", "international",
                                     "italian", "spanish", "czech", "pool", "thai", "canadian",
                                     "antidraughts", "breakthrough", "killer"])
def test_generator_entry_points_agree_along_random_games(variant):
    import random

    from draughts_engine.movegen import NULL_MOVE, generator_for, play
    gen = generator_for(variant)
    assert gen is generator_for(variant) and gen.play is play
    rng = random.Random(f"entry points {variant}")
    positions = with_kings = 0
    for _ in range(10):
        pos = Position.start(variant).raw
        for _ in range(150):
            moves = gen.moves(*pos)
            captures = gen.captures(*pos)
            assert gen.count(*pos) == len(moves)
            assert gen.has_capture(*pos) == bool(captures)
            if captures:
                assert sorted(captures) == sorted(moves)
                assert set(gen.capture_paths(*pos)) == set(captures)
            else:
                assert sorted(gen.quiet_moves(*pos)) == sorted(moves)
                assert gen.has_quiet(*pos) == bool(moves)
            for m in moves:
                assert gen.play(*pos, m) == play(*pos, m)
                after = gen.play(*pos, m) + (not pos[3],)
                assert gen.count_after(*pos, m) == len(gen.moves(*after))
            positions += 1
            with_kings += pos[2] != 0
            if not moves:
                break
            pos = gen.play(*pos, rng.choice(moves)) + (not pos[3],)
    kings_wanted = 0 if variant == "breakthrough" else 50  # a crowning ends breakthrough
    assert positions > 250 and with_kings >= kings_wanted
    assert gen.play(1, 2, 0, True, NULL_MOVE) == (1, 2, 0)
