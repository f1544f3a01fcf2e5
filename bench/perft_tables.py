#!/usr/bin/env python3
"""The perft tables of tests/data/perft.txt at the depths the tests leave out.

    python3 bench/perft_tables.py                       # every row, up to 5,000,000 leaves
    python3 bench/perft_tables.py --max-nodes 30000000 --only italian-start,canadian-start
    python3 bench/perft_tables.py --list

The tests run each row while its count stays small (``PERFT_MAX_NODES``,
250,000 by default); this script goes deeper, row by row, and checks every
count against the table.  Prints one line per depth (count, seconds,
leaves/s) and ends with ``N checked, N wrong``; the exit status is 1 when
a count is wrong, 2 for bad usage.
"""
from __future__ import annotations

import os
import sys
import time
from typing import List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from draughts_engine.perft import perft  # noqa: E402
from draughts_engine.position import Position  # noqa: E402
from _cli import OneLineParser, positive_int  # noqa: E402

TABLE = os.path.join(HERE, "..", "tests", "data", "perft.txt")

Row = Tuple[str, str, str, List[int]]


def load(path: str = TABLE) -> List[Row]:
    rows = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, variant, fen, counts = (field.strip() for field in line.split(";"))
            rows.append((name, variant, fen, [int(c) for c in counts.split()]))
    return rows


def main(argv: List[str] = None) -> int:
    parser = OneLineParser(prog="perft_tables.py", description=__doc__.splitlines()[0])
    parser.add_argument("--max-nodes", type=positive_int, default=5_000_000,
                        help="deepest count to run per row (default 5,000,000)")
    parser.add_argument("--min-nodes", type=positive_int, default=250_001,
                        help="shallowest count to run (default: what the tests leave out)")
    parser.add_argument("--only", default="", help="comma-separated row names")
    parser.add_argument("--list", action="store_true", help="list the rows and exit")
    args = parser.parse_args(argv)
    rows = load()
    if args.list:
        for name, variant, fen, counts in rows:
            print(f"{name:28} {variant:14} depths 1-{len(counts)}")
        return 0
    wanted = [n for n in args.only.split(",") if n]
    unknown = sorted(set(wanted) - {row[0] for row in rows})
    if unknown:
        print(f"unknown rows: {', '.join(unknown)} (see --list)", file=sys.stderr)
        return 2
    checked = wrong = 0
    for name, variant, fen, counts in rows:
        if wanted and name not in wanted:
            continue
        position = Position.from_fen(fen, variant)
        for depth, expected in enumerate(counts, 1):
            if not args.min_nodes <= expected <= args.max_nodes:
                continue
            started = time.process_time()
            got = perft(position, depth)
            took = max(time.process_time() - started, 1e-9)
            ok = got == expected
            checked += 1
            wrong += not ok
            mark = "ok" if ok else f"WRONG (table {expected})"
            print(f"{name:28} depth {depth:2d} {got:12,d} {took:8.2f}s {got / took:12,.0f}/s  {mark}",
                  flush=True)
    print(f"{checked} checked, {wrong} wrong")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
