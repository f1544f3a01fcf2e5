"""Make a balanced opening set with our own engine (for variants without a published list).

Every line of ``--plies`` plies from the start position is played; lines that reach the
same position are kept once (the first in move order); each position is searched by the
engine to ``--depth`` plies and kept when the score is within ``--max-cp`` centi-men of
equality. The set is written to stdout in the format of the built-in sets
(``label: move move ...``, see protocol/match/openings.py), with a header that says how
it was made::

    python3 protocol/match/data/make_balanced.py international --plies 4 --depth 7 \\
        --max-cp 30 > protocol/match/data/international-balanced.txt
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Dict, Iterator, List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

from draughts_engine import Game  # noqa: E402
from draughts_engine.search.engine import Searcher  # noqa: E402
from draughts_engine.search.limits import SearchLimits  # noqa: E402
from draughts_engine.variants import get_variant  # noqa: E402


def lines_of(game: Game, plies: int) -> Iterator[List[str]]:
    """Every line of ``plies`` legal moves from ``game`` (move text), in generator order."""
    if plies == 0:
        yield [m.pdn() for m in game.moves]
        return
    for move in game.legal_moves():
        game.push(move)
        yield from lines_of(game, plies - 1)
        game.pop()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant")
    parser.add_argument("--plies", type=int, default=4)
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--max-cp", type=int, default=30)
    args = parser.parse_args(argv)
    variant = get_variant(args.variant)
    started = time.monotonic()
    positions: Dict[object, List[str]] = {}
    for line in sorted(lines_of(Game(variant), args.plies)):
        game = Game(variant)
        game.push_all(line)
        if not game.result().is_over:
            positions.setdefault(game.position.key(), line)
    engine = Searcher(hash_mb=16)
    kept = []
    for number, line in enumerate(sorted(positions.values()), 1):
        game = Game(variant)
        game.push_all(line)
        engine.new_game()
        result = engine.search(game.position, SearchLimits(depth=args.depth),
                               game.search_history())
        if result.mate_in is None and result.score_cp is not None \
                and abs(result.score_cp) <= args.max_cp:
            kept.append((line, result.score_cp))
        if number % 100 == 0:
            print(f"{number}/{len(positions)} searched, {len(kept)} kept", file=sys.stderr,
                  flush=True)
    out = sys.stdout
    out.write(f"# Balanced {args.plies}-ply openings of {variant.name} draughts, made by this\n"
              f"# project's own engine: no published opening list for engine matches of this\n"
              f"# variant was found. Every {args.plies}-ply line from the start position\n"
              f"# (transpositions kept once, in move order) was searched to depth {args.depth}\n"
              f"# and kept when the score was within {args.max_cp} centi-men of equality:\n"
              f"# {len(kept)} of {len(positions)} positions.\n"
              f"# Made with: python3 protocol/match/data/make_balanced.py {variant.name} "
              f"--plies {args.plies} --depth {args.depth} --max-cp {args.max_cp}\n"
              f"# Format: label: moves from the start position (PDN numbers); the score after\n"
              f"# the moves (centi-men, side to move) follows as a comment.\n")
    for number, (line, score) in enumerate(kept, 1):
        out.write(f"{number:04d}: {' '.join(line)}  # {score:+d}\n")
    print(f"{len(kept)} kept of {len(positions)} in {time.monotonic() - started:.0f} s",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
