"""The cost of MultiPV: time and nodes to a depth with K lines, against one line in the same run.

    python3 bench/multipv.py                          # International start, depth 8, K = 1 2 3 5
    python3 bench/multipv.py --variant english --depth 10 --lines 1,3,7 --repeat 3

Each search starts from a fresh engine (cleared table); with ``--repeat`` the lowest CPU time
of each K is kept (the machine may be shared). Prints a Markdown table: K, nodes, CPU seconds,
and both as a ratio to K = 1 (node counts are deterministic; the ratios survive a noisy host).
"""
from __future__ import annotations

import os
import sys
import time
from typing import List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from draughts_engine.position import Position  # noqa: E402
from draughts_engine.search.engine import Searcher  # noqa: E402
from draughts_engine.search.limits import MAX_DEPTH, MAX_MULTIPV, SearchLimits  # noqa: E402
from _cli import OneLineParser, int_in, positive_int, variant_name  # noqa: E402


def line_counts(text: str) -> List[int]:
    """``1,3,5`` -> [1, 3, 5] (each 1..MAX_MULTIPV)."""
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        raise ValueError(f"expected counts like 1,3,5, got {text!r}") from None
    if not values or any(not 1 <= value <= MAX_MULTIPV for value in values):
        raise ValueError(f"line counts must be in 1..{MAX_MULTIPV}")
    return values


def main(argv: List[str] = None) -> int:  # type: ignore[assignment]
    parser = OneLineParser(prog="multipv.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", type=variant_name, default="international")
    parser.add_argument("--depth", type=int_in(1, MAX_DEPTH), default=8)
    parser.add_argument("--lines", type=line_counts, default=[1, 2, 3, 5])
    parser.add_argument("--repeat", type=positive_int, default=1)
    args = parser.parse_args(argv)
    position = Position.start(args.variant)
    rows = []
    for lines in args.lines:
        best_cpu, nodes = float("inf"), 0
        for _ in range(args.repeat):
            engine = Searcher(hash_mb=64)
            started = time.process_time()
            result = engine.search(position, SearchLimits(depth=args.depth, multipv=lines))
            best_cpu = min(best_cpu, time.process_time() - started)
            nodes = result.nodes
        rows.append((lines, nodes, best_cpu))
    base_nodes, base_cpu = rows[0][1], rows[0][2]
    print(f"MultiPV cost: {args.variant} start, depth {args.depth}, best of {args.repeat}, "
          f"python {sys.version.split()[0]} ({sys.implementation.name})\n")
    print("| MultiPV | nodes | CPU s | nodes / K=1 | CPU / K=1 |")
    print("|---|---|---|---|---|")
    for lines, nodes, cpu in rows:
        print(f"| {lines} | {nodes} | {cpu:.2f} | {nodes / base_nodes:.2f} | "
              f"{cpu / max(base_cpu, 1e-9):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
