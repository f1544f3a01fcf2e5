"""Checks 6-12: positions. ``position startpos|fen ... moves ...``, ``move``, ``undo`` and
``ucinewgame``, each verified through the ``d`` block against the rules oracle."""

from __future__ import annotations

from .errors import CheckSkipped, fail
from .harness import Context
from .steps import expect_error, expect_silent, set_position

__all__ = ["check_startpos", "check_display", "check_fen", "check_moves", "check_notation",
           "check_move_undo", "check_ucinewgame"]


def check_startpos(context: Context) -> str:
    """position startpos (with and without an empty moves list) gives the rules' start."""
    handle = context.engine()
    rules = context.rules
    set_position(handle)
    context.verify(handle, rules.start(), 0)
    expect_silent(handle, "position startpos moves")
    context.verify(handle, rules.start(), 0)
    return f"d shows {rules.start().fen()}"


def check_display(context: Context) -> str:
    """d: board rows, fen, variant, side, ply, legal, state in order, matching the rules
    (a position with kings, a forced multi-capture, a position without legal moves)."""
    handle = context.engine()
    rules = context.rules
    fens = [rules.kings_fen(), rules.no_moves_fen()]
    multi = rules.multi_capture()
    if multi is not None:
        fens.append(multi.fen)
    for fen in fens:
        set_position(handle, fen=fen)
        context.verify(handle, rules.from_fen(fen), 0, fen=fen)
        if context.display(handle) != context.display(handle):
            raise fail("two d blocks of the same position differ")
    return f"{len(fens)} positions shown as the rules give them (kings, captures, no moves)"


def check_fen(context: Context) -> str:
    """position fen: ranges, kings, mid-game and capture positions read back via d."""
    handle = context.engine()
    rules = context.rules
    line = rules.opening_line()
    fens = [rules.ranged_fen(), rules.kings_fen(),
            rules.play(rules.start(), line.moves).fen()]
    multi = rules.multi_capture()
    if multi is not None:
        fens.append(multi.fen)
    context.require(handle, "d")
    for fen in fens:
        set_position(handle, fen=fen)
        context.verify(handle, rules.from_fen(fen), 0, fen=fen)
    return f"{len(fens)} FENs read back"


def check_moves(context: Context) -> str:
    """position startpos|fen ... moves ...: d shows the position, ply and state the rules give."""
    handle = context.engine()
    rules = context.rules
    context.require(handle, "d")
    line = rules.opening_line().moves
    set_position(handle, moves=line)
    context.verify(handle, rules.play(rules.start(), line), len(line), moves=line)
    kings = rules.from_fen(rules.kings_fen())
    first = rules.sorted_moves(kings)[0]
    second = rules.sorted_moves(kings.play_raw(first.raw))[0]
    moves = (first.pdn(), second.pdn())
    set_position(handle, fen=rules.kings_fen(), moves=moves)
    context.verify(handle, rules.play(kings, moves), 2, fen=rules.kings_fen(), moves=moves)
    return f"position startpos moves {' '.join(line)} -> ply {len(line)}; fen + moves"


def check_notation(context: Context) -> str:
    """Move input: a multi-capture given short as <from>x<to>, and algebraic squares on 8x8."""
    handle = context.engine()
    rules = context.rules
    context.require(handle, "d")
    notes = []
    multi = rules.multi_capture()
    if multi is not None:
        expected = rules.play(rules.from_fen(multi.fen), [multi.full])
        for text in (multi.full, multi.short):
            set_position(handle, fen=multi.fen, moves=[text])
            context.verify(handle, expected, 1, fen=multi.fen, moves=[multi.full])
        notes.append(f"{multi.short} = {multi.full}")
    start = rules.start()
    first = rules.sorted_moves(start)[0]
    after = start.play_raw(first.raw)
    second = rules.sorted_moves(after)[0]
    texts = [rules.algebraic(start, first), rules.algebraic(after, second)]
    if texts[0] is not None and texts[1] is not None:
        set_position(handle, moves=[t for t in texts if t])
        plain = [first.pdn(), second.pdn()]
        context.verify(handle, rules.play(start, plain), 2, moves=plain)
        notes.append(f"{' '.join(t for t in texts if t)} = {' '.join(plain)}")
    if not notes:
        raise CheckSkipped("no multi-capture position and no algebraic squares for this variant")
    return "; ".join(notes)


def check_move_undo(context: Context) -> str:
    """move plays on (atomically), undo [N] takes back, both checked with d."""
    handle = context.engine()
    rules = context.rules
    context.require(handle, "d")
    line = rules.opening_line().moves
    start = rules.start()
    set_position(handle)
    expect_silent(handle, f"move {line[0]} {line[1]}")
    context.verify(handle, rules.play(start, line[:2]), 2, moves=line[:2])
    expect_silent(handle, "undo")
    context.verify(handle, rules.play(start, line[:1]), 1, moves=line[:1])
    expect_silent(handle, f"move {' '.join(line[1:4])}")
    context.verify(handle, rules.play(start, line[:4]), 4, moves=line[:4])
    expect_silent(handle, "undo 2")
    context.verify(handle, rules.play(start, line[:2]), 2, moves=line[:2])
    expect_error(handle, "undo 3", "undo:")
    illegal = rules.illegal_move(rules.play(start, line[:3]))
    expect_error(handle, f"move {line[2]} {illegal}", "move:")
    expect_error(handle, "undo 0", "undo:")
    context.verify(handle, rules.play(start, line[:2]), 2, moves=line[:2])
    return "move/undo/undo N verified; bad undo and a half-illegal move change nothing"


def check_ucinewgame(context: Context) -> str:
    """ucinewgame returns to the start position with an empty history."""
    handle = context.engine()
    rules = context.rules
    context.require(handle, "d")
    set_position(handle, moves=rules.opening_line().moves[:3])
    expect_silent(handle, "ucinewgame")
    context.verify(handle, rules.start(), 0)
    return "start position, ply 0"
