"""Engine-vs-engine matches: ``draughts-match`` (also ``python3 -m protocol.match``).

Plays engines that speak the protocol of PROTOCOL.md (or Hub, ``proto=hub``) against each other
and writes the games as PDN::

    draughts-match --engine name=deep cmd="python3 -m protocol" depth=4 \\
                   --engine name=shallow cmd="python3 -m protocol" depth=2 \\
                   --variant english --games 40 --concurrency 2 --pdn out.pdn
    draughts-match ... --pdn out.pdn --resume            # continue an interrupted match
    draughts-match ... --pdn shard1.pdn --shard 1/2      # play one deterministic half
    draughts-match merge shard1.pdn shard2.pdn           # the combined table

The match plan
    Pairings: round robin (every pair of engines, the default) or gauntlet (the first engine
    against each other one). ``--games N`` games per pairing, in pairs: game pair ``p`` plays
    opening ``p`` twice, colours swapped. The plan is a list with a deterministic index per game
    (recorded as ``[Round "index + 1"]``), interleaved by opening: indexes ``2 (p Q + q)`` and
    ``+1`` are opening ``p`` of pairing ``q`` (``Q`` pairings); the first engine of the pairing
    has White in the even one. ``--shard K/N`` plays the games whose index % N == K - 1;
    ``--resume`` skips the games already in the PDN file. Openings: ``--openings FILE`` (FENs or
    PDN games) or ``--opening-plies N --seed S`` (random legal lines; default 4 plies, seed 1;
    0 means the start position).

A game
    ``setoption name Variant`` (and the engine's ``option.X=v``) when the engine starts,
    ``ucinewgame`` per game, then per move ``position fen <start> moves <all moves>`` and ``go``
    with the engine's limits (``depth``, ``nodes``, ``movetime`` in ms, or a clock
    ``tc=[moves/]seconds[+increment]`` kept by the runner: elapsed time is subtracted, the
    increment added, and the engine loses on time when it overshoots by more than
    ``--timemargin`` ms). Each ``bestmove`` is checked against the rules before it is played.
    The game ends when the side to move has no legal move, by the variant's draw rules
    (``Game.result()``), at the ``--max-plies`` cap (a draw, ``adjudication``), or by a forfeit:
    a crash, a timeout or stall, an illegal move, a protocol error. The reason is written as
    ``[Termination "..."]`` and as a comment before the result; a crashed or hung engine is
    restarted for the next game.

Output
    Every finished game is appended to ``--pdn`` and flushed at once. stderr gets a progress line
    per game; stdout the final table: per pairing wins/draws/losses, score, Elo difference with
    its 95% interval, likelihood of superiority (and per engine totals with more than two
    engines), then a one-line summary (``Score of A vs B: W - L - D [score] N, Elo ...``).
    ``--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05`` (one pairing) stops the match as soon as H0
    or H1 is accepted and reports the LLR.

Exit status: 0 finished (also when an SPRT decided early), 1 internal error, 2 bad usage or an
engine that cannot be started, 130 interrupted (the PDN file holds every finished game: resume).
"""

from __future__ import annotations

import argparse
import collections
import datetime
import math
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import IO, Any, Deque, Dict, List, Optional, Sequence, Tuple

from draughts_engine.errors import DraughtsError
from draughts_engine.game import Game, GameResult
from draughts_engine.notation import parse_move
from draughts_engine.pdn import RESULT_TOKENS, read_games
from draughts_engine.variants import Variant, get_variant
from protocol.client import (
    CommandRejectedError,
    Engine,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    ProcessTransport,
)
from draughts_engine.search.limits import SearchLimits
from protocol.elo import SprtConfig, elo_interval, format_elo, los, sprt_bounds, sprt_status
from protocol.openings import Opening, OpeningError, generate_openings, load_openings

__all__ = [
    "MatchError",
    "TimeControl",
    "Clock",
    "EngineSpec",
    "parse_engine",
    "PlannedGame",
    "build_plan",
    "GameRecord",
    "MatchConfig",
    "MatchRunner",
    "read_records",
    "summarize",
    "format_report",
    "main",
]

TERMINATIONS = ("normal", "adjudication", "time forfeit", "stalled", "crash", "illegal move",
                "protocol error")
FORFEITS = frozenset(TERMINATIONS[2:])
_MAX_CLOCK_MS = 2147483647


class MatchError(Exception):
    """A usage or configuration error (bad option, unknown engine key, unusable PDN file)."""


# --------------------------------------------------------------------------- time control


def _parse_seconds(text: str, what: str) -> int:
    """Milliseconds of ``"12.5"`` or ``"1:30"`` (minutes:seconds)."""
    try:
        if ":" in text:
            minutes, seconds = text.split(":", 1)
            value = int(minutes) * 60 + float(seconds)
        else:
            value = float(text)
    except ValueError:
        raise MatchError(f"{what}: {text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise MatchError(f"{what}: {text!r} must be a non-negative number of seconds")
    return int(round(value * 1000))


@dataclass(frozen=True)
class TimeControl:
    """``[moves/]seconds[+increment]``: ``moves`` 0 means the whole game (sudden death).

    >>> TimeControl.parse("40/60+0.5")
    TimeControl(moves=40, base_ms=60000, inc_ms=500)
    >>> str(TimeControl.parse("10+0.1")), str(TimeControl.parse("1:30"))
    ('10+0.1', '90')
    """

    moves: int
    base_ms: int
    inc_ms: int = 0

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        what = f"tc={text}"
        body = text.strip()
        moves = 0
        if "/" in body:
            count, body = body.split("/", 1)
            if not count.isdigit() or int(count) < 1:
                raise MatchError(f"{what}: the moves per period must be a positive integer")
            moves = int(count)
        base, _, inc = body.partition("+")
        base_ms = _parse_seconds(base, what)
        inc_ms = _parse_seconds(inc, what) if inc else 0
        if base_ms <= 0:
            raise MatchError(f"{what}: the clock needs some time before the first move")
        if base_ms > _MAX_CLOCK_MS:
            raise MatchError(f"{what}: too much time")
        return cls(moves, base_ms, inc_ms)

    def __str__(self) -> str:
        def secs(ms: int) -> str:
            return f"{ms / 1000:g}"

        text = secs(self.base_ms)
        if self.moves:
            text = f"{self.moves}/{text}"
        if self.inc_ms:
            text += f"+{secs(self.inc_ms)}"
        return text


class Clock:
    """One side's clock: ``remaining_ms``; a period of ``tc.moves`` moves refills ``base``."""

    def __init__(self, tc: TimeControl) -> None:
        self.tc = tc
        self.remaining_ms = float(tc.base_ms)
        self.moves_done = 0

    @property
    def movestogo(self) -> Optional[int]:
        if not self.tc.moves:
            return None
        return self.tc.moves - self.moves_done % self.tc.moves

    def punch(self, elapsed_ms: float, margin_ms: float) -> bool:
        """Account a move that took ``elapsed_ms``; False if the flag fell (beyond the margin)."""
        self.remaining_ms -= elapsed_ms
        if self.remaining_ms < -margin_ms:
            return False
        self.remaining_ms = max(0.0, self.remaining_ms) + self.tc.inc_ms
        self.moves_done += 1
        if self.tc.moves and self.moves_done % self.tc.moves == 0:
            self.remaining_ms += self.tc.base_ms
        return True


# --------------------------------------------------------------------------- engines


@dataclass
class EngineSpec:
    """How to start one engine and how it plays: its ``go`` limits and ``setoption`` values."""

    name: str
    command: List[str]
    cwd: Optional[str] = None
    proto: str = "uci"
    depth: Optional[int] = None
    nodes: Optional[int] = None
    movetime: Optional[int] = None
    tc: Optional[TimeControl] = None
    options: List[Tuple[str, str]] = field(default_factory=list)

    def limits_text(self) -> str:
        parts = [f"{key}={getattr(self, key)}" for key in ("depth", "nodes", "movetime")
                 if getattr(self, key) is not None]
        if self.tc is not None:
            parts.append(f"tc={self.tc}")
        return " ".join(parts)


_ENGINE_KEYS = ("name", "cmd", "dir", "proto", "depth", "nodes", "movetime", "st", "tc")


def parse_engine(tokens: Sequence[str], each: Sequence[str] = (), number: int = 1) -> EngineSpec:
    """An :class:`EngineSpec` from ``key=value`` tokens (``each`` first, so ``tokens`` override).

    Keys: ``name``, ``cmd`` (split like a shell line), ``dir``, ``proto`` (``uci`` or ``hub``),
    ``depth``, ``nodes``, ``movetime`` (ms), ``st`` (seconds per move), ``tc``, ``option.Name``.
    """
    values: Dict[str, str] = {}
    options: Dict[str, Tuple[str, str]] = {}
    for token in list(each) + list(tokens):
        key, sep, value = token.partition("=")
        if not sep or not key:
            raise MatchError(f"engine {number}: expected key=value, got {token!r}")
        if key.startswith("option."):
            name = key[len("option."):]
            if not name:
                raise MatchError(f"engine {number}: option name missing in {token!r}")
            options[name.casefold()] = (name, value)
        elif key in _ENGINE_KEYS:
            values[key] = value
        else:
            raise MatchError(f"engine {number}: unknown key {key!r} (known: "
                             f"{', '.join(_ENGINE_KEYS)}, option.<Name>)")
    if not values.get("cmd", "").strip():
        raise MatchError(f"engine {number}: cmd=... is required")
    try:
        command = shlex.split(values["cmd"])
    except ValueError as exc:
        raise MatchError(f"engine {number}: bad cmd {values['cmd']!r}: {exc}") from None
    name = values.get("name") or os.path.basename(command[0])
    proto = values.get("proto", "uci").lower()
    if proto not in ("uci", "hub"):
        raise MatchError(f"engine {name}: proto must be uci or hub, got {proto!r}")
    spec = EngineSpec(name=name, command=command, cwd=values.get("dir") or None, proto=proto,
                      options=list(options.values()))
    for key, low, high in (("depth", 1, 99), ("nodes", 1, 2 ** 63 - 1),
                           ("movetime", 1, _MAX_CLOCK_MS)):
        if key in values:
            text = values[key]
            if not text.isdigit() or not low <= int(text) <= high:
                raise MatchError(f"engine {name}: {key} must be an integer in {low}..{high}, "
                                 f"got {text!r}")
            setattr(spec, key, int(text))
    if "st" in values:
        if spec.movetime is not None:
            raise MatchError(f"engine {name}: give movetime= or st=, not both")
        spec.movetime = max(1, _parse_seconds(values["st"], f"engine {name}: st"))
    if "tc" in values:
        spec.tc = TimeControl.parse(values["tc"])
    if spec.depth is None and spec.nodes is None and spec.movetime is None and spec.tc is None:
        raise MatchError(f"engine {name}: no limit: give depth=, nodes=, movetime=, st= or tc=")
    return spec


class EngineStartError(Exception):
    """An engine could not be started or configured."""


def _engine_class(spec: EngineSpec) -> Any:
    if spec.proto == "uci":
        return Engine
    try:
        from protocol.hub.client import HubEngine  # lazily: only Hub engines need it
    except ImportError as exc:
        raise MatchError(f"engine {spec.name}: proto=hub needs protocol.hub.client.HubEngine, "
                         f"which cannot be imported ({exc})") from None
    return HubEngine


@dataclass
class Settings:
    """Everything a game needs besides its engines."""

    variant: Variant
    openings: List[Opening]
    max_plies: int = 400
    timemargin_ms: int = 200
    move_timeout: float = 120.0
    start_timeout: float = 20.0
    event: str = "draughts-match"
    date: str = ""
    abort: threading.Event = field(default_factory=threading.Event)


def start_engine(spec: EngineSpec, settings: Settings) -> Any:
    """Start, handshake and configure one engine (Variant, then the ``option.X`` values)."""
    cls = _engine_class(spec)
    try:
        # its own session / process group: a Ctrl-C meant for the runner must not kill the
        # engines in the middle of a game (that would be scored as a crash)
        if os.name == "posix":
            transport = ProcessTransport.spawn(spec.command, cwd=spec.cwd, start_new_session=True)
        else:
            transport = ProcessTransport.spawn(
                spec.command, cwd=spec.cwd,
                creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0))
        engine = cls(transport, strict=False, timeout=settings.start_timeout, quit_timeout=1.0)
        try:
            engine.handshake()
        except BaseException:
            engine.quit()
            raise
    except OSError as exc:
        raise EngineStartError(f"cannot run {shlex.join(spec.command)}: "
                               f"{exc.strerror or exc}") from None
    except EngineError as exc:
        raise EngineStartError(f"no handshake: {exc.message}") from None
    try:
        variant = settings.variant.name
        if engine.option("Variant") is not None or spec.proto == "hub":
            engine.set_option("Variant", variant)  # HubEngine maps it (or refuses) itself
        elif variant != "english":
            raise EngineStartError(f"the engine has no Variant option, so it cannot play {variant}")
        for name, value in spec.options:
            engine.set_option(name, value)
    except EngineError as exc:
        engine.quit()
        reason = exc.reason if isinstance(exc, CommandRejectedError) else exc.message
        raise EngineStartError(f"setup failed: {reason}") from None
    except BaseException:
        engine.quit()
        raise
    return engine


class EngineSlot:
    """One engine process for one spec, owned by one worker; started lazily, restarted after a
    crash, a hang or a protocol failure."""

    def __init__(self, spec: EngineSpec, settings: Settings) -> None:
        self.spec = spec
        self.settings = settings
        self.engine: Any = None
        self.starts = 0

    def get(self) -> Any:
        if self.engine is None:
            self.starts += 1
            self.engine = start_engine(self.spec, self.settings)
        return self.engine

    def discard(self, quick: bool = True) -> None:
        engine, self.engine = self.engine, None
        if engine is not None:
            if quick:
                engine.quit_timeout = 0.3
            try:
                engine.quit()
            except Exception:  # noqa: BLE001 - best effort: the process is being dropped
                pass

    def close(self) -> None:
        self.discard(quick=False)


# --------------------------------------------------------------------------- the plan


@dataclass(frozen=True)
class PlannedGame:
    """One game of the plan: ``white``/``black`` are engine numbers (0-based)."""

    index: int
    pairing: int
    opening: int
    white: int
    black: int


def build_pairings(n_engines: int, tournament: str) -> List[Tuple[int, int]]:
    if n_engines < 2:
        raise MatchError("a match needs at least two engines")
    if tournament == "gauntlet":
        return [(0, j) for j in range(1, n_engines)]
    if tournament == "round-robin":
        return [(i, j) for i in range(n_engines) for j in range(i + 1, n_engines)]
    raise MatchError(f"unknown tournament {tournament!r} (round-robin or gauntlet)")


def build_plan(n_engines: int, tournament: str, games: int) -> List[PlannedGame]:
    """The whole match, in index order (see the module docstring)."""
    if games < 1:
        raise MatchError(f"--games must be at least 1, got {games}")
    pairings = build_pairings(n_engines, tournament)
    plan: List[PlannedGame] = []
    for opening in range((games + 1) // 2):
        for number, (first, second) in enumerate(pairings):
            plan.append(PlannedGame(len(plan), number, opening, first, second))
            if 2 * opening + 1 < games:
                plan.append(PlannedGame(len(plan), number, opening, second, first))
    return plan


# --------------------------------------------------------------------------- one game


@dataclass
class GameRecord:
    """A finished game: ``outcome`` is ``white``, ``black`` or ``draw``."""

    index: Optional[int]
    white: str
    black: str
    outcome: str
    termination: str = "normal"
    reason: str = ""
    plies: int = 0
    text: str = ""
    moves: Tuple[str, ...] = ()
    event: str = ""

    @property
    def loser(self) -> Optional[str]:
        if self.outcome == "white":
            return self.black
        if self.outcome == "black":
            return self.white
        return None


def _pdn_comment(text: str) -> str:
    return " ".join(text.replace("{", "(").replace("}", ")").split())


def game_text(game: Game, tags: Dict[str, str], comment: str) -> str:
    """PDN of ``game`` with ``comment`` just before the result token."""
    text = game.to_pdn(tags)
    if not comment:
        return text
    lines = text.rstrip("\n").split("\n")
    result = tags["Result"]
    last = lines[-1]
    if last == result:
        lines[-1] = f"{{{_pdn_comment(comment)}}} {result}"
    else:
        lines[-1] = last[: -len(result)].rstrip()
        lines.append(f"{{{_pdn_comment(comment)}}} {result}")
    return "\n".join(lines) + "\n\n"


def play_game(planned: PlannedGame, specs: Sequence[EngineSpec],
              slots: Dict[int, EngineSlot], settings: Settings) -> Optional[GameRecord]:
    """Play one planned game with the worker's engines; None if the match was aborted."""
    opening = settings.openings[planned.opening % len(settings.openings)]
    game = opening.game(settings.variant)
    opening_plies = game.ply
    side_engine = {"white": planned.white, "black": planned.black}
    names = {side: specs[number].name for side, number in side_engine.items()}

    def finish(outcome: str, termination: str, reason: str) -> GameRecord:
        result = GameResult(outcome, reason).score_text(settings.variant.size == 10)
        tags = {"Event": settings.event, "Site": "?", "Date": settings.date or "????.??.??",
                "Round": str(planned.index + 1), "White": names["white"],
                "Black": names["black"], "Result": result, "Termination": termination,
                "PlyCount": str(game.ply)}
        return GameRecord(planned.index, names["white"], names["black"], outcome, termination,
                          reason, game.ply, game_text(game, tags, reason),
                          tuple(m.pdn() for m in game.moves), settings.event)

    def forfeit(side: str, termination: str, reason: str) -> GameRecord:
        winner = "black" if side == "white" else "white"
        return finish(winner, termination, f"{side.capitalize()} ({names[side]}) forfeits: {reason}")

    # start both engines and tell them a new game begins
    engines: Dict[str, Any] = {}
    for side in ("white", "black"):
        slot = slots[side_engine[side]]
        failure = ""
        for _attempt in range(2):  # an engine that died between games gets one restart
            try:
                engine = slot.get()
                engine.new_game()
                engines[side] = engine
                break
            except EngineStartError as exc:
                failure = str(exc)
                slot.discard()
                break  # a fresh start failed: no point retrying at once
            except EngineError as exc:
                failure = exc.message
                slot.discard()
        if side not in engines:
            return forfeit(side, "crash", f"engine could not start: {failure}")

    clocks: Dict[str, Optional[Clock]] = {
        side: Clock(specs[number].tc) if specs[number].tc else None
        for side, number in side_engine.items()}
    margin = settings.timemargin_ms
    start_fen = opening.fen
    while True:
        if settings.abort.is_set():
            return None
        state = game.result()
        if state.is_over:
            return finish(state.outcome or "draw", "normal", state.reason)
        if settings.max_plies and game.ply - opening_plies >= settings.max_plies:
            return finish("draw", "adjudication",
                          f"move cap: {settings.max_plies} plies played without a result")
        side = "white" if game.position.white_to_move else "black"
        other = "black" if side == "white" else "white"
        spec = specs[side_engine[side]]
        slot = slots[side_engine[side]]
        engine = engines[side]
        clock = clocks[side]
        limits, budget_ms = _go_limits(spec, side, clock, clocks[other])
        timeout = (budget_ms + margin) / 1000 if budget_ms is not None else settings.move_timeout
        moves = [m.pdn() for m in game.moves]
        searching = False
        try:
            engine.position(start_fen, moves)
            searching = True
            started = time.monotonic()
            result = engine.go(limits, timeout=timeout)
            elapsed_ms = (time.monotonic() - started) * 1000
        except EngineTimeoutError as exc:
            slot.discard()
            if not searching:
                return forfeit(side, "stalled", f"engine stopped answering ({exc.message})")
            if budget_ms is not None:
                return forfeit(side, "time forfeit",
                               f"no bestmove within {timeout:.3f} s ({_time_text(spec, clock, margin)})")
            return forfeit(side, "stalled", f"no bestmove within {timeout:g} s "
                                            f"({spec.limits_text()}); see --move-timeout")
        except EngineTerminatedError as exc:
            slot.discard()
            return forfeit(side, "crash", f"crashed: {exc.message}")
        except CommandRejectedError as exc:
            slot.discard()
            return forfeit(side, "protocol error", f"the engine answered error {exc.reason}")
        except EngineError as exc:
            slot.discard()
            return forfeit(side, "protocol error", exc.message)
        if clock is not None and not clock.punch(elapsed_ms, margin):
            return forfeit(side, "time forfeit",
                           f"took {elapsed_ms / 1000:.3f} s with "
                           f"{_time_text(spec, clock, margin, elapsed_ms)}")
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


def _go_limits(spec: EngineSpec, side: str, clock: Optional[Clock],
               other: Optional[Clock]) -> Tuple[SearchLimits, Optional[float]]:
    """The ``go`` limits for ``spec`` and the time it may use (ms; None: no time limit)."""
    kwargs: Dict[str, Any] = {"depth": spec.depth, "nodes": spec.nodes,
                              "movetime_ms": spec.movetime}
    budgets: List[float] = []
    if spec.movetime is not None:
        budgets.append(float(spec.movetime))
    if clock is not None:
        other = other if other is not None else clock
        own_ms = min(_MAX_CLOCK_MS, int(clock.remaining_ms))
        other_ms = min(_MAX_CLOCK_MS, int(other.remaining_ms))
        white, black = (clock, other) if side == "white" else (other, clock)
        kwargs.update(wtime_ms=own_ms if side == "white" else other_ms,
                      btime_ms=own_ms if side == "black" else other_ms,
                      winc_ms=white.tc.inc_ms, binc_ms=black.tc.inc_ms,
                      movestogo=clock.movestogo)
        budgets.append(clock.remaining_ms)
    return SearchLimits(**kwargs), (min(budgets) if budgets else None)


def _time_text(spec: EngineSpec, clock: Optional[Clock], margin_ms: int,
               elapsed_ms: float = 0.0) -> str:
    """What the engine had: its clock before the move, or its limits."""
    if clock is None:
        return spec.limits_text()
    before = clock.remaining_ms + elapsed_ms
    return f"{before / 1000:.3f} s on its clock, tc={spec.tc}, margin {margin_ms} ms"


# --------------------------------------------------------------------------- reading PDN files


def _chunks(text: str) -> List[Tuple[int, int]]:
    """(start, end) offsets of the games of PDN text: a game starts at a tag line that follows a
    non-tag line."""
    spans: List[Tuple[int, int]] = []
    offset = 0
    start: Optional[int] = None
    previous_tag = False
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        is_tag = stripped.startswith("[")
        if is_tag and not previous_tag:
            if start is not None:
                spans.append((start, offset))
            start = offset
        if stripped:
            previous_tag = is_tag
        offset += len(line)
    if start is not None:
        spans.append((start, offset))
    elif text.strip():
        spans.append((0, len(text)))
    return spans


_OUTCOMES = {"1-0": "white", "2-0": "white", "0-1": "black", "0-2": "black",
             "1/2-1/2": "draw", "1-1": "draw"}


def record_from_game(game: Any, text: str) -> Optional[GameRecord]:
    """A :class:`GameRecord` from a game read from PDN; None if it has no decisive/draw result."""
    tags = game.tags
    outcome = _OUTCOMES.get(tags.get("Result", "*"))
    if outcome is None:
        return None
    round_tag = tags.get("Round", "")
    index = int(round_tag) - 1 if round_tag.isdigit() and int(round_tag) >= 1 else None
    return GameRecord(index, tags.get("White", "?"), tags.get("Black", "?"), outcome,
                      tags.get("Termination", "normal"), "", game.ply, text,
                      tuple(m.pdn() for m in game.moves), tags.get("Event", ""))


@dataclass
class PdnContents:
    records: List[GameRecord]
    good_end: int            # byte offset after the last complete game
    size: int                # length of the file in bytes
    problems: List[str]


def read_records(path: str, variant: Optional[Variant] = None) -> PdnContents:
    """The finished games of a PDN file; games that do not parse or lack a result token are
    reported in ``problems`` (a cut-off last game is what an interrupted writer leaves)."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            text = handle.read()
    except FileNotFoundError:
        return PdnContents([], 0, 0, [])
    except UnicodeDecodeError as exc:
        raise MatchError(f"{path} is not UTF-8 text: {exc}") from None
    except OSError as exc:
        raise MatchError(f"cannot read {path}: {exc.strerror or exc}") from None
    records: List[GameRecord] = []
    problems: List[str] = []
    good_end = 0
    for start, end in _chunks(text):
        chunk = text[start:end]
        line = text.count("\n", 0, start) + 1
        words = chunk.split()
        if not words or words[-1] not in RESULT_TOKENS:
            problems.append(f"{path}:{line}: an unfinished game (no result at its end)")
            continue
        try:
            games = read_games(chunk, variant, source=f"{path}")
        except DraughtsError as exc:
            problems.append(f"{path}:{line}: {exc}")
            continue
        for game in games:
            record = record_from_game(game, chunk.strip("\n") + "\n\n")
            if record is None:
                problems.append(f"{path}:{line}: a game without a result")
            else:
                records.append(record)
        good_end = end
    return PdnContents(records, len(text[:good_end].encode("utf-8")),
                       len(text.encode("utf-8")), problems)


# --------------------------------------------------------------------------- statistics


@dataclass
class PairStats:
    """Results of ``first`` against ``second``, from ``first``'s point of view."""

    first: str
    second: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    order: float = math.inf

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, points_first: float) -> None:
        if points_first == 1.0:
            self.wins += 1
        elif points_first == 0.0:
            self.losses += 1
        else:
            self.draws += 1


@dataclass
class Summary:
    pairs: List[PairStats]
    engines: Dict[str, PairStats]           # per engine, second = "all"
    terminations: Dict[str, int]
    forfeits: Dict[Tuple[str, str], int]    # (termination, loser) -> games


def _points(record: GameRecord, player: str) -> float:
    if record.outcome == "draw":
        return 0.5
    winner = record.white if record.outcome == "white" else record.black
    return 1.0 if winner == player else 0.0


def summarize(records: Sequence[GameRecord], engine_order: Sequence[str] = ()) -> Summary:
    """Tables from records. A pairing's first engine is the one with White in its even-index
    games (the plan's order), so sharded and whole matches give the same orientation."""
    ordered = sorted(records, key=lambda r: (r.index is None, r.index if r.index is not None else 0))
    pairs: Dict[frozenset, PairStats] = {}
    engines: Dict[str, PairStats] = {name: PairStats(name, "all") for name in engine_order}
    terminations: Dict[str, int] = collections.Counter()
    forfeits: Dict[Tuple[str, str], int] = collections.Counter()
    for position, record in enumerate(ordered):
        key = frozenset((record.white, record.black))
        stats = pairs.get(key)
        if stats is None:
            if record.index is not None:
                first, second = ((record.white, record.black) if record.index % 2 == 0
                                 else (record.black, record.white))
            else:
                first, second = record.white, record.black
            if engine_order and first in engine_order and second in engine_order \
                    and engine_order.index(first) > engine_order.index(second):
                first, second = second, first
            stats = pairs[key] = PairStats(first, second)
        stats.order = min(stats.order, record.index if record.index is not None
                          else 1e12 + position)
        stats.add(_points(record, stats.first))
        for name in (record.white, record.black):
            engines.setdefault(name, PairStats(name, "all")).add(_points(record, name))
        terminations[record.termination] += 1
        if record.termination in FORFEITS and record.loser is not None:
            forfeits[(record.termination, record.loser)] += 1
    pair_list = sorted(pairs.values(), key=lambda p: p.order)
    return Summary(pair_list, engines, dict(terminations), dict(forfeits))


def _percent(value: float) -> str:
    return "nan" if math.isnan(value) else f"{100 * value:.1f}%"


def score_line(stats: PairStats) -> str:
    """``Score of A vs B: W - L - D [0.550] N, Elo +34.9 +/- 48.5, LOS 92.1%``."""
    est = elo_interval(stats.wins, stats.draws, stats.losses)
    score = "nan" if stats.games == 0 else f"{est.score:.3f}"
    error = "nan" if math.isnan(est.error) else ("inf" if math.isinf(est.error)
                                                  else f"{est.error:.1f}")
    return (f"Score of {stats.first} vs {stats.second}: {stats.wins} - {stats.losses} - "
            f"{stats.draws} [{score}] {stats.games}, Elo {format_elo(est.elo)} +/- {error}, "
            f"LOS {_percent(los(stats.wins, stats.draws, stats.losses))}")


def format_report(records: Sequence[GameRecord], engine_order: Sequence[str] = (),
                  sprt: Optional[SprtConfig] = None) -> List[str]:
    """The final table; the last line is the one-line summary."""
    summary = summarize(records, engine_order)
    lines: List[str] = []
    if not summary.pairs:
        lines.append("No finished games.")
        return lines
    width = max(len(f"{p.first} vs {p.second}") for p in summary.pairs)
    width = max(width, len("pairing"))
    lines.append(f"{'pairing':<{width}}  games     +     =     -   score  draws      Elo"
                 f"   95% interval          LOS")
    for stats in summary.pairs:
        est = elo_interval(stats.wins, stats.draws, stats.losses)
        draws = stats.draws / stats.games if stats.games else math.nan
        interval = f"[{format_elo(est.low)}, {format_elo(est.high)}]"
        lines.append(
            f"{stats.first + ' vs ' + stats.second:<{width}}  {stats.games:5d} {stats.wins:5d} "
            f"{stats.draws:5d} {stats.losses:5d}  {_percent(est.score):>6} {_percent(draws):>6} "
            f"{format_elo(est.elo):>8}   {interval:<20} {_percent(los(stats.wins, stats.draws, stats.losses)):>6}")
    if len(summary.engines) > 2:
        lines.append("")
        name_width = max(len("engine"), max(len(n) for n in summary.engines))
        lines.append(f"{'engine':<{name_width}}  games     +     =     -   score      Elo")
        for stats in sorted(summary.engines.values(),
                            key=lambda s: -(s.wins + s.draws / 2) / s.games if s.games else 0):
            est = elo_interval(stats.wins, stats.draws, stats.losses)
            lines.append(f"{stats.first:<{name_width}}  {stats.games:5d} {stats.wins:5d} "
                         f"{stats.draws:5d} {stats.losses:5d}  {_percent(est.score):>6} "
                         f"{format_elo(est.elo):>8}")
    lines.append("")
    ends = ", ".join(f"{name} {count}" for name, count in sorted(
        summary.terminations.items(), key=lambda item: (TERMINATIONS.index(item[0])
                                                        if item[0] in TERMINATIONS else 99, item[0])))
    lines.append(f"Terminations: {ends}")
    if summary.forfeits:
        lines.append("Forfeits: " + ", ".join(
            f"{loser} {termination} {count}"
            for (termination, loser), count in sorted(summary.forfeits.items(),
                                                      key=lambda item: (item[0][1], item[0][0]))))
    head = summary.pairs[0]
    verdict_text = ""
    if sprt is not None:
        llr, verdict = sprt_status(head.wins, head.draws, head.losses, sprt)
        lower, upper = sprt_bounds(sprt.alpha, sprt.beta)
        decided = {"H0": "H0 accepted", "H1": "H1 accepted"}.get(verdict or "", "no decision yet")
        lines.append(f"SPRT ({sprt}): LLR {llr:.2f} in [{lower:.2f}, {upper:.2f}]: {decided}")
        verdict_text = f", SPRT LLR {llr:.2f} ({decided})"
    if len(summary.pairs) == 1:
        lines.append(score_line(head) + verdict_text)
    else:
        first = engine_order[0] if engine_order else head.first
        total = summary.engines[first]
        lines.append(score_line(PairStats(first, "the field", total.wins, total.draws,
                                          total.losses)) + verdict_text)
    return lines


# --------------------------------------------------------------------------- the runner


@dataclass
class MatchConfig:
    engines: List[EngineSpec]
    variant: Variant
    tournament: str = "round-robin"
    games: int = 2
    openings: List[Opening] = field(default_factory=list)
    opening_text: str = ""
    concurrency: int = 1
    pdn: Optional[str] = None
    resume: bool = False
    overwrite: bool = False
    shard: Tuple[int, int] = (1, 1)
    sprt: Optional[SprtConfig] = None
    max_plies: int = 400
    timemargin_ms: int = 200
    move_timeout: float = 120.0
    start_timeout: float = 20.0
    event: str = "draughts-match"
    quiet: bool = False


class MatchRunner:
    """Runs a :class:`MatchConfig`: plan, resume, worker threads, PDN, progress, SPRT, table."""

    def __init__(self, config: MatchConfig, out: Optional[IO[str]] = None,
                 err: Optional[IO[str]] = None) -> None:
        self.config = config
        self.out = out if out is not None else sys.stdout
        self.err = err if err is not None else sys.stderr
        names = [spec.name for spec in config.engines]
        if len(set(names)) != len(names):
            raise MatchError(f"engine names must differ: {', '.join(names)}")
        if config.resume and not config.pdn:
            raise MatchError("--resume needs --pdn FILE")
        k, n = config.shard
        if not 1 <= k <= n:
            raise MatchError(f"--shard K/N needs 1 <= K <= N, got {k}/{n}")
        self.plan = build_plan(len(config.engines), config.tournament, config.games)
        self.pairings = build_pairings(len(config.engines), config.tournament)
        if config.sprt is not None and len(self.pairings) != 1:
            raise MatchError("--sprt needs exactly one pairing (two engines)")
        if not config.openings:
            raise MatchError("no openings")
        self.settings = Settings(config.variant, config.openings, config.max_plies,
                                 config.timemargin_ms, config.move_timeout, config.start_timeout,
                                 config.event, datetime.date.today().strftime("%Y.%m.%d"))
        self.records: List[GameRecord] = []
        self.todo: Deque[PlannedGame] = collections.deque()
        self.lock = threading.Lock()
        self.results: "queue.Queue[Tuple[str, Any, Any]]" = queue.Queue()
        self.running = 0
        self.verdict: Optional[str] = None
        self.interrupted = False
        self.failure: Optional[str] = None
        self._pdn_handle: Optional[IO[str]] = None
        self.head = PairStats(config.engines[0].name, "the field")
        self._progress_open = False

    # ---------------------------------------------------------------- setup

    def _my_games(self) -> List[PlannedGame]:
        k, n = self.config.shard
        return [g for g in self.plan if g.index % n == k - 1]

    def _load_existing(self) -> None:
        """Read the PDN file for --resume (checking it belongs to this plan), or refuse to
        append a new match to a file that has games."""
        path = self.config.pdn
        if not path:
            return
        exists = os.path.exists(path) and os.path.getsize(path) > 0
        if not self.config.resume:
            if exists and not self.config.overwrite:
                raise MatchError(f"{path} already has games: use --resume to continue that match "
                                 f"or --overwrite to replace it")
            with open(path, "w", encoding="utf-8"):
                pass
            return
        contents = read_records(path, self.config.variant)
        problems = list(contents.problems)
        cut_tail = contents.good_end < contents.size
        if cut_tail and problems:
            problems.pop()  # the unfinished game at the end: an interrupted writer left it
        if problems:
            raise MatchError(f"cannot resume from {path}:\n  " + "\n  ".join(problems))
        if cut_tail:
            self._say(f"resume: dropping an unfinished game at the end of {path}")
            with open(path, "r+b") as handle:
                handle.truncate(contents.good_end)
        names = [spec.name for spec in self.config.engines]
        mine = {g.index: g for g in self._my_games()}
        seen: Dict[int, GameRecord] = {}
        for record in contents.records:
            planned = mine.get(record.index) if record.index is not None else None
            if planned is None:
                shown = "?" if record.index is None else str(record.index + 1)
                k, n = self.config.shard
                raise MatchError(f"cannot resume from {path}: its game with Round {shown} is not "
                                 f"in this match plan (shard {k}/{n} of {len(self.plan)} games)")
            expected = (names[planned.white], names[planned.black])
            if (record.white, record.black) != expected:
                raise MatchError(f"cannot resume from {path}: game Round {record.index + 1} is "
                                 f"{record.white} vs {record.black}, the plan has "
                                 f"{expected[0]} vs {expected[1]}")
            if record.index in seen:
                continue  # a duplicate: count it once
            seen[record.index] = record
        self.records = list(seen.values())

    def _preflight(self, specs: Sequence[EngineSpec]) -> None:
        """Start each engine once so a bad command or option fails the match at once."""
        for spec in specs:
            try:
                engine = start_engine(spec, self.settings)
            except EngineStartError as exc:
                raise MatchError(f"engine {spec.name}: {exc}") from None
            engine.quit()

    # ---------------------------------------------------------------- output

    def _say(self, text: str) -> None:
        if self._progress_open:
            self.err.write("\n")
            self._progress_open = False
        self.err.write(text + "\n")
        self.err.flush()

    def _progress(self, text: str) -> None:
        if self.config.quiet:
            return
        if getattr(self.err, "isatty", lambda: False)():
            self.err.write("\r\x1b[K" + text)
            self._progress_open = True
        else:
            self.err.write(text + "\n")
        self.err.flush()

    def _write_pdn(self, record: GameRecord) -> None:
        if self._pdn_handle is None:
            return
        self._pdn_handle.write(record.text)
        self._pdn_handle.flush()
        try:
            os.fsync(self._pdn_handle.fileno())
        except OSError:
            pass

    def _count(self, record: GameRecord) -> None:
        """Add a game to the running tally of the head line (the pairing, or the first engine
        against the field when there are several pairings)."""
        head = self.head
        if head.first in (record.white, record.black):
            head.add(_points(record, head.first))

    def _sprt_check(self) -> Optional[str]:
        if self.config.sprt is None:
            return None
        head = self.head
        return sprt_status(head.wins, head.draws, head.losses, self.config.sprt)[1]

    def _progress_text(self, record: GameRecord, total: int) -> str:
        head = self.head
        est = elo_interval(head.wins, head.draws, head.losses)
        result = GameResult(record.outcome, "").score_text()
        error = "inf" if math.isinf(est.error) or math.isnan(est.error) else f"{est.error:.0f}"
        text = (f"[{len(self.records)}/{total}] #{(record.index or 0) + 1} {record.white} - "
                f"{record.black} {result} ({record.termination}) | {head.first} "
                f"+{head.wins} ={head.draws} -{head.losses} {_percent(est.score)} "
                f"Elo {format_elo(est.elo, 0)} +/- {error}")
        if self.config.sprt is not None:
            llr, _ = sprt_status(head.wins, head.draws, head.losses, self.config.sprt)
            text += f" LLR {llr:.2f}"
        return text + f" | {self.running} running"

    # ---------------------------------------------------------------- running

    def _worker(self, number: int) -> None:
        slots: Dict[int, EngineSlot] = {}
        try:
            while not self.settings.abort.is_set():
                with self.lock:
                    if not self.todo:
                        break
                    planned = self.todo.popleft()
                    self.running += 1
                for engine_number in (planned.white, planned.black):
                    if engine_number not in slots:
                        slots[engine_number] = EngineSlot(self.config.engines[engine_number],
                                                          self.settings)
                try:
                    record = play_game(planned, self.config.engines, slots, self.settings)
                except Exception:  # noqa: BLE001 - a bug: stop the match and say where
                    self.results.put(("error", planned, traceback.format_exc()))
                    self.settings.abort.set()
                    break
                finally:
                    with self.lock:
                        self.running -= 1
                self.results.put(("game", planned, record))
        finally:
            for slot in slots.values():
                slot.close()
            self.results.put(("done", number, None))

    def run(self) -> int:
        config = self.config
        self._load_existing()
        mine = self._my_games()
        done = {r.index for r in self.records}
        self.todo.extend(g for g in mine if g.index not in done)
        total = len(mine)
        names = [spec.name for spec in config.engines]
        self.head = PairStats(names[0], names[1] if len(self.pairings) == 1 else "the field")
        for record in self.records:
            self._count(record)
        self.verdict = self._sprt_check()
        shard = "" if config.shard == (1, 1) else f", shard {config.shard[0]}/{config.shard[1]}"
        self._say(f"Match: {config.variant.name}, {' vs '.join(names)} "
                  f"({config.tournament}), {len(self.plan)} games{shard}: {len(self.records)} "
                  f"done, {len(self.todo) if self.verdict is None else 0} to play, concurrency "
                  f"{config.concurrency}; openings: {config.opening_text}")
        for spec in config.engines:
            self._say(f"  {spec.name}: {shlex.join(spec.command)} ({spec.limits_text()}"
                      + "".join(f" option.{n}={v}" for n, v in spec.options)
                      + (f" proto={spec.proto}" if spec.proto != "uci" else "") + ")")
        if self.todo and self.verdict is None:
            needed = sorted({g.white for g in self.todo} | {g.black for g in self.todo})
            self._preflight([config.engines[i] for i in needed])
            if config.pdn:
                self._pdn_handle = open(config.pdn, "a", encoding="utf-8", newline="\n")
            try:
                self._play(total)
            finally:
                if self._pdn_handle is not None:
                    self._pdn_handle.close()
                    self._pdn_handle = None
        if self._progress_open:
            self.err.write("\n")
            self._progress_open = False
        if self.failure:
            self._say(self.failure)
        if self.verdict is not None:
            self._say(f"SPRT: {self.verdict} accepted after {len(self.records)} games; "
                      f"match stopped")
        if self.interrupted:
            self._say(f"Interrupted after {len(self.records)} of {total} games; continue with "
                      f"--resume" if config.pdn else "Interrupted.")
        for line in format_report(self.records, names, config.sprt):
            self.out.write(line + "\n")
        self.out.flush()
        if self.failure:
            return 1
        return 130 if self.interrupted else 0

    def _play(self, total: int) -> None:
        workers = max(1, min(self.config.concurrency, len(self.todo)))
        threads = [threading.Thread(target=self._worker, args=(i,), name=f"match-worker-{i}",
                                    daemon=True) for i in range(workers)]
        for thread in threads:
            thread.start()
        finished = 0
        while finished < workers:
            try:
                try:
                    kind, item, payload = self.results.get(timeout=0.25)
                except queue.Empty:
                    continue
                if kind == "done":
                    finished += 1
                elif kind == "error":
                    self.failure = f"internal error in game {item.index + 1}:\n{payload}"
                elif payload is not None:
                    self.records.append(payload)
                    self._count(payload)
                    self._write_pdn(payload)
                    self._progress(self._progress_text(payload, total))
                    if self.verdict is None:
                        self.verdict = self._sprt_check()
                        if self.verdict is not None:
                            self.settings.abort.set()
            except KeyboardInterrupt:
                if self.interrupted:
                    raise
                self.interrupted = True
                self.settings.abort.set()
                self._say("Interrupted: stopping the running games (Ctrl-C again to quit at once)")
        for thread in threads:
            thread.join()


# --------------------------------------------------------------------------- command line


def _parse_shard(text: str) -> Tuple[int, int]:
    k, sep, n = text.partition("/")
    if not sep or not k.isdigit() or not n.isdigit() or not 1 <= int(k) <= int(n):
        raise MatchError(f"--shard must be K/N with 1 <= K <= N, got {text!r}")
    return int(k), int(n)


def _match_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="draughts-match",
        description="Play engines against each other and write PDN. "
                    "'draughts-match merge A.pdn B.pdn ...' prints the table of finished matches.",
        epilog="Engine keys: name=, cmd=\"...\", dir=, proto=uci|hub, depth=N, nodes=N, "
               "movetime=MS, st=SECONDS, tc=[MOVES/]SECONDS[+INC], option.NAME=VALUE.",
    )
    parser.add_argument("--engine", action="append", nargs="+", metavar="KEY=VALUE", default=[],
                        help="an engine (give two or more)")
    parser.add_argument("--each", nargs="+", metavar="KEY=VALUE", default=[],
                        help="keys applied to every engine (an engine's own keys win)")
    parser.add_argument("--variant", default="english", help="english (default), russian, "
                        "brazilian, international or an alias")
    parser.add_argument("--tournament", default="round-robin", choices=("round-robin", "gauntlet"))
    parser.add_argument("--games", type=int, default=2,
                        help="games per pairing (pairs of games share an opening; default 2)")
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1,
                        help="games played at once (default: the number of cores)")
    parser.add_argument("--openings", metavar="FILE", help="FENs (one a line) or PDN games")
    parser.add_argument("--opening-plies", type=int, default=None, metavar="N",
                        help="random openings of N plies (default 4; 0: the start position)")
    parser.add_argument("--seed", default="1", help="seed of the random openings (default 1)")
    parser.add_argument("--pdn", metavar="FILE", help="append each finished game to FILE")
    parser.add_argument("--resume", action="store_true",
                        help="skip the games already in --pdn FILE and play the rest")
    parser.add_argument("--overwrite", action="store_true",
                        help="start --pdn FILE afresh even if it has games")
    parser.add_argument("--shard", default="1/1", metavar="K/N",
                        help="play only the games whose index %% N == K-1")
    parser.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                        help="elo0=0 elo1=10 alpha=0.05 beta=0.05: stop when H0 or H1 is accepted")
    parser.add_argument("--max-plies", type=int, default=400, metavar="N",
                        help="adjudicate a draw after N plies played by the engines "
                             "(after the opening; 0: no cap; default 400)")
    parser.add_argument("--timemargin", type=int, default=200, metavar="MS",
                        help="overstep allowed on the clock or movetime before a time forfeit "
                             "(default 200)")
    parser.add_argument("--move-timeout", type=float, default=120.0, metavar="S",
                        help="a search without a time limit (depth, nodes) that takes longer is "
                             "a forfeit (stalled; default 120)")
    parser.add_argument("--start-timeout", type=float, default=20.0, metavar="S",
                        help="time for an engine to start and answer uci/isready (default 20)")
    parser.add_argument("--event", default="draughts-match", help="the PDN Event tag")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    return parser


def config_from_args(argv: Sequence[str]) -> MatchConfig:
    args = _match_parser().parse_args(list(argv))
    if len(args.engine) < 2:
        raise MatchError("give at least two --engine")
    try:
        variant = get_variant(args.variant)
    except ValueError as exc:
        raise MatchError(str(exc)) from None
    engines = [parse_engine(tokens, args.each, i + 1) for i, tokens in enumerate(args.engine)]
    if args.concurrency < 1:
        raise MatchError("--concurrency must be at least 1")
    if args.max_plies < 0 or args.timemargin < 0 or args.move_timeout <= 0:
        raise MatchError("--max-plies and --timemargin must be >= 0, --move-timeout > 0")
    pairs_needed = (args.games + 1) // 2
    try:
        if args.openings:
            if args.opening_plies is not None:
                raise MatchError("give --openings FILE or --opening-plies N, not both")
            openings = load_openings(args.openings, variant)
            opening_text = f"{len(openings)} from {args.openings}"
        else:
            plies = 4 if args.opening_plies is None else args.opening_plies
            openings = generate_openings(variant, plies, max(1, pairs_needed), args.seed)
            opening_text = ("the start position" if plies == 0
                            else f"{len(set(openings))} random {plies}-ply lines, seed {args.seed}")
    except OpeningError as exc:
        raise MatchError(str(exc)) from None
    sprt = None
    if args.sprt:
        try:
            sprt = SprtConfig.parse(args.sprt)
        except ValueError as exc:
            raise MatchError(str(exc)) from None
    return MatchConfig(
        engines=engines, variant=variant, tournament=args.tournament, games=args.games,
        openings=openings, opening_text=opening_text, concurrency=args.concurrency,
        pdn=args.pdn, resume=args.resume, overwrite=args.overwrite,
        shard=_parse_shard(args.shard), sprt=sprt, max_plies=args.max_plies,
        timemargin_ms=args.timemargin, move_timeout=args.move_timeout,
        start_timeout=args.start_timeout, event=args.event, quiet=args.quiet)


def merge_main(argv: Sequence[str], out: Optional[IO[str]] = None,
               err: Optional[IO[str]] = None) -> int:
    """``draughts-match merge A.pdn B.pdn ... [-o OUT.pdn] [--sprt ...]``."""
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    parser = argparse.ArgumentParser(
        prog="draughts-match merge",
        description="The combined table of PDN files written by draughts-match (e.g. shards). "
                    "Games with the same Event and Round are counted once.")
    parser.add_argument("files", nargs="+", metavar="FILE.pdn")
    parser.add_argument("-o", "--output", metavar="OUT.pdn",
                        help="also write the combined games, in plan order")
    parser.add_argument("--sprt", nargs="+", metavar="KEY=VALUE", help="report the SPRT LLR too")
    args = parser.parse_args(list(argv))
    sprt = None
    if args.sprt:
        try:
            sprt = SprtConfig.parse(args.sprt)
        except ValueError as exc:
            raise MatchError(str(exc)) from None
    records: List[GameRecord] = []
    keys: Dict[Tuple[str, int], GameRecord] = {}
    duplicates = 0
    for path in args.files:
        if not os.path.exists(path):
            raise MatchError(f"{path}: no such file")
        contents = read_records(path)
        for problem in contents.problems:
            err.write(f"warning: skipped {problem}\n")
        for record in contents.records:
            if record.index is not None:
                key = (record.event, record.index)
                if key in keys:
                    duplicates += 1
                    continue
                keys[key] = record
            records.append(record)
    if duplicates:
        err.write(f"warning: {duplicates} game(s) appear more than once; counted once\n")
    records.sort(key=lambda r: (r.event, r.index is None, r.index or 0))
    events = sorted({r.event for r in records})
    err.write(f"Merged {len(records)} games from {len(args.files)} file(s)"
              + (f"; events: {', '.join(events)}" if len(events) > 1 else "") + "\n")
    err.flush()
    if args.output:
        with open(args.output, "w", encoding="utf-8", newline="\n") as handle:
            for record in records:
                handle.write(record.text)
    for line in format_report(records, (), sprt):
        out.write(line + "\n")
    out.flush()
    return 0


def _raise_interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] == ["merge"]:
            return merge_main(argv[1:])
        config = config_from_args(argv)
        if threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGTERM"):
            signal.signal(signal.SIGTERM, _raise_interrupt)
        return MatchRunner(config).run()
    except MatchError as exc:
        sys.stderr.write(f"draughts-match: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("draughts-match: interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
