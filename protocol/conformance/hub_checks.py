"""The Hub checks (``draughts-conformance --hub -- <command>``): any Hub v2 engine against the
rules of PROTOCOL.md section 10, where it restates Hub v2 as Scan 3.x speaks it.

:func:`run_hub_checks` starts the engine, talks Hub to it and returns one
``(name, passed, reason)`` per check, in the order of :data:`HUB_CHECKS`: the ``hub``
handshake, ``init``, ``ping``, ``pos``/``level``/``go`` with ``info`` and exactly one ``done``,
move notation, ``stop``, ``ponder``/``ponder-hit``, errors for bad input, a Russian position
(when offered; otherwise passed with the reason ``skipped: ...``), ``quit``, a silent stderr and
end of input.

Timing is proved on a search, not on a book: the timed checks (``think-depth``, ``move-time``,
``clock``, ``infinite-stop``, ``ponder-hit``, ``ponder-stop``) search a middle-game position
that no opening book holds, and ``init`` switches the engine's ``book`` param off when its
handshake offers one. Every time limit is a level plus ``margin`` seconds (default 1).
"""

from __future__ import annotations

import shlex
import subprocess
import time
from dataclasses import dataclass
from typing import Callable, List, Optional, Sequence, Tuple

from draughts_engine.game import Game
from draughts_engine.position import Position
from draughts_engine.variants import get_variant
from protocol.client import children

from .errors import CheckFailed, fail
from .hub_session import HubFatal, HubSession, check_search, command_of, max_depth, pairs_of
from .wire import EngineError, hub_pos

__all__ = ["HubCheck", "HUB_CHECKS", "HubResult", "run_hub_checks", "DEFAULT_MARGIN"]

HubResult = Tuple[str, bool, str]
"""``(name, passed, reason)``."""

DEFAULT_MARGIN = 1.0
"""Seconds an engine may be late on a timed answer (``done`` after its level, ``stop``,
``quit``)."""

CAPTURE_FEN = "W:W46:B41,31,21,42"
"""White must take three men in one capture (from 46, several routes)."""

MIDDLE_GAME_FEN = ("W:W26,27,29,31,32,33,34,35,37,38,40,42,43,44,48"
                   ":B3,6,7,8,9,11,13,14,15,16,17,19,20,21,24")
"""A quiet International middle game, 15 men each, White to move with 8 moves and no capture;
far from any opening book, so an engine must search it."""

PONDER_MOVE = "44-39"
"""A move of :data:`MIDDLE_GAME_FEN` after which Black has 7 moves and no capture."""

_PLAIN_PAIRS = ("id", "param")


class HubContext:
    """What a Hub check works with: the session, the limits and the positions."""

    def __init__(self, session: HubSession, command: Sequence[str], cwd: Optional[str],
                 timeout: float, search_seconds: float, margin: float) -> None:
        self.session = session
        self.command = tuple(command)
        self.cwd = cwd
        self.timeout = timeout
        self.search_seconds = search_seconds
        self.margin = margin
        self.start = Position.start("international")
        self.middle = Position.from_fen(MIDDLE_GAME_FEN, "international")

    def level_search(self, root: Position, level: str, timeout: float,
                     moves: Sequence[str] = (), go: str = "go think") -> Tuple[List[str], float]:
        """``pos`` ``root`` (+ ``moves``), ``level``, ``go``: the lines to ``done`` and the time."""
        self.session.set_position(root, moves)
        return self.session.search([level], root, timeout, go)

    def late(self, what: str, took: float, allowed: float) -> None:
        """Fail when ``took`` seconds exceed ``allowed`` plus the margin."""
        if took > allowed + self.margin:
            raise fail(f"{what} took {took:.2f} s, more than {allowed:g} + {self.margin:g} s")


# --------------------------------------------------------------------------- the checks


def hub_handshake(ctx: HubContext) -> str:
    """hub -> an id line with name=, well-formed param lines, wait."""
    session = ctx.session
    session.send("hub")
    lines = session.until("wait", fatal=True)
    ids = [line for line in lines if command_of(line) == "id"]
    if not ids:
        raise fail("no id line before wait")
    for line in lines[:-1]:
        word = command_of(line)
        if word not in _PLAIN_PAIRS:
            raise fail(f"unexpected line before wait: {line!r}")
        for name, value in pairs_of(line):
            if value is None:
                raise fail(f"bare flag {name!r} in {line!r}")
        if word == "param":
            args = dict(pairs_of(line))
            if not args.get("name") or "value" not in args or not args.get("type"):
                raise fail(f"param line needs name=, value= and type=: {line!r}")
            if args["type"] == "enum" and not args.get("values"):
                raise fail(f"enum param without values=: {line!r}")
            if args["type"] in ("int", "real") and ("min" not in args or "max" not in args):
                raise fail(f"{args['type']} param without min= and max=: {line!r}")
            session.params[str(args["name"])] = args
    engine_name = dict(pairs_of(ids[0])).get("name")
    if not engine_name:
        raise fail(f"id line without name=: {ids[0]!r}")
    return f"id name={engine_name}, {len(session.params)} params, wait"


def hub_variant_param(ctx: HubContext) -> str:
    """A variant param, when offered, has the value normal (International, as Scan)."""
    variant = ctx.session.params.get("variant")
    if variant is None:
        return "no variant parameter: the engine plays International (normal) only"
    values = (variant.get("values") or "").split()
    if "normal" not in values:
        raise fail(f"variant values {values} lack 'normal' (International, as Scan)")
    return f"variant values: {' '.join(values)}"


def hub_init(ctx: HubContext) -> str:
    """init -> ready (first numbering=pdn and book off, when those params are offered)."""
    session = ctx.session
    notes = []
    if "numbering" in session.params:
        session.set_param("numbering", "pdn")
    book_off = session.book_off_value()
    if book_off is not None:
        session.set_param("book", book_off)
        notes.append(f"book={book_off}")
    elif "book" in session.params:
        notes.append("book param kept: no value of its type reads as off")
    session.send("init")
    lines = session.until("ready", fatal=True)
    errors = [line for line in lines if command_of(line) == "error"]
    if errors:
        notes.append(f"set-param answered {errors[0]}")
    return "init -> ready" + (f" ({'; '.join(notes)})" if notes else "")


def hub_ping(ctx: HubContext) -> str:
    """ping -> pong and nothing else."""
    extra = ctx.session.ping(ctx.timeout)
    if extra:
        raise fail(f"unexpected lines before pong: {extra}")
    return "ping -> pong"


def hub_think_depth(ctx: HubContext) -> str:
    """level depth=2 in a middle game: info lines and one legal done."""
    lines, took = ctx.level_search(ctx.middle, "level depth=2", ctx.timeout)
    best = check_search(lines, ctx.middle)
    infos = sum(1 for line in lines if command_of(line) == "info")
    deepest = max_depth(lines)
    depth = f" to depth {deepest}" if deepest is not None else ""
    return f"level depth=2: {infos} info lines{depth}, done move={best} after {took:.2f} s"


def hub_pos_start(ctx: HubContext) -> str:
    """pos start sets the start position."""
    session = ctx.session
    session.settle()
    lines, _ = session.search(["pos start", "level depth=1"], ctx.start, ctx.timeout)
    return f"pos start: done move={check_search(lines, ctx.start)}"


def hub_pos_moves(ctx: HubContext) -> str:
    """pos pos=... moves="..." plays the moves (a capture as from x to x captured)."""
    game = Game("international")
    hub_moves = [game.push(text).hub() for text in ("32-28", "19-23", "28x19")]
    lines, _ = ctx.level_search(ctx.start, "level depth=1", ctx.timeout, moves=hub_moves)
    best = check_search(lines, game.position)
    return f"pos with moves {' '.join(hub_moves)}: done move={best}"


def hub_capture_notation(ctx: HubContext) -> str:
    """A capture of three men is written from x to x and every captured square."""
    position = Position.from_fen(CAPTURE_FEN, "international")
    lines, _ = ctx.level_search(position, "level depth=1", ctx.timeout)
    best = check_search(lines, position)
    if len(best.split("x")) != 2 + 3:
        raise fail(f"a capture of three men must read from x to x three captured squares, "
                   f"got {best}")
    return f"capture written {best}"


def hub_move_time(ctx: HubContext) -> str:
    """level move-time in a middle game: done within the time plus the margin."""
    seconds = ctx.search_seconds
    level = f"level move-time={seconds:g}"
    lines, took = ctx.level_search(ctx.middle, level, seconds + ctx.margin + ctx.timeout)
    check_search(lines, ctx.middle)
    ctx.late(level, took, seconds)
    return f"{level}: done after {took:.2f} s{_depth_note(lines)}"


def hub_clock(ctx: HubContext) -> str:
    """level moves=40 time=4 inc=0.05 in a middle game: done well within the clock."""
    level = "level moves=40 time=4 inc=0.05"
    lines, took = ctx.level_search(ctx.middle, level, 4.0 + ctx.margin + ctx.timeout)
    check_search(lines, ctx.middle)
    ctx.late(level, took, 1.0)
    return f"{level}: done after {took:.2f} s{_depth_note(lines)}"


def _go_held(ctx: HubContext, level: str, go: str, wait: float,
             moves: Sequence[str] = ()) -> None:
    """Set the middle game (then ``moves``), send ``level`` and ``go``, and let the search
    run for ``wait`` seconds."""
    ctx.session.set_position(ctx.middle, moves)
    ctx.session.send(level)
    ctx.session.send(go)
    time.sleep(wait)


def _no_done(lines: Sequence[str], failure: str) -> None:
    """Fail with ``failure`` when a ``done`` is among ``lines``."""
    if any(command_of(line) == "done" for line in lines):
        raise fail(failure)


def _done_after(ctx: HubContext, word: str, timeout: float) -> Tuple[List[str], float]:
    """Send ``word`` (``stop``, ``ponder-hit``); the lines up to ``done`` and the seconds
    from ``word`` to it."""
    started = time.monotonic()
    ctx.session.send(word)
    lines = ctx.session.until("done", timeout)
    return lines, time.monotonic() - started


def hub_infinite_stop(ctx: HubContext) -> str:
    """go analyze with level infinite: ping answered, no done before stop, done soon after."""
    _go_held(ctx, "level infinite", "go analyze", ctx.search_seconds)
    early = ctx.session.ping(ctx.timeout)
    _no_done(early, "done before stop in an infinite search")
    lines, took = _done_after(ctx, "stop", ctx.timeout)
    best = check_search(early + lines, ctx.middle)
    ctx.late("done after stop", took, 0.5)
    return f"ping answered during the search; stop -> done move={best} in {took:.2f} s"


def hub_ponder_hit(ctx: HubContext) -> str:
    """go ponder: no done before ponder-hit, then done within the level's move-time."""
    seconds = ctx.search_seconds
    _go_held(ctx, f"level move-time={seconds:g}", "go ponder", seconds / 2, [PONDER_MOVE])
    early = ctx.session.ping(ctx.timeout)
    _no_done(early, "done before ponder-hit")
    lines, took = _done_after(ctx, "ponder-hit", seconds + ctx.margin + ctx.timeout)
    best = check_search(early + lines, ctx.middle.play(PONDER_MOVE))
    ctx.late(f"done after ponder-hit (move-time={seconds:g})", took, seconds)
    return f"go ponder + ponder-hit -> done move={best} {took:.2f} s after ponder-hit"


def hub_ponder_stop(ctx: HubContext) -> str:
    """go ponder + stop: exactly one done."""
    _go_held(ctx, "level time=60", "go ponder", ctx.search_seconds / 2)
    lines, _ = _done_after(ctx, "stop", ctx.timeout)
    best = check_search(lines, ctx.middle)
    _no_done(ctx.session.ping(ctx.timeout), "a second done after stop")
    return f"go ponder + stop -> one done move={best}"


def hub_bad_pos(ctx: HubContext) -> str:
    """A malformed pos is answered error message=..."""
    session = ctx.session
    session.send("pos pos=Xnonsense")
    errors = [line for line in session.ping(ctx.timeout) if command_of(line) == "error"]
    if not errors:
        raise fail("no error line for pos pos=Xnonsense")
    if dict(pairs_of(errors[0])).get("message") is None:
        raise fail(f"error line without message=: {errors[0]!r}")
    return f"answered {errors[0]}"


def hub_illegal_move(ctx: HubContext) -> str:
    """An illegal move in pos ... moves= is answered by an error."""
    session = ctx.session
    session.set_position(ctx.start, ["32-26"])
    if not any(command_of(line) == "error" for line in session.ping(ctx.timeout)):
        raise fail("no error line for the illegal move 32-26")
    return "illegal move in pos answered by error"


def hub_unknown_command(ctx: HubContext) -> str:
    """An unknown command gets an error line or nothing; the engine still answers."""
    session = ctx.session
    session.send("frobnicate now=1")
    lines = session.ping(ctx.timeout)
    bad = [line for line in lines if command_of(line) not in ("error", "")]
    if bad:
        raise fail(f"unexpected answer to an unknown command: {bad}")
    return "unknown command: " + ("error line" if lines else "ignored") + ", still answering"


def hub_new_game(ctx: HubContext) -> str:
    """new-game prints nothing."""
    session = ctx.session
    session.send("new-game")
    lines = session.ping(ctx.timeout)
    if lines:
        raise fail(f"new-game answered {lines}")
    return "new-game is silent"


def hub_russian(ctx: HubContext) -> str:
    """variant russian (when offered): a 33-character pos with algebraic moves is searched."""
    session = ctx.session
    values = (session.params.get("variant", {}).get("values") or "").split()
    if "russian" not in values:
        return "skipped: the engine offers no russian variant"
    variant = get_variant("russian")
    session.set_param("variant", "russian")
    game = Game(variant)
    hub_moves = [game.push(text).hub() for text in ("c3-d4", "f6-e5")]
    root = Position.start(variant)
    session.set_position(root, hub_moves)
    lines, _ = session.search(["level depth=2"], game.position, ctx.timeout)
    errors = [line for line in lines if command_of(line) == "error"]
    if errors:
        raise fail(f"russian position refused: {errors[0]}")
    best = check_search(lines, game.position)
    if len(hub_pos(root)) != 33:
        raise fail("internal: russian pos text must have 33 characters")
    return f"variant russian, 33-character pos: done move={best}"


def hub_quit(ctx: HubContext) -> str:
    """quit: exit status 0 at once."""
    started = time.monotonic()
    code = ctx.session.close()
    took = time.monotonic() - started
    if code != 0:
        raise fail(f"quit: exit status {code}")
    ctx.late("quit", took, 1.5)
    return f"exit status 0 after {took:.2f} s"


def hub_stderr_silent(ctx: HubContext) -> str:
    """Nothing was written to stderr (several Hub clients merge it into stdout)."""
    lines = ctx.session.engine.stderr_lines
    if lines:
        raise fail(f"the engine wrote to stderr: {list(lines)[:3]}")
    return "nothing on stderr"


def hub_end_of_input(ctx: HubContext) -> str:
    """A new process given only 'hub' exits with status 0 when its input closes."""
    process = subprocess.Popen(list(ctx.command), cwd=ctx.cwd, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    watched = children.watch(process.pid, group=False)  # ends with the suite, however it ends
    try:
        out, _ = process.communicate(b"hub\n", timeout=ctx.timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise fail(f"still running {ctx.timeout:g} s after its input closed") from None
    finally:
        if watched:
            children.release(process.pid)
    if process.returncode != 0:
        raise fail(f"exit status {process.returncode} at end of input")
    if b"wait" not in out:
        raise fail("no handshake before the end of input")
    return "exits with status 0 when its input closes"


def _depth_note(lines: Sequence[str]) -> str:
    deepest = max_depth(lines)
    return f", searched to depth {deepest}" if deepest is not None else ""


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class HubCheck:
    """One named Hub check. ``fatal``: when it fails, the run ends (nothing else can work);
    ``always``: it runs even after the engine stopped answering (it starts its own process)."""

    name: str
    run: Callable[[HubContext], str]
    fatal: bool = False
    always: bool = False

    @property
    def summary(self) -> str:
        """The check's docstring on one line (what ``--list --hub`` shows)."""
        return " ".join((self.run.__doc__ or "").split())


HUB_CHECKS: Tuple[HubCheck, ...] = (
    HubCheck("handshake", hub_handshake, fatal=True),
    HubCheck("variant-param", hub_variant_param),
    HubCheck("init", hub_init, fatal=True),
    HubCheck("ping", hub_ping),
    HubCheck("think-depth", hub_think_depth),
    HubCheck("pos-start", hub_pos_start),
    HubCheck("pos-moves", hub_pos_moves),
    HubCheck("capture-notation", hub_capture_notation),
    HubCheck("move-time", hub_move_time),
    HubCheck("clock", hub_clock),
    HubCheck("infinite-stop", hub_infinite_stop),
    HubCheck("ponder-hit", hub_ponder_hit),
    HubCheck("ponder-stop", hub_ponder_stop),
    HubCheck("bad-pos", hub_bad_pos),
    HubCheck("illegal-move", hub_illegal_move),
    HubCheck("unknown-command", hub_unknown_command),
    HubCheck("new-game", hub_new_game),
    HubCheck("russian", hub_russian),
    HubCheck("quit", hub_quit),
    HubCheck("stderr-silent", hub_stderr_silent),
    HubCheck("end-of-input", hub_end_of_input, always=True),
)
"""Every Hub check, in the order they run (later checks rely on the handshake and init)."""


def run_hub_checks(command: Sequence[str], *, cwd: Optional[str] = None, timeout: float = 10.0,
                   search_seconds: float = 0.3, margin: float = DEFAULT_MARGIN,
                   log: Optional[Callable[[str], None]] = None) -> List[HubResult]:
    """Run the Hub checks against ``command``; a list of ``(name, passed, reason)``.

    ``timeout`` bounds every wait for an answer; ``search_seconds`` is the move time of the
    timed searches; ``margin`` is how many seconds a timed answer may be late. ``log`` receives
    one line per check as it finishes. An engine that cannot be started gives one result,
    ``("start", False, reason)``.
    """
    results: List[HubResult] = []

    def record(name: str, passed: bool, reason: str) -> None:
        results.append((name, passed, reason))
        if log is not None:
            log(f"{'PASS' if passed else 'FAIL'} {name}: {reason}")

    try:
        session = HubSession(command, cwd, timeout)
    except (OSError, ValueError, EngineError) as exc:
        record("start", False, f"cannot start {shlex.join(command)}: {exc}")
        return results
    ctx = HubContext(session, command, cwd, timeout, search_seconds, margin)
    dead = False
    try:
        for check in HUB_CHECKS:
            if dead and not check.always:
                record(check.name, False, "not run: the engine is no longer answering")
                continue
            try:
                record(check.name, True, check.run(ctx))
            except CheckFailed as exc:  # HubFatal too
                record(check.name, False, str(exc))
                if check.fatal or isinstance(exc, HubFatal):
                    break
            except EngineError as exc:
                dead = True
                record(check.name, False, exc.message)
                if check.fatal:
                    break
    finally:
        session.close()  # idempotent: the quit check has usually closed it
    return results
