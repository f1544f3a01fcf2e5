"""Legal move generation on raw bitboards.

This is the hot code of the engine, so it works on plain ints:

* a position is ``(white, black, kings, white_to_move)``: ``white`` and
  ``black`` are the bitboards of all pieces of each colour, ``kings`` the
  kings of both colours (a subset of ``white | black``);
* a move is a tuple ``(origin, destination, captured, promotes)``: one-bit
  masks for the origin and destination squares (equal when a king ends a
  capture where it started), the mask of captured pieces, and whether the
  moving man becomes a king.

Two capture sequences with the same origin, destination and captured set are
one move.  The rule differences are read from the :class:`~.variants.Variant`
once, when a :class:`MoveGenerator` is built; nothing here reads global state.
Captures come first: quiet moves are generated only when no capture exists,
and the majority rule is applied in exactly one place, :meth:`MoveGenerator.captures`.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from .bitboard import REVERSE, geometry, popcount
from .variants import Variant, get_variant

__all__ = ["MoveGenerator", "RawMove", "generator_for"]

#: (origin bit, destination bit, captured mask, promotes)
RawMove = Tuple[int, int, int, bool]

#: A move that changes nothing (used to share code between count and count_after).
NULL_MOVE: RawMove = (0, 0, 0, False)


class MoveGenerator:
    """Legal moves of one variant on raw bitboards (see the module docstring).

    Public callables (all take ``white, black, kings, white_to_move``):

    * ``moves(...) -> list[RawMove]``: all legal moves, captures only when a
      capture exists (majority rule applied where the variant has it).
    * ``count(...) -> int``: ``len(moves(...))`` without building quiet moves.
    * ``count_after(..., move) -> int``: ``count`` of the position after ``move``
      (for the English family without building that position).
    * ``has_capture(...) -> bool``: whether the side to move must capture.
    * ``play(white, black, kings, white_to_move, move) -> (white, black, kings)``.
    * ``capture_paths(...) -> dict``: every landing-square path of every capture,
      for notation (slow path).
    """

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        geo = geometry(variant.size)
        self.geometry = geo
        board = geo.board
        half = geo.half
        half1 = half + 1
        top, bottom = geo.top_row, geo.bottom_row
        neighbour = geo.neighbour
        ray = geo.ray
        flying = variant.flying_kings
        men_back = variant.men_capture_backwards
        majority = variant.majority_capture
        promote_in_capture = variant.promote_during_capture
        all_dirs = (0, 1, 2, 3)
        white_men_dirs = all_dirs if men_back else (0, 1)
        black_men_dirs = all_dirs if men_back else (2, 3)
        reverse = REVERSE + (-1,)  # reverse[-1] == -1: "came from nowhere"

        # Every one-step man move as a ready-made tuple, keyed by its destination
        # bit: building the tuple is the dearest part of quiet move generation.
        def step_table(shift: int, up: bool, crown: int) -> Dict[int, RawMove]:
            table = {}
            for index in range(geo.bit_count_total):
                dest = 1 << index
                origin = dest << shift if up else dest >> shift
                if dest & board and origin & board:
                    table[dest] = (origin, dest, 0, dest & crown != 0)
            return table

        white_step_left, white_step_right = step_table(half1, True, top), step_table(half, True, top)
        black_step_left, black_step_right = (step_table(half1, False, bottom),
                                             step_table(half, False, bottom))

        # The same tables by four chunks of ``chunk`` bits: ``chunks[c][v]`` is the
        # tuple of the moves to the squares of ``v << (c * chunk)``, so a whole
        # mask of destinations becomes its moves (in bit order) with four lookups
        # instead of a lookup and an append per move.
        chunk = (geo.bit_count_total + 3) // 4

        def chunk_tables(table: Dict[int, RawMove]) -> tuple:
            chunks = []
            for c in range(4):
                by_value = [()]
                for v in range(1, 1 << chunk):
                    low = v & -v
                    rest = by_value[v ^ low]
                    move = table.get(low << (c * chunk))
                    by_value.append(rest if move is None else (move,) + rest)
                chunks.append(tuple(by_value))
            return tuple(chunks)

        short_family = not flying and not men_back  # forward-only men, short kings
        if short_family:  # (for moves_short only: 10x10 tables would be large)
            white_step_chunks = chunk_tables(white_step_left), chunk_tables(white_step_right)
            black_step_chunks = chunk_tables(black_step_left), chunk_tables(black_step_right)
        else:
            white_step_chunks = black_step_chunks = ()

        # The same for one forward jump of a man, keyed by its landing bit
        # (used by the English family, whose men only capture forwards).
        def jump_table(shift: int, up: bool, crown: int) -> Dict[int, RawMove]:
            table = {}
            for index in range(geo.bit_count_total):
                land = 1 << index
                victim, origin = (land << shift, land << 2 * shift) if up else \
                    (land >> shift, land >> 2 * shift)
                if land & board and victim & board and origin & board:
                    table[land] = (origin, land, victim, land & crown != 0)
            return table

        white_jumps = jump_table(half1, True, top), jump_table(half, True, top)
        black_jumps = jump_table(half1, False, bottom), jump_table(half, False, bottom)

        def hop_table(jumps: Tuple[Dict[int, RawMove], ...]) -> Dict[int, tuple]:
            """``{from bit: ((victim bit, landing bit), ...)}`` of the forward jumps."""
            hops: Dict[int, tuple] = {}
            for table in jumps:
                for origin, land, victim, _ in table.values():
                    hops[origin] = hops.get(origin, ()) + ((victim, land),)
            return hops

        white_hops, black_hops = hop_table(white_jumps), hop_table(black_jumps)

        # ---- capture search (depth-first over jumps) -------------------------
        def king_jumps(origin: int, index: int, came: int, captured: int, opp: int,
                       empty: int, path: tuple, out: list, paths: Optional[dict],
                       promotes: bool) -> bool:
            """Extend a king's capture from bit ``index``; True if it could."""
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
                    for land in ends:
                        record(out, paths, (origin, 1 << land, now_captured, promotes),
                               path + (land,))
            return extended

        def man_jumps(origin: int, index: int, captured: int, opp: int, empty: int,
                      dirs: tuple, crown: int, path: tuple, out: list,
                      paths: Optional[dict]) -> bool:
            """Extend a man's capture from bit ``index``; True if it could."""
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

        def record(out: list, paths: Optional[dict], move: RawMove, path: tuple) -> None:
            out.append(move)
            if paths is not None:
                paths.setdefault(move, []).append(path)

        # Men's first jumps are found with whole-board masks, direction by
        # direction; only the landings from which the capture can go on are
        # searched square by square.  (direction, shift, shifts right = "up")
        shifted = ((0, half1, True), (1, half, True), (2, half, False), (3, half1, False))
        white_jump_dirs = tuple(shifted[d] for d in white_men_dirs)
        black_jump_dirs = tuple(shifted[d] for d in black_men_dirs)

        def men_jumps(men: int, opp: int, empty: int, white_to_move: bool,
                      out: list) -> list:
            """Append the men's captures of two or more pieces (and Russian
            crownings) to ``out``; return the one-piece captures that end at
            once as ``[(landing mask, shift, up), ...]``."""
            if white_to_move:
                jump_dirs, dirs, crown = white_jump_dirs, white_men_dirs, top
            else:
                jump_dirs, dirs, crown = black_jump_dirs, black_men_dirs, bottom
            # Squares from which a man could jump (a landing that is one of
            # them continues the capture; the way back is blocked by the origin,
            # which is not in ``empty``).
            onward = 0
            for d, s, up in jump_dirs:
                if up:
                    onward |= ((empty << s) & opp) << s
                else:
                    onward |= ((empty >> s) & opp) >> s
            if promote_in_capture:
                onward |= crown
            singles = []
            for d, s, up in jump_dirs:
                if up:
                    land = (((men >> s) & opp) >> s) & empty
                else:
                    land = (((men << s) & opp) << s) & empty
                if not land:
                    continue
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
                if land:
                    singles.append((land, s, up))
            return singles

        def all_captures(white: int, black: int, kings: int, white_to_move: bool,
                         sources: int, paths: Optional[dict]) -> List[RawMove]:
            """Every capture of the pieces in ``sources``, majority rule applied.

            With ``paths`` (a dict), also record every landing-square path of
            every capture sequence under its move (the slow path, for notation).
            """
            if white_to_move:
                opp, dirs, crown = black, white_men_dirs, top
            else:
                opp, dirs, crown = white, black_men_dirs, bottom
            out: List[RawMove] = []
            base_empty = board ^ white ^ black
            own_kings = sources & kings
            if paths is None:
                men = sources ^ own_kings
                if men:
                    for land, s, up in men_jumps(men, opp, base_empty, white_to_move, out):
                        s2 = s + s
                        while land:
                            bit = land & -land
                            land ^= bit
                            if up:
                                out.append((bit << s2, bit, bit << s, bit & crown != 0))
                            else:
                                out.append((bit >> s2, bit, bit >> s, bit & crown != 0))
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
                if majority:
                    best = max(popcount(m[2]) for m in out)
                    out = [m for m in out if popcount(m[2]) == best]
                # Only kings, and men that capture backwards, can reach the same
                # square over the same pieces by two routes.
                if own_kings or men_back or paths is not None:
                    out = list(dict.fromkeys(out))
            return out

        def count_captures(white: int, black: int, kings: int, white_to_move: bool,
                           sources: int) -> int:
            """``len(all_captures(...))`` without building the one-piece captures.

            ``sources`` may hold pieces that cannot capture (e.g. all the side's
            pieces): they simply add nothing.
            """
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
                for land, s, up in men_jumps(men, opp, base_empty, white_to_move, out):
                    singles += popcount(land)
            while own_kings:
                bit = own_kings & -own_kings
                own_kings ^= bit
                king_jumps(bit, bit.bit_length() - 1, -1, 0, opp, base_empty | bit,
                           (), out, None, False)
            if not out:
                return singles
            if majority:
                best = max(popcount(m[2]) for m in out)
                if best > 1:
                    return len(set(m for m in out if popcount(m[2]) == best))
            return singles + len(set(out))

        # ---- captures of forward-only men (English family) ----------------------
        # Such a man climbs two rows per jump, so a chain never meets a square,
        # a victim or the way back twice: the chains of a position do not depend
        # on what was already captured, no two chains are the same move, and a
        # man crowned on the far row has nothing left to jump.  ``onward`` is the
        # mask of squares from which a man of the side to move can jump.

        def short_men_captures(land_left: int, land_right: int, opp: int, empty: int,
                               onward: int, jumps: tuple, hops: dict, crown: int,
                               out: list) -> None:
            """Append the men's captures whose first jumps land on ``land_left``
            (by ``half + 1``) and ``land_right`` (by ``half``) to ``out``."""
            append = out.append
            for land, table in ((land_left, jumps[0]), (land_right, jumps[1])):
                while land:
                    b = land & -land
                    land ^= b
                    if not b & onward:
                        append(table[b])
                        continue
                    origin, _, captured, _ = table[b]
                    chains = [(b, captured)]
                    while chains:
                        at, captured = chains.pop()
                        if at & onward:
                            for victim, to in hops[at]:
                                if opp & victim and empty & to:
                                    chains.append((to, captured | victim))
                        else:
                            append((origin, at, captured, at & crown != 0))

        def count_short_men_captures(land_left: int, land_right: int, opp: int, empty: int,
                                     up: bool) -> int:
            """``len`` of what :func:`short_men_captures` would append, on whole-board
            masks: ``frontier`` holds one mask per way the chains have come (still to
            be extended), so a square reached by two chains is in two of them."""
            if up:
                onward = (((empty << half1) & opp) << half1) | (((empty << half) & opp) << half)
            else:
                onward = (((empty >> half1) & opp) >> half1) | (((empty >> half) & opp) >> half)
            n = 0
            frontier = [land_left, land_right]
            pop, push = frontier.pop, frontier.append
            while frontier:
                land = pop()
                goes_on = land & onward
                n += popcount(land ^ goes_on)
                if goes_on:
                    if up:
                        push((((goes_on >> half1) & opp) >> half1) & empty)
                        push((((goes_on >> half) & opp) >> half) & empty)
                    else:
                        push((((goes_on << half1) & opp) << half1) & empty)
                        push((((goes_on << half) & opp) << half) & empty)
            return n

        # ---- fast tests on whole-board masks ----------------------------------
        def capture_sources(white: int, black: int, kings: int, white_to_move: bool) -> int:
            """Mask of the side to move's pieces that can start a capture (0: none).

            Exact for men and short kings; when a flying king can capture, all
            the side's kings are included.
            """
            empty = board ^ white ^ black
            if white_to_move:
                own, opp = white, black
            else:
                own, opp = black, white
            own_kings = own & kings
            men = own ^ own_kings
            short = own if not flying else men
            if white_to_move:
                up_movers = short if men_back or not flying else men
                down_movers = short if men_back else (0 if flying else own_kings)
            else:
                down_movers = short if men_back or not flying else men
                up_movers = short if men_back else (0 if flying else own_kings)
            # A piece jumps up by s when opp is at -s and the landing at -2s is empty.
            src = (up_movers & ((((empty << half1) & opp) << half1)
                                | (((empty << half) & opp) << half))) if up_movers else 0
            if down_movers:
                src |= down_movers & ((((empty >> half1) & opp) >> half1)
                                      | (((empty >> half) & opp) >> half))
            if flying and own_kings:
                for s in (half1, half):
                    t = own_kings >> s
                    while t:
                        if ((t & opp) >> s) & empty:
                            return src | own_kings
                        t = (t & empty) >> s
                    t = own_kings << s
                    while t:
                        if ((t & opp) << s) & empty:
                            return src | own_kings
                        t = (t & empty) << s
            return src

        # ---- quiet moves ------------------------------------------------------
        def quiet_moves(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
            empty = board ^ white ^ black
            out: List[RawMove] = []
            append = out.append
            if white_to_move:
                own_kings = white & kings
                men = white ^ own_kings
                for s, table in ((half1, white_step_left), (half, white_step_right)):
                    t = (men >> s) & empty
                    while t:
                        b = t & -t
                        t ^= b
                        append(table[b])
            else:
                own_kings = black & kings
                men = black ^ own_kings
                for s, table in ((half1, black_step_left), (half, black_step_right)):
                    t = (men << s) & empty
                    while t:
                        b = t & -t
                        t ^= b
                        append(table[b])
            if own_kings:
                for s in (half1, half):
                    t = (own_kings >> s) & empty
                    dist = s
                    while t:
                        rest = t
                        while rest:
                            b = rest & -rest
                            rest ^= b
                            append((b << dist, b, 0, False))
                        if not flying:
                            break
                        t = (t >> s) & empty
                        dist += s
                    t = (own_kings << s) & empty
                    dist = s
                    while t:
                        rest = t
                        while rest:
                            b = rest & -rest
                            rest ^= b
                            append((b >> dist, b, 0, False))
                        if not flying:
                            break
                        t = (t << s) & empty
                        dist += s
            return out

        def count_quiet(white: int, black: int, kings: int, white_to_move: bool) -> int:
            empty = board ^ white ^ black
            if white_to_move:
                own_kings = white & kings
                n = popcount((white >> half1) & empty) + popcount((white >> half) & empty)
            else:
                own_kings = black & kings
                n = popcount((black << half1) & empty) + popcount((black << half) & empty)
            if own_kings:
                if white_to_move:
                    n += popcount((own_kings << half1) & empty) + popcount((own_kings << half) & empty)
                else:
                    n += popcount((own_kings >> half1) & empty) + popcount((own_kings >> half) & empty)
                if flying:
                    for s in (half1, half):
                        t = (own_kings >> s) & empty
                        t = (t >> s) & empty
                        while t:
                            n += popcount(t)
                            t = (t >> s) & empty
                        t = (own_kings << s) & empty
                        t = (t << s) & empty
                        while t:
                            n += popcount(t)
                            t = (t << s) & empty
            return n

        # ---- public entry points ------------------------------------------------
        def moves(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
            sources = capture_sources(white, black, kings, white_to_move)
            if sources:
                return all_captures(white, black, kings, white_to_move, sources, None)
            return quiet_moves(white, black, kings, white_to_move)

        def count(white: int, black: int, kings: int, white_to_move: bool) -> int:
            sources = capture_sources(white, black, kings, white_to_move)
            if sources:
                return count_captures(white, black, kings, white_to_move, sources)
            return count_quiet(white, black, kings, white_to_move)

        def count_short_after(white: int, black: int, kings: int, mover_is_white: bool,
                              move: RawMove, board: int = board, half: int = half,
                              half1: int = half1, popcount=popcount) -> int:
            """:func:`count_after` for forward-only men and short kings (English family).

            The move is made inline (the same steps as :func:`play`): this is
            the innermost loop of perft.  Without kings of the side to move,
            everything is counted on whole-board masks (capture chains by
            :func:`count_short_men_captures`); a side with kings and a capture
            goes to :func:`count_captures`.
            """
            origin, dest, captured, promotes = move
            if kings:
                if captured:
                    kings &= ~captured
                if kings & origin:
                    kings ^= origin ^ dest
                elif promotes:
                    kings |= dest
            elif promotes:
                kings = dest
            # One branch per side, each written out: ``left``/``right`` are the
            # squares the side's men step to (before masking), shared by the
            # capture test and the quiet count.
            if mover_is_white:
                white ^= origin ^ dest
                if captured:
                    black ^= captured
                empty = board ^ white ^ black
                own_kings = black & kings if kings else 0
                left, right = black << half1, black << half
                if own_kings:
                    if ((((left & white) << half1) | ((right & white) << half)
                         | (((own_kings >> half1) & white) >> half1)
                         | (((own_kings >> half) & white) >> half)) & empty):
                        return count_captures(white, black, kings, False, black)
                    return (popcount(left & empty) + popcount(right & empty)
                            + popcount((own_kings >> half1) & empty)
                            + popcount((own_kings >> half) & empty))
                jl, jr = (left & white) << half1, (right & white) << half
                if (jl | jr) & empty:
                    jl &= empty
                    jr &= empty
                    land = jl | jr
                    if ((((land << half1) & white) << half1) | (((land << half) & white) << half)) \
                            & empty:
                        return count_short_men_captures(jl, jr, white, empty, False)
                    return popcount(jl) + popcount(jr)
                return popcount(left & empty) + popcount(right & empty)
            if captured:
                white ^= captured
            black ^= origin ^ dest
            empty = board ^ white ^ black
            own_kings = white & kings if kings else 0
            left, right = white >> half1, white >> half
            if own_kings:
                if ((((left & black) >> half1) | ((right & black) >> half)
                     | (((own_kings << half1) & black) << half1)
                     | (((own_kings << half) & black) << half)) & empty):
                    return count_captures(white, black, kings, True, white)
                return (popcount(left & empty) + popcount(right & empty)
                        + popcount((own_kings << half1) & empty)
                        + popcount((own_kings << half) & empty))
            jl, jr = (left & black) >> half1, (right & black) >> half
            if (jl | jr) & empty:
                jl &= empty
                jr &= empty
                land = jl | jr
                if ((((land >> half1) & black) >> half1) | (((land >> half) & black) >> half)) \
                        & empty:
                    return count_short_men_captures(jl, jr, black, empty, True)
                return popcount(jl) + popcount(jr)
            return popcount(left & empty) + popcount(right & empty)

        def count_short(white: int, black: int, kings: int, white_to_move: bool) -> int:
            """:func:`count` for the English family (a null move, then the replies)."""
            return count_short_after(white, black, kings, not white_to_move, NULL_MOVE)

        def moves_short(white: int, black: int, kings: int, white_to_move: bool,
                        board: int = board, half: int = half, half1: int = half1,
                        white_steps=white_step_chunks, black_steps=black_step_chunks,
                        chunk: int = chunk, chunk2: int = 2 * chunk, chunk3: int = 3 * chunk,
                        mask: int = (1 << chunk) - 1) -> List[RawMove]:
            """:func:`moves` for forward-only men and short kings (English family)."""
            empty = board ^ white ^ black
            if white_to_move:
                own_kings = white & kings
                jl = (((white >> half1) & black) >> half1) & empty
                jr = (((white >> half) & black) >> half) & empty
                if own_kings:
                    if jl | jr or ((((own_kings << half1) & black) << half1)
                                   | (((own_kings << half) & black) << half)) & empty:
                        return all_captures(white, black, kings, True,
                                            capture_sources(white, black, kings, True), None)
                elif jl | jr:
                    out = []
                    onward = (((empty << half1) & black) << half1) | (((empty << half) & black) << half)
                    short_men_captures(jl, jr, black, empty, onward, white_jumps, white_hops, top, out)
                    return out
                men = white ^ own_kings
                (l0, l1, l2, l3), (r0, r1, r2, r3) = white_steps
                tl, tr = (men >> half1) & empty, (men >> half) & empty
                out = [*l0[tl & mask], *l1[(tl >> chunk) & mask], *l2[(tl >> chunk2) & mask],
                       *l3[tl >> chunk3], *r0[tr & mask], *r1[(tr >> chunk) & mask],
                       *r2[(tr >> chunk2) & mask], *r3[tr >> chunk3]]
            else:
                own_kings = black & kings
                jl = (((black << half1) & white) << half1) & empty
                jr = (((black << half) & white) << half) & empty
                if own_kings:
                    if jl | jr or ((((own_kings >> half1) & white) >> half1)
                                   | (((own_kings >> half) & white) >> half)) & empty:
                        return all_captures(white, black, kings, False,
                                            capture_sources(white, black, kings, False), None)
                elif jl | jr:
                    out = []
                    onward = (((empty >> half1) & white) >> half1) | (((empty >> half) & white) >> half)
                    short_men_captures(jl, jr, white, empty, onward, black_jumps, black_hops, bottom,
                                       out)
                    return out
                men = black ^ own_kings
                (l0, l1, l2, l3), (r0, r1, r2, r3) = black_steps
                tl, tr = (men << half1) & empty, (men << half) & empty
                out = [*l0[tl & mask], *l1[(tl >> chunk) & mask], *l2[(tl >> chunk2) & mask],
                       *l3[tl >> chunk3], *r0[tr & mask], *r1[(tr >> chunk) & mask],
                       *r2[(tr >> chunk2) & mask], *r3[tr >> chunk3]]
            if own_kings:
                append = out.append
                for s in (half1, half):
                    t = (own_kings >> s) & empty
                    while t:
                        b = t & -t
                        t ^= b
                        append((b << s, b, 0, False))
                    t = (own_kings << s) & empty
                    while t:
                        b = t & -t
                        t ^= b
                        append((b >> s, b, 0, False))
            return out

        def count_after(white: int, black: int, kings: int, white_to_move: bool,
                        move: RawMove) -> int:
            """``count`` of the position after ``move``.

            The steps of :func:`play` are written out here on purpose: this is the
            innermost call of perft, and saving the call and its tuple measured +3%.
            """
            origin, dest, captured, promotes = move
            if captured:
                kings &= ~captured
            if kings & origin:
                kings ^= origin ^ dest
            elif promotes:
                kings |= dest
            if white_to_move:
                white ^= origin ^ dest
                black ^= captured
            else:
                white ^= captured
                black ^= origin ^ dest
            sources = capture_sources(white, black, kings, not white_to_move)
            if sources:
                return count_captures(white, black, kings, not white_to_move, sources)
            return count_quiet(white, black, kings, not white_to_move)

        def captures(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
            sources = capture_sources(white, black, kings, white_to_move)
            if sources:
                return all_captures(white, black, kings, white_to_move, sources, None)
            return []

        def has_capture(white: int, black: int, kings: int, white_to_move: bool) -> bool:
            """Whether the side to move must capture (the search's hot test).

            Men and short kings are tested on whole-board masks: a jump is "opponent one
            step away, empty square behind it"; only flying kings need
            :func:`capture_sources`' slide."""
            empty = board ^ white ^ black
            if white_to_move:
                own, opp = white, black
            else:
                own, opp = black, white
            own_kings = own & kings
            if own_kings and flying:
                return capture_sources(white, black, kings, white_to_move) != 0
            if men_back or own_kings:
                every_way = own if men_back else own_kings
                if ((((every_way >> half) & opp) >> half) | (((every_way >> half1) & opp) >> half1)
                        | (((every_way << half) & opp) << half)
                        | (((every_way << half1) & opp) << half1)) & empty:
                    return True
                if men_back:
                    return False
            men = own ^ own_kings
            if white_to_move:
                return ((((men >> half) & opp) >> half) | (((men >> half1) & opp) >> half1)) & empty != 0
            return ((((men << half) & opp) << half) | (((men << half1) & opp) << half1)) & empty != 0

        def capture_paths(white: int, black: int, kings: int,
                          white_to_move: bool) -> Dict[RawMove, List[Tuple[int, ...]]]:
            paths: Dict[RawMove, List[Tuple[int, ...]]] = {}
            sources = capture_sources(white, black, kings, white_to_move)
            legal = all_captures(white, black, kings, white_to_move, sources, paths)
            return {m: paths[m] for m in legal}

        def play(white: int, black: int, kings: int, white_to_move: bool,
                 move: RawMove) -> Tuple[int, int, int]:
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

        if short_family:
            # The specialised forms of the same contracts.
            count = count_short  # noqa: F811
            count_after = count_short_after  # noqa: F811
            moves = moves_short  # noqa: F811

        self.moves = moves
        self.count = count
        self.count_after = count_after
        self.captures = captures
        self.has_capture = has_capture
        self.quiet_moves = quiet_moves
        self.capture_paths = capture_paths
        self.play = play

    def __repr__(self) -> str:
        return f"MoveGenerator({self.variant!r})"


_GENERATORS: Dict[str, MoveGenerator] = {}


def generator_for(variant: "Variant | str") -> MoveGenerator:
    """The (cached, immutable) move generator of a variant."""
    v = get_variant(variant)
    gen = _GENERATORS.get(v.name)
    if gen is None:
        gen = _GENERATORS[v.name] = MoveGenerator(v)
    return gen
