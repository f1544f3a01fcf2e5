"""In-process self-play depth ladder: the engine at depth d against the same
engine at a fixed base depth, both colours, from a few fixed openings.

    python bench/ladder.py                          # English, d = 1..6 vs depth 2
    python bench/ladder.py --variant international --depths 1-4 --openings 3
    python bench/ladder.py --depths 2,4,6 --base 2 --max-plies 200

Each pairing plays every opening twice (colours swapped).  A game ends by
the rules of :class:`~draughts_engine.game.Game` (no legal move, repetition,
move-count draws) or is adjudicated a draw after ``--max-plies`` plies.
The table shows wins, draws, losses and the score of the depth-d engine; the
score should rise with depth.  Everything is deterministic (fixed depths).
"""
from __future__ import annotations

import os
import sys
import time
from typing import List, Optional, Sequence, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from draughts_engine.game import Game  # noqa: E402
from draughts_engine.position import Position  # noqa: E402
from draughts_engine.search.engine import Searcher  # noqa: E402
from draughts_engine.search.limits import SearchLimits  # noqa: E402
from draughts_engine.search.limits import MAX_DEPTH  # noqa: E402
from _cli import (OneLineParser, depth_list, evaluation_name, int_in,  # noqa: E402
                  positive_int, variant_name)


def openings(variant: str, count: int) -> List[List[str]]:
    """The first ``count`` two-ply openings (first move, reply) in move order,
    spread over the first moves."""
    start = Position.start(variant)
    lines: List[List[str]] = []
    firsts = start.legal_moves()
    replies = [start.play(m).legal_moves() for m in firsts]
    i = 0
    while len(lines) < count and any(replies):
        for first, answers in zip(firsts, replies):
            if i < len(answers) and len(lines) < count:
                lines.append([first.pdn(), answers[i].pdn()])
        i += 1
    return lines


def play_game(variant: str, opening: Sequence[str], white_depth: int, black_depth: int,
              max_plies: int, evaluation: str = "full") -> str:
    """Play one game; return ``'white'``, ``'black'`` or ``'draw'``."""
    game = Game(variant)
    game.push_all(list(opening))
    engines = {True: Searcher(hash_mb=16, evaluation=evaluation),
               False: Searcher(hash_mb=16, evaluation=evaluation)}
    depths = {True: white_depth, False: black_depth}
    while game.ply < max_plies:
        result = game.result()
        if result.is_over:
            return result.outcome  # type: ignore[return-value]
        wtm = game.position.white_to_move
        found = engines[wtm].search(game.position, SearchLimits(depth=depths[wtm]),
                                    history=game.search_history())
        game.push(found.best_move)
    result = game.result()
    return result.outcome if result.is_over else "draw"  # type: ignore[return-value]


def ladder(variant: str, depths: Sequence[int], base: int, n_openings: int,
           max_plies: int, evaluation: str = "full") -> List[Tuple[int, int, int, int, float]]:
    """(depth, wins, draws, losses, seconds) of the depth-d engine against ``base``."""
    rows = []
    lines = openings(variant, n_openings)
    for depth in depths:
        wins = draws = losses = 0
        began = time.perf_counter()
        for line in lines:
            for d_white in (True, False):
                white, black = (depth, base) if d_white else (base, depth)
                outcome = play_game(variant, line, white, black, max_plies, evaluation)
                if outcome == "draw":
                    draws += 1
                elif (outcome == "white") == d_white:
                    wins += 1
                else:
                    losses += 1
        rows.append((depth, wins, draws, losses, time.perf_counter() - began))
    return rows


def main(argv: Optional[List[str]] = None) -> int:
    parser = OneLineParser(prog="ladder.py", description=__doc__.splitlines()[0])
    parser.add_argument("--variant", type=variant_name, default="english")
    parser.add_argument("--depths", type=depth_list, default="1-6", help="e.g. 1-6 or 2,4,6")
    parser.add_argument("--base", type=int_in(1, MAX_DEPTH), default=2,
                        help="depth of the reference engine")
    parser.add_argument("--openings", type=positive_int, default=4)
    parser.add_argument("--max-plies", type=positive_int, default=160)
    parser.add_argument("--eval", type=evaluation_name, default="full")
    args = parser.parse_args(argv)
    rows = ladder(args.variant, args.depths, args.base, args.openings,
                  args.max_plies, args.eval)
    print(f"{args.variant}: depth d vs depth {args.base}, {args.openings} openings x 2 colours")
    print(f"{'depth':>5} {'wins':>5} {'draws':>6} {'losses':>7} {'score':>7} {'time s':>8}")
    for depth, wins, draws, losses, seconds in rows:
        games = wins + draws + losses
        score = (wins + 0.5 * draws) / games if games else 0.0
        print(f"{depth:>5} {wins:>5} {draws:>6} {losses:>7} {100 * score:>6.1f}% {seconds:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
