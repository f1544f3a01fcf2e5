"""Time to depth: search fixed positions of every variant and report, per
completed iteration, the time (process CPU and wall clock), nodes and nodes/s.

    python bench/search.py            # full table (about a minute)
    python bench/search.py --quick    # smaller depths (a few seconds)
    python bench/search.py --variant english --depth 12 --repeat 3

Each position is searched once per repeat with a fresh engine (cleared
table); with ``--repeat`` the best (lowest) CPU time per depth is kept, since
the machine may be shared.  Node counts are deterministic.
"""
from __future__ import annotations

import os
import sys
import time
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from draughts_engine.position import Position  # noqa: E402
from draughts_engine.search.engine import Searcher  # noqa: E402
from draughts_engine.search.limits import SearchInfo, SearchLimits  # noqa: E402
from draughts_engine.search.limits import MAX_DEPTH  # noqa: E402
from _cli import (OneLineParser, evaluation_name, int_in, positive_int,  # noqa: E402
                  variant_name)

#: (name, variant, FEN or None for the start position, depth, quick depth)
POSITIONS: Tuple[Tuple[str, str, Optional[str], int, int], ...] = (
    ("english start", "english", None, 12, 8),
    ("english middle 1", "english", "W:W17,20,21,22,23,27,28,29,31,32:B1,2,3,4,5,9,10,12,13,15", 11, 7),
    ("english middle 2", "english", "B:W21,22,25,27,28,29,30,31:B2,3,4,5,6,13,15,16", 11, 7),
    ("russian start", "russian", None, 10, 7),
    ("russian middle", "russian", "B:W19,22,25,26,27,28,29,31,32:B1,2,3,4,5,6,7,11,12", 10, 7),
    ("brazilian start", "brazilian", None, 10, 7),
    ("international start", "international", None, 10, 6),
    ("international middle", "international",
     "W:W28,31,35,36,37,38,41,42,43,45,46,47,48,49,50:B1,2,3,4,5,6,7,9,10,11,12,15,17,19,21", 9, 6),
)


def run_position(variant: str, fen: Optional[str], depth: int, hash_mb: int,
                 evaluation: str) -> List[Tuple[SearchInfo, float]]:
    """Search once; return each iteration's report with the CPU seconds used so far."""
    position = Position.start(variant) if fen is None else Position.from_fen(fen, variant)
    engine = Searcher(hash_mb=hash_mb, evaluation=evaluation)
    rows: List[Tuple[SearchInfo, float]] = []
    cpu0 = time.process_time()
    engine.search(position, SearchLimits(depth=depth),
                  on_info=lambda info: rows.append((info, time.process_time() - cpu0)))
    return rows


def main(argv: Optional[List[str]] = None) -> int:
    parser = OneLineParser(prog="search.py", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller depths")
    parser.add_argument("--variant", type=variant_name, help="only positions of this variant")
    parser.add_argument("--depth", type=int_in(1, MAX_DEPTH), help="override every position's depth")
    parser.add_argument("--repeat", type=positive_int, default=1, help="runs per position (best CPU time kept)")
    parser.add_argument("--hash", type=int_in(1, 1024), default=16, help="hash size in MiB")
    parser.add_argument("--eval", type=evaluation_name, default="full", help="evaluation name")
    args = parser.parse_args(argv)
    if args.variant and all(variant != args.variant for _, variant, *_ in POSITIONS):
        parser.error(f"no bench position of {args.variant} (there are: "
                     f"{', '.join(sorted({variant for _, variant, *_ in POSITIONS}))})")

    print(f"{'position':<22} {'depth':>5} {'cpu s':>8} {'wall s':>8} {'nodes':>10} {'knps':>7}  best")
    total_nodes = 0
    total_cpu = 0.0
    for name, variant, fen, depth, quick_depth in POSITIONS:
        if args.variant and variant != args.variant:
            continue
        d = args.depth or (quick_depth if args.quick else depth)
        best: Dict[int, Tuple[SearchInfo, float]] = {}
        for _ in range(max(1, args.repeat)):
            for info, cpu in run_position(variant, fen, d, args.hash, args.eval):
                if info.depth not in best or cpu < best[info.depth][1]:
                    best[info.depth] = (info, cpu)
        for depth_done in sorted(best):
            info, cpu = best[depth_done]
            knps = info.nodes / max(cpu, 1e-6) / 1000
            move = info.pv[0].pdn() if info.pv else "-"
            print(f"{name:<22} {depth_done:>5} {cpu:>8.3f} {info.time_ms / 1000:>8.3f} "
                  f"{info.nodes:>10} {knps:>7.1f}  {move}")
        if best:
            info, cpu = best[max(best)]
            total_nodes += info.nodes
            total_cpu += cpu
        print()
    print(f"total nodes {total_nodes} cpu {total_cpu:.2f} s nps {int(total_nodes / max(total_cpu, 1e-6))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
