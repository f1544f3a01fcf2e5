"""Retrograde analysis: solve every position of a material from the move generator.

:func:`solve` builds the :class:`~.table.Table` of one material, given the
tables of every material a capture or a promotion leads to (:func:`build_all`
builds a whole set in dependency order).  Moves come from
:mod:`draughts_engine.movegen`, so the databases follow the same rules as the
search: compulsory captures, the majority rule, flying kings, promotion.

The positions of a material are solved slice by slice (a slice: one placement
of the men, see :mod:`.index`), the most advanced men first, so a man move
always leads into a slice that is already solved.  Inside a slice only king
moves stay; the slice is solved by the classic retrograde sweep over those
moves in order of distance: a position is won at distance ``d`` as soon as one
move reaches a position lost at ``d - 1`` (or a move out of the slice wins at
``d``), and lost when every move reaches a won position, at the largest
distance.  What is never reached is a draw.

Distances count towards the governing draw count (``dtz``, see :mod:`.table`):
a move that starts the count afresh ends that distance, and the value of the
position it reaches is then read with a fresh count, so a win that needs longer
than the count allows is a draw there.  A second sweep over the same moves
gives ``dtm`` (plies to the end of the game).
"""
from __future__ import annotations

from array import array
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from ..movegen import generator_for
from ..variants import Variant, get_variant
from .index import MaterialIndex, flip
from .material import Material, count_rule, materials_up_to, same_count, unsupported_reason
from .table import LOSS, UNUSED, WIN, Table

__all__ = ["solve", "build_all", "Progress", "MissingTableError"]

Progress = Callable[[Material, int, int], None]
"""``progress(material, positions done, positions of the material)``."""

_FAR = 1 << 30


class MissingTableError(LookupError):
    """A capture or promotion leads to a material whose table was not given."""


class _Children:
    """Values of positions outside the table being built (after a capture or a
    promotion): ``(wdl, dtz, dtm)`` for the side to move, read with a fresh count,
    or (``continued``) as stored, when the move keeps the ending class and so its
    count (see :func:`.material.same_count`)."""

    def __init__(self, variant: Variant, tables: Dict[Material, Table],
                 material: Material) -> None:
        self.tables = tables
        self.variant = variant
        self.material = material

    def value(self, white: int, black: int, kings: int,
              white_to_move: bool) -> Tuple[int, int, int, bool]:
        """``(wdl, dtz, dtm, continued)``."""
        if not (white if white_to_move else black):
            return LOSS, 0, 0, False  # every piece taken: the side to move has lost
        material = Material.of(white, black, kings)
        continued = same_count(self.variant, self.material, material)
        table = self.tables.get(material)
        if table is None:
            table = self.tables.get(material.flipped())
            if table is None:
                raise MissingTableError(f"{self.variant.name}: the table of {material.name} "
                                        f"is needed first")
            ix = table.index
            white, black, kings, white_to_move = flip(white, black, kings, white_to_move,
                                                      ix.squares, ix.bit_of, ix.square0)
        i = table.index.encode(white, black, kings, white_to_move)
        if continued:
            return table.wdl[i], table.dtz[i], table.dtz[i] + table.tail[i], True
        found = table.result(i)
        if found is None:  # pragma: no cover - every real position has an index
            raise AssertionError(f"no index for a position of {material.name}")
        return found + (False,)


def solve(variant: "Variant | str", material: Material, tables: Dict[Material, Table],
          progress: Optional[Progress] = None) -> Table:
    """The solved table of ``material`` (canonical or not), given ``tables``
    holding every material a capture or promotion from it reaches.

    Raises :class:`MissingTableError` when one is missing, and ValueError for a
    variant without tables (:func:`~.material.unsupported_reason`: another goal, a
    board of every square, a king move limit).
    """
    variant = get_variant(variant)
    reason = unsupported_reason(variant)
    if reason is not None:
        raise ValueError(f"no endgame tables for {variant.name}: {reason}")
    ix = MaterialIndex(variant, material)
    rule = count_rule(variant, material)
    size = ix.size
    wdl = bytearray([UNUSED]) * size
    dtz = array("H", bytes(2 * size))
    tail = array("H", bytes(2 * size))
    table = Table(ix, rule, wdl, dtz, tail)
    children = _Children(variant, tables, material)
    slices = [s for s in range(ix.slices) if ix.slice_men(s) is not None]
    slices.sort(key=ix.men_advance, reverse=True)
    done = 0
    for s in slices:
        _solve_slice(variant, table, s, children)
        done += ix.slice_size
        if progress is not None:
            progress(material, done, len(slices) * ix.slice_size)
    return table


def _solve_slice(variant: Variant, table: Table, men_index: int, children: _Children) -> None:
    """Solve the positions of one slice (every other slice its men moves reach is solved)."""
    ix = table.index
    gen = generator_for(variant)
    moves_of = gen.moves
    play = gen.play
    encode = ix.encode
    child_value = children.value
    result = table.result
    wdl, dtz, tail = table.wdl, table.dtz, table.tail
    men_reset = table.rule.men_reset
    size = ix.slice_size
    base = men_index * size

    # ---- the moves of every position ------------------------------------------------------
    # King moves stay in the slice (successor lists); every other move has a known value,
    # kept as the cheapest win and dearest loss it offers, in both distances.
    succ_start = array("l", [0]) * (size + 1)
    succ_count = array("l", [0]) * size
    succ = array("l")
    win_z = array("l", [_FAR]) * size
    win_m = array("l", [_FAR]) * size
    loss_z = array("l", [0]) * size
    loss_m = array("l", [0]) * size
    has_draw = bytearray(size)
    placements = list(ix.slice_positions(men_index))
    # A king move stays in the slice: find its local index by the two colours' squares.
    local_of = {(white, black): local for local, white, black, _ in placements}
    for local, white, black, kings in placements:
        for p, white_to_move in ((local, True), (local + 1, False)):
            succ_start[p] = len(succ)
            for move in moves_of(white, black, kings, white_to_move):
                nw, nb, nk = play(white, black, kings, white_to_move, move)
                if move[2] or move[3]:  # capture or promotion: another table
                    value, z, m, continued = child_value(nw, nb, nk, not white_to_move)
                    if continued:  # the same ending class: the count goes on
                        z += 1
                    else:  # a new count
                        z = 1
                elif not kings & move[0]:  # a man move: another slice of this table
                    child = encode(nw, nb, nk, not white_to_move)
                    if men_reset:
                        value, z, m = result(child)
                        z = 1
                    else:
                        value, z = wdl[child], dtz[child] + 1
                        m = z - 1 + tail[child]
                else:
                    succ.append(local_of[nw, nb] + white_to_move)
                    continue
                m += 1
                # the child's value is for the opponent: its loss is our win
                if value == LOSS:
                    if z < win_z[p]:
                        win_z[p] = z
                    if m < win_m[p]:
                        win_m[p] = m
                elif value == WIN:
                    if z > loss_z[p]:
                        loss_z[p] = z
                    if m > loss_m[p]:
                        loss_m[p] = m
                else:
                    has_draw[p] = 1
            succ_count[p] = len(succ) - succ_start[p]
    succ, succ_start = _reorder(succ, succ_start, succ_count, size)
    pred, pred_start = _predecessors(succ, succ_start, size)
    value, dist = _sweep(size, succ_start, pred, pred_start, win_z, loss_z, has_draw)
    value_m, plies = _sweep(size, succ_start, pred, pred_start, win_m, loss_m, has_draw)
    if value != value_m:  # pragma: no cover - both sweeps see the same graph
        raise AssertionError(f"{ix.material.name}: the two sweeps disagree")
    for p in range(size):
        g = base + p
        wdl[g] = value[p]
        dtz[g] = min(dist[p], 65535)
        tail[g] = min(plies[p] - dist[p], 65535)


def _predecessors(succ: array, succ_start: array, size: int) -> Tuple[array, array]:
    """The successor CSR turned around: ``pred[pred_start[c]:pred_start[c + 1]]``
    are the positions with a king move to ``c`` (once per move)."""
    pred_start = array("l", [0]) * (size + 1)
    for c in succ:
        pred_start[c + 1] += 1
    for p in range(size):
        pred_start[p + 1] += pred_start[p]
    fill = array("l", pred_start)
    pred = array("l", [0]) * len(succ)
    for p in range(size):
        for e in range(succ_start[p], succ_start[p + 1]):
            c = succ[e]
            pred[fill[c]] = p
            fill[c] += 1
    return pred, pred_start


def _sweep(size: int, succ_start: array, pred: array, pred_start: array, win_cost: array,
           loss_cost: array, has_draw: bytearray) -> Tuple[bytearray, array]:
    """Retrograde sweep of one slice in order of distance.

    A king move costs one ply; a move out of the slice offers a win at
    ``win_cost`` (the cheapest), a loss at ``loss_cost`` (the dearest) or a draw.
    Returns ``(value, distance)`` per local index: :data:`WIN` as soon as a move
    reaches a loss (shortest), :data:`LOSS` when every move reaches a win
    (longest), :data:`DRAW` (0) for the rest.
    """
    value = bytearray(size)
    dist = array("l", [0]) * size
    remaining = array("l", (succ_start[p + 1] - succ_start[p] for p in range(size)))
    loss_at = array("l", loss_cost)
    buckets: Dict[int, List[int]] = {}

    def push(d: int, entry: int) -> None:
        bucket = buckets.get(d)
        if bucket is None:
            buckets[d] = [entry]
        else:
            bucket.append(entry)

    for p in range(size):
        if win_cost[p] < _FAR:
            push(win_cost[p], 2 * p)
        elif not remaining[p] and not has_draw[p]:
            push(loss_at[p], 2 * p + 1)
    d = 0
    while buckets:
        bucket = buckets.pop(d, None)
        d += 1
        if bucket is None:
            continue
        for entry in bucket:  # later entries are pushed at d or beyond, never here
            p = entry >> 1
            if value[p]:
                continue
            lost = entry & 1
            value[p] = LOSS if lost else WIN
            dist[p] = d - 1
            for e in range(pred_start[p], pred_start[p + 1]):
                q = pred[e]
                if value[q]:
                    continue
                if lost:
                    push(d, 2 * q)
                else:
                    remaining[q] -= 1
                    if d > loss_at[q]:
                        loss_at[q] = d
                    if not remaining[q] and win_cost[q] >= _FAR and not has_draw[q]:
                        push(loss_at[q], 2 * q + 1)
    return value, dist


def _reorder(succ: array, succ_start: array, succ_count: array,
             size: int) -> Tuple[array, array]:
    """Successor lists were appended in generation order (``succ_start[p]`` and
    ``succ_count[p]`` locate ``p``'s run); return them as a CSR in local index order."""
    new_start = array("l", [0]) * (size + 1)
    new = array("l")
    for p in range(size):
        new_start[p] = len(new)
        start = succ_start[p]
        new.extend(succ[start:start + succ_count[p]])
    new_start[size] = len(new)
    return new, new_start


def build_all(variant: "Variant | str", pieces: int,
              materials: Optional[Iterable[Material]] = None,
              progress: Optional[Progress] = None,
              known: Optional[Dict[Material, Table]] = None) -> Dict[Material, Table]:
    """Solve every canonical material of 2..``pieces`` pieces (or only
    ``materials`` and what they need), in dependency order.  ``known`` tables
    are used as they are and not rebuilt."""
    tables: Dict[Material, Table] = dict(known or {})
    wanted = materials_up_to(pieces)
    if materials is not None:
        need = set()
        for m in materials:
            need |= _needed(m.canonical())
        wanted = [m for m in wanted if m in need]
    for material in wanted:
        if material not in tables:
            tables[material] = solve(variant, material, tables, progress)
    return tables


def _needed(material: Material) -> set:
    """``material`` and every canonical material a capture or promotion can lead to."""
    out = set()
    for m in materials_up_to(material.pieces):
        if (m.pieces < material.pieces or m == material
                or (m.pieces == material.pieces and m.men < material.men)):
            out.add(m)
    return out
