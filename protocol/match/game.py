"""Playing one game of the plan with a worker's engines (:func:`play_game`).

Per game ``ucinewgame``; per move ``position fen <start> moves <all moves>`` and ``go`` with
the engine's limits (``depth``, ``nodes``, ``movetime``, or the clock the runner keeps). Each
``bestmove`` is checked against the rules before it is played. The game ends when the side to
move has no legal move, by the variant's draw rules (``Game.result()``), at the ``max_plies``
cap (a draw, ``adjudication``), or by a forfeit of the side to move: a crash, a timeout or
stall, an illegal move, a protocol error. A crashed or hung engine is discarded and a fresh
one is started for the next game. An engine whose process has ended crashed, even when a
process it started keeps its output open (the wait for its answer looks at its process every
:data:`EXIT_POLL_SECONDS`).
"""

from __future__ import annotations

import threading
import time
from typing import Any, Dict, List, Optional, Tuple

from draughts_engine.errors import DraughtsError
from draughts_engine.game import GameResult
from draughts_engine.notation import parse_move
from draughts_engine.search.limits import SearchLimits
from protocol.client import (CommandRejectedError, EngineError, EngineTerminatedError,
                             EngineTimeoutError, IllegalBestMoveError)
from protocol.match.adjudication import Adjudicator, Verdict, endgame_tables, score_of
from protocol.match.clock import MAX_CLOCK_MS, Clock
from protocol.match.config import MatchConfig
from protocol.match.engines import EngineSlot, EngineSpec, exited_note, stderr_tail
from protocol.match.errors import EngineStartError
from protocol.match.plan import PlannedGame
from protocol.match.records import FinishedGame, game_text

__all__ = ["play_game", "limit_tags", "go_limits", "time_text", "stderr_text",
           "EXIT_POLL_SECONDS"]

EXIT_POLL_SECONDS = 0.5
"""How often a wait for ``bestmove`` looks whether the engine's process has ended."""
STDERR_CHARS = 200
"""A stderr line is cut there in a PDN comment."""


class _EngineExited(Exception):
    """The engine's process ended while the client still waited for its answer."""

    def __init__(self, code: int) -> None:
        super().__init__(exited_note(code))


def stderr_text(tail: Tuple[str, ...]) -> str:
    """An engine's last stderr lines as the end of a PDN comment (one line, `` | `` between).

    >>> stderr_text(("Traceback (most recent call last):", "ValueError: bad"))
    '; its stderr ended with: Traceback (most recent call last): | ValueError: bad'
    """
    if not tail:
        return ""
    cut = [line if len(line) <= STDERR_CHARS else line[:STDERR_CHARS] + "..." for line in tail]
    return "; its stderr ended with: " + " | ".join(cut)


def _search(engine: Any, slot: EngineSlot, limits: SearchLimits, timeout: float) -> Any:
    """``go`` and its result, waiting at most ``timeout`` seconds, in slices: raises
    :class:`_EngineExited` as soon as the engine's process is seen to have ended."""
    engine.start_search(limits)
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        try:
            return engine.wait_bestmove(max(0.0, min(left, EXIT_POLL_SECONDS)))
        except EngineTimeoutError:
            code = slot.exit_status()
            if code is not None:
                raise _EngineExited(code) from None
            if left <= EXIT_POLL_SECONDS:
                raise


def limit_tags(white: EngineSpec, black: EngineSpec) -> Dict[str, str]:
    """The PDN tags that record how the engines played: ``WhiteLimits``/``BlackLimits`` (as
    given on the command line) and, when both play on the same clock, ``TimeControl``.

    >>> from protocol.match.engines import parse_engine
    >>> a = parse_engine(["cmd=a", "tc=40/60+0.5"]); b = parse_engine(["cmd=b", "tc=40/60+0.5"])
    >>> limit_tags(a, b)
    {'TimeControl': '40/60+0.5', 'WhiteLimits': 'tc=40/60+0.5', 'BlackLimits': 'tc=40/60+0.5'}
    """
    tags: Dict[str, str] = {}
    if white.tc is not None and white.tc == black.tc:
        tags["TimeControl"] = str(white.tc)
    tags["WhiteLimits"] = white.limits_text()
    tags["BlackLimits"] = black.limits_text()
    return tags


def play_game(planned: PlannedGame, config: MatchConfig, slots: Dict[int, EngineSlot],
              abort: threading.Event) -> Optional[FinishedGame]:
    """Play one planned game with the worker's engines; None if ``abort`` was set meanwhile."""
    specs = config.engines
    opening = config.openings[planned.opening % len(config.openings)]
    game = opening.game(config.variant)
    opening_plies = game.ply
    side_engine = {"white": planned.white, "black": planned.black}
    names = {side: specs[number].name for side, number in side_engine.items()}
    notes: List[str] = []
    adjudicator = Adjudicator(names, config.resign, config.draw,
                              endgame_tables(config.variant) if config.adjudicate_tables
                              else None)
    seconds = {"white": 0.0, "black": 0.0}
    engines: Dict[str, Any] = {}

    def finish(outcome: str, termination: str, reason: str,
               adjudication: Optional[str] = None) -> FinishedGame:
        for engine in engines.values():  # a DXP engine is told the game is over
            over = getattr(engine, "game_over", None)
            if over is not None:
                try:
                    over(outcome)
                except EngineError:
                    pass
        result = GameResult(outcome, reason).pdn(config.variant)
        tags = {"Event": config.event, "Site": "?", "Date": config.date or "????.??.??",
                "Round": str(planned.index + 1), "White": names["white"],
                "Black": names["black"], "Result": result, "Termination": termination,
                "PlyCount": str(game.ply)}
        if adjudication is not None:
            tags["Adjudication"] = adjudication
        tags.update(limit_tags(specs[planned.white], specs[planned.black]))
        if opening.label:
            tags["Opening"] = opening.label
        return FinishedGame(planned.index, names["white"], names["black"], outcome, termination,
                          reason, game.ply, game_text(game, tags, reason, opening_plies),
                          tuple(m.pdn() for m in game.moves), config.event,
                          str(config.variant.game_type), notes=tuple(notes),
                          adjudication=adjudication,
                          seconds=(seconds["white"], seconds["black"]))

    def adjudicated(verdict: Verdict) -> FinishedGame:
        return finish(verdict.outcome, "adjudication", verdict.reason, verdict.kind)

    def forfeit(side: str, termination: str, reason: str, engine: Any = None,
                tail: Tuple[str, ...] = ()) -> FinishedGame:
        tail = stderr_tail(engine) if engine is not None else tail
        if tail:
            reason += stderr_text(tail)
            notes.append(f"{names[side]} ({side}) {termination}: its stderr ended with:")
            notes.extend(f"  | {line}" for line in tail)
        winner = "black" if side == "white" else "white"
        return finish(winner, termination,
                      f"{side.capitalize()} ({names[side]}) forfeits: {reason}")

    # start both engines and tell them a new game begins
    for side in ("white", "black"):
        slot = slots[side_engine[side]]
        failure = ""
        stalled = False
        tail: Tuple[str, ...] = ()
        for _attempt in range(2):  # an engine that died between games gets one restart
            try:
                engine = slot.get()
                engine.new_game()
                engines[side] = engine
                break
            except EngineStartError as exc:
                failure, stalled, tail = exc.reason, exc.stalled, exc.stderr
                slot.discard()
                break  # a fresh start failed: no point retrying at once
            except EngineError as exc:
                failure = exc.message
                stalled = isinstance(exc, EngineTimeoutError)
                code = slot.exit_status()
                if stalled and code is not None:
                    failure, stalled = exited_note(code), False
                tail = stderr_tail(slot.engine) if slot.engine is not None else ()
                slot.discard()
        if side not in engines:
            if stalled:  # it runs but stopped answering (uci or isready)
                return forfeit(side, "stalled", f"engine stopped answering: {failure}",
                               tail=tail)
            return forfeit(side, "crash", f"engine could not start: {failure}", tail=tail)

    clocks: Dict[str, Optional[Clock]] = {
        side: Clock(specs[number].tc) if specs[number].tc else None
        for side, number in side_engine.items()}
    margin = config.timemargin_ms
    while True:
        if abort.is_set():
            return None
        state = game.result()
        if state.is_over:
            return finish(state.outcome or "draw", "normal", state.reason)
        if config.max_plies and game.ply - opening_plies >= config.max_plies:
            return finish("draw", "adjudication",
                          f"move cap: {config.max_plies} plies played without a result",
                          "move cap")
        verdict = adjudicator.before_move(game)
        if verdict is not None:
            return adjudicated(verdict)
        side = "white" if game.position.white_to_move else "black"
        other = "black" if side == "white" else "white"
        spec = specs[side_engine[side]]
        slot = slots[side_engine[side]]
        engine = engines[side]
        clock = clocks[side]
        limits, budget_ms = go_limits(spec, side, clock, clocks[other])
        timeout = (budget_ms + margin) / 1000 if budget_ms is not None else config.move_timeout
        searching = False
        try:
            try:
                engine.position(opening.fen, [m.pdn() for m in game.moves])
                searching = True
                started = time.monotonic()
                result = _search(engine, slot, limits, timeout)
                # to the arrival of the bestmove line (the runner's reading is not charged)
                elapsed_ms = 1000 * (result.elapsed if result.elapsed is not None
                                     else time.monotonic() - started)
            except (EngineError, _EngineExited):
                if abort.is_set():
                    return None  # interrupted (its engines stopped): abandoned, not scored
                raise
        except _EngineExited as exc:
            slot.discard()
            return forfeit(side, "crash", f"crashed: {exc}", engine)
        except EngineTimeoutError as exc:
            code = slot.exit_status()
            slot.discard()
            if code is not None:
                return forfeit(side, "crash", f"crashed: {exited_note(code)}", engine)
            if not searching:
                return forfeit(side, "stalled", f"engine stopped answering ({exc.message})", engine)
            if budget_ms is not None:
                return forfeit(side, "time forfeit", f"no bestmove within {timeout:.3f} s "
                                                     f"({time_text(spec, clock, margin)})", engine)
            return forfeit(side, "stalled", f"no bestmove within {timeout:g} s "
                                            f"({spec.limits_text()}); see --move-timeout", engine)
        except EngineTerminatedError as exc:
            slot.discard()
            return forfeit(side, "crash", f"crashed: {exc.message}", engine)
        except CommandRejectedError as exc:
            slot.discard()
            return forfeit(side, "protocol error", f"the engine answered error {exc.reason}",
                           engine)
        except IllegalBestMoveError as exc:  # (a Hub engine: its client knows the position)
            return forfeit(side, "illegal move", f"bestmove {exc.move}: {exc.message}")
        except EngineError as exc:
            slot.discard()
            return forfeit(side, "protocol error", exc.message, engine)
        if clock is not None and not clock.punch(elapsed_ms, margin):
            return forfeit(side, "time forfeit",
                           f"took {elapsed_ms / 1000:.3f} s with "
                           f"{time_text(spec, clock, margin, elapsed_ms)}")
        if spec.movetime is not None and elapsed_ms > spec.movetime + margin:
            return forfeit(side, "time forfeit", f"took {elapsed_ms / 1000:.3f} s for movetime "
                                                 f"{spec.movetime} ms (margin {margin} ms)")
        if result.bestmove is None:
            return forfeit(side, "illegal move", "bestmove (none) although it has a legal move")
        try:
            move = parse_move(game.position, result.bestmove)
        except DraughtsError as exc:
            return forfeit(side, "illegal move", f"bestmove {result.bestmove}: {exc}")
        game.push(move)
        seconds[side] += elapsed_ms / 1000
        verdict = adjudicator.scored(side, score_of(result.infos), game)
        if verdict is not None and not game.result().is_over:
            return adjudicated(verdict)


def go_limits(spec: EngineSpec, side: str, clock: Optional[Clock],
              other: Optional[Clock]) -> Tuple[SearchLimits, Optional[float]]:
    """The ``go`` limits for ``spec`` and the time it may use (ms; None: no time limit)."""
    kwargs: Dict[str, Any] = {"depth": spec.depth, "nodes": spec.nodes,
                              "movetime_ms": spec.movetime}
    budgets: List[float] = []
    if spec.movetime is not None:
        budgets.append(float(spec.movetime))
    if clock is not None:
        other = other if other is not None else clock
        own_ms = min(MAX_CLOCK_MS, int(clock.remaining_ms))
        other_ms = min(MAX_CLOCK_MS, int(other.remaining_ms))
        white, black = (clock, other) if side == "white" else (other, clock)
        kwargs.update(wtime_ms=own_ms if side == "white" else other_ms,
                      btime_ms=own_ms if side == "black" else other_ms,
                      winc_ms=white.tc.inc_ms, binc_ms=black.tc.inc_ms,
                      movestogo=clock.movestogo)
        budgets.append(clock.remaining_ms)
    return SearchLimits(**kwargs), (min(budgets) if budgets else None)


def time_text(spec: EngineSpec, clock: Optional[Clock], margin_ms: int,
              elapsed_ms: float = 0.0) -> str:
    """What the engine had: its clock before the move, or its limits."""
    if clock is None:
        return spec.limits_text()
    before = clock.remaining_ms + elapsed_ms
    return f"{before / 1000:.3f} s on its clock, tc={spec.tc}, margin {margin_ms} ms"
