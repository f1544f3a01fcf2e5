"""Ready-made move tuples, built once per variant: :class:`MoveTables`.

Building a move tuple is the dearest part of making a quiet move, so the
one-step moves and the forward jumps of men are made here once, keyed by the
destination bit, and looked up by the generator's loops.
"""
from __future__ import annotations

from typing import Dict, Tuple

from .rules import GeneratorRules, RawMove

__all__ = ["MoveTables", "step_table", "chunk_tables", "jump_table", "hop_table", "CHUNKS"]

#: Destination masks are cut into this many chunks for :func:`chunk_tables`.
CHUNKS = 4


def step_table(rules: GeneratorRules, shift: int, up: bool, crown: int) -> Dict[int, RawMove]:
    """``{destination bit: move}`` of every one-step man move by ``shift``.

    ``up``: the man moves towards bit 0 (a right shift, White's way); ``crown``
    is the promotion row of the side that moves so.
    """
    table = {}
    for index in range(rules.bits):
        dest = 1 << index
        origin = dest << shift if up else dest >> shift
        if dest & rules.board and origin & rules.board:
            table[dest] = (origin, dest, 0, dest & crown != 0)
    return table


def chunk_tables(table: Dict[int, RawMove], chunk: int) -> tuple:
    """A :func:`step_table` by :data:`CHUNKS` chunks of ``chunk`` bits.

    ``result[c][v]`` is the tuple of the moves to the squares of
    ``v << (c * chunk)``, in bit order, so a whole mask of destinations becomes
    its moves with four lookups instead of a lookup and an append per move.
    """
    chunks = []
    for c in range(CHUNKS):
        by_value: list = [()]
        for v in range(1, 1 << chunk):
            low = v & -v
            rest = by_value[v ^ low]
            move = table.get(low << (c * chunk))
            by_value.append(rest if move is None else (move,) + rest)
        chunks.append(tuple(by_value))
    return tuple(chunks)


def jump_table(rules: GeneratorRules, shift: int, up: bool, crown: int) -> Dict[int, RawMove]:
    """``{landing bit: move}`` of every one-piece forward jump of a man by ``2 * shift``.

    The move captures the piece ``shift`` away (whatever stands there: the
    caller checks that it is an opponent's).
    """
    table = {}
    board = rules.board
    for index in range(rules.bits):
        land = 1 << index
        if up:
            victim, origin = land << shift, land << 2 * shift
        else:
            victim, origin = land >> shift, land >> 2 * shift
        if land & board and victim & board and origin & board:
            table[land] = (origin, land, victim, land & crown != 0)
    return table


def hop_table(jumps: Tuple[Dict[int, RawMove], ...]) -> Dict[int, tuple]:
    """``{from bit: ((victim bit, landing bit), ...)}`` of the jumps of ``jumps``."""
    hops: Dict[int, tuple] = {}
    for table in jumps:
        for origin, land, victim, _ in table.values():
            hops[origin] = hops.get(origin, ()) + ((victim, land),)
    return hops


class MoveTables:
    """Every table the generator reads, for one variant.

    * ``white_step_left`` / ``white_step_right`` (and ``black_...``): :func:`step_table`
      by ``half + 1`` ("left") and by ``half`` ("right");
    * ``chunk``: bits per chunk; ``white_step_chunks`` / ``black_step_chunks``: the
      (left, right) :func:`chunk_tables`, only for the English family (10x10 ones
      would be large) and when ``chunked``, else ``()``;
    * ``white_jumps`` / ``black_jumps``: the (left, right) :func:`jump_table` pair;
    * ``white_hops`` / ``black_hops``: their :func:`hop_table`.
    """

    def __init__(self, rules: GeneratorRules, chunked: bool = True) -> None:
        """``chunked=False`` leaves the chunk tables out (the traced shape does not read them)."""
        half, half1, top, bottom = rules.half, rules.half1, rules.top, rules.bottom
        self.white_step_left = step_table(rules, half1, True, top)
        self.white_step_right = step_table(rules, half, True, top)
        self.black_step_left = step_table(rules, half1, False, bottom)
        self.black_step_right = step_table(rules, half, False, bottom)
        self.chunk = (rules.bits + CHUNKS - 1) // CHUNKS
        if rules.short_family and chunked:
            self.white_step_chunks: tuple = (chunk_tables(self.white_step_left, self.chunk),
                                             chunk_tables(self.white_step_right, self.chunk))
            self.black_step_chunks: tuple = (chunk_tables(self.black_step_left, self.chunk),
                                             chunk_tables(self.black_step_right, self.chunk))
        else:
            self.white_step_chunks = self.black_step_chunks = ()
        self.white_jumps = jump_table(rules, half1, True, top), jump_table(rules, half, True, top)
        self.black_jumps = (jump_table(rules, half1, False, bottom),
                            jump_table(rules, half, False, bottom))
        self.white_hops = hop_table(self.white_jumps)
        self.black_hops = hop_table(self.black_jumps)
