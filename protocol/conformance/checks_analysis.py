"""Checks 39-42: what an engine offers for analysis (PROTOCOL.md sections 4 and 5): MultiPV lines,
``go searchmoves``, ``go mate`` and the ``Clear Hash`` button.

Each is checked only where the engine says it has it: an engine without a ``MultiPV`` or
``Clear Hash`` option, or one that answers ``go searchmoves`` / ``go mate`` with ``error``, is
skipped with that reason, never failed.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from draughts_engine import Position
from draughts_engine.variants import get_variant

from .errors import CheckFailed, CheckSkipped, fail
from .harness import Context, EngineHandle
from .search_run import SearchRun, validate_search
from .steps import expect_silent, set_position
from .wire import InfoReport

__all__ = ["check_multipv", "check_searchmoves", "check_mate", "check_clear_hash",
           "MATE_POSITIONS"]

MULTIPV_LINES = 3
MULTIPV_DEPTH = 3

#: (variant, FEN, N, every first move of a win in at most N moves): positions with a known
#: forced win (one move into lines of the engine's tactics data, tests/data/tactics.txt); the
#: winning first moves were found by searching every legal move alone without pruning.
MATE_POSITIONS: Tuple[Tuple[str, str, int, Tuple[str, ...]], ...] = (
    ("english", "W:WK28,K15:BK26", 3, ("15-18",)),
    ("international", "W:WK16,K48,K28:BK3", 3, ("16-21",)),
)


def _option(context: Context, name: str, kind: str) -> str:
    """The engine's option ``name`` of type ``kind`` (its name as advertised); skip without."""
    for spec in context.handshake().options:
        if spec.name.casefold() == name.casefold() and spec.type == kind:
            return spec.name
    raise CheckSkipped(f"the engine does not offer the {kind} option {name}")


def _score(report: InfoReport) -> int:
    """One number per score, mates beyond every centi-man score."""
    if report.score_mate is not None:
        mate = report.score_mate
        return 10 ** 9 - mate if mate > 0 else -10 ** 9 - mate
    return report.score_cp or 0


def _search(context: Context, handle: EngineHandle, go_line: str, root: Position,
            refusal: str) -> SearchRun:
    """Run ``go_line`` to its ``bestmove`` and validate it; an engine that answers it with
    ``error`` skips the check with ``refusal``."""
    run = SearchRun(handle, go_line)
    try:
        run.wait_bestmove(context.config.timeout * 2)
    except CheckFailed as exc:
        if str(exc).startswith("the engine answered 'error") and run.best is None:
            raise CheckSkipped(f"{refusal}: {str(exc).split(' during ')[0]}") from None
        raise
    validate_search(run, context.rules, root)
    run.settle(context.config.timeout)
    return run


def check_multipv(context: Context) -> str:
    """MultiPV 3, go depth 3 from the start: each depth writes lines multipv 1..3 with
    different first moves and scores not increasing; bestmove is line 1's first move."""
    name = _option(context, "MultiPV", "spin")
    handle = context.engine()
    context.dirty = True
    root = context.rules.start()
    wanted = min(MULTIPV_LINES, len(root.legal_moves()))
    expect_silent(handle, f"setoption name {name} value {MULTIPV_LINES}")
    set_position(handle)
    run = _search(context, handle, f"go depth {MULTIPV_DEPTH}", root, "no search")
    by_depth: Dict[int, Dict[int, InfoReport]] = {}
    for line, report in run.infos:
        if report.currmove is not None or report.bound is not None or report.depth is None:
            continue
        if report.multipv is None:
            raise fail(f"MultiPV {MULTIPV_LINES}: an info line without multipv: {line!r}")
        by_depth.setdefault(report.depth, {})[report.multipv] = report
    if not by_depth:
        raise fail(f"MultiPV {MULTIPV_LINES}: no info line with a depth")
    for depth, lines in sorted(by_depth.items()):
        numbers = sorted(lines)
        if numbers != list(range(1, wanted + 1)):
            raise fail(f"depth {depth}: lines numbered {numbers}, expected 1..{wanted}")
        firsts = [lines[n].pv[0] if lines[n].pv else "" for n in numbers]
        if "" in firsts or len(set(firsts)) != len(firsts):
            raise fail(f"depth {depth}: first moves {firsts} are not {wanted} different moves")
        scores = [_score(lines[n]) for n in numbers]
        if any(later > earlier for earlier, later in zip(scores, scores[1:])):
            raise fail(f"depth {depth}: scores {scores} increase from one line to the next")
    last = by_depth[max(by_depth)]
    assert run.best is not None
    if run.best.move != last[1].pv[0]:
        raise fail(f"bestmove {run.best.move} is not line 1's first move {last[1].pv[0]}")
    return (f"{len(by_depth)} depths of {wanted} lines each, best first; bestmove "
            f"{run.best.move} is line 1's")


def check_searchmoves(context: Context) -> str:
    """go depth 3 searchmoves with two of the start's legal moves (not the first ones): every
    pv starts with one of them and bestmove is one of them."""
    handle = context.engine()
    root = context.rules.start()
    moves = [move.pdn() for move in context.rules.sorted_moves(root)]
    if len(moves) < 3:
        raise CheckSkipped("the start position has fewer than 3 legal moves")
    chosen = moves[-2:]
    set_position(handle)
    run = _search(context, handle, f"go depth 3 searchmoves {' '.join(chosen)}", root,
                  "the engine refuses go searchmoves")
    for line, report in run.infos:
        if report.pv and report.pv[0] not in chosen:
            raise fail(f"a pv starts with {report.pv[0]}, not one of {chosen}: {line!r}")
        if report.currmove is not None and report.currmove not in chosen:
            raise fail(f"currmove {report.currmove} is not one of {chosen}: {line!r}")
    assert run.best is not None
    if run.best.move not in chosen:
        raise fail(f"bestmove {run.best.move} is not one of the searchmoves {chosen}")
    return f"searchmoves {' '.join(chosen)} -> bestmove {run.best.move}, every pv from them"


def _mate_position(context: Context) -> Optional[Tuple[str, int, Sequence[str]]]:
    variant = context.rules.variant.name
    for name, fen, moves, firsts in MATE_POSITIONS:
        if get_variant(name).name == variant:
            return fen, moves, firsts
    return None


def check_mate(context: Context) -> str:
    """go mate N in a position with a known win in N moves (endgame databases off where the
    engine has our EndgameTables option): score mate 1..N on the last info line and a first
    move of the win as bestmove."""
    found = _mate_position(context)
    if found is None:
        raise CheckSkipped(f"no known mate position for {context.rules.variant.name}")
    fen, moves, firsts = found
    handle = context.engine()
    tables = next((spec.name for spec in context.handshake().options
                   if spec.name.casefold() == "endgametables" and spec.type == "check"), None)
    if tables is not None:  # the search must find the win, not the databases
        context.dirty = True
        expect_silent(handle, f"setoption name {tables} value false")
    root = context.rules.from_fen(fen)
    set_position(handle, fen)
    run = _search(context, handle, f"go mate {moves}", root, "the engine refuses go mate")
    lines = [report for _, report in run.infos
             if report.depth is not None and report.currmove is None and report.bound is None
             and (report.multipv or 1) == 1]
    if not lines or lines[-1].score_mate is None or not 0 < lines[-1].score_mate <= moves:
        shown = (f"score mate {lines[-1].score_mate}" if lines and lines[-1].score_mate
                 is not None else f"score cp {lines[-1].score_cp}" if lines else "no info")
        raise fail(f"go mate {moves} in {fen}: the last info line has {shown}, "
                   f"expected score mate 1..{moves}")
    assert run.best is not None
    if run.best.move not in firsts:
        raise fail(f"bestmove {run.best.move} does not start a win in {moves} "
                   f"({' or '.join(firsts)} does)")
    return f"go mate {moves}: score mate {lines[-1].score_mate}, bestmove {run.best.move}"


def check_clear_hash(context: Context) -> str:
    """setoption name Clear Hash (a button) is accepted silently, keeps the position, and the
    next search still brings a legal bestmove."""
    name = _option(context, "Clear Hash", "button")
    handle = context.engine()
    root = context.rules.start()
    moves: List[str] = [context.rules.sorted_moves(root)[0].pdn()]
    set_position(handle, None, moves)
    after = context.rules.play(root, moves)
    expect_silent(handle, f"setoption name {name}")
    note = "position not verified (no d)"
    if context.offers(handle, "d"):
        context.verify(handle, after, 1, None, moves)
        note = "position kept (d)"
    run = _search(context, handle, "go depth 2", after, "no search")
    assert run.best is not None
    return f"accepted silently, {note}; then bestmove {run.best.move}"
