"""Capture search for every variant: :func:`make_capture_search`.

A capture is searched depth-first, jump by jump, from each piece that can
start one; the move it makes is ``(origin, landing, captured, promotes)``.
Two sequences with the same origin, landing and captured set are one move.
Men's first jumps are found with whole-board masks (on diagonal boards; the
orthogonal families' men are searched square by square); only the landings
from which the capture can go on are searched square by square.  The
directions come from :class:`~.rules.GeneratorRules`, so the same search
serves the diagonal families, Frisian (eight directions, the fast search) and
Turkish (rows and columns, pieces removed as they are jumped: the rich one).  Which captures
a player may choose among (the majority rule and the other precedence rules
of :data:`~draughts_engine.variants.PRECEDENCE_CRITERIA`) is decided in
exactly one function, :func:`.precedence.make_precedence`, which both searches call
(``count_captures`` through its ``count``, which counts the one-piece captures
of men on masks without building them).

:func:`make_rich_capture_search` is the search for the rules the fast one
does not know (men that cannot take kings, a king that lands right behind
each piece, pieces removed as they are jumped, killer's halt behind a king,
the order in which kings are taken); it is built only for variants that have
one of them, so the others keep the fast search unchanged.

Names bound in the closures below:

* ``board``, ``half``, ``half1``, ``top``, ``bottom``, ``neighbour``, ``ray``,
  ``reverse``, ``flying``, ``men_back``, ``promote_in_capture``,
  ``white_men_dirs``, ``black_men_dirs``, ``men_by_masks``: as in
  :class:`~.rules.GeneratorRules`; ``all_dirs``: its ``directions``;
* in the jump loops: ``origin`` the capturing piece's bit (the capture starts
  there), ``index`` the bit index it stands on now, ``came`` the direction of
  the jump that brought it there (-1: none yet), ``captured`` the mask taken so
  far, ``opp`` the opponent's pieces, ``empty`` the empty squares with the
  origin counted empty (it has left), ``path`` the landing bit indices so far
  (for notation), ``out`` the list the moves go to, ``paths`` None or the dict
  of paths per move (slow path), ``d`` a direction index, ``r``/``n``/``k`` a
  ray, its length and the position along it, ``s`` a shift and ``up`` whether
  it moves towards bit 0 (by ``>> s``), ``crown`` the promotion row.
"""
from __future__ import annotations

from typing import Callable, List, NamedTuple, Optional, Tuple

from ..bitboard import popcount
from .precedence import make_precedence
from .rules import GeneratorRules, RawMove

__all__ = ["CaptureSearch", "make_capture_search", "make_rich_capture_search"]


class CaptureSearch(NamedTuple):
    """The two entry points of the capture search of one variant."""

    #: ``all_captures(white, black, kings, white_to_move, sources, paths) -> list``:
    #: every capture of the pieces in ``sources``, majority rule applied, no duplicates
    #: (``sources`` must hold every piece that can capture, e.g. ``capture_sources``).
    #: With ``paths`` (a dict), every landing-square path of every capture sequence is
    #: also recorded under its move (the slow path, for notation).
    all_captures: Callable[..., List[RawMove]]
    #: ``count_captures(white, black, kings, white_to_move, sources) -> int``:
    #: ``len(all_captures(...))`` without building the one-piece captures; ``sources``
    #: may hold pieces that cannot capture (they add nothing).
    count_captures: Callable[..., int]


def make_capture_search(rules: GeneratorRules) -> CaptureSearch:
    """The capture search of one variant (see the module docstring)."""
    board, half, half1 = rules.board, rules.half, rules.half1
    top, bottom = rules.top, rules.bottom
    neighbour, ray, reverse = rules.neighbour, rules.ray, rules.reverse
    flying, men_back = rules.flying, rules.men_back
    promote_in_capture = rules.promote_in_capture
    select, count_best = make_precedence(rules)
    men_by_masks = rules.men_by_masks
    white_men_dirs, black_men_dirs = rules.white_men_dirs, rules.black_men_dirs
    all_dirs = rules.directions

    def record(out: list, paths: Optional[dict], move: RawMove, path: tuple) -> None:
        """Append ``move`` to ``out`` (and its ``path`` to ``paths`` when kept)."""
        out.append(move)
        if paths is not None:
            paths.setdefault(move, []).append(path)

    def king_jumps(origin: int, index: int, came: int, captured: int, opp: int,
                   empty: int, path: tuple, out: list, paths: Optional[dict],
                   promotes: bool) -> bool:
        """Extend a king's capture from bit ``index``; True if it could.

        Every capture that cannot go on further is recorded with ``promotes``
        (True for a man crowned during the capture).
        """
        extended = False
        back = reverse[came]
        for d in all_dirs:
            if d == back:
                continue  # the piece just jumped blocks that way
            r = ray[d][index]
            n = len(r)
            k = 0
            if flying:
                while k < n and (empty >> r[k]) & 1:
                    k += 1
            if k >= n - 1:
                continue
            victim = 1 << r[k]
            if not opp & victim or captured & victim:
                continue
            k += 1
            if not (empty >> r[k]) & 1:
                continue
            extended = True
            now_captured = captured | victim
            ends = []
            continued = False
            while k < n and (empty >> r[k]) & 1:
                land = r[k]
                if king_jumps(origin, land, d, now_captured, opp, empty, path + (land,),
                              out, paths, promotes):
                    continued = True
                elif not continued:
                    ends.append(land)
                k += 1
                if not flying:
                    break
            if not continued:
                # A flying king may stop on any empty square behind its last victim,
                # unless from one of them the capture goes on.
                for land in ends:
                    record(out, paths, (origin, 1 << land, now_captured, promotes),
                           path + (land,))
        return extended

    def man_jumps(origin: int, index: int, captured: int, opp: int, empty: int,
                  dirs: tuple, crown: int, path: tuple, out: list,
                  paths: Optional[dict]) -> bool:
        """Extend a man's capture from bit ``index`` in the directions ``dirs``;
        True if it could."""
        extended = False
        for d in dirs:
            over = neighbour[d][index]
            if over < 0:
                continue
            victim = 1 << over
            if not opp & victim or captured & victim:
                continue
            land = neighbour[d][over]
            if land < 0 or not (empty >> land) & 1:
                continue
            extended = True
            now_captured = captured | victim
            land_bit = 1 << land
            if land_bit & crown and promote_in_capture:
                # Russian: crowned on the way, the capture goes on as a king.
                if not king_jumps(origin, land, d, now_captured, opp, empty, path + (land,),
                                  out, paths, True):
                    record(out, paths, (origin, land_bit, now_captured, True), path + (land,))
            elif not man_jumps(origin, land, now_captured, opp, empty, dirs, crown,
                               path + (land,), out, paths):
                # English men cannot capture backwards, so a man that is
                # crowned here has nothing left to jump: crowning ends the move.
                record(out, paths, (origin, land_bit, now_captured, land_bit & crown != 0),
                       path + (land,))
        return extended

    def jump_one_way(men: int, d: int, s: int, up: bool, opp: int, empty: int, onward: int,
                     dirs: tuple, crown: int, out: list) -> int:
        """The men's first jumps in direction ``d`` (by ``s``, ``up`` or down): the
        captures that go on are searched and appended to ``out``; returns the mask
        of the landings that end the capture at once (one-piece captures)."""
        if up:
            land = (((men >> s) & opp) >> s) & empty
        else:
            land = (((men << s) & opp) << s) & empty
        if not land:
            return 0
        goes_on = land & onward
        if goes_on:
            land ^= goes_on
            s2 = s + s
            while goes_on:
                bit = goes_on & -goes_on
                goes_on ^= bit
                if up:
                    origin, victim = bit << s2, bit << s
                else:
                    origin, victim = bit >> s2, bit >> s
                index = bit.bit_length() - 1
                path = ((origin.bit_length() - 1), index)
                if bit & crown and promote_in_capture:
                    if not king_jumps(origin, index, d, victim, opp, empty | origin, path,
                                      out, None, True):
                        out.append((origin, bit, victim, True))
                else:
                    man_jumps(origin, index, victim, opp, empty | origin, dirs, crown,
                              path, out, None)
        return land

    def men_jumps(men: int, opp: int, empty: int, white_to_move: bool,
                  out: list) -> Tuple[int, int, int, int]:
        """Append the men's captures of two or more pieces (and Russian crownings)
        to ``out``; return the landings of the one-piece captures that end at once,
        by direction index ``(d0, d1, d2, d3)`` (0 where the men do not jump that way).

        Each direction is written out (no loop over a tuple of directions, no list
        of singles): the shape PyPy's JIT compiles best, and as fast on CPython.
        """
        if white_to_move:
            up, down, dirs, crown = True, men_back, white_men_dirs, top
        else:
            up, down, dirs, crown = men_back, True, black_men_dirs, bottom
        # Squares from which a man could jump (a landing that is one of them
        # continues the capture; the way back is blocked by the origin, which is
        # not in ``empty``).
        onward = 0
        if up:
            onward = (((empty << half1) & opp) << half1) | (((empty << half) & opp) << half)
        if down:
            onward |= (((empty >> half) & opp) >> half) | (((empty >> half1) & opp) >> half1)
        if promote_in_capture:
            onward |= crown
        d0 = d1 = d2 = d3 = 0
        if up:
            d0 = jump_one_way(men, 0, half1, True, opp, empty, onward, dirs, crown, out)
            d1 = jump_one_way(men, 1, half, True, opp, empty, onward, dirs, crown, out)
        if down:
            d2 = jump_one_way(men, 2, half, False, opp, empty, onward, dirs, crown, out)
            d3 = jump_one_way(men, 3, half1, False, opp, empty, onward, dirs, crown, out)
        return d0, d1, d2, d3

    def append_singles(land: int, s: int, up: bool, crown: int, out: list) -> None:
        """Append the one-piece captures landing on ``land`` by ``2 * s`` (up or down)."""
        s2 = s + s
        while land:
            bit = land & -land
            land ^= bit
            if up:
                out.append((bit << s2, bit, bit << s, bit & crown != 0))
            else:
                out.append((bit >> s2, bit, bit >> s, bit & crown != 0))

    def all_captures(white: int, black: int, kings: int, white_to_move: bool,
                     sources: int, paths: Optional[dict]) -> List[RawMove]:
        """Every capture of the pieces in ``sources`` (see :class:`CaptureSearch`)."""
        if white_to_move:
            opp, dirs, crown = black, white_men_dirs, top
        else:
            opp, dirs, crown = white, black_men_dirs, bottom
        out: List[RawMove] = []
        base_empty = board ^ white ^ black
        own_kings = sources & kings
        if paths is None and men_by_masks:
            men = sources ^ own_kings
            if men:
                d0, d1, d2, d3 = men_jumps(men, opp, base_empty, white_to_move, out)
                if d0:
                    append_singles(d0, half1, True, crown, out)
                if d1:
                    append_singles(d1, half, True, crown, out)
                if d2:
                    append_singles(d2, half, False, crown, out)
                if d3:
                    append_singles(d3, half1, False, crown, out)
            sources = own_kings
        while sources:
            bit = sources & -sources
            sources ^= bit
            index = bit.bit_length() - 1
            if kings & bit:
                king_jumps(bit, index, -1, 0, opp, base_empty | bit, (index,), out, paths, False)
            else:
                man_jumps(bit, index, 0, opp, base_empty | bit, dirs, crown, (index,), out, paths)
        if len(out) > 1:
            if select is not None:
                out = select(out, kings, None)
            # Only kings, and men that capture backwards, can reach the same
            # square over the same pieces by two routes.
            if own_kings or men_back or paths is not None:
                out = list(dict.fromkeys(out))
        return out

    def count_captures(white: int, black: int, kings: int, white_to_move: bool,
                       sources: int) -> int:
        """How many captures ``all_captures`` would return (see :class:`CaptureSearch`)."""
        if white_to_move:
            opp = black
        else:
            opp = white
        out: List[RawMove] = []
        base_empty = board ^ white ^ black
        own_kings = sources & kings
        men = sources ^ own_kings
        singles = 0
        if men:
            d0, d1, d2, d3 = men_jumps(men, opp, base_empty, white_to_move, out)
            singles = popcount(d0) + popcount(d1) + popcount(d2) + popcount(d3)
        while own_kings:
            bit = own_kings & -own_kings
            own_kings ^= bit
            king_jumps(bit, bit.bit_length() - 1, -1, 0, opp, base_empty | bit,
                       (), out, None, False)
        if not out:
            return singles
        return count_best(out, kings, singles)

    if count_best is None or not men_by_masks:
        def count_by_precedence(white: int, black: int, kings: int, white_to_move: bool,
                                sources: int) -> int:
            """How many captures ``all_captures`` returns (other precedence rules)."""
            return len(all_captures(white, black, kings, white_to_move, sources, None))
        return CaptureSearch(all_captures, count_by_precedence)
    return CaptureSearch(all_captures, count_captures)


def make_rich_capture_search(rules: GeneratorRules) -> CaptureSearch:
    """The capture search of a variant with the rules :func:`make_capture_search`
    does not know (``rules.rich``); square by square, the same contracts.

    Besides the names of :func:`make_capture_search`: ``victims`` the pieces a
    man may take (``opp`` less the kings where men cannot take kings), ``kings``
    the kings mask before the move, ``order`` the king-order bits so far (see
    :func:`.precedence.make_precedence`), ``orders`` the dict of the best order per move
    (None when the variant does not compare orders), ``taken_king`` whether the
    piece just jumped is a king, ``behind`` / ``at_once`` / ``turn_back`` /
    ``halt_king`` the Thai and killer rules of :class:`~.rules.GeneratorRules`.
    """
    board, top, bottom = rules.board, rules.top, rules.bottom
    neighbour, ray, reverse = rules.neighbour, rules.ray, rules.reverse
    flying, promote_in_capture = rules.flying, rules.promote_in_capture
    men_take_kings = rules.men_take_kings
    behind, at_once, halt_king = rules.lands_behind, rules.at_once, rules.halts_behind_king
    turn_back = rules.turn_back
    white_men_dirs, black_men_dirs = rules.white_men_dirs, rules.black_men_dirs
    track_order = "king_order" in rules.precedence
    select = make_precedence(rules).select
    all_dirs = rules.directions

    def record(out: list, orders: Optional[dict], paths: Optional[dict], move: RawMove,
               path: tuple, order: int) -> None:
        out.append(move)
        if orders is not None and order >= orders.get(move, 0):
            orders[move] = order
        if paths is not None:
            paths.setdefault(move, []).append((path, order) if orders is not None else path)

    def king_jumps(origin: int, index: int, came: int, captured: int, opp: int, empty: int,
                   kings: int, path: tuple, order: int, out: list, orders: Optional[dict],
                   paths: Optional[dict], promotes: bool) -> bool:
        """Extend a king's capture from bit ``index``; True if it could."""
        extended = False
        # A captured piece that stays on the board blocks the way back (Thai: it is gone).
        back = -1 if turn_back else reverse[came]
        for d in all_dirs:
            if d == back:
                continue
            r = ray[d][index]
            n = len(r)
            k = 0
            if flying:
                while k < n and (empty >> r[k]) & 1:
                    k += 1
            if k >= n - 1:
                continue
            victim = 1 << r[k]
            if not opp & victim or captured & victim:
                continue
            k += 1
            if not (empty >> r[k]) & 1:
                continue
            extended = True
            now_captured = captured | victim
            taken_king = victim & kings != 0
            now_order = (order << 1) | taken_king if track_order else 0
            if at_once:
                now_empty, now_opp = empty | victim, opp ^ victim
            else:
                now_empty, now_opp = empty, opp
            ends = []
            continued = False
            while k < n and (now_empty >> r[k]) & 1:
                land = r[k]
                if king_jumps(origin, land, d, now_captured, now_opp, now_empty, kings,
                              path + (land,), now_order, out, orders, paths, promotes):
                    continued = True
                elif not continued:
                    ends.append(land)
                k += 1
                if not flying or behind:
                    break
            if not continued:
                if halt_king and taken_king:
                    del ends[1:]  # killer: right behind the king taken last
                for land in ends:
                    record(out, orders, paths, (origin, 1 << land, now_captured, promotes),
                           path + (land,), now_order)
        return extended

    def man_jumps(origin: int, index: int, captured: int, opp: int, victims: int, empty: int,
                  kings: int, dirs: tuple, crown: int, path: tuple, order: int, out: list,
                  orders: Optional[dict], paths: Optional[dict]) -> bool:
        """Extend a man's capture from bit ``index`` in the directions ``dirs``; True if it could."""
        extended = False
        for d in dirs:
            over = neighbour[d][index]
            if over < 0:
                continue
            victim = 1 << over
            if not victims & victim or captured & victim:
                continue
            land = neighbour[d][over]
            if land < 0 or not (empty >> land) & 1:
                continue
            extended = True
            now_captured = captured | victim
            now_order = (order << 1) | (victim & kings != 0) if track_order else 0
            if at_once:
                now_empty, now_opp, now_victims = empty | victim, opp ^ victim, victims ^ victim
            else:
                now_empty, now_opp, now_victims = empty, opp, victims
            land_bit = 1 << land
            if land_bit & crown and promote_in_capture:
                if not king_jumps(origin, land, d, now_captured, now_opp, now_empty, kings,
                                  path + (land,), now_order, out, orders, paths, True):
                    record(out, orders, paths, (origin, land_bit, now_captured, True),
                           path + (land,), now_order)
            elif not man_jumps(origin, land, now_captured, now_opp, now_victims, now_empty, kings,
                               dirs, crown, path + (land,), now_order, out, orders, paths):
                record(out, orders, paths,
                       (origin, land_bit, now_captured, land_bit & crown != 0),
                       path + (land,), now_order)
        return extended

    def all_captures(white: int, black: int, kings: int, white_to_move: bool,
                     sources: int, paths: Optional[dict]) -> List[RawMove]:
        """Every capture of the pieces in ``sources`` (see :class:`CaptureSearch`)."""
        if white_to_move:
            opp, dirs, crown = black, white_men_dirs, top
        else:
            opp, dirs, crown = white, black_men_dirs, bottom
        victims = opp if men_take_kings else opp & ~kings
        out: List[RawMove] = []
        orders: Optional[dict] = {} if track_order else None
        kept = paths
        if paths is not None and track_order:
            paths = {}  # move -> [(path, order)]: only the best order's paths are kept
        base_empty = board ^ white ^ black
        while sources:
            bit = sources & -sources
            sources ^= bit
            index = bit.bit_length() - 1
            if kings & bit:
                king_jumps(bit, index, -1, 0, opp, base_empty | bit, kings, (index,), 0,
                           out, orders, paths, False)
            else:
                man_jumps(bit, index, 0, opp, victims, base_empty | bit, kings, dirs, crown,
                          (index,), 0, out, orders, paths)
        if len(out) > 1:
            if select is not None:
                out = select(out, kings, orders)
            out = list(dict.fromkeys(out))
        if kept is not None and paths is not kept:
            for move in out:
                best = orders[move]  # type: ignore[index]
                kept[move] = [p for p, o in paths[move] if o == best]
        return out

    def count_captures(white: int, black: int, kings: int, white_to_move: bool,
                       sources: int) -> int:
        """How many captures ``all_captures`` would return."""
        return len(all_captures(white, black, kings, white_to_move, sources, None))

    return CaptureSearch(all_captures, count_captures)
