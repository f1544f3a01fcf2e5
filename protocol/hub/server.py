"""Hub mode: the server speaks Hub v2 (the protocol of Scan and the draughts GUIs).

PROTOCOL.md section 10 is the contract.  :class:`HubServer` takes over a
:class:`protocol.server.Server` whose first command was ``hub``: it reads the
remaining lines from the server's line queue, writes through ``server.send``
and plays through the server's :class:`~protocol.session.Session` (its options, engine and
board), like the text protocol.  The line format is :mod:`protocol.hub.wire`.
"""
from __future__ import annotations

import math
import os
import re
import threading
import time
from dataclasses import dataclass
from typing import IO, Any, Callable, Dict, List, Optional, Sequence, Tuple

from draughts_engine import __version__
from draughts_engine.errors import DraughtsError, IllegalMoveError
from draughts_engine.game import Game
from draughts_engine.runtime import max_threads
from draughts_engine.move import Move
from draughts_engine.search.limits import (LIMIT_RANGES, MAX_TIME_MS, SearchInfo, SearchLimits)
from draughts_engine.search.skill import ELO_MAX, ELO_MIN
from draughts_engine.variants import UnknownVariantError, Variant, get_variant

from ..boards import DraughtsBoard
from ..commands import LineError, moves_text
from ..options import EVAL_CHOICES, OptionError
from ..search_job import SearchJob
from .wire import (DEFAULT_VARIANT, NUMBERING_VALUES, PARAM_OF_OPTION, VARIANT_VALUES,
                   HubSyntaxError, flip_move_text,
                   format_hub_info, format_hub_line, hub_value, parse_hub_line,
                   parse_hub_move_text, position_from_hub_pos, uses_white_side_numbering)

__all__ = ["HubServer", "HUB_AUTHOR", "HUB_COUNTRY", "DEFAULT_MOVE_TIME", "LINE_GAP"]

HUB_AUTHOR = "the draughts-engine authors"
HUB_COUNTRY = "unknown"
#: Seconds a ``go think`` searches when no ``level`` was given.
DEFAULT_MOVE_TIME = 1.0
#: Seconds kept between two output lines.  Some Hub clients (py-draughts) poll the pipe with
#: select() and then read one line from a buffered stream: lines that arrive together would
#: sit unseen in their buffer.  Info lines that come faster are merged (the newest is kept).
LINE_GAP = 0.015
#: How long ``stop`` and ``quit`` wait for a search to write its ``done``.
_STOP_WAIT = 10.0
_DURING_SEARCH = frozenset({"ping", "ponder-hit", "stop", "quit"})


# --------------------------------------------------------------------------- parameters

@dataclass(frozen=True)
class _Param:
    name: str       # Hub name
    option: str     # the session option it sets ("" for variant and numbering)
    kind: str       # bool, int, enum
    low: int = 0
    high: int = 0
    values: Tuple[str, ...] = ()


_PARAMS: Tuple[_Param, ...] = (
    _Param("variant", "", "enum", values=VARIANT_VALUES),
    _Param("numbering", "", "enum", values=NUMBERING_VALUES),
    _Param("hash", "Hash", "int", 1, 1024),
    _Param("threads", "Threads", "int", 1, max_threads()),
    _Param("eval", "Eval", "enum", values=EVAL_CHOICES),
    _Param("ponder", "Ponder", "bool"),
    _Param("move-overhead", "MoveOverhead", "int", 0, 5000),
    _Param(PARAM_OF_OPTION["UCI_LimitStrength"], "UCI_LimitStrength", "bool"),
    _Param(PARAM_OF_OPTION["UCI_Elo"], "UCI_Elo", "int", ELO_MIN, ELO_MAX),
    _Param("seed", "Seed", "int", 0, 2 ** 31 - 1),
    _Param("book", "OwnBook", "bool"),
)
_BOOL_WORDS = {"1": "true", "yes": "true", "on": "true", "0": "false", "no": "false", "off": "false"}


class _HubError(ValueError):
    """A command that cannot be carried out; the message goes into ``error message=...``."""


# --------------------------------------------------------------------------- level

@dataclass
class HubLevel:
    """The ``level`` arguments given since the last ``go`` (Hub's own units: seconds).

    :meth:`limits` converts them into the one :class:`SearchLimits` at ``go``.
    """

    depth: Optional[int] = None
    nodes: Optional[int] = None
    move_time: Optional[float] = None
    moves: Optional[int] = None
    time: Optional[float] = None
    inc: Optional[float] = None
    infinite: bool = False

    @property
    def empty(self) -> bool:
        return (self.depth is None and self.nodes is None and self.move_time is None
                and self.time is None and not self.infinite)

    def set(self, name: str, value: Optional[str]) -> None:
        """Take one ``level`` argument; unknown names are ignored (Hub v2)."""
        if name == "infinite":
            self.infinite = True
            return
        if name not in ("depth", "nodes", "move-time", "moves", "time", "inc"):
            return
        if value is None:
            raise _HubError(f"level: {name} needs a value")
        # a limit given twice: the smaller is the first reached
        if name == "depth":
            self.depth = _smaller(self.depth, _int_value(name, value, *LIMIT_RANGES["depth"]))
        elif name == "nodes":
            self.nodes = _smaller(self.nodes, _int_value(name, value, *LIMIT_RANGES["nodes"]))
        elif name == "moves":
            self.moves = _int_value(name, value, 0, LIMIT_RANGES["movestogo"][1])
        elif name == "move-time":
            self.move_time = _smaller(self.move_time, _seconds_value(name, value))
        elif name == "time":
            self.time = _seconds_value(name, value)
        else:
            self.inc = _seconds_value(name, value)

    def limits(self, mode: str) -> Tuple[SearchLimits, bool]:
        """The search limits for ``go <mode>``, and whether ``done`` is held back."""
        ponder = mode == "ponder"
        if self.infinite or (self.empty and mode == "analyze"):
            return SearchLimits(infinite=not ponder, ponder=ponder), True
        move_time = DEFAULT_MOVE_TIME if self.empty else self.move_time
        clock: Dict[str, Any] = {}
        if self.time is not None:
            # Hub: the increment is added to the clock before the move.
            left_ms = min(MAX_TIME_MS, _ms(self.time) + _ms(self.inc or 0.0))
            clock = {"wtime_ms": left_ms, "btime_ms": left_ms, "winc_ms": 0, "binc_ms": 0,
                     "movestogo": self.moves or None}
        limits = SearchLimits(depth=self.depth, nodes=self.nodes,
                              movetime_ms=None if move_time is None else max(1, _ms(move_time)),
                              ponder=ponder, **clock)
        return limits, ponder


def _smaller(old: Optional[Any], new: Any) -> Any:
    """``new``, or ``old`` when that was set and is smaller."""
    return new if old is None or new < old else old


def _ms(seconds: float) -> int:
    return min(MAX_TIME_MS, int(round(seconds * 1000)))


_BLANKS = " \t"
"""What separates and surrounds Hub words: spaces and tabs only (PROTOCOL.md §1; a no-break
space or another Unicode space is part of a word)."""

_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
"""A number of seconds as Hub writes it: ASCII digits, a point, an exponent."""


def _int_value(name: str, value: str, low: int, high: int) -> int:
    """A whole number; values past ``high`` (however long) count as ``high``."""
    text = value.strip(_BLANKS)
    body = text[1:] if text[:1] in "+-" else text
    if not body.isdigit() or not body.isascii():
        raise _HubError(f"level: {name} needs an integer, got {hub_value(text)}")
    if text.startswith("-") and body.strip("0"):
        raise _HubError(f"level: {name} must be at least {low}, got {hub_value(text)}")
    if len(body.lstrip("0")) > len(str(high)):  # no giant int() conversions
        return high
    number = int(body)
    if number < low:
        raise _HubError(f"level: {name} must be at least {low}, got {number}")
    return min(number, high)


def _seconds_value(name: str, value: str) -> float:
    """A non-negative number of seconds; past :data:`MAX_TIME_MS` it counts as that."""
    text = value.strip(_BLANKS)
    try:
        # ASCII decimal only: float() would also take "1_0", other scripts' digits, "nan"
        number = float(text) if len(text) <= 64 and _DECIMAL.match(text) else math.nan
    except ValueError:
        number = math.nan
    if math.isnan(number):
        raise _HubError(f"level: {name} needs a number of seconds, got {hub_value(text)}")
    # A decimal beyond float range: 1e400 is no time either; -1e400 is a negative time like
    # any other and counts as 0 (below).
    if number == math.inf:
        raise _HubError(f"level: {name} is out of range, got {hub_value(text)}")
    return min(max(0.0, number), MAX_TIME_MS / 1000.0)


# --------------------------------------------------------------------------- search job

class _HubSearch(SearchJob):
    """One ``go``: searches on its own thread and writes exactly one ``done``."""

    def __init__(self, hub: "HubServer", limits: SearchLimits, hold: bool,
                 text: Callable[[Move], str], endless: bool = False) -> None:
        super().__init__(hub.session, limits, hold, "hub-search", endless)
        self.hub = hub
        self.text = text

    def report(self, info: SearchInfo) -> None:
        if info.bound or info.book:  # Hub's info has no word for these: a real one will come
            return
        self.hub.send_info(format_hub_info(info, [self.text(move) for move in info.pv]))

    def final_line(self, best: Optional[Move], ponder: Optional[Move]) -> str:
        pairs: List[Tuple[str, object]] = []
        if best is not None:
            pairs.append(("move", self.text(best)))
            if ponder is not None:
                pairs.append(("ponder", self.text(ponder)))
        return format_hub_line("done", *pairs)

    def finish(self, line: str) -> None:
        self.hub.finish(self, line)

    def log(self, text: str) -> None:
        self.hub.log(text)


# --------------------------------------------------------------------------- server

class HubServer:
    """Speaks Hub v2 on behalf of ``server`` until ``quit`` or end of input (PROTOCOL.md 10).

    Diagnostics go to the file named by ``DRAUGHTS_HUB_LOG``, else nowhere: Hub GUIs read
    nothing but the protocol, and some take any stderr output for a failure.
    """

    def __init__(self, server: Any, greet: bool = True) -> None:
        """``greet``: answer the ``hub`` line that brought the server here (the server
        consumed it); False when the process was started in Hub mode."""
        self.server = server
        self.greet = greet
        self.session = server.session
        self.job: Optional[_HubSearch] = None
        self._job_lock = threading.Lock()
        self.level = HubLevel()
        self.variant_value = "normal"
        self.numbering = "auto"
        self.detected: Optional[str] = None  # the numbering seen in this game's moves (auto)
        self.session.set_variant(DEFAULT_VARIANT, clear_engine=False)
        self._log_file: Optional[IO[str]] = None
        self._send_lock = threading.Lock()
        self._last_line = 0.0
        self._pending_info: Optional[str] = None
        self.line_gap = LINE_GAP
        self._handlers: Dict[str, Callable[[List[Tuple[str, Optional[str]]]], Optional[bool]]] = {
            "hub": self._hub, "init": self._init, "set-param": self._set_param,
            "new-game": self._new_game, "pos": self._pos, "level": self._level, "go": self._go,
            "ping": self._ping, "ponder-hit": self._ponder_hit, "stop": self._stop,
            "quit": self._quit,
        }

    @property
    def board(self) -> DraughtsBoard:
        """The session's board (Hub plays the draughts variants only)."""
        return self.session.board  # type: ignore[return-value]

    @property
    def variant(self) -> Variant:
        return self.board.variant

    @property
    def game(self) -> Game:
        return self.board.game

    # ---- plumbing ---------------------------------------------------------------
    def send(self, line: str) -> None:
        """Write one line, at least :data:`LINE_GAP` after the previous one."""
        with self._send_lock:
            self._pending_info = None
            self._paced_send(line)

    def _paced_send(self, line: str) -> None:
        wait = self.line_gap - (time.monotonic() - self._last_line)
        if wait > 0:
            time.sleep(wait)
        self.server.send(line)
        self._last_line = time.monotonic()
        self.log(f"> {line}")

    def send_info(self, line: str) -> None:
        """An info line: written now if the gap allows, else kept (replacing an older one)."""
        with self._send_lock:
            if time.monotonic() - self._last_line >= self.line_gap:
                self._pending_info = None
                self._paced_send(line)
                return
            if self._pending_info is None:  # written a gap later unless replaced or flushed first
                timer = threading.Timer(self.line_gap, self.flush_info)
                timer.daemon = True
                timer.start()
            self._pending_info = line

    def flush_info(self) -> None:
        with self._send_lock:
            line, self._pending_info = self._pending_info, None
            if line is not None:
                self._paced_send(line)

    def error(self, message: str) -> None:
        self.send(format_hub_line("error", ("message", message)))

    def log(self, text: str) -> None:
        """Diagnostics: to the file named by DRAUGHTS_HUB_LOG, else nowhere."""
        if self._log_file is not None:
            try:
                self._log_file.write(f"{time.strftime('%H:%M:%S')} {text}\n")
                self._log_file.flush()
            except (OSError, ValueError):
                pass

    def _open_log(self) -> None:
        path = os.environ.get("DRAUGHTS_HUB_LOG")
        if path:
            try:
                self._log_file = open(path, "a", encoding="utf-8")
            except OSError:
                self._log_file = None

    def current_job(self) -> Optional[_HubSearch]:
        """The running search, if any; once it is gone its ``done`` has been written."""
        with self._job_lock:
            return self.job

    def finish(self, job: _HubSearch, done_line: str) -> None:
        """Called by the search thread: write its ``done``, then forget the job."""
        self.flush_info()
        with self._job_lock:  # readers of the job take this lock: they see it with its line
            self.send(done_line)
            if self.job is job:
                self.job = None

    # ---- main loop ------------------------------------------------------------------
    def run(self) -> int:
        """Serve until ``quit`` or end of input; returns the exit status (0)."""
        self._open_log()
        if self.greet:
            self._hub([])
        while True:
            item = self.server.next_item()
            if item is None:
                self._end_search(wait=1.0)
                break
            if isinstance(item, LineError):
                self.error(str(item))
                continue
            self.log(f"< {item}")
            if self._dispatch(str(item)):
                break
        try:
            self.server.stdout.flush()
        except (OSError, ValueError):
            pass
        return 0

    def _dispatch(self, line: str) -> bool:
        """Handle one line; True when the server must exit."""
        try:
            command, pairs = parse_hub_line(line)
        except HubSyntaxError as exc:
            self.error(f"syntax: {exc}")
            return False
        if not command:
            return False
        handler = self._handlers.get(command)
        if handler is None:
            self.error(f"unknown command: {hub_value(command[:64])}")
            return False
        job = self.current_job()
        if job is not None and command not in _DURING_SEARCH:
            if not job.ends_soon:  # level infinite, go analyze, go ponder
                self.error(f"busy: {command} during search")
                return False
            # A search that ends by itself: the command waits for its done, then runs, as
            # in the text protocol (PROTOCOL.md section 3); a quit read meanwhile ends it now.
            if self.server.wait_for_search(job, command):
                return self._quit([])
        try:
            return bool(handler(pairs))
        except _HubError as exc:
            self.error(str(exc))
        except Exception as exc:  # a bug must not kill the server
            self.log(f"internal error on {line!r}: {exc!r}")
            self.error(f"{command}: internal error: {type(exc).__name__}")
        return False

    def _end_search(self, wait: float) -> None:
        """Stop the search, if any; its ``done`` is written before this returns."""
        job = self.current_job()
        if job is not None:
            job.end(wait)

    # ---- commands -------------------------------------------------------------------
    def _hub(self, _: List[Tuple[str, Optional[str]]]) -> None:
        self.send(format_hub_line("id", ("name", "draughts-engine"), ("version", __version__),
                                  ("author", HUB_AUTHOR), ("country", HUB_COUNTRY)))
        for param in _PARAMS:
            pairs: List[Tuple[str, object]] = [("name", param.name), ("value", self._param_value(param)),
                                               ("type", param.kind)]
            if param.kind == "int":
                pairs += [("min", param.low), ("max", param.high)]
            elif param.kind == "enum":
                pairs.append(("values", " ".join(param.values)))
            self.send(format_hub_line("param", *pairs))
        self.send("wait")

    def _param_value(self, param: _Param) -> str:
        if param.name == "numbering":
            return self.numbering
        if not param.option:
            return self.variant_value
        value = self.session.options[param.option]
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    def _init(self, _: List[Tuple[str, Optional[str]]]) -> None:
        try:
            self.session.engine()  # build the engine now so the first search starts at once
        except Exception as exc:
            self.log(f"engine creation failed: {exc!r}")
        self.send("ready")

    def _set_param(self, pairs: List[Tuple[str, Optional[str]]]) -> None:
        args = dict(pairs)
        name = (args.get("name") or "").strip(_BLANKS).lower()
        if not name:
            raise _HubError("set-param: missing name")
        if "value" not in args or args["value"] is None:
            raise _HubError(f"set-param: {hub_value(name[:64])} needs a value")
        value = args["value"].strip(_BLANKS)
        param = next((p for p in _PARAMS if p.name == name), None)
        if param is None:
            raise _HubError(f"set-param: unknown parameter {hub_value(name[:64])}")
        if param.name == "numbering":
            if value.lower() not in NUMBERING_VALUES:
                raise _HubError(f"set-param: numbering must be one of {' '.join(NUMBERING_VALUES)}, "
                                f"got {hub_value(value[:64])}")
            self.numbering = value.lower()
            return
        if param.name == "variant":
            try:
                variant = get_variant(value)
            except UnknownVariantError:
                raise _HubError(f"set-param: variant must be one of {' '.join(VARIANT_VALUES)}, "
                                f"got {hub_value(value[:64])}") from None
            self.session.set_variant(variant.name)
            self.variant_value = value.lower()
            self.detected = None
            self.level = HubLevel()
            return
        raw = _BOOL_WORDS.get(value.lower(), value.lower()) if param.kind == "bool" else value
        try:
            self.session.set_option(param.option, raw)
        except OptionError as exc:
            raise _HubError(f"set-param: {exc.named(param.name)}") from None

    def _new_game(self, _: List[Tuple[str, Optional[str]]]) -> None:
        self.detected = None
        engine = self.session.engine_if_built()
        if engine is not None:
            engine.new_game()

    def _pos(self, pairs: List[Tuple[str, Optional[str]]]) -> None:
        text: Optional[str] = None
        moves = ""
        for name, value in pairs:
            if name == "start":
                text = None
            elif name == "pos":
                if value is None:
                    raise _HubError("pos: pos needs a value")
                text = value.strip(_BLANKS)
            elif name == "moves":
                moves = value or ""
        try:
            game = Game(self.variant) if text is None else \
                Game(self.variant, fen=position_from_hub_pos(text, self.variant))
        except (ValueError, DraughtsError) as exc:
            raise _HubError(f"pos: bad position: {exc}") from None
        tokens = [token for token in re.split(r"[ \t]+", moves) if token]
        failure = ""
        for numbering in self._numberings_to_try():
            start_ply = game.ply
            try:
                self._play_tokens(game, tokens, numbering)
            except _HubError as exc:
                game.undo(game.ply - start_ply)
                failure = failure or str(exc)
                continue
            if tokens and self.numbering == "auto" and uses_white_side_numbering(self.variant):
                self.detected = numbering
            break
        else:
            raise _HubError(failure)
        self.board.set_game(game)
        self.level = HubLevel()

    def _numberings_to_try(self) -> List[str]:
        if not uses_white_side_numbering(self.variant) or self.numbering == "pdn":
            return ["pdn"]
        if self.numbering == "white-side":
            return ["white-side"]
        first = self.detected or "pdn"
        return [first, "white-side" if first == "pdn" else "pdn"]

    @staticmethod
    def _play_tokens(game: Game, tokens: Sequence[str], numbering: str) -> None:
        played: List[str] = []
        for token in tokens:
            text = flip_move_text(token) if numbering == "white-side" else token
            try:
                move = parse_hub_move_text(game.position, text)
            except DraughtsError as exc:
                after = f" after {moves_text(played)}" if played else ""
                # the rules core names the move too: say it once, then what it adds
                reason = exc.detail if isinstance(exc, IllegalMoveError) and exc.detail is not None \
                    else str(exc)
                reason = f" {reason}" if reason.startswith("(") else f": {reason}" if reason \
                    else ""
                raise _HubError(f"pos: illegal move {hub_value(token[:64])}{after}{reason}") \
                    from None
            game.push(move)
            played.append(token)

    def output_numbering(self) -> str:
        """How moves are written: ``pdn``, or ``white-side`` (see PROTOCOL.md 10, numbering)."""
        if not uses_white_side_numbering(self.variant) or self.numbering == "pdn":
            return "pdn"
        if self.numbering == "white-side":
            return "white-side"
        return self.detected or "white-side"

    def move_text(self, move: Move, numbering: Optional[str] = None) -> str:
        text = move.hub()
        if (numbering or self.output_numbering()) == "white-side":
            text = flip_move_text(text)
        return text

    def _level(self, pairs: List[Tuple[str, Optional[str]]]) -> None:
        level = HubLevel(**vars(self.level))
        for name, value in pairs:
            level.set(name, value)
        self.level = level

    def _go(self, pairs: List[Tuple[str, Optional[str]]]) -> None:
        flags = {name for name, _ in pairs}
        mode = "ponder" if "ponder" in flags else "analyze" if "analyze" in flags else "think"
        limits, hold = self.level.limits(mode)
        endless = self.level.infinite  # after a ponder-hit too: searched until stop
        self.level = HubLevel()  # a go consumes the level (Hub: reset after done)
        try:
            limits = self.session.search_limits(limits)
        except ValueError as exc:
            raise _HubError(f"go: {exc}") from None
        numbering = self.output_numbering()
        job = _HubSearch(self, limits, hold, lambda move: self.move_text(move, numbering),
                         endless)
        with self._job_lock:
            self.job = job
        job.start()

    def _ping(self, _: List[Tuple[str, Optional[str]]]) -> None:
        self.send("pong")

    def _ponder_hit(self, _: List[Tuple[str, Optional[str]]]) -> None:
        job = self.current_job()
        if job is not None:
            job.ponderhit()

    def _stop(self, _: List[Tuple[str, Optional[str]]]) -> None:
        # Wait for the done line, so that the commands after stop find no search running.
        self._end_search(wait=_STOP_WAIT)

    def _quit(self, _: List[Tuple[str, Optional[str]]]) -> bool:
        self._end_search(wait=0.8)
        return True
