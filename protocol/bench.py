"""The ``bench`` debug command: the engine's fixed searches, formatted as protocol lines.

The positions, the depth and the searching are :func:`draughts_engine.search.engine.bench`;
this module only reports: one ``info string`` line per position and ``nodes N nps N`` last.
The node count is a signature: a change that should not alter the search must not alter it.
"""
from __future__ import annotations

import time
from typing import Callable, Optional

__all__ = ["run_bench"]


def run_bench(depth: Optional[int], send: Callable[[str], None], evaluation: str = "full",
              hash_mb: int = 16) -> int:
    """Run the engine's bench at ``depth`` (None: its default); report with ``send``;
    return the total node count."""
    from draughts_engine.search.engine import BENCH_DEPTH, Searcher, bench
    used_depth = depth or BENCH_DEPTH
    counter = {"number": 0}

    def report(variant: str, fen: str, result) -> None:
        counter["number"] += 1
        best = result.best_move.pdn() if result.best_move is not None else "(none)"
        send(f"info string bench {counter['number']} {variant} {fen} depth {used_depth} "
             f"nodes {result.nodes} bestmove {best}")

    started = time.perf_counter()
    outcome = bench(used_depth, Searcher(hash_mb=hash_mb, evaluation=evaluation, algorithm="pvs"),
                    on_position=report)
    elapsed = max(time.perf_counter() - started, 1e-9)
    send(f"nodes {outcome.nodes} nps {int(outcome.nodes / elapsed)}")
    return outcome.nodes
