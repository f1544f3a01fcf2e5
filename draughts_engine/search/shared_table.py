"""A transposition table in memory shared by processes: :class:`SharedTable`.

The parallel search (:mod:`.parallel`) runs one search per process; what they learn
reaches each other through this table.  It lives in a file mapped into memory by
every process (``os.memfd_create`` where the system has it, else an unlinked
temporary file), so it disappears when the last process that maps it ends, however
it ends.  A child process maps it from a file descriptor it inherits
(:meth:`SharedTable.attach`).

Layout: a header of :data:`HEADER_SLOTS` 8-byte words (word ``i`` holds the nodes
searched by helper ``i`` since its current search began, word ``RESULT_SLOT + i`` the
deepest iteration it completed: generation, depth, score and a fingerprint of its move),
then ``2**n`` entries of 16 bytes, found by the low bits of the position's hash.  An
entry is two unsigned 64-bit words ``(check, data)`` with ``check = hash ^ data`` (the
lock-free scheme of the strong chess programs): processes write without locks, and an
entry torn by two writers at once, or holding another position, fails the check and
reads as missing.

``data`` packs, from bit 0: the depth (8 bits), the bound flag (2 bits, :data:`~.tt.EXACT`,
:data:`~.tt.LOWER`, :data:`~.tt.UPPER`), the score as stored by :func:`~.tt.to_tt`
plus :data:`SCORE_BIAS` (22 bits), a fingerprint of the best move (24 bits, 0: no
move; :func:`move_fingerprint`) and the generation of the search that wrote it (8 bits).
Keys are the raw positions' ``hash()`` (ints and tuples of ints hash the same in every
process of one interpreter), reduced to 64 bits.

Replacement: an entry of another position is replaced when it was written by an older
search or is at most :data:`REPLACE_MARGIN` plies deeper than the new one; an entry of
the same position when the new one is at least as deep or exact.
"""
from __future__ import annotations

import mmap
import os
import struct
import tempfile
from typing import Any, Callable, NamedTuple, Optional, Tuple

__all__ = ["SharedTable", "SharedAccess", "move_fingerprint", "ENTRY_BYTES", "HEADER_SLOTS",
           "SCORE_BIAS", "REPLACE_MARGIN", "SharedTableError", "FINGERPRINT_MASK", "MAX_HELPERS",
           "HelperResult"]

ENTRY_BYTES = 16
HEADER_SLOTS = 64
HEADER_BYTES = HEADER_SLOTS * 8
RESULT_SLOT = HEADER_SLOTS // 2
MAX_HELPERS = RESULT_SLOT
SCORE_BIAS = 1 << 21
REPLACE_MARGIN = 2
FINGERPRINT_MASK = 0xFFFFFF
WORD = 0xFFFFFFFFFFFFFFFF

_PAIR = struct.Struct("<QQ")
_COUNTER = struct.Struct("<Q")


class SharedTableError(OSError):
    """The shared table could not be made or mapped."""


def move_fingerprint(move: Any) -> int:
    """24 bits naming ``move`` among the moves of a position (never 0; 0 means none)."""
    return (hash(move) & FINGERPRINT_MASK) | 1


class SharedAccess(NamedTuple):
    """The hot loop's entry points to a :class:`SharedTable` (closures: see
    :meth:`SharedTable.access`)."""

    #: ``probe(key) -> (depth, score, flag, fingerprint) or None``; the score as stored.
    probe: Callable[[Any], Optional[Tuple[int, int, int, int]]]
    #: ``store(key, depth, score, flag, move)``: ``score`` as stored (:func:`~.tt.to_tt`).
    store: Callable[[Any, int, int, int, Any], None]


class HelperResult(NamedTuple):
    """The deepest iteration a helper completed in the running search."""

    depth: int
    score: int
    fingerprint: int  # of its best move (:func:`move_fingerprint`)


class SharedTable:
    """A table of ``2**n`` 16-byte entries in shared memory, about ``size_mb`` MiB.

    Made by the parent (:meth:`create`), mapped by children from the descriptor
    :attr:`fd` (:meth:`attach`).  :attr:`generation` tells this process's searches
    apart (:meth:`new_search`); it is written into the entries stored.
    """

    def __init__(self, fd: int, entries: int, owner: bool) -> None:
        self.fd = fd
        self.entries = entries
        self.owner = owner
        self.generation = 0
        size = HEADER_BYTES + entries * ENTRY_BYTES
        try:
            self.memory = mmap.mmap(fd, size)
        except (OSError, ValueError) as exc:
            raise SharedTableError(f"cannot map the shared table: {exc}") from None

    @classmethod
    def create(cls, size_mb: int) -> "SharedTable":
        """A new zeroed table of the largest power of two of entries within ``size_mb`` MiB."""
        entries = 1 << max(10, (max(1, size_mb) * 1024 * 1024 // ENTRY_BYTES).bit_length() - 1)
        size = HEADER_BYTES + entries * ENTRY_BYTES
        try:
            memfd = getattr(os, "memfd_create", None)
            if memfd is not None:
                fd = memfd("draughts-shared-table")
            else:
                handle, path = tempfile.mkstemp(prefix="draughts-table-")
                os.unlink(path)
                fd = handle
            os.ftruncate(fd, size)
        except OSError as exc:
            raise SharedTableError(f"cannot make the shared table: {exc}") from None
        return cls(fd, entries, owner=True)

    @classmethod
    def attach(cls, fd: int, entries: int) -> "SharedTable":
        """The table the parent made, from the descriptor ``fd`` this process inherited."""
        return cls(fd, entries, owner=False)

    def close(self) -> None:
        """Unmap the table and close the descriptor (the memory goes with the last process)."""
        try:
            self.memory.close()
        finally:
            try:
                os.close(self.fd)
            except OSError:
                pass

    def new_search(self, generation: Optional[int] = None) -> None:
        """Entries stored from now on belong to a new search (older ones are replaced first)."""
        self.generation = (self.generation + 1 if generation is None else generation) & 0xFF

    def clear(self) -> None:
        """Zero every entry and counter (call only while no process searches)."""
        size = len(self.memory)
        step = 1 << 20
        zeros = bytes(step)
        for start in range(0, size, step):
            end = min(size, start + step)
            self.memory[start:end] = zeros[:end - start]

    # ---- node counters ------------------------------------------------------------------
    def set_nodes(self, slot: int, nodes: int) -> None:
        """Publish the nodes searched by helper ``slot`` in its current search."""
        _COUNTER.pack_into(self.memory, 8 * slot, nodes & WORD)

    def nodes(self, slots: int) -> int:
        """The nodes published by helpers ``0 .. slots-1``."""
        memory = self.memory
        return sum(_COUNTER.unpack_from(memory, 8 * slot)[0] for slot in range(slots))

    def set_result(self, slot: int, depth: int, score: int, move: Any) -> None:
        """Publish that helper ``slot`` completed ``depth`` with ``score`` and ``move``."""
        data = ((self.generation << 56) | (move_fingerprint(move) << 32)
                | ((score + SCORE_BIAS) << 8) | min(depth, 255))
        _COUNTER.pack_into(self.memory, 8 * (RESULT_SLOT + slot), data)

    def clear_results(self, slots: int) -> None:
        """Forget the results and node counts of helpers ``0 .. slots-1``."""
        for slot in range(slots):
            _COUNTER.pack_into(self.memory, 8 * slot, 0)
            _COUNTER.pack_into(self.memory, 8 * (RESULT_SLOT + slot), 0)

    def best_result(self, slots: int) -> Optional[HelperResult]:
        """The deepest result of helpers ``0 .. slots-1`` in this search (by
        :attr:`generation`), or None."""
        best: Optional[HelperResult] = None
        for slot in range(slots):
            data = _COUNTER.unpack_from(self.memory, 8 * (RESULT_SLOT + slot))[0]
            if not data or data >> 56 != self.generation:
                continue
            found = HelperResult(data & 0xFF, ((data >> 8) & 0xFFFFFF) - SCORE_BIAS,
                                 (data >> 32) & FINGERPRINT_MASK)
            if best is None or found.depth > best.depth:
                best = found
        return best

    # ---- entries ------------------------------------------------------------------------
    def access(self) -> SharedAccess:
        """Closures reading and writing entries, for the search's hot loop."""
        memory = self.memory
        unpack = _PAIR.unpack_from
        pack = _PAIR.pack_into
        mask = self.entries - 1
        generation = self.generation << 56
        word = WORD
        bias = SCORE_BIAS
        margin = REPLACE_MARGIN
        fingerprint_mask = FINGERPRINT_MASK

        def probe(key: Any) -> Optional[Tuple[int, int, int, int]]:
            h = hash(key) & word
            check, data = unpack(memory, HEADER_BYTES + (h & mask) * ENTRY_BYTES)
            if check ^ data != h:
                return None
            return (data & 0xFF, ((data >> 10) & 0x3FFFFF) - bias, (data >> 8) & 3,
                    (data >> 32) & fingerprint_mask)

        def store(key: Any, depth: int, score: int, flag: int, move: Any) -> None:
            h = hash(key) & word
            offset = HEADER_BYTES + (h & mask) * ENTRY_BYTES
            check, old = unpack(memory, offset)
            if old:
                old_depth = old & 0xFF
                if check ^ old == h:
                    if depth < old_depth and flag != 0:
                        return
                elif (old >> 56) == (generation >> 56) and old_depth > depth + margin:
                    return
            fp = 0 if move is None else (hash(move) & fingerprint_mask) | 1
            data = (generation | (fp << 32) | ((score + bias) << 10) | (flag << 8)
                    | (depth if depth < 255 else 255))
            pack(memory, offset, h ^ data, data)

        return SharedAccess(probe, store)
