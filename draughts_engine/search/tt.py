"""Transposition table: a size-bounded dict keyed by exact positions.

Keys are exact (the raw position tuple ``(white, black, kings, white_to_move)``
or any hashable state key), so two positions never share an entry.  An entry
is the tuple ``(depth, score, flag, move)``:

* ``flag`` is :data:`EXACT`, :data:`LOWER` (score is a lower bound: the node
  failed high) or :data:`UPPER` (an upper bound: it failed low);
* ``score`` is stored *relative to the node*: a mate score found ``n`` plies
  below the root is stored as the distance from this node (see
  :func:`to_tt` / :func:`from_tt`), so the entry is right wherever the
  position is reached again;
* ``move`` is the best (or refuting) move found, or None.

The size bound is in MiB.  The cost of an entry is measured once, when the
first table is built, on the running interpreter (:func:`entry_bytes`): ``sys.getsizeof`` over
everything the entry keeps alive on CPython (dict slot, key tuple and its
ints, entry tuple, move tuple and its ints), the garbage collector's counts
on PyPy.  When the table
is full, :meth:`TranspositionTable.make_room` keeps the deeper half of the
entries: deterministic, and amortised O(1) per store.

Probing is one function for every search: :func:`cutoff` says whether an
entry decides a node (the engine's hot loop reads ``table``, the dict,
directly and calls it only when the entry is deep enough);
:meth:`TranspositionTable.probe`, :meth:`~TranspositionTable.move` and
:meth:`~TranspositionTable.store` are the rest of the contract.  The engine
stores inline, with the same steps as :meth:`~TranspositionTable.store`.
"""
from __future__ import annotations

import functools
import gc
import sys
from typing import Any, Dict, Hashable, Optional, Tuple

from ..runtime import PYPY
from .interface import MATE_BOUND

__all__ = ["TranspositionTable", "EXACT", "LOWER", "UPPER", "to_tt", "from_tt", "cutoff",
           "entry_bytes", "entry_bytes_getsizeof", "entry_bytes_gc", "sample_entry",
           "DEFAULT_ENTRY_BYTES", "PYPY_ENTRY_BYTES", "InvalidHashSizeError", "MIN_MB",
           "MAX_MB"]

EXACT, LOWER, UPPER = 0, 1, 2

MIN_MB = 1
MAX_MB = 4096

Entry = Tuple[int, int, int, Any]


class InvalidHashSizeError(ValueError):
    """A hash size outside ``MIN_MB .. MAX_MB``."""


def to_tt(score: int, ply: int) -> int:
    """A search score at ``ply`` as stored in the table (mate distance from the node)."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def from_tt(score: int, ply: int) -> int:
    """A stored score as a search score at ``ply`` (inverse of :func:`to_tt`)."""
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


def cutoff(entry: Entry, depth: int, alpha: int, beta: int, ply: int) -> Optional[int]:
    """The score of a node at ``ply`` searched to ``depth`` in the window
    ``(alpha, beta)``, if its table ``entry`` decides it, else None.

    It decides when it was searched at least as deep and its score (seen from
    ``ply``, see :func:`from_tt`) is exact, a lower bound ``>= beta`` or an
    upper bound ``<= alpha``.

    >>> cutoff((5, 40, LOWER, None), 4, 0, 30, 2), cutoff((5, 40, UPPER, None), 4, 0, 30, 2)
    (40, None)
    """
    if entry[0] < depth:
        return None
    score = entry[1]
    if score >= MATE_BOUND:
        score -= ply
    elif score <= -MATE_BOUND:
        score += ply
    flag = entry[2]
    if flag == EXACT or (score >= beta if flag == LOWER else score <= alpha):
        return score
    return None


DEFAULT_ENTRY_BYTES = 480
"""Bytes per entry where they cannot be measured (CPython 3.11 measures 477)."""

PYPY_ENTRY_BYTES = 384
"""Bytes per entry on PyPy: what :func:`entry_bytes_gc` measures on PyPy 7.3.11 (a fixed
figure, so that one ``Hash`` size gives one capacity and one search in every run)."""

#: Figures of :func:`entry_bytes_gc` outside this range are taken for noise.
PLAUSIBLE_ENTRY_BYTES = range(100, 2001)

#: Entries of the sample table :func:`entry_bytes_gc` fills.
GC_SAMPLE_ENTRIES = 4096

#: Tables :func:`entry_bytes_gc` fills, keeping the smallest growth (allocations by
#: other threads during a sample only add to it).
GC_SAMPLES = 3

#: :func:`entry_bytes_gc` rounds up to a multiple of this: the figure moves by
#: a few bytes with the state of the heap (349-368 bytes were measured on PyPy
#: 7.3.11 from different programs), and the capacity must not.
GC_ROUNDING = 64


def sample_entry(i: int, board_bits: int = 54) -> Tuple[Tuple[int, int, int, bool], Entry]:
    """The ``i``-th sample ``(key, entry)`` of a table whose keys hold ``board_bits``-bit ints.

    Shaped like the engine's: a raw-position key, an entry holding a move
    tuple of its own; ints as large as a full board.
    """
    full = (1 << board_bits) - 1
    key = (full - i, full - 2 * i, i * 7, bool(i & 1))
    move = (1 << (i % board_bits), 1 << ((i + 5) % board_bits), full >> (i % 9), False)
    return key, (i % 20, -150 - i, LOWER, move)


def entry_bytes_getsizeof(board_bits: int = 54) -> int:
    """Bytes per entry by ``sys.getsizeof`` (CPython; TypeError where it is missing).

    A sample key, entry and move are built and their ``sys.getsizeof`` added
    up, plus the dict's own cost per item (measured on a filled dict at its
    average load).
    """
    full = (1 << board_bits) - 1
    key = (full, full - 1, full - 2, True)
    move = (1 << (board_bits - 1), 1 << (board_bits - 2), full >> 3, False)
    entry = (12, -150, LOWER, move)
    size = sys.getsizeof(key) + sum(sys.getsizeof(x) for x in key[:3])
    size += sys.getsizeof(entry) + sys.getsizeof(entry[1])
    size += sys.getsizeof(move) + sum(sys.getsizeof(x) for x in move[:3])
    sample = {i: None for i in range(1 << 15)}
    size += sys.getsizeof(sample) // len(sample) + 1
    return size


def entry_bytes_gc(board_bits: int = 54, entries: int = GC_SAMPLE_ENTRIES) -> Optional[int]:
    """Bytes per entry as PyPy's garbage collector counts them, or None elsewhere.

    A table of ``entries`` sample entries (:func:`sample_entry`) is filled;
    the growth of the collector's old-generation memory (arenas and large
    blocks, read after a full collection), the smallest of :data:`GC_SAMPLES`
    tables, divided by ``entries`` and rounded up to :data:`GC_ROUNDING` bytes,
    is the figure (None when outside :data:`PLAUSIBLE_ENTRY_BYTES`). It takes
    about 100 ms and may still move by one rounding step with the state of the
    heap (or more while other threads allocate), so the engine
    does not call it: :func:`entry_bytes` uses the fixed
    :data:`PYPY_ENTRY_BYTES`, which the tests check against this measure.
    """
    stats = getattr(gc, "get_stats", None)
    # PyPy's statistics keep their raw byte counts in ``_s`` (the public fields
    # are formatted text); CPython's ``gc.get_stats`` is another thing.
    if stats is None or not hasattr(stats(), "_s"):
        return None

    def used() -> int:
        gc.collect()
        raw = stats()._s
        return raw.total_arena_memory + raw.total_rawmalloced_memory

    def grown_by_a_table() -> int:
        before = used()
        table = dict(sample_entry(i, board_bits) for i in range(entries))
        grown = used() - before
        del table
        return grown

    # Another thread allocating meanwhile only adds: the smallest of a few samples.
    grown = min(grown_by_a_table() for _ in range(GC_SAMPLES))
    size = -(-grown // (entries * GC_ROUNDING)) * GC_ROUNDING
    return size if size in PLAUSIBLE_ENTRY_BYTES else None


@functools.lru_cache(maxsize=None)
def entry_bytes(board_bits: int = 54) -> int:
    """Estimated bytes kept alive by one entry whose key holds ``board_bits``-bit ints.

    CPython: measured with ``sys.getsizeof`` (:func:`entry_bytes_getsizeof`), exact and
    repeatable.  PyPy: the fixed :data:`PYPY_ENTRY_BYTES`, so that one ``Hash`` size gives
    one capacity in every run (the collector's count, :func:`entry_bytes_gc`, moves with the
    heap; the tests check the figure against it).  :data:`DEFAULT_ENTRY_BYTES` elsewhere.
    Cached per ``board_bits``.
    """
    try:
        return entry_bytes_getsizeof(board_bits)
    except TypeError:
        pass
    return PYPY_ENTRY_BYTES if PYPY else DEFAULT_ENTRY_BYTES


class TranspositionTable:
    """A transposition table holding at most ``capacity`` entries (from a MiB size).

    Attributes read by the engine's hot loop: ``table`` (the dict; never
    replaced, only mutated) and ``capacity``.
    """

    def __init__(self, size_mb: int = 16) -> None:
        self.table: Dict[Hashable, Entry] = {}
        self.capacity = 0
        self.size_mb = 0
        self.resize(size_mb)

    def resize(self, size_mb: int) -> None:
        """Set the size bound (MiB) and clear the table."""
        if not isinstance(size_mb, int) or not MIN_MB <= size_mb <= MAX_MB:
            raise InvalidHashSizeError(f"hash size must be {MIN_MB}..{MAX_MB} MiB, got {size_mb!r}")
        self.size_mb = size_mb
        self.capacity = max(1024, size_mb * 1024 * 1024 // entry_bytes())
        self.table.clear()

    def clear(self) -> None:
        """Remove every entry."""
        self.table.clear()

    def __len__(self) -> int:
        return len(self.table)

    def hashfull(self) -> int:
        """Fill of the table in per mille (0..1000)."""
        return min(1000, len(self.table) * 1000 // self.capacity)

    def probe(self, key: Hashable, ply: int) -> Optional[Entry]:
        """The entry of ``key`` with its score as seen at ``ply``, or None."""
        entry = self.table.get(key)
        if entry is None:
            return None
        depth, score, flag, move = entry
        return depth, from_tt(score, ply), flag, move

    def move(self, key: Hashable) -> Any:
        """The best move stored for ``key``, or None."""
        entry = self.table.get(key)
        return None if entry is None else entry[3]

    def store(self, key: Hashable, depth: int, score: int, flag: int, move: Any, ply: int) -> None:
        """Store a search result for ``key`` found at ``ply`` (always replaces).

        A None ``move`` keeps the move already stored for the key.
        """
        table = self.table
        if move is None:
            old = table.get(key)
            if old is not None:
                move = old[3]
        if len(table) >= self.capacity and key not in table:
            self.make_room()
        table[key] = (depth, to_tt(score, ply), flag, move)

    def make_room(self) -> None:
        """Drop entries, shallowest first, until at most half the capacity is used.

        Among entries of the same depth the older ones go first, so the
        outcome depends only on the order of stores (deterministic).
        """
        table = self.table
        target = self.capacity // 2
        if len(table) <= target:
            return
        counts: Dict[int, int] = {}
        for entry in table.values():
            counts[entry[0]] = counts.get(entry[0], 0) + 1
        drop = len(table) - target
        threshold = None
        partial = 0  # how many entries of depth == threshold to drop
        for depth in sorted(counts):
            if counts[depth] >= drop:
                threshold, partial = depth, drop
                break
            drop -= counts[depth]
        kept: Dict[Hashable, Entry] = {}
        for key, entry in table.items():
            d = entry[0]
            if d < threshold:  # type: ignore[operator]
                continue
            if d == threshold and partial:
                partial -= 1
                continue
            kept[key] = entry
        table.clear()
        table.update(kept)
