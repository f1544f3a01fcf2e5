"""The engine's move generator against the independent reference generator.

Seeded random games and seeded random positions with kings, in all four
variants.  At every position the engine's legal moves (origin, destination,
captured set), the position after every move and the landing paths offered
for notation must equal the reference's; the fast paths (``count``,
``raw_moves``) must agree with the slow ones.  A mismatch reports the FEN and
the differing moves.
"""
from __future__ import annotations

import os
import random
import sys
from typing import Callable, Dict, FrozenSet, List, Optional, Tuple

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import reference_rules as ref  # noqa: E402

from draughts_engine import Position  # noqa: E402

VARIANTS = ("english", "russian", "brazilian", "international")
#: The later diagonal families, checked with fewer games (the reference is slow).
LATER_VARIANTS = ("italian", "spanish", "portuguese", "czech", "pool", "thai", "canadian",
                  "antidraughts", "breakthrough", "killer")
Triple = Tuple[int, int, FrozenSet[int]]

GAMES_PER_VARIANT = 30
MAX_PLIES = 120
RANDOM_POSITIONS = 600
PLIES_FROM_RANDOM = 8


def show(triple: Triple) -> str:
    origin, dest, captured = triple
    if not captured:
        return f"{origin}-{dest}"
    return f"{origin}x{dest} (takes {','.join(map(str, sorted(captured)))})"


def compare(position: Position) -> Optional[str]:
    """None if the engine agrees with the reference here, else a description."""
    variant = position.variant.name
    fen = position.fen()
    size = position.geometry.size
    board, white_to_move = ref.parse_fen(fen, size)
    assert ref.to_fen(board, white_to_move) == fen
    expected = {m.triple: (ref.to_fen(dict(m.result), not white_to_move), paths)
                for m, paths in ref.legal_moves_with_paths(variant, board, white_to_move).items()}

    moves = position.legal_moves()
    got: Dict[Triple, object] = {}
    for m in moves:
        triple = (m.start, m.end, frozenset(m.captured))
        if triple in got:
            return f"{variant} {fen}: move {show(triple)} listed twice"
        got[triple] = m
    if set(got) != set(expected):
        missing = sorted(show(t) for t in set(expected) - set(got))
        extra = sorted(show(t) for t in set(got) - set(expected))
        return f"{variant} {fen}: missing {missing}, not legal {extra}"
    gen = position.generator
    for triple, m in got.items():
        child = position.play(m)
        after = child.fen()
        if after != expected[triple][0]:
            return (f"{variant} {fen}: after {show(triple)} engine has {after}, "
                    f"reference {expected[triple][0]}")
        man_before = position.piece_at(m.start) in ("w", "b")
        king_after = child.piece_at(m.end) in ("W", "B")
        if m.promotes != (man_before and king_after) or m.is_capture != bool(triple[2]):
            return f"{variant} {fen}: flags of {show(triple)}: promotes={m.promotes} is_capture={m.is_capture}"
        if hasattr(gen, "count_after"):
            replies = gen.count(*child.raw)
            if gen.count_after(*position.raw, m.raw) != replies:
                return (f"{variant} {fen}: count_after({show(triple)}) = "
                        f"{gen.count_after(*position.raw, m.raw)}, count of the child = {replies}")
        if len(m.captured) != len(set(m.captured)) or m.path[0] != m.start or m.path[-1] != m.end:
            return f"{variant} {fen}: inconsistent Move {m!r}"
    for m, paths in position.move_variants():
        triple = (m.start, m.end, frozenset(m.captured))
        if set(map(tuple, paths)) != expected[triple][1]:
            return (f"{variant} {fen}: paths of {show(triple)}: engine {sorted(paths)}, "
                    f"reference {sorted(expected[triple][1])}")
    # fast path vs slow path
    count = gen.count(*position.raw)
    if count != len(moves):
        return f"{variant} {fen}: generator.count {count} != {len(moves)} legal moves"
    raw = position.raw_moves()
    if len(raw) != len(set(raw)) or set(raw) != {m.raw for m in moves}:
        return f"{variant} {fen}: raw_moves() {sorted(raw)} != Move.raw set"
    if position.has_capture() != any(m.captured for m in moves):
        return f"{variant} {fen}: has_capture() is {position.has_capture()}"
    return None


def random_position(variant: str, rng: random.Random) -> Position:
    """Random legal-looking placement, about half of the pieces kings."""
    size = ref.RULES[variant][0]
    layout = ref.EXTRA[variant][0]
    half = size // 2
    n = size * half
    n_white, n_black = rng.randint(1, 9), rng.randint(1, 9)
    squares = rng.sample(range(1, n + 1), n_white + n_black)
    king_share = rng.choice((0.2, 0.5, 0.9))
    board = {}
    for i, s in enumerate(squares):
        colour = "w" if i < n_white else "b"
        king = rng.random() < king_share
        row = ref.row_col(size, s, layout)[0]
        if (colour == "w" and row == 0) or (colour == "b" and row == size - 1):
            king = True     # a man cannot stand on its own promotion row
        board[s] = colour.upper() if king else colour
    return Position.from_fen(ref.to_fen(board, rng.random() < 0.5), variant)


class Walks:
    """Seeded random walks compared with the reference; they stop at the fifth failure."""

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)
        self.failures: List[str] = []
        self.stats = {"positions": 0, "captures": 0, "multi": 0}

    def run(self, count: int, start: Callable[[random.Random], Position], plies: int) -> None:
        """Walk up to ``plies`` random moves from each of ``count`` positions ``start(rng)``."""
        for _ in range(count):
            self.walk(start(self.rng), plies)
            if len(self.failures) >= 5:
                break

    def walk(self, position: Position, plies: int) -> None:
        for _ in range(plies):
            problem = compare(position)
            self.stats["positions"] += 1
            if problem:
                self.failures.append(problem)
                return
            moves = position.legal_moves()
            if not moves:
                return
            if moves[0].captured:
                self.stats["captures"] += 1
                self.stats["multi"] += any(len(m.captured) > 1 for m in moves)
            position = position.play(self.rng.choice(moves))

    def checked_stats(self) -> Dict[str, int]:
        """The counts of what the walks met, once they met no mismatch."""
        assert not self.failures, "\n".join(self.failures)
        return self.stats


@pytest.mark.heavy
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_match_reference(variant):
    walks = Walks(f"games-{variant}")
    walks.run(GAMES_PER_VARIANT, lambda rng: Position.start(variant), MAX_PLIES)
    stats = walks.checked_stats()
    assert stats["positions"] > 1000 and stats["multi"] > 10, stats


@pytest.mark.heavy
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_king_positions_match_reference(variant):
    walks = Walks(f"kings-{variant}")
    walks.run(RANDOM_POSITIONS, lambda rng: random_position(variant, rng), PLIES_FROM_RANDOM)
    stats = walks.checked_stats()
    assert stats["captures"] > 200 and stats["multi"] > 50, stats


@pytest.mark.heavy
@pytest.mark.parametrize("variant", LATER_VARIANTS)
def test_later_variants_match_reference(variant):
    """Random games and random king positions of the later families, fewer of them."""
    walks = Walks(f"later-{variant}")
    walks.run(8, lambda rng: Position.start(variant), MAX_PLIES)
    walks.run(150, lambda rng: random_position(variant, rng), PLIES_FROM_RANDOM)
    stats = walks.checked_stats()
    assert stats["positions"] > 500 and stats["multi"] > 20, stats


def ref_perft(variant: str, board, white_to_move: bool, depth: int) -> int:
    if depth == 0:
        return 1
    moves = ref.legal_moves(variant, board, white_to_move)
    if depth == 1:
        return len(moves)
    return sum(ref_perft(variant, dict(m.result), not white_to_move, depth - 1) for m in moves)


@pytest.mark.parametrize("variant,fen,counts", [
    ("english", "B:W21-32:B1-12", (7, 49, 302, 1469, 7361)),
    ("russian", "W:W21-32:B1-12", (7, 49, 302, 1469, 7482)),
    ("brazilian", "W:W21-32:B1-12", (7, 49, 302, 1469, 7473)),
    ("international", "W:W31-50:B1-20", (9, 81, 658)),
    ("international", "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46", (14, 55, 1168)),
    ("international", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
     (6, 12, 30, 73, 215)),
    ("international", "W:W6,7,8,9,10:B41,42,43,44,45", (9, 81, 795)),
    ("italian", "W:W21-32:B1-12", (7, 49, 302, 1469, 7361, 36473)),
    ("spanish", "W:W1-12:B21-32", (7, 49, 302, 1469, 7361, 36473)),
    ("czech", "W:W21-32:B1-12", (7, 49, 302, 1469, 7361)),
    ("pool", "B:W21-32:B1-12", (7, 49, 302, 1469, 7482)),
    ("thai", "W:W21-32:B1-12", (7, 49, 302, 1469, 7361)),
    ("canadian", "W:W43-72:B1-30", (11, 121, 1222)),
])
def test_reference_itself_reproduces_published_perft(variant, fen, counts):
    """The reference is only useful if it is right: check it on the published tables."""
    board, white_to_move = ref.parse_fen(fen, ref.RULES[variant][0])
    assert tuple(ref_perft(variant, board, white_to_move, d)
                 for d in range(1, len(counts) + 1)) == counts


def test_reference_coordinates():
    for size in (8, 10):
        n = size * size // 2
        seen = set()
        for s in range(1, n + 1):
            r, c = ref.row_col(size, s)
            assert (r + c) % 2 == 1 and ref.square_at(size, r, c) == s
            seen.add((r, c))
        assert len(seen) == n
    assert ref.row_col(8, 1) == (0, 1) and ref.row_col(8, 5) == (1, 0)
    assert ref.row_col(10, 46) == (9, 0) and ref.row_col(10, 50) == (9, 8)
