#!/usr/bin/env python3
"""Deep perft of the orthogonal families (Frisian, Frysk!, Turkish): counts and leaves/s.

    python3 bench/perft_orthogonal.py            # Frisian 8, Frysk! 8, Turkish 7 (a few minutes)
    python3 bench/perft_orthogonal.py --quick    # two plies less

The tests run these counts only to the depths that take seconds
(tests/data/perft.txt); this script checks the deeper ones.  Frisian's are
the counts published with its rules (dctl's suite); Frysk!'s and Turkish's
are ours, equal to pydraughts' as far as it was run (docs/variants-orthogonal.md).
Exit status 1 when a count differs.
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from draughts_engine.perft import perft_raw  # noqa: E402
from draughts_engine.position import Position  # noqa: E402
from _cli import OneLineParser  # noqa: E402

EXPECTED = {
    "frisian": [9, 81, 658, 3874, 21265, 102431, 540126, 2825779],
    "frysk": [9, 81, 657, 5329, 41829, 328329, 2572197, 20147712],
    "turkish": [8, 64, 708, 7538, 85090, 931312, 10782308],
}


def main() -> int:
    parser = OneLineParser(prog="perft_orthogonal.py", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two plies less")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]} ({sys.implementation.name})")
    print(f"{'variant':10} {'depth':>5} {'leaves':>12} {'seconds':>8} {'leaves/s':>10}")
    ok = True
    for variant, counts in EXPECTED.items():
        depth = len(counts) - (2 if args.quick else 0)
        root = Position.start(variant)
        started = time.process_time()
        leaves = perft_raw(root.generator, *root.raw, depth)
        spent = max(time.process_time() - started, 1e-9)
        good = leaves == counts[depth - 1]
        ok &= good
        print(f"{variant:10} {depth:>5} {leaves:>12} {spent:>8.2f} {leaves / spent:>10.0f}"
              + ("" if good else f"  WRONG (expected {counts[depth - 1]})"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
