"""Calibrate ``UCI_Elo``: each setting plays a match against the scale's anchor (the engine at fixed
depth 2, rated 1000: draughts_engine/search/skill.py) and gets the rating the match says.

    python3 tools/calibrate_skill.py                         # 500,700,...,1500; 40 games each
    python3 tools/calibrate_skill.py --elos 500,1000,1500 --games 20 --concurrency 2
    python3 tools/calibrate_skill.py --against 1500 --elos 500   # one setting against another

Each match is ``draughts-match`` (python3 -m protocol.match) in English with random 4-ply
openings, each played with both colours; the weakened engine plays with a fixed ``Seed``
(``--seed``), so a rerun replays the same games. Prints a Markdown table: setting, games,
+W =D -L, score, Elo difference with its 95% interval, and the measured rating
(anchor rating + difference), for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from typing import List, Optional, Sequence, Tuple

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from draughts_engine.search.skill import ANCHOR_ELO, ELO_MAX, ELO_MIN  # noqa: E402
from protocol.match.elo import elo_interval, format_elo  # noqa: E402

ANCHOR_DEPTH = 2
_RESULT = re.compile(r'^\[(White|Black|Result) "([^"]*)"\]', re.MULTILINE)


def results(pdn_text: str, player: str) -> Tuple[int, int, int]:
    """(wins, draws, losses) of ``player`` in the games of ``pdn_text`` (PDN result tags,
    ``2-0``/``1-0`` a White win, ``0-2``/``0-1`` a Black win, ``1-1``/``1/2-1/2`` a draw)."""
    wins = draws = losses = 0
    tags: dict = {}
    for key, value in _RESULT.findall(pdn_text):
        tags[key] = value
        if key != "Result":
            continue
        result = value.strip()
        white_won = result in ("2-0", "1-0")
        black_won = result in ("0-2", "0-1")
        if result in ("1-1", "1/2-1/2"):
            draws += 1
        elif white_won or black_won:
            won = (tags.get("White") == player) == white_won
            wins, losses = wins + won, losses + (not won)
        tags = {}
    return wins, draws, losses


def _engine(name: str, command: str, elo: Optional[int], seed: int) -> List[str]:
    spec = [f"name={name}", f"cmd={command}", f"dir={ROOT}"]
    if elo is None:
        spec.append(f"depth={ANCHOR_DEPTH}")
    else:
        spec += ["depth=99", "option.UCI_LimitStrength=true", f"option.UCI_Elo={elo}",
                 f"option.Seed={seed}"]
    return ["--engine", *spec]


def play(elo: int, against: Optional[int], args: argparse.Namespace) -> Tuple[int, int, int, float]:
    """One match of setting ``elo`` against ``against`` (None: the anchor); the weakened
    engines get ``depth=99``, which their skill caps."""
    name, other = f"elo{elo}", (f"elo{against}" if against is not None else "anchor")
    with tempfile.TemporaryDirectory() as folder:
        pdn = os.path.join(folder, "games.pdn")
        command = [sys.executable, "-m", "protocol.match",
                   *_engine(name, args.engine_cmd, elo, args.seed),
                   *_engine(other, args.engine_cmd, against, args.seed + 1),
                   "--variant", args.variant, "--games", str(args.games),
                   "--concurrency", str(args.concurrency), "--opening-plies", "4",
                   "--seed", str(args.seed), "--pdn", pdn, "--quiet"]
        started = time.monotonic()
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"calibrate_skill: the match of {name} failed:\n{done.stderr}")
        with open(pdn, encoding="utf-8") as handle:
            wins, draws, losses = results(handle.read(), name)
    return wins, draws, losses, time.monotonic() - started


def _rating(value: float) -> str:
    """A rating on the scale: a whole number, or below/above every finite one."""
    if value != value or abs(value) == float("inf"):
        return "below 0" if value < 0 else "off the scale"
    return str(round(value))


def _elos(text: str) -> List[int]:
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected Elo values like 500,1000, got {text!r}")
    bad = [value for value in values if not ELO_MIN <= value <= ELO_MAX]
    if not values or bad:
        raise argparse.ArgumentTypeError(f"Elo values must be in {ELO_MIN}..{ELO_MAX}")
    return values


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="calibrate_skill.py",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--elos", type=_elos, default=list(range(ELO_MIN, ELO_MAX + 1, 200)),
                        help="UCI_Elo settings to measure (500,700,...,1500)")
    parser.add_argument("--against", type=int, default=None,
                        help="play against this UCI_Elo setting instead of the anchor")
    parser.add_argument("--games", type=int, default=40, help="games per setting (40)")
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--variant", default="english")
    parser.add_argument("--seed", type=int, default=1, help="openings and Seed option (1)")
    parser.add_argument("--engine-cmd", default=f"{sys.executable} -m protocol")
    args = parser.parse_args(argv)
    opponent = "depth 2 (anchor, 1000)" if args.against is None else f"UCI_Elo {args.against}"
    print(f"UCI_Elo calibration: {args.variant}, each setting against {opponent}, "
          f"{args.games} games, 4-ply random openings (seed {args.seed})\n")
    print("| UCI_Elo | games | +W =D -L | score | Elo difference (95%) | measured rating | time (s) |")
    print("|---|---|---|---|---|---|---|")
    base = ANCHOR_ELO if args.against is None else args.against
    for elo in args.elos:
        wins, draws, losses, seconds = play(elo, args.against, args)
        estimate = elo_interval(wins, draws, losses)
        games = wins + draws + losses
        print(f"| {elo} | {games} | +{wins} ={draws} -{losses} | "
              f"{100 * estimate.score:.1f}% | {format_elo(estimate.elo)} "
              f"[{format_elo(estimate.low)}, {format_elo(estimate.high)}] | "
              f"{_rating(base + estimate.elo)} | {seconds:.0f} |", flush=True)
    print(f"\n{time.strftime('%Y-%m-%d')}; python {sys.version.split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
