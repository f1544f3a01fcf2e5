"""Legal moves of Turkish draughts (all 64 squares, orthogonal moves): :class:`TurkishGenerator`.

The same contract as :class:`~.generator.MoveGenerator` (raw positions
``(white, black, kings, white_to_move)``, moves ``(origin, destination,
captured, promotes)``), on the all-squares layout of :mod:`..fullboard`
(``stride`` bits per row: up ``>> stride``, down ``<< stride``, left ``>> 1``,
right ``<< 1``; a step off the board lands on a ghost bit or outside).

The rules (docs/variants-orthogonal.md):

* men step one square forward or sideways and capture forward or sideways
  by jumping an adjacent piece onto the empty square behind it;
* kings move like rooks and capture at any distance along a row or column,
  landing on any empty square behind the piece;
* every captured piece leaves the board at once, so a later jump of the same
  move may pass its square, and a king may not turn 180 degrees between two
  captures;
* the capture taking the most pieces is compulsory (kings count as one);
* a man is crowned only if its move ends on the far row (a man reaching it in
  the middle of a capture goes on capturing as a man).

Names bound in the closures below: ``board`` the playable squares, ``stride``
the vertical shift, ``top``/``bottom`` the promotion rows of White/Black,
``neighbour[d][i]``/``ray[d][i]`` the bit index one step / all steps from bit
index ``i`` in direction ``d`` (:data:`~..fullboard.UP` ...), ``reverse[d]``
the opposite direction (``reverse[-1] == -1``); in the capture search
``origin`` the capturing piece's bit, ``index`` the bit index it stands on,
``came`` the direction of the last jump, ``captured`` the pieces taken so far,
``opp`` the opponent's pieces still on the board, ``empty`` the empty squares
(the origin and the captured squares included), ``path`` the landing bit
indices so far, ``out`` the list the moves go to and ``paths`` None or a dict
of paths per move (for notation).
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

from ..bitboard import popcount
from ..fullboard import DOWN, LEFT, ORTHOGONAL, ORTHOGONAL_REVERSE, RIGHT, UP, full_geometry
from ..variants import Variant
from .precedence import make_precedence
from .rules import GeneratorRules, RawMove

__all__ = ["TurkishGenerator"]

CapturePaths = Dict[RawMove, List[Tuple[int, ...]]]


def _play(white: int, black: int, kings: int, white_to_move: bool,
          move: RawMove) -> Tuple[int, int, int]:
    """``(white, black, kings)`` after the side to move plays ``move``."""
    origin, dest, captured, promotes = move
    if captured:
        kings &= ~captured
    if kings & origin:
        kings ^= origin ^ dest
    elif promotes:
        kings |= dest
    if white_to_move:
        return white ^ origin ^ dest, black ^ captured, kings
    return white ^ captured, black ^ origin ^ dest, kings


class TurkishGenerator:
    """Legal moves of Turkish draughts; the public callables of
    :class:`~.generator.MoveGenerator`, under the same contracts."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        geo = full_geometry(variant.size)
        self.geometry = geo
        self.play = _play
        board, stride, top, bottom = geo.board, geo.stride, geo.top_row, geo.bottom_row
        neighbour, ray = geo.neighbour, geo.ray
        reverse = ORTHOGONAL_REVERSE + (-1,)
        white_dirs = (UP, LEFT, RIGHT)
        select = make_precedence(GeneratorRules(variant)).select
        assert select is not None
        black_dirs = (DOWN, LEFT, RIGHT)

        def record(out: list, paths: Optional[dict], move: RawMove, path: tuple) -> None:
            out.append(move)
            if paths is not None:
                paths.setdefault(move, []).append(path)

        def man_jumps(origin: int, index: int, captured: int, opp: int, empty: int,
                      dirs: tuple, crown: int, path: tuple, out: list,
                      paths: Optional[dict]) -> bool:
            """Extend a man's capture from ``index``; True if it could."""
            extended = False
            for d in dirs:
                over = neighbour[d][index]
                if over < 0 or not (opp >> over) & 1:
                    continue
                land = neighbour[d][over]
                if land < 0 or not (empty >> land) & 1:
                    continue
                extended = True
                victim = 1 << over
                if not man_jumps(origin, land, captured | victim, opp ^ victim, empty | victim,
                                 dirs, crown, path + (land,), out, paths):
                    land_bit = 1 << land
                    record(out, paths, (origin, land_bit, captured | victim, land_bit & crown != 0),
                           path + (land,))
            return extended

        def king_jumps(origin: int, index: int, came: int, captured: int, opp: int, empty: int,
                       path: tuple, out: list, paths: Optional[dict]) -> bool:
            """Extend a king's capture from ``index``; True if it could."""
            extended = False
            back = reverse[came]
            for d in ORTHOGONAL:
                if d == back:
                    continue  # no turn of 180 degrees between two captures
                r = ray[d][index]
                n = len(r)
                k = 0
                while k < n and (empty >> r[k]) & 1:
                    k += 1
                if k >= n - 1 or not (opp >> r[k]) & 1:
                    continue
                victim = 1 << r[k]
                k += 1
                if not (empty >> r[k]) & 1:
                    continue
                extended = True
                now_captured = captured | victim
                now_opp = opp ^ victim
                now_empty = empty | victim
                while k < n and (now_empty >> r[k]) & 1:
                    land = r[k]
                    if not king_jumps(origin, land, d, now_captured, now_opp, now_empty,
                                      path + (land,), out, paths):
                        record(out, paths, (origin, 1 << land, now_captured, False), path + (land,))
                    k += 1
            return extended

        def all_captures(white: int, black: int, kings: int, white_to_move: bool,
                         paths: Optional[dict]) -> List[RawMove]:
            """Every legal capture (the most pieces), without duplicates."""
            if white_to_move:
                own, opp, dirs, crown = white, black, white_dirs, top
            else:
                own, opp, dirs, crown = black, white, black_dirs, bottom
            empty = board ^ white ^ black
            out: List[RawMove] = []
            sources = capture_sources(white, black, kings, white_to_move)
            while sources:
                bit = sources & -sources
                sources ^= bit
                index = bit.bit_length() - 1
                if kings & bit:
                    king_jumps(bit, index, -1, 0, opp, empty | bit, (index,), out, paths)
                else:
                    man_jumps(bit, index, 0, opp, empty | bit, dirs, crown, (index,), out, paths)
            if len(out) > 1:
                out = list(dict.fromkeys(select(out, kings, None)))
            return out

        def capture_sources(white: int, black: int, kings: int, white_to_move: bool) -> int:
            """The side to move's pieces that can capture (all its kings if one can)."""
            empty = board ^ white ^ black
            if white_to_move:
                own, opp = white, black
            else:
                own, opp = black, white
            own_kings = own & kings
            men = own ^ own_kings
            if white_to_move:
                src = men & ((((empty << stride) & opp) << stride) | (((empty << 1) & opp) << 1)
                             | (((empty >> 1) & opp) >> 1))
            else:
                src = men & ((((empty >> stride) & opp) >> stride) | (((empty << 1) & opp) << 1)
                             | (((empty >> 1) & opp) >> 1))
            if own_kings and king_can_capture(own_kings, opp, empty):
                src |= own_kings
            return src

        def king_can_capture(own_kings: int, opp: int, empty: int) -> bool:
            """Whether one of ``own_kings`` can capture (slide all of them at once)."""
            for s in (stride, 1):
                t = own_kings >> s
                while t:
                    if ((t & opp) >> s) & empty:
                        return True
                    t = (t & empty) >> s
                t = own_kings << s
                while t:
                    if ((t & opp) << s) & empty:
                        return True
                    t = (t & empty) << s
            return False

        def has_capture(white: int, black: int, kings: int, white_to_move: bool) -> bool:
            """Whether the side to move must capture."""
            return capture_sources(white, black, kings, white_to_move) != 0

        def quiet_moves(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
            """Every non-capturing move (legal when there is no capture)."""
            empty = board ^ white ^ black
            out: List[RawMove] = []
            append = out.append
            if white_to_move:
                own_kings = white & kings
                men = white ^ own_kings
                t = (men >> stride) & empty
                while t:
                    b = t & -t
                    t ^= b
                    append((b << stride, b, 0, b & top != 0))
            else:
                own_kings = black & kings
                men = black ^ own_kings
                t = (men << stride) & empty
                while t:
                    b = t & -t
                    t ^= b
                    append((b >> stride, b, 0, b & bottom != 0))
            # Sideways steps never reach the far row from below it (a man on it is a king).
            t = (men >> 1) & empty
            while t:
                b = t & -t
                t ^= b
                append((b << 1, b, 0, False))
            t = (men << 1) & empty
            while t:
                b = t & -t
                t ^= b
                append((b >> 1, b, 0, False))
            while own_kings:
                origin = own_kings & -own_kings
                own_kings ^= origin
                for s in (stride, 1):
                    b = (origin >> s) & empty
                    while b:
                        append((origin, b, 0, False))
                        b = (b >> s) & empty
                    b = (origin << s) & empty
                    while b:
                        append((origin, b, 0, False))
                        b = (b << s) & empty
            return out

        def count_quiet(white: int, black: int, kings: int, white_to_move: bool) -> int:
            """``len(quiet_moves(...))`` from masks."""
            empty = board ^ white ^ black
            if white_to_move:
                own_kings = white & kings
                men = white ^ own_kings
                n = popcount((men >> stride) & empty)
            else:
                own_kings = black & kings
                men = black ^ own_kings
                n = popcount((men << stride) & empty)
            n += popcount((men >> 1) & empty) + popcount((men << 1) & empty)
            if own_kings:
                for s in (stride, 1):
                    t = (own_kings >> s) & empty
                    while t:
                        n += popcount(t)
                        t = (t >> s) & empty
                    t = (own_kings << s) & empty
                    while t:
                        n += popcount(t)
                        t = (t << s) & empty
            return n

        def has_quiet(white: int, black: int, kings: int, white_to_move: bool) -> bool:
            """Whether the side to move has a non-capturing move."""
            empty = board ^ white ^ black
            if white_to_move:
                own_kings = white & kings
                men = white ^ own_kings
                forward = men >> stride
            else:
                own_kings = black & kings
                men = black ^ own_kings
                forward = men << stride
            return bool((forward | (men >> 1) | (men << 1) | (own_kings >> stride)
                         | (own_kings << stride) | (own_kings >> 1) | (own_kings << 1)) & empty)

        def moves(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
            """All legal moves: the captures if there is one, else the quiet moves."""
            if capture_sources(white, black, kings, white_to_move):
                return all_captures(white, black, kings, white_to_move, None)
            return quiet_moves(white, black, kings, white_to_move)

        def count(white: int, black: int, kings: int, white_to_move: bool) -> int:
            """``len(moves(...))``."""
            if capture_sources(white, black, kings, white_to_move):
                return len(all_captures(white, black, kings, white_to_move, None))
            return count_quiet(white, black, kings, white_to_move)

        def count_after(white: int, black: int, kings: int, white_to_move: bool,
                        move: RawMove) -> int:
            """``count`` of the position after ``move``."""
            w, b, k = _play(white, black, kings, white_to_move, move)
            return count(w, b, k, not white_to_move)

        def captures(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
            """The legal captures (empty when there is none)."""
            return all_captures(white, black, kings, white_to_move, None)

        def capture_paths(white: int, black: int, kings: int, white_to_move: bool) -> CapturePaths:
            """Every landing-square path (bit indices, origin first) of every legal capture."""
            paths: CapturePaths = {}
            legal = all_captures(white, black, kings, white_to_move, paths)
            return {m: paths[m] for m in legal}

        self.moves: Callable[[int, int, int, bool], List[RawMove]] = moves
        self.count = count
        self.count_after = count_after
        self.captures = captures
        self.quiet_moves = quiet_moves
        self.has_capture = has_capture
        self.has_quiet = has_quiet
        self.capture_paths = capture_paths

    def __repr__(self) -> str:
        return f"TurkishGenerator({self.variant!r})"
