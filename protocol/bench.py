"""The ``bench`` debug command: fixed searches whose node count is a signature.

Each position is searched to a fixed depth with a cleared hash table, so the
total node count depends only on the engine's code and the options: a change
that should not alter the search must not alter it.
"""
from __future__ import annotations

import threading
import time
from typing import Callable, Optional, Tuple

from draughts_engine.position import Position
from draughts_engine.search.limits import SearchLimits

__all__ = ["BENCH_POSITIONS", "DEFAULT_DEPTH", "run_bench"]

DEFAULT_DEPTH = 6

#: (variant, FEN) pairs: start positions and a few middle games and endings.
BENCH_POSITIONS: Tuple[Tuple[str, str], ...] = (
    ("english", "B:W21-32:B1-12"),
    ("english", "W:W18,19,21,23,24,26,29,30,31,32:B1,2,3,5,6,7,9,10,11,12"),
    ("english", "B:WK14,K22,K27:BK3,K10"),
    ("russian", "W:W21-32:B1-12"),
    ("russian", "B:W17,18,21,22,23,25,26,28,29,30:B2,3,5,6,7,9,10,11,12,13"),
    ("brazilian", "W:W21-32:B1-12"),
    ("international", "W:W31-50:B1-20"),
    ("international", "W:W27,28,32,33,34,35,37,38,39,40,42,43,44,45,47,48:B6,7,8,9,11,12,13,14,16,17,18,19,21,23,24,26"),
    ("international", "W:WK46,K47,K48:BK5"),
)


def run_bench(depth: Optional[int], send: Callable[[str], None], evaluation: str = "full",
              hash_mb: int = 16) -> int:
    """Search every bench position to ``depth``; report with ``send``; return total nodes.

    Writes one ``info string`` line per position and ``nodes N nps N`` last.
    """
    from draughts_engine.search.engine import Engine
    depth = depth or DEFAULT_DEPTH
    engine = Engine(hash_mb=hash_mb, evaluation=evaluation, algorithm="pvs")
    total_nodes = 0
    started = time.perf_counter()
    for number, (variant, fen) in enumerate(BENCH_POSITIONS, 1):
        engine.new_game()
        position = Position.from_fen(fen, variant)
        result = engine.search(position, SearchLimits(depth=depth), stop=threading.Event())
        total_nodes += result.nodes
        best = result.best_move.pdn() if result.best_move is not None else "(none)"
        send(f"info string bench {number} {variant} {fen} depth {depth} nodes {result.nodes} "
             f"bestmove {best}")
    elapsed = max(time.perf_counter() - started, 1e-9)
    send(f"nodes {total_nodes} nps {int(total_nodes / elapsed)}")
    return total_nodes
