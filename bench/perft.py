#!/usr/bin/env python3
"""Perft speed per variant: leaves/s, bulk-counted and make-every-move.

    python3 bench/perft.py            # the full table (about a minute)
    python3 bench/perft.py --quick    # smaller depths

Bulk: the last ply is counted with the generator's ``count`` (the same
generator the engine uses), without making the final moves.  Make: every
move down to the leaves is generated and made.  Each figure is the best of
``--repeat`` runs of process time, so a busy machine affects it less.
The counts are checked against the published perft numbers.
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from draughts_engine.perft import perft_make, perft_raw  # noqa: E402
from draughts_engine.position import Position  # noqa: E402
from _cli import OneLineParser, positive_int  # noqa: E402

EXPECTED = {
    "english": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564],
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032],
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766, 21560022],
    "international": [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423, 258895763],
}
FULL = {"english": (9, 7), "russian": (9, 7), "brazilian": (9, 7), "international": (8, 6)}
QUICK = {"english": (7, 6), "russian": (7, 6), "brazilian": (7, 6), "international": (6, 5)}


def best_of(repeat: int, fn, *args):
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.process_time()
        result = fn(*args)
        best = min(best, time.process_time() - started)
    return result, max(best, 1e-9)


def main() -> int:
    parser = OneLineParser(prog="perft.py", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=positive_int, default=3)
    args = parser.parse_args()
    plan = QUICK if args.quick else FULL
    print(f"python {sys.version.split()[0]} ({sys.implementation.name})")
    print(f"{'variant':14} {'depth':>5} {'leaves':>12} {'bulk s':>8} {'bulk leaves/s':>14}"
          f" {'make depth':>10} {'make s':>8} {'make leaves/s':>14}")
    ok = True
    for variant, (bulk_depth, make_depth) in plan.items():
        root = Position.start(variant)
        raw = (root.generator,) + root.raw
        leaves, bulk = best_of(args.repeat, perft_raw, *raw, bulk_depth)
        made, make = best_of(args.repeat, perft_make, *raw, make_depth)
        good = leaves == EXPECTED[variant][bulk_depth - 1] and made == EXPECTED[variant][make_depth - 1]
        ok &= good
        print(f"{variant:14} {bulk_depth:>5} {leaves:>12} {bulk:>8.2f} {leaves / bulk:>14,.0f}"
              f" {make_depth:>10} {make:>8.2f} {made / make:>14,.0f}{'' if good else '  WRONG COUNT'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
