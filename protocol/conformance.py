"""Conformance suite: check any engine against the contract in PROTOCOL.md.

Usage::

    draughts-conformance [options] -- <engine command...>
    python3 -m protocol.conformance --only 13-20 -- python3 -m protocol
    python3 -m protocol.conformance --list

Each numbered check prints one line ``PASS|FAIL|SKIP <number> <name>: <reason> (<seconds> s)``;
a FAIL is followed by the last lines exchanged with the engine (``> sent``, ``< received``,
``! stderr``, ``# event``). The last line reads ``N passed, N failed, N skipped``. The exit status
is 0 when nothing failed, 1 when a check failed and 2 for a usage error.

How it works:

* :class:`Rules` wraps ``draughts_engine``: every position, move and count the engine reports is
  checked against the rules of the chosen variant, never against canned answers.
* :class:`EngineHandle` is one engine process plus the reference client
  (:class:`protocol.client.Engine`) talking to it.
* :class:`Harness` runs the checks one by one. A check runs on its own thread under a time budget;
  when the budget runs out the engine is killed, which ends every wait of the check. The engine is
  reused while checks pass and restarted after a failure. The whole run has a time budget too.
* A check is a function ``(Context) -> str``: it returns the PASS reason, raises
  :class:`CheckFailed` or :class:`CheckSkipped`. Optional debug commands (``d``, ``perft``,
  ``eval``) are probed: an engine that answers ``error unknown command`` gets SKIP.
"""

from __future__ import annotations

import argparse
import collections
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from types import MappingProxyType
from typing import (
    Callable,
    Deque,
    Dict,
    FrozenSet,
    List,
    Mapping,
    Optional,
    Sequence,
    Set,
    TextIO,
    Tuple,
    Union,
)

from draughts_engine import Game, Move, Position, get_variant, parse_move, perft, variant_names
from draughts_engine.bitboard import Geometry, geometry
from draughts_engine.errors import DraughtsError, IllegalMoveError
from draughts_engine.notation import move_text, parse_squares
from draughts_engine.variants import WHITE, UnknownVariantError
from protocol.client import (
    BestMove,
    Engine,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    InfoReport,
    OptionSpec,
    ProcessTransport,
    ProtocolError,
    parse_bestmove,
    parse_id,
    parse_info,
    parse_option,
)
from protocol.commands import (
    PROTOCOL_VERSION,
    ArgumentError,
    SetOption,
    is_move_token,
    token_spans,
    tokenize,
)
from protocol.commands import Position as PositionCommand

__all__ = [
    "ConformanceError",
    "UsageError",
    "CheckFailed",
    "CheckSkipped",
    "SetupError",
    "MoveTextError",
    "Config",
    "CheckResult",
    "Check",
    "CHECKS",
    "Rules",
    "Display",
    "parse_display",
    "compare_display",
    "check_info_line",
    "validate_handshake",
    "EngineHandle",
    "Harness",
    "run_suite",
    "main",
]

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"

PUBLISHED_PERFT: Mapping[str, Tuple[int, ...]] = MappingProxyType(
    {"english": (7, 49, 302, 1469)}
)
"""Published perft counts of the start position, depth 1 upwards (others come from the rules)."""

INFO_FIELDS = ("depth", "seldepth", "score", "nodes", "nps", "time", "hashfull", "pv")
"""The ``info`` fields in the order PROTOCOL.md gives them; all but ``pv`` are required."""

RESOURCE_OPTIONS = frozenset({"hash", "threads"})
"""Spin options not set to their maximum by the suite (a huge allocation proves nothing)."""

NO_MOVES_FEN = "W:W:B1"
"""A position whose side to move (White, without pieces) has no legal move in every variant."""


# --------------------------------------------------------------------------- errors


class ConformanceError(Exception):
    """Base of the suite's errors."""


class UsageError(ConformanceError):
    """Bad command-line arguments (exit status 2)."""


class CheckFailed(ConformanceError):
    """The engine broke the contract; the message says how."""


class CheckSkipped(ConformanceError):
    """The check does not apply to this engine (an optional command is not offered)."""


class SetupError(ConformanceError):
    """The engine could not be started, handshaken or switched to the variant under test."""


class MoveTextError(ConformanceError):
    """Move text from the engine that is not a legal move in full notation."""


def fail(reason: str) -> "CheckFailed":
    """Build a :class:`CheckFailed` (``raise fail(...)`` reads well in checks)."""
    return CheckFailed(reason)


# --------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class Config:
    """What to run and how patiently.

    ``timeout``: seconds to wait for any single answer (and the unit of each check's budget);
    ``stop_threshold_ms``: the worst acceptable latency of ``stop``, ``isready`` during a search
    and time-limit overshoot; ``grace``: seconds to watch for lines that must not come (a
    second ``bestmove``, a ``bestmove`` held back); ``total_timeout``: the whole run's budget.
    """

    command: Tuple[str, ...]
    variant: str = "english"
    timeout: float = 5.0
    stop_threshold_ms: int = 500
    stop_samples: int = 5
    grace: float = 0.3
    total_timeout: float = 300.0
    only: Optional[FrozenSet[int]] = None
    verbose: bool = False
    transcript_lines: int = 14

    @property
    def threshold(self) -> float:
        """``stop_threshold_ms`` in seconds."""
        return self.stop_threshold_ms / 1000


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check; ``transcript`` is kept for FAIL only."""

    number: int
    name: str
    status: str
    reason: str
    seconds: float
    transcript: Tuple[str, ...] = ()


@dataclass(frozen=True)
class Check:
    """One numbered check. ``run`` returns the PASS reason or raises CheckFailed/CheckSkipped.

    Its time budget is ``budget_units`` times ``Config.timeout`` plus ``extra`` seconds, plus
    the time of ``Config.stop_samples`` stopped searches when ``per_sample``.
    """

    number: int
    name: str
    summary: str
    run: Callable[["Context"], str]
    budget_units: float = 3.0
    extra: float = 2.0
    per_sample: bool = False

    def budget(self, config: Config) -> float:
        """Seconds this check may take before its engine is killed."""
        samples = config.stop_samples * (config.threshold + 0.6) if self.per_sample else 0.0
        return self.budget_units * config.timeout + self.extra + samples


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class OpeningLine:
    """A line of legal moves from the start position; ``capture_at`` is the index of a capture."""

    moves: Tuple[str, ...]
    capture_at: int


@dataclass(frozen=True)
class MultiCapture:
    """A position where the side to move has a capture of two or more pieces.

    ``full`` names every landing square; ``short`` is ``<from>x<to>`` (unambiguous here).
    """

    fen: str
    full: str
    short: str


def _move_key(move: Move) -> Tuple[int, ...]:
    return (move.start, move.end) + tuple(move.path)


class Rules:
    """The rules of one draughts variant as the suite needs them (wraps ``draughts_engine``).

    Derived test material (an opening line with a capture, a multi-capture position) is found
    by search on first use and kept on the instance. Raises :class:`UsageError` for a variant
    ``draughts_engine`` does not know.
    """

    def __init__(self, variant: str) -> None:
        try:
            self.variant = get_variant(variant)
        except UnknownVariantError as exc:
            raise UsageError(str(exc)) from None
        self.name: str = self.variant.name
        self.geometry: Geometry = geometry(self.variant.size)
        self._line: Optional[OpeningLine] = None
        self._multi: Optional[Optional[MultiCapture]] = None
        self._multi_searched = False

    # ---- positions ----------------------------------------------------------------

    def start(self) -> Position:
        """The start position."""
        return Position.start(self.variant)

    def from_fen(self, fen: str) -> Position:
        """Parse a FEN; raises :class:`DraughtsError` when the rules reject it."""
        return Position.from_fen(fen, self.variant)

    def play(self, position: Position, moves: Sequence[str]) -> Position:
        """The position after ``moves`` (texts the suite itself produced, trusted legal)."""
        for text in moves:
            position = position.play(text)
        return position

    def sorted_moves(self, position: Position) -> List[Move]:
        """Legal moves in a fixed order (by squares), for deterministic test material."""
        return sorted(position.legal_moves(), key=_move_key)

    def state_line(self, fen: Optional[str], moves: Sequence[str]) -> str:
        """The ``state`` line ``d`` must show after ``position fen|startpos moves ...``."""
        game = Game(self.variant, fen=fen) if fen else Game(self.variant)
        game.push_all(list(moves))
        result = game.result()
        if result.outcome is None:
            return "state ongoing"
        if result.outcome == "draw":
            return f"state draw {result.code}"
        return f"state win {result.outcome} {result.code}"

    def perft(self, position: Position, depth: int) -> int:
        """Leaf count below ``position`` (the published counts take precedence for the start)."""
        published = PUBLISHED_PERFT.get(self.name, ())
        if position == self.start() and depth <= len(published):
            return published[depth - 1]
        return perft(position, depth)

    # ---- engine move texts ----------------------------------------------------------

    def resolve(self, position: Position, text: str) -> Move:
        """The legal move ``text`` names, which must be in full notation.

        Full notation is ``<from>-<to>`` for a quiet move and every landing square joined by
        ``x`` for a capture (PROTOCOL.md section 6). Raises :class:`MoveTextError`.
        """
        if not is_move_token(text):
            raise MoveTextError(f"'{text}' is not a move token")
        try:
            move = parse_move(position, text)
            squares, _ = parse_squares(text, position)
        except DraughtsError as exc:
            raise MoveTextError(f"'{text}' is not legal in {position.fen()}: {exc}") from None
        if move.captured:
            canonical, wanted = "x".join(str(s) for s in squares), len(move.path)
        else:
            canonical, wanted = f"{squares[0]}-{squares[-1]}", 2
        if text != canonical or len(squares) != wanted:
            raise MoveTextError(f"'{text}' is not in full notation (expected {move.pdn()})")
        return move

    def resolve_line(self, position: Position, texts: Sequence[str]) -> Position:
        """Replay engine move texts (a pv) from ``position``; raises :class:`MoveTextError`."""
        for index, text in enumerate(texts):
            try:
                move = self.resolve(position, text)
            except MoveTextError as exc:
                raise MoveTextError(f"move {index + 1} of the line: {exc}") from None
            position = position.play_raw(move.raw)
        return position

    # ---- test material -----------------------------------------------------------------

    def opening_line(self, plies: int = 6) -> OpeningLine:
        """A line of at least ``plies`` plies from the start that contains a capture."""
        if self._line is None:
            prefix = self._shortest_capture_line(max_plies=6)
            position = self.play(self.start(), prefix)
            moves = list(prefix)
            while len(moves) < plies:
                legal = self.sorted_moves(position)
                if not legal:
                    break
                moves.append(legal[0].pdn())
                position = position.play_raw(legal[0].raw)
            self._line = OpeningLine(tuple(moves), len(prefix) - 1)
        return self._line

    def _shortest_capture_line(self, max_plies: int) -> Tuple[str, ...]:
        frontier: List[Tuple[Position, Tuple[str, ...]]] = [(self.start(), ())]
        for _ in range(max_plies):
            following: List[Tuple[Position, Tuple[str, ...]]] = []
            for position, line in frontier:
                for move in self.sorted_moves(position):
                    if move.captured:
                        return line + (move.pdn(),)
                    following.append((position.play_raw(move.raw), line + (move.pdn(),)))
            frontier = following
        raise ConformanceError(f"no capture within {max_plies} plies in {self.name}")

    def kings_fen(self) -> str:
        """A legal, ongoing position with kings and men of both sides, White to move."""
        squares, half = self.geometry.squares, self.geometry.half
        middle = squares // 2 + 1
        return f"W:WK{middle},{squares - 1}:BK2,{half + 1}"

    def ranged_fen(self) -> str:
        """The start position written with square ranges (``B:W21-32:B1-12``)."""
        start = self.start()
        geo = self.geometry

        def ranges(bits: int) -> str:
            squares = geo.squares_of(bits)
            runs: List[List[int]] = []
            for square in squares:
                if runs and runs[-1][-1] + 1 == square:
                    runs[-1].append(square)
                else:
                    runs.append([square])
            return ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)

        side = "W" if start.white_to_move else "B"
        return f"{side}:W{ranges(start.white)}:B{ranges(start.black)}"

    def illegal_move(self, position: Position) -> str:
        """A well-formed move text that is not legal in ``position`` (preferably a move of the
        side not to move, the most natural mistake)."""
        flipped = Position(self.variant, position.white, position.black, position.kings,
                           not position.white_to_move)
        candidates = [m.pdn() for m in self.sorted_moves(flipped)]
        squares = self.geometry.squares
        candidates += [f"{a}-{b}" for a in range(1, squares + 1) for b in (a + 1, a - 1)
                       if 1 <= b <= squares]
        for text in candidates:
            try:
                parse_move(position, text)
            except IllegalMoveError:
                return text
            except DraughtsError:
                continue
        raise ConformanceError(f"no illegal move text found for {position.fen()}")

    def algebraic(self, position: Position, move: Move) -> Optional[str]:
        """The move in algebraic squares (``c3-d4``) on 8x8 boards, else None."""
        if self.geometry.size != 8:
            return None
        return move_text(move, algebraic=True, position=position)

    def multi_capture(self) -> Optional[MultiCapture]:
        """A position with a capture of two pieces for the variant's first mover, or None."""
        if not self._multi_searched:
            self._multi = self._find_multi_capture()
            self._multi_searched = True
        return self._multi

    def _fen(self, white_to_move: bool, mover: int, enemies: Sequence[int]) -> str:
        men = ",".join(str(s) for s in enemies)
        own, other = ("W", "B") if white_to_move else ("B", "W")
        fields = {own: str(mover), other: men}
        return f"{'W' if white_to_move else 'B'}:W{fields['W']}:B{fields['B']}"

    def _position_or_none(self, fen: str) -> Optional[Position]:
        try:
            return self.from_fen(fen)
        except DraughtsError:
            return None

    def _find_multi_capture(self) -> Optional[MultiCapture]:
        white_to_move = self.variant.first == WHITE
        squares = range(1, self.geometry.squares + 1)
        for mover in squares:
            for first in squares:
                if first == mover:
                    continue
                found = self._extend_capture(white_to_move, mover, first, squares)
                if found is not None:
                    return found
        return None

    def _extend_capture(self, white_to_move: bool, mover: int, first: int,
                        squares: range) -> Optional[MultiCapture]:
        position = self._position_or_none(self._fen(white_to_move, mover, [first]))
        if position is None or not any(m.captured for m in position.legal_moves()):
            return None
        for second in squares:
            if second in (mover, first):
                continue
            fen = self._fen(white_to_move, mover, [first, second])
            position = self._position_or_none(fen)
            if position is None:
                continue
            for move in position.legal_moves():
                short = f"{move.start}x{move.end}"
                if len(move.captured) >= 2 and len(move.path) >= 3:
                    try:
                        if parse_move(position, short) == move:
                            return MultiCapture(position.fen(), move.pdn(), short)
                    except DraughtsError:
                        continue
        return None


# --------------------------------------------------------------------------- pure validators


def plural(count: int, noun: str) -> str:
    """``1 check``, ``2 checks``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def first_word(line: str) -> str:
    """The first token of ``line`` ('' for a line without tokens)."""
    spans = token_spans(line)
    return spans[0][0] if spans else ""


def is_info_string(line: str) -> bool:
    """True for ``info string ...`` lines, which may come at any time and are ignored."""
    tokens = tokenize(line)
    return len(tokens) >= 2 and tokens[0] == "info" and tokens[1] == "string"


def _option_problem(spec: OptionSpec) -> Optional[str]:
    """What is wrong with an advertised option's declaration, or None."""
    if spec.type != "spin" and (spec.min is not None or spec.max is not None):
        return f"option {spec.name}: min/max on a {spec.type} option"
    if spec.type != "combo" and spec.vars:
        return f"option {spec.name}: var on a {spec.type} option"
    if spec.type == "button":
        return f"option {spec.name}: a button has no default" if spec.default is not None else None
    if spec.default is None:
        return f"option {spec.name}: no default"
    if spec.type == "spin":
        if spec.min is None or spec.max is None or spec.min > spec.max:
            return f"option {spec.name}: spin needs min <= max"
        value = spec.default.lstrip("-")
        if not value.isdigit() or not spec.min <= int(spec.default) <= spec.max:
            return f"option {spec.name}: default {spec.default!r} not in {spec.min}..{spec.max}"
    if spec.type == "check" and spec.default not in ("true", "false"):
        return f"option {spec.name}: check default must be true or false, got {spec.default!r}"
    if spec.type == "combo":
        if not spec.vars:
            return f"option {spec.name}: combo without var"
        if spec.default.casefold() not in (v.casefold() for v in spec.vars):
            return f"option {spec.name}: default {spec.default!r} is not a var"
    return None


@dataclass(frozen=True)
class Handshake:
    """The ``uci`` reply: ``lines`` without ``info string`` lines, ending with ``uciok``."""

    lines: Tuple[str, ...]
    ids: Tuple[Tuple[str, str], ...]
    options: Tuple[OptionSpec, ...]

    def option(self, name: str) -> Optional[OptionSpec]:
        """The option called ``name`` (case-insensitive), or None."""
        return next((o for o in self.options if o.name.casefold() == name.casefold()), None)


def lenient_handshake(lines: Sequence[str]) -> Handshake:
    """The ids and the well-formed options of a ``uci`` reply, skipping anything malformed."""
    ids: List[Tuple[str, str]] = []
    options: List[OptionSpec] = []
    for line in lines:
        try:
            if first_word(line) == "id":
                ids.append(parse_id(line))
            elif first_word(line) == "option":
                options.append(parse_option(line))
        except ProtocolError:
            continue
    return Handshake(tuple(lines), tuple(ids), tuple(options))


def validate_handshake(lines: Sequence[str]) -> Handshake:
    """Check a ``uci`` reply against PROTOCOL.md section 4 (order, grammar, option semantics).

    ``lines`` run up to and including ``uciok``, without ``info string`` lines. Expected:
    ``id name``, ``id author``, ``id protocol 1``, the ``option`` lines, ``uciok``. Raises
    :class:`CheckFailed` naming the first problems.
    """
    problems: List[str] = []
    ids: List[Tuple[str, str]] = []
    options: List[OptionSpec] = []
    words = [first_word(line) for line in lines]
    for line, word in zip(lines, words):
        try:
            if word == "id":
                ids.append(parse_id(line))
            elif word == "option":
                options.append(parse_option(line))
            elif line != "uciok":
                problems.append(f"unexpected line {line!r}")
        except ProtocolError as exc:
            problems.append(exc.message)
    if not lines or lines[-1] != "uciok" or words.count("uciok") != 1:
        problems.append("uciok must come once, as the last line")
    keys = [key for key, _ in ids]
    if keys != ["name", "author", "protocol"] or [w for w in words if w in ("id", "option")][
            :3] != ["id"] * 3:
        problems.append(f"id lines are [{' '.join(keys)}], expected name, author, protocol "
                        "before the options")
    if dict(ids).get("protocol") != str(PROTOCOL_VERSION):
        problems.append(f"id protocol is {dict(ids).get('protocol')!r}, expected "
                        f"'{PROTOCOL_VERSION}'")
    names = [o.name.casefold() for o in options]
    problems += [f"option {n!r} advertised twice" for n in sorted(set(names)) if names.count(n) > 1]
    problems += [p for p in (_option_problem(o) for o in options) if p]
    if problems:
        raise fail("; ".join(problems[:4]))
    return Handshake(tuple(lines), tuple(ids), tuple(options))


def _info_order(line: str) -> List[str]:
    """The known ``info`` fields of ``line`` in the order they appear (up to ``pv``)."""
    seen: List[str] = []
    for token in tokenize(line)[1:]:
        if token in INFO_FIELDS and token not in seen:
            seen.append(token)
        if token == "pv":
            break
    return seen


def check_info_line(line: str, report: InfoReport, rules: Rules, root: Position,
                    max_depth: Optional[int] = None) -> None:
    """Check one search ``info`` line: fields, order, values, and a pv legal from ``root``.

    Raises :class:`CheckFailed` naming the line.
    """
    order = _info_order(line)
    missing = [f for f in INFO_FIELDS[:-1] if f not in order]
    if missing:
        raise fail(f"info line lacks {' '.join(missing)}: {line!r}")
    if order != sorted(order, key=INFO_FIELDS.index):
        raise fail(f"info fields out of order ({' '.join(order)}): {line!r}")
    if (report.score_cp is None) == (report.score_mate is None):
        raise fail(f"info line needs exactly one of score cp / score mate: {line!r}")
    if report.score_mate == 0:
        raise fail(f"'score mate 0' is never written: {line!r}")
    if report.hashfull is not None and report.hashfull > 1000:
        raise fail(f"hashfull above 1000: {line!r}")
    if report.depth is not None and (report.depth < 1 or (max_depth and report.depth > max_depth)):
        raise fail(f"info depth {report.depth} outside 1..{max_depth or 'max'}: {line!r}")
    try:
        rules.resolve_line(root, report.pv)
    except MoveTextError as exc:
        raise fail(f"illegal pv in {line!r}: {exc}") from None


def check_info_sequence(reports: Sequence[InfoReport]) -> None:
    """Depth and time never go down from one ``info`` line to the next."""
    for before, after in zip(reports, reports[1:]):
        for field in ("depth", "time_ms"):
            a, b = getattr(before, field), getattr(after, field)
            if a is not None and b is not None and b < a:
                raise fail(f"info {field.replace('_ms', '')} went down from {a} to {b}")


def strip_volatile(line: str) -> str:
    """An ``info`` line without ``time``, ``nps`` and ``hashfull`` (for determinism checks)."""
    tokens = tokenize(line)
    kept: List[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token == "pv":
            kept += tokens[index:]
            break
        if token in ("time", "nps", "hashfull"):
            index += 2
            continue
        kept.append(token)
        index += 1
    return " ".join(kept)


@dataclass(frozen=True)
class Display:
    """The fields of a ``d`` block (PROTOCOL.md section 7)."""

    board: Tuple[str, ...]
    fen: str
    variant: str
    side: str
    ply: int
    legal: Tuple[str, ...]
    state: str


_DISPLAY_KEYS = ("fen", "variant", "side", "ply", "legal", "state")


def _state_ok(tokens: Sequence[str]) -> bool:
    def reason_ok(word: str) -> bool:
        return word.islower() and all(c.isalpha() or c == "-" for c in word)

    if tokens[1:] == ["ongoing"]:
        return True
    if len(tokens) == 4 and tokens[1] == "win" and tokens[2] in ("white", "black"):
        return reason_ok(tokens[3])
    return len(tokens) == 3 and tokens[1] == "draw" and reason_ok(tokens[2])


def parse_display(lines: Sequence[str], size: int) -> Display:
    """Check the shape of a ``d`` block for a ``size`` x ``size`` board and return its fields.

    Raises :class:`CheckFailed` naming the first problem.
    """
    words = [first_word(line) for line in lines]
    expected = ["board"] * size + list(_DISPLAY_KEYS)
    if words != expected:
        raise fail(f"d block lines are [{' '.join(words)}], expected {size} board lines, then "
                   f"{' '.join(_DISPLAY_KEYS)}")
    rows: List[str] = []
    for line in lines[:size]:
        tokens = tokenize(line)
        if len(tokens) != 2 or len(tokens[1]) != size or set(tokens[1]) - set("wWbB.-"):
            raise fail(f"malformed board line {line!r}")
        rows.append(tokens[1])
    fields = {first_word(line): tokenize(line) for line in lines[size:]}
    for key in ("fen", "variant", "side", "ply"):
        if len(fields[key]) != 2:
            raise fail(f"malformed {key} line {' '.join(fields[key])!r}")
    if fields["side"][1] not in ("white", "black"):
        raise fail(f"side must be white or black, got {fields['side'][1]!r}")
    if not fields["ply"][1].isdigit():
        raise fail(f"ply must be a number, got {fields['ply'][1]!r}")
    if not _state_ok(fields["state"]):
        raise fail(f"malformed state line {' '.join(fields['state'])!r}")
    return Display(tuple(rows), fields["fen"][1], fields["variant"][1], fields["side"][1],
                   int(fields["ply"][1]), tuple(fields["legal"][1:]),
                   " ".join(fields["state"]))


def compare_display(shown: Display, rules: Rules, expected: Position, ply: int,
                    state: str) -> None:
    """Check a ``d`` block's content against the rules: board, fen, variant, side, ply, legal
    moves (each once, full notation) and state. Raises :class:`CheckFailed`."""
    try:
        position = rules.from_fen(shown.fen)
    except DraughtsError as exc:
        raise fail(f"d shows a FEN the rules reject: {shown.fen!r}: {exc}") from None
    if position != expected:
        raise fail(f"d shows fen {shown.fen}, the rules give {expected.fen()}")
    geo = rules.geometry
    for row, text in enumerate(shown.board):
        want = "".join("-" if not geo.square_at(row, col)
                       else (expected.piece_at(geo.square_at(row, col)) or ".")
                       for col in range(geo.size))
        if text != want:
            raise fail(f"d board row {row + 1} is {text!r}, expected {want!r}")
    if shown.variant != rules.name:
        raise fail(f"d shows variant {shown.variant!r}, expected {rules.name!r}")
    if shown.side != expected.turn:
        raise fail(f"d shows side {shown.side}, expected {expected.turn}")
    if shown.ply != ply:
        raise fail(f"d shows ply {shown.ply}, expected {ply}")
    _compare_legal(shown.legal, rules, expected)
    if shown.state != state:
        raise fail(f"d shows {shown.state!r}, expected {state!r}")


def _compare_legal(texts: Sequence[str], rules: Rules, position: Position) -> None:
    if len(set(texts)) != len(texts):
        raise fail(f"d lists a legal move twice: {' '.join(texts)}")
    shown: Set[Move] = set()
    for text in texts:
        try:
            shown.add(rules.resolve(position, text))
        except MoveTextError as exc:
            raise fail(f"d legal line: {exc}") from None
    want = set(position.legal_moves())
    if shown != want or len(texts) != len(want):
        missing = sorted(m.pdn() for m in want - shown)
        raise fail(f"d legal has {len(texts)} moves, the rules give {len(want)}"
                   + (f" (missing {' '.join(missing)})" if missing else ""))


# --------------------------------------------------------------------------- engines


class EngineHandle:
    """One engine process and the reference client talking to it.

    Every read is bounded by a timeout (default ``Config.timeout``). :meth:`kill` ends the
    process (its whole process group on POSIX) at once, from any thread.
    """

    def __init__(self, command: Sequence[str], config: Config, log: Callable[[str], None]) -> None:
        extra = {"start_new_session": True} if os.name == "posix" else {}
        try:
            self.transport = ProcessTransport.spawn(command, **extra)
        except (OSError, ValueError) as exc:
            raise SetupError(f"cannot start {shlex.join(command)}: {exc}") from None
        self.client = Engine(self.transport, log=log, timeout=config.timeout, quit_timeout=0.5,
                             transcript_lines=60)
        self.timeout = config.timeout

    @property
    def process(self) -> "subprocess.Popen[bytes]":
        return self.transport.process

    def send(self, line: Union[str, bytes]) -> None:
        """Send a line (LF added) or raw bytes."""
        self.client.send_raw(line)

    def read(self, timeout: Optional[float] = None) -> str:
        """The next line, ``info string`` lines skipped; raises EngineTimeoutError/Terminated."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            line = self.client.read_line(max(0.0, deadline - time.monotonic()))
            if not is_info_string(line):
                return line

    def sync(self, timeout: Optional[float] = None) -> List[str]:
        """Send ``isready``; the lines before ``readyok`` (without ``info string`` lines)."""
        return [line for line in self.client.sync(timeout) if not is_info_string(line)]

    def drain(self, seconds: float) -> List[str]:
        """Every line that arrives within ``seconds`` (no ``info string``); stops at end of output."""
        deadline = time.monotonic() + seconds
        lines: List[str] = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return lines
            try:
                lines.append(self.read(remaining))
            except (EngineTimeoutError, EngineTerminatedError):
                return lines

    def close_input(self) -> None:
        """Close the engine's stdin (end of input)."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except (OSError, ValueError):
            pass

    def wait_exit(self, timeout: float) -> Optional[int]:
        """The exit status if the process ends within ``timeout`` seconds, else None."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL the process group (POSIX) or the process, at once."""
        if os.name == "posix":
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
                return
            except OSError:
                pass
        try:
            self.process.kill()
        except OSError:
            pass

    def close(self, gently: bool) -> None:
        """End the engine: ``quit`` first when ``gently``, else kill; always reaps it."""
        if not gently:
            self.kill()
        self.client.quit()
        if os.name == "posix":
            try:
                os.killpg(self.process.pid, signal.SIGKILL)  # stray children of a wrapper
            except OSError:
                pass


def read_handshake(handle: EngineHandle, timeout: float) -> List[str]:
    """Send ``uci`` and return the reply up to and including ``uciok`` (no ``info string``)."""
    deadline = time.monotonic() + timeout
    handle.send("uci")
    lines: List[str] = []
    while not lines or lines[-1] != "uciok":
        if len(lines) > 1000:
            raise fail("more than 1000 lines in the uci reply")
        try:
            lines.append(handle.read(max(0.0, deadline - time.monotonic())))
        except EngineTimeoutError:
            raise fail(f"no uciok within {timeout:.1f} s (got {len(lines)} lines)") from None
    return lines


# --------------------------------------------------------------------------- searches


class SearchRun:
    """One ``go`` on an engine: sends it, keeps its ``info`` lines and its ``bestmove``.

    A second ``bestmove``, an ``info`` line after the ``bestmove`` or a malformed one raises
    :class:`CheckFailed` as soon as it is read. Times are ``time.monotonic()`` seconds, taken
    when the line is read (the suite reads continuously while it waits).
    """

    def __init__(self, handle: EngineHandle, go_line: str) -> None:
        self.handle = handle
        self.go_line = go_line
        self.infos: List[Tuple[str, InfoReport]] = []
        self.best: Optional[BestMove] = None
        self.best_at: Optional[float] = None
        handle.send(go_line)
        self.started = time.monotonic()

    def _route(self, line: str) -> Optional[str]:
        """Keep a search line (None); return any other line."""
        word = first_word(line)
        if word == "info":
            if self.best is not None:
                raise fail(f"info line after the bestmove of {self.go_line!r}: {line!r}")
            try:
                self.infos.append((line, parse_info(line)))
            except ProtocolError as exc:
                raise fail(f"malformed info line: {exc.message}") from None
            return None
        if word == "bestmove":
            if self.best is not None:
                raise fail(f"a second bestmove for {self.go_line!r}: {line!r}")
            try:
                self.best = parse_bestmove(line)
            except ProtocolError as exc:
                raise fail(exc.message) from None
            self.best_at = time.monotonic()
            return None
        return line

    def _next(self, deadline: float, timeout: float, waiting_for: str) -> Optional[str]:
        """The next line, routed: None for a search line, else the line."""
        try:
            line = self.handle.read(max(0.0, deadline - time.monotonic()))
        except EngineTimeoutError:
            raise fail(f"timed out after {timeout:.1f} s waiting for {waiting_for} "
                       f"(during {self.go_line!r})") from None
        return self._route(line)

    def read_other(self, timeout: float, waiting_for: str) -> str:
        """The next line that is not an ``info``/``bestmove`` line of this search."""
        deadline = time.monotonic() + timeout
        while True:
            other = self._next(deadline, timeout, waiting_for)
            if other is not None:
                return other

    def _unexpected(self, line: str) -> CheckFailed:
        if first_word(line) == "error":
            return fail(f"the engine answered {line!r} during {self.go_line!r}")
        return fail(f"unexpected line during {self.go_line!r}: {line!r}")

    def wait_bestmove(self, timeout: float) -> float:
        """Wait for the ``bestmove``; return seconds from ``go`` to it."""
        deadline = time.monotonic() + timeout
        while self.best is None:
            other = self._next(deadline, timeout, "bestmove")
            if other is not None:
                raise self._unexpected(other)
        assert self.best_at is not None
        return self.best_at - self.started

    def hold(self, seconds: float, allow_bestmove: bool = False) -> None:
        """Read for ``seconds``: search lines only; a ``bestmove`` fails unless allowed."""
        deadline = time.monotonic() + seconds
        had_best = self.best is not None
        while time.monotonic() < deadline:
            try:
                line = self.handle.read(max(0.0, deadline - time.monotonic()))
            except EngineTimeoutError:
                break
            other = self._route(line)
            if other is not None:
                raise self._unexpected(other)
            if not had_best and self.best is not None and not allow_bestmove:
                raise fail(f"bestmove before stop/ponderhit after {self.go_line!r}: "
                           f"{self.best_line()}")

    def best_line(self) -> str:
        if self.best is None:
            return "(no bestmove)"
        text = f"bestmove {self.best.move or '(none)'}"
        return text + (f" ponder {self.best.ponder}" if self.best.ponder else "")

    def signal(self, word: str, timeout: float) -> float:
        """Send ``stop`` or ``ponderhit`` and wait for the ``bestmove``; return the seconds
        from sending to the ``bestmove`` (0 when it had already come)."""
        if self.best is not None:
            self.handle.send(word)
            return 0.0
        sent = time.monotonic()
        self.handle.send(word)
        deadline = sent + timeout
        while self.best is None:
            other = self._next(deadline, timeout, f"bestmove after {word}")
            if other is not None:
                raise self._unexpected(other)
        assert self.best_at is not None
        return self.best_at - sent

    def stop(self, timeout: float) -> float:
        """``stop`` and wait for the ``bestmove``; seconds from ``stop`` to it."""
        return self.signal("stop", timeout)

    def exchange(self, line: Union[str, bytes], timeout: float) -> List[str]:
        """Send ``line`` then ``isready``; the non-search lines before ``readyok``."""
        self.handle.send(line)
        return self.collect("isready", lambda text: text == "readyok", timeout)[:-1]

    def collect(self, line: str, last: Callable[[str], bool], timeout: float) -> List[str]:
        """Send ``line``; the non-search lines up to and including the one ``last`` accepts."""
        self.handle.send(line)
        deadline = time.monotonic() + timeout
        lines: List[str] = []
        while not lines or not last(lines[-1]):
            other = self._next(deadline, timeout, f"the answer to {line!r}")
            if other is not None:
                lines.append(other)
        return lines

    def ready_latency(self, timeout: float) -> float:
        """Send ``isready``; seconds until ``readyok`` (other non-search lines fail)."""
        sent = time.monotonic()
        lines = self.collect("isready", lambda text: text == "readyok", timeout)
        if len(lines) > 1:
            raise self._unexpected(lines[0])
        return time.monotonic() - sent

    def settle(self, timeout: float) -> None:
        """After the ``bestmove``: ``isready`` must come back with nothing else before it."""
        lines = self.collect("isready", lambda text: text == "readyok", timeout)
        if len(lines) > 1:
            raise self._unexpected(lines[0])


def validate_search(run: SearchRun, rules: Rules, root: Position,
                    max_depth: Optional[int] = None) -> str:
    """Check a finished search: its ``info`` lines and a legal ``bestmove`` (and ``ponder``)
    for ``root``, or ``bestmove (none)`` when ``root`` has no legal move. Returns a summary."""
    for line, report in run.infos:
        check_info_line(line, report, rules, root, max_depth)
    check_info_sequence([report for _, report in run.infos])
    best = run.best
    assert best is not None
    if not root.legal_moves():
        if best.move is not None:
            raise fail(f"bestmove {best.move} in a position without legal moves ({root.fen()})")
        return "bestmove (none)"
    if best.move is None:
        raise fail(f"bestmove (none) but {root.fen()} has legal moves")
    try:
        move = rules.resolve(root, best.move)
        if best.ponder is not None:
            rules.resolve(root.play_raw(move.raw), best.ponder)
    except MoveTextError as exc:
        raise fail(f"{run.best_line()}: {exc}") from None
    depths = [r.depth for _, r in run.infos if r.depth is not None]
    detail = f", {plural(len(run.infos), 'info line')}" + (
        f" to depth {max(depths)}" if depths else "")
    return run.best_line() + detail


# --------------------------------------------------------------------------- harness


class Context:
    """What a check works with: the shared engine, extra engines it starts, the rules.

    ``dirty`` (set by a check that changes options) makes the harness restart the shared
    engine afterwards.
    """

    def __init__(self, harness: "Harness") -> None:
        self.harness = harness
        self.config = harness.config
        self.rules = harness.rules
        self.dirty = False
        self.cancelled = False
        self.spawned: List[EngineHandle] = []

    def _check_cancelled(self) -> None:
        if self.cancelled:
            raise fail("the check was cancelled (budget exceeded)")

    def engine(self) -> EngineHandle:
        """The shared engine: handshaken, switched to the variant, idle."""
        self._check_cancelled()
        return self.harness.shared_engine()

    def spawn(self, handshake: bool = True) -> EngineHandle:
        """A new engine for this check only (closed after it); set up when ``handshake``."""
        self._check_cancelled()
        handle = self.harness.start_engine()
        self.spawned.append(handle)
        if handshake:
            self.harness.setup(handle)
        return handle

    def handshake(self) -> Handshake:
        """The shared engine's ``uci`` reply."""
        self.engine()
        assert self.harness.handshake is not None
        return self.harness.handshake

    # ---- optional commands -----------------------------------------------------------

    def offers(self, handle: EngineHandle, word: str) -> bool:
        """Whether the engine knows the debug command ``word`` (probed once per run)."""
        features = self.harness.features
        if word not in features:
            probe = {"d": "d", "perft": "perft 1", "eval": "eval"}[word]
            handle.send(probe)
            lines = handle.sync()
            features[word] = not (lines and lines[0].startswith(f"error unknown command: {word}"))
        return features[word]

    def require(self, handle: EngineHandle, word: str) -> None:
        """Raise :class:`CheckSkipped` unless the engine offers ``word``."""
        if not self.offers(handle, word):
            raise CheckSkipped(f"the engine does not offer '{word}' (error unknown command)")

    def display(self, handle: EngineHandle, next_line: Optional[Callable[[], str]] = None) -> Display:
        """Send ``d`` and parse the block (SKIP when ``d`` is not offered)."""
        self.require(handle, "d")
        handle.send("d")
        reader = next_line or (lambda: handle.read())
        lines: List[str] = []
        limit = self.rules.geometry.size + len(_DISPLAY_KEYS)
        while not lines or first_word(lines[-1]) not in ("state", "error"):
            if len(lines) >= limit:
                break
            lines.append(reader())
        if first_word(lines[-1]) == "error":
            raise fail(f"the engine answered {lines[-1]!r} to d")
        return parse_display(lines, self.rules.geometry.size)

    def verify(self, handle: EngineHandle, position: Position, ply: int,
               fen: Optional[str] = None, moves: Sequence[str] = ()) -> None:
        """``d`` must show ``position`` at ``ply`` with the state the rules give after
        ``position fen|startpos moves ...`` (``fen`` None is the start position)."""
        shown = self.display(handle)
        compare_display(shown, self.rules, position, ply, self.rules.state_line(fen, moves))


class Harness:
    """Runs checks one by one; owns the shared engine and the per-check transcript.

    Contract: :meth:`run` returns within the check's budget plus a few seconds, whatever the
    engine does (a hung engine is killed); the shared engine is restarted after a failure.
    """

    def __init__(self, config: Config, rules: Rules, echo: Callable[[str], None]) -> None:
        self.config = config
        self.rules = rules
        self.features: Dict[str, bool] = {}
        self.handshake: Optional[Handshake] = None
        self._echo = echo
        self._shared: Optional[EngineHandle] = None
        self._setup_failure: Optional[str] = None
        self._log: Deque[str] = collections.deque(maxlen=400)

    # ---- transcript ------------------------------------------------------------------

    def record(self, entry: str) -> None:
        """Called by the clients for every line exchanged (from reader threads too)."""
        self._log.append(entry)
        if self.config.verbose:
            self._echo("      " + entry)

    # ---- engines ----------------------------------------------------------------------

    def start_engine(self) -> EngineHandle:
        """Start a new engine process (no handshake)."""
        return EngineHandle(self.config.command, self.config, self.record)

    def setup(self, handle: EngineHandle) -> Handshake:
        """Handshake and switch to the variant under test; raises :class:`SetupError`."""
        try:
            reply = lenient_handshake(read_handshake(handle, self.config.timeout))
            variant = reply.option("Variant")
            default = variant.default if variant is not None else "english"
            if (default or "").casefold() != self.rules.name:
                if variant is None:
                    raise SetupError(f"the engine has no Variant option to play {self.rules.name}")
                handle.send(SetOption(variant.name, self.rules.name).to_line())
                lines = handle.sync()
                if lines:
                    raise SetupError(f"setting Variant {self.rules.name} was answered {lines[0]!r}")
        except (CheckFailed, EngineError) as exc:
            message = exc.message if isinstance(exc, EngineError) else str(exc)
            raise SetupError(f"engine setup failed: {message}") from None
        if self.handshake is None:
            self.handshake = reply
        return reply

    def shared_engine(self) -> EngineHandle:
        """The engine shared by checks, started and set up on first use after a discard."""
        if self._shared is not None and self._shared.alive:
            return self._shared
        if self._setup_failure is not None:
            raise SetupError(self._setup_failure + " (not retried)")
        try:
            handle = self.start_engine()
        except SetupError as exc:
            self._setup_failure = str(exc)
            raise
        try:
            self.setup(handle)
        except SetupError as exc:
            self._setup_failure = str(exc)
            handle.close(gently=False)
            raise
        self._shared = handle
        return handle

    def _discard_shared(self, gently: bool) -> None:
        if self._shared is not None:
            self._shared.close(gently=gently and self._shared.alive)
            self._shared = None

    def _kill_all(self, context: Context) -> None:
        for handle in context.spawned + ([self._shared] if self._shared else []):
            handle.kill()

    # ---- running ------------------------------------------------------------------------

    def run(self, check: Check, budget: float) -> CheckResult:
        """Run one check under ``budget`` seconds and return its result."""
        self._log = collections.deque(maxlen=400)
        context = Context(self)
        outcome: Dict[str, Tuple[str, str]] = {}
        started = time.monotonic()
        worker = threading.Thread(target=self._execute, args=(check, context, outcome),
                                  name=f"check-{check.number}", daemon=True)
        worker.start()
        worker.join(budget)
        if worker.is_alive():
            self._log.append(f"# check exceeded its budget of {budget:.1f} s: engine killed")
            context.cancelled = True
            self._kill_all(context)
            worker.join(3.0)
            status, reason = FAIL, (f"did not finish within its budget of {budget:.1f} s; "
                                    "the engine was killed")
        else:
            status, reason = outcome.get("result", (FAIL, "the check ended without a result"))
        seconds = time.monotonic() - started
        transcript = tuple(self._log) if status == FAIL else ()
        self._finish(context, status)
        return CheckResult(check.number, check.name, status, reason, seconds, transcript)

    def _execute(self, check: Check, context: Context,
                 outcome: Dict[str, Tuple[str, str]]) -> None:
        try:
            outcome["result"] = (PASS, check.run(context))
        except CheckSkipped as exc:
            outcome["result"] = (SKIP, str(exc))
        except (CheckFailed, SetupError) as exc:
            outcome["result"] = (FAIL, str(exc))
        except EngineError as exc:
            outcome["result"] = (FAIL, exc.message)
        except Exception as exc:  # a bug in the suite must not stop the run
            for line in traceback.format_exc().splitlines():
                self._log.append("# " + line)
            outcome["result"] = (FAIL, f"suite error {type(exc).__name__}: {exc}")

    def _finish(self, context: Context, status: str) -> None:
        for handle in context.spawned:
            handle.close(gently=False)
        if status == FAIL or context.dirty or (self._shared is not None and not self._shared.alive):
            self._discard_shared(gently=False)

    def close(self) -> None:
        """Quit the shared engine."""
        self._discard_shared(gently=True)


# --------------------------------------------------------------------------- check helpers


def expect_silent(handle: EngineHandle, line: Union[str, bytes]) -> None:
    """Send a command that prints nothing on success; ``isready`` must follow alone."""
    handle.send(line)
    lines = handle.sync()
    if lines:
        shown = line if isinstance(line, str) else line.decode("utf-8", "backslashreplace")
        raise fail(f"{shown.strip()!r} was answered {lines[0]!r}")


def expect_errors(context: Context, handle: EngineHandle, base: Tuple[Position, int, bool],
                  cases: Sequence[Tuple[Union[str, bytes], str, bool]]) -> str:
    """Send each bad line of ``cases`` (line, reason prefix, exact): each must be answered by one
    matching ``error`` line and (with ``d``) leave the position ``base``. Returns a note."""
    note = "position not verified (no d)"
    for line, prefix, exact in cases:
        expect_error(handle, line, prefix, exact)
        note = verify_unchanged(context, handle, base)
    return note + (" after each" if base[2] else "")


def expect_error(handle: EngineHandle, line: Union[str, bytes], prefix: str,
                 exact: bool = False) -> str:
    """Send a bad line: exactly one ``error <prefix>...`` must answer it before ``readyok``.

    ``exact`` requires the whole reason to equal ``prefix``. Returns the reason.
    """
    handle.send(line)
    lines = handle.sync()
    shown = line if isinstance(line, str) else repr(line)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    errors = [text for text in lines if first_word(text) == "error"]
    if len(lines) != 1 or len(errors) != 1:
        got = "nothing" if not lines else " | ".join(lines[:3])
        raise fail(f"{shown!r} must be answered by one error line, got {got}")
    reason = errors[0][len("error "):]
    if (reason != prefix) if exact else not reason.startswith(prefix):
        raise fail(f"{shown!r} was answered {errors[0]!r}, expected 'error {prefix}"
                   f"{'' if exact else '...'}'")
    return reason


def set_position(handle: EngineHandle, fen: Optional[str] = None, moves: Sequence[str] = ()) -> None:
    """``position startpos|fen <fen> [moves ...]``; it must be accepted silently."""
    expect_silent(handle, PositionCommand(fen, tuple(moves)).to_line())


def bounded_search(context: Context, handle: EngineHandle, go_line: str, root: Position,
                   limit_ms: Optional[int] = None, max_depth: Optional[int] = None) -> str:
    """Run a search that ends by itself, validate it, and (with ``limit_ms``) check it ended
    within the limit plus the stop threshold. Returns a summary."""
    run = SearchRun(handle, go_line)
    waited = run.wait_bestmove((limit_ms or 0) / 1000 + context.config.timeout)
    summary = validate_search(run, context.rules, root, max_depth)
    run.settle(context.config.timeout)
    elapsed_ms = round(waited * 1000)
    if limit_ms is not None and elapsed_ms > limit_ms + context.config.stop_threshold_ms:
        raise fail(f"{go_line!r} took {elapsed_ms} ms, more than {limit_ms} ms + "
                   f"{context.config.stop_threshold_ms} ms")
    return f"{summary} in {elapsed_ms} ms"


def held_search(context: Context, handle: EngineHandle, go_line: str, root: Position) -> str:
    """``go infinite``-like: no ``bestmove`` within the grace period, then ``stop`` brings a
    legal one within the threshold. Returns a summary."""
    run = SearchRun(handle, go_line)
    run.hold(context.config.grace)
    latency = run.stop(context.config.timeout)
    summary = validate_search(run, context.rules, root)
    run.settle(context.config.timeout)
    check_latency("stop", latency, context.config)
    return f"{summary}; stop answered in {round(latency * 1000)} ms"


def check_latency(what: str, seconds: float, config: Config) -> None:
    """Fail when ``seconds`` exceeds the stop threshold."""
    if seconds > config.threshold:
        raise fail(f"{what} took {round(seconds * 1000)} ms, more than "
                   f"{config.stop_threshold_ms} ms")


def error_base(context: Context, handle: EngineHandle) -> Tuple[Position, int, bool]:
    """Set a position after two plies (start position without ``d``) for error checks.

    Returns (position, ply, verifiable): ``verifiable`` says whether ``d`` can show it.
    """
    rules = context.rules
    if context.offers(handle, "d"):
        moves = rules.opening_line().moves[:2]
        set_position(handle, moves=moves)
        return rules.play(rules.start(), moves), 2, True
    set_position(handle)
    return rules.start(), 0, False


def verify_unchanged(context: Context, handle: EngineHandle,
                     base: Tuple[Position, int, bool]) -> str:
    """Check the position is still ``base`` (via ``d`` when offered); a note for the reason."""
    position, ply, verifiable = base
    if not verifiable:
        return "position not verified (no d)"
    shown = context.display(handle)
    if context.rules.from_fen(shown.fen) != position or shown.ply != ply:
        raise fail(f"the position changed: d shows {shown.fen} ply {shown.ply}, expected "
                   f"{position.fen()} ply {ply}")
    return "position unchanged"


def exit_limit(config: Config) -> float:
    """Seconds an engine may take to exit after ``quit`` or end of input."""
    return config.threshold + 1.0


def expect_exit(handle: EngineHandle, config: Config, what: str, sent_at: float,
                bestmove_allowed: bool = False) -> str:
    """The process must exit with status 0 within :func:`exit_limit`; it may write nothing
    but ``info`` lines, and (when ``bestmove_allowed``: a search was stopped by the exit) one
    legal-looking ``bestmove`` line (PROTOCOL.md section 9)."""
    code = handle.wait_exit(exit_limit(config))
    if code is None:
        raise fail(f"still running {exit_limit(config):.1f} s after {what}")
    took = round((time.monotonic() - sent_at) * 1000)
    late = [line for line in handle.drain(0.2) if first_word(line) not in ("info",)]
    if code != 0:
        raise fail(f"exit status {code} after {what}")
    if bestmove_allowed and late and first_word(late[0]) == "bestmove":
        late = late[1:]
    if late:
        raise fail(f"wrote {late[0]!r} after {what}")
    return f"{what}: exit status 0 in {took} ms"


# --------------------------------------------------------------------------- the checks


def check_handshake(context: Context) -> str:
    """uci -> id name, id author, id protocol 1, well-formed options, uciok; twice the same."""
    handle = context.spawn(handshake=False)
    early = handle.drain(0.1)
    if early:
        raise fail(f"the engine wrote before receiving a line: {early[0]!r}")
    reply = validate_handshake(read_handshake(handle, context.config.timeout))
    again = read_handshake(handle, context.config.timeout)
    if tuple(again) != reply.lines:
        raise fail("the second uci reply differs from the first")
    name = dict(reply.ids).get("name", "?")
    return f"id name {name}, {len(reply.options)} options, uciok (same reply twice)"


def check_isready(context: Context) -> str:
    """isready -> readyok; CRLF, blank lines, spaces and tabs are handled."""
    handle = context.engine()
    sent = time.monotonic()
    if handle.sync():
        raise fail("output before readyok")
    took = round((time.monotonic() - sent) * 1000)
    for raw in (b"isready\r\n", b"  \tisready \t\n"):
        handle.send(raw)
        line = handle.read()
        if line != "readyok":
            raise fail(f"{raw!r} was answered {line!r}")
    for blank in (b"\n", b" \t \n", b"\r\n"):
        handle.send(blank)
    lines = handle.sync()
    if lines:
        raise fail(f"a blank line was answered {lines[0]!r}")
    return f"readyok in {took} ms; CRLF, blank lines and tabs handled"


def _valid_values(spec: OptionSpec) -> List[Optional[str]]:
    if spec.type == "button":
        return [None]
    if spec.type == "spin":
        assert spec.min is not None and spec.max is not None
        values = [spec.default, str(spec.min)]
        if spec.name.casefold() not in RESOURCE_OPTIONS:
            values.append(str(spec.max))
        return values
    if spec.type == "check":
        return ["true", "false", spec.default]
    if spec.type == "combo":
        return list(spec.vars) + [spec.default]
    return [spec.default]


def _setoption_line(name: str, value: Optional[str]) -> Optional[str]:
    try:
        return SetOption(name, value).to_line()
    except ArgumentError:
        return None


def check_options_accepted(context: Context) -> str:
    """setoption of every advertised option with valid values (and case-insensitive names and
    combo values) is accepted silently."""
    handle = context.engine()
    context.dirty = True
    specs = context.handshake().options
    if not specs:
        raise CheckSkipped("the engine advertises no options")
    count = 0
    for spec in specs:
        for value in _valid_values(spec):
            line = _setoption_line(spec.name, value)
            if line is not None:
                expect_silent(handle, line)
                count += 1
    for spec in specs:
        if spec.type in ("spin", "check", "combo") and spec.default:
            value = spec.default.upper() if spec.type != "spin" else spec.default
            line = _setoption_line(spec.name.swapcase(), value)
            if line is not None:
                expect_silent(handle, line)
                count += 1
    return f"{count} settings of {len(specs)} options accepted"


def check_spin_range(context: Context) -> str:
    """setoption of a spin option out of its range is an error and changes nothing."""
    handle = context.engine()
    context.dirty = True
    spins = [s for s in context.handshake().options if s.type == "spin"]
    if not spins:
        raise CheckSkipped("the engine advertises no spin option")
    count = 0
    for spec in spins:
        assert spec.min is not None and spec.max is not None
        for value in (spec.min - 1, spec.max + 1):
            expect_error(handle, f"setoption name {spec.name} value {value}", "setoption:")
            count += 1
    if handle.sync():
        raise fail("output after the errors")
    return f"{count} out-of-range values rejected with 'error setoption: ...'"


def check_bad_options(context: Context) -> str:
    """Unknown option names, bad combo/check/spin values and missing values are errors."""
    handle = context.engine()
    context.dirty = True
    lines = ["setoption name NoSuchOption value 1", "setoption name NoSuchOption"]
    for spec in context.handshake().options:
        bad = {"spin": "abc", "check": "maybe", "combo": "no-such-value"}.get(spec.type)
        if bad is not None:
            lines += [f"setoption name {spec.name} value {bad}", f"setoption name {spec.name}"]
    for line in lines:
        expect_error(handle, line, "setoption:")
    note = ""
    if context.handshake().option("Variant") is not None and context.offers(handle, "d"):
        shown = context.display(handle)
        if shown.variant != context.rules.name:
            raise fail(f"a rejected Variant value changed the variant to {shown.variant}")
        note = "; Variant unchanged"
    return f"{len(lines)} bad setoption lines rejected{note}"


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
    fens = [rules.kings_fen(), NO_MOVES_FEN]
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


def _go_check(go_line: str, limit_ms: Optional[int] = None,
              max_depth: Optional[int] = None) -> Callable[[Context], str]:
    def run(context: Context) -> str:
        handle = context.engine()
        set_position(handle)
        return bounded_search(context, handle, go_line, context.rules.start(), limit_ms, max_depth)

    run.__doc__ = f"{go_line} from the start: legal bestmove, well-formed infos with legal pvs."
    return run


def check_go_clock(context: Context) -> str:
    """go wtime/btime/winc/binc: a legal move well within the side to move's clock (the other
    clock is much larger), and with clocks at 0 still a legal move."""
    handle = context.engine()
    root = context.rules.start()
    own, other = 2000, 60000
    white, black = (own, other) if root.white_to_move else (other, own)
    set_position(handle)
    first = bounded_search(context, handle,
                           f"go wtime {white} btime {black} winc 100 binc 100", root,
                           limit_ms=own - context.config.stop_threshold_ms)
    second = bounded_search(context, handle, "go wtime 0 btime 0", root)
    return f"{first}; clocks at 0: {second}"


def check_go_movestogo(context: Context) -> str:
    """go wtime/btime movestogo: a legal move within the clock."""
    handle = context.engine()
    root = context.rules.start()
    set_position(handle)
    own = 1500
    return bounded_search(context, handle, f"go wtime {own} btime {own} movestogo 2", root,
                          limit_ms=own - context.config.stop_threshold_ms)


def check_go_infinite(context: Context) -> str:
    """go infinite holds its bestmove until stop, then a legal one comes within the threshold."""
    handle = context.engine()
    set_position(handle)
    return held_search(context, handle, "go infinite", context.rules.start())


def check_go_ponder(context: Context) -> str:
    """go ponder movetime: no bestmove before ponderhit, then one within the time limit;
    go ponder + stop brings a legal bestmove too."""
    handle = context.engine()
    root = context.rules.start()
    config = context.config
    set_position(handle)
    limit_ms = 300
    run = SearchRun(handle, f"go ponder movetime {limit_ms}")
    run.hold(config.grace)
    after = run.signal("ponderhit", limit_ms / 1000 + config.timeout)
    summary = validate_search(run, context.rules, root)
    run.settle(config.timeout)
    if after * 1000 > limit_ms + config.stop_threshold_ms:
        raise fail(f"bestmove came {round(after * 1000)} ms after ponderhit, more than "
                   f"{limit_ms} + {config.stop_threshold_ms} ms")
    stopped = held_search(context, handle, "go ponder wtime 10000 btime 10000", root)
    return f"ponderhit -> {summary} after {round(after * 1000)} ms; ponder + stop -> {stopped}"


def check_go_bare(context: Context) -> str:
    """go without limits: a bestmove when the search ends, or after stop within the threshold."""
    handle = context.engine()
    root = context.rules.start()
    set_position(handle)
    run = SearchRun(handle, "go")
    run.hold(context.config.grace, allow_bestmove=True)
    ended = run.best is not None
    latency = run.stop(context.config.timeout)
    summary = validate_search(run, context.rules, root)
    run.settle(context.config.timeout)
    if ended:
        return f"{summary} (ended by itself)"
    check_latency("stop", latency, context.config)
    return f"{summary}; stop answered in {round(latency * 1000)} ms"


def check_search_positions(context: Context) -> str:
    """Searches from other roots: a forced capture after moves, a position with kings and a
    multi-capture (whose bestmove must name every landing square)."""
    handle = context.engine()
    rules = context.rules
    line = rules.opening_line()
    prefix = line.moves[:line.capture_at]
    set_position(handle, moves=prefix)
    done = [bounded_search(context, handle, "go depth 3", rules.play(rules.start(), prefix),
                           max_depth=3)]
    set_position(handle, fen=rules.kings_fen())
    done.append(bounded_search(context, handle, "go depth 3", rules.from_fen(rules.kings_fen()),
                               max_depth=3))
    multi = rules.multi_capture()
    if multi is not None:
        set_position(handle, fen=multi.fen)
        done.append(bounded_search(context, handle, "go depth 2", rules.from_fen(multi.fen),
                                   max_depth=2))
    return "; ".join(done)


def check_stop_latency(context: Context) -> str:
    """Worst-of-N time from stop to bestmove (go infinite and bare go, stopped after varied
    delays) is within the threshold."""
    handle = context.engine()
    config = context.config
    root = context.rules.start()
    set_position(handle)
    delays = (0.05, 0.25, 0.1, 0.4, 0.15)
    samples: List[int] = []
    for index in range(config.stop_samples):
        go_line = "go infinite" if index % 2 == 0 else "go"
        run = SearchRun(handle, go_line)
        run.hold(delays[index % len(delays)], allow_bestmove=go_line == "go")
        ended = run.best is not None
        latency = run.stop(config.timeout)
        validate_search(run, context.rules, root)
        run.settle(config.timeout)
        if not ended:
            samples.append(round(latency * 1000))
    if not samples:
        raise CheckSkipped("every search ended before stop was sent")
    worst = max(samples)
    text = (f"worst of {len(samples)}: {worst} ms (samples {' '.join(map(str, samples))} ms; "
            f"threshold {config.stop_threshold_ms} ms)")
    if worst > config.stop_threshold_ms:
        raise fail(text)
    return text


def check_isready_during_search(context: Context) -> str:
    """isready during go infinite is answered within the threshold; the search goes on."""
    handle = context.engine()
    config = context.config
    set_position(handle)
    run = SearchRun(handle, "go infinite")
    latencies = []
    for _ in range(3):
        run.hold(0.1)
        latencies.append(run.ready_latency(config.timeout))
    latency = run.stop(config.timeout)
    validate_search(run, context.rules, context.rules.start())
    run.settle(config.timeout)
    worst = max(latencies)
    check_latency("readyok during a search", worst, config)
    check_latency("stop", latency, config)
    return f"readyok within {round(worst * 1000)} ms (worst of 3)"


def check_busy(context: Context) -> str:
    """During a search: position/go/ucinewgame are refused as busy, a syntax error is the
    command's own error, an unknown command is unknown, uci is unchanged, d shows the root."""
    handle = context.engine()
    config = context.config
    rules = context.rules
    has_d = context.offers(handle, "d")
    set_position(handle)
    run = SearchRun(handle, "go infinite")
    run.hold(0.1)
    cases = [("position startpos", "busy: position during search"),
             ("go depth 1", "busy: go during search"),
             ("ucinewgame", "busy: ucinewgame during search"),
             ("go depth x", "go:"),
             ("foo", "unknown command: foo")]
    for line, prefix in cases:
        answer = run.exchange(line, config.timeout)
        if len(answer) != 1 or not answer[0].startswith(f"error {prefix}"):
            raise fail(f"{line!r} during a search was answered {answer}, expected "
                       f"['error {prefix}...']")
    reply = run.collect("uci", lambda text: text == "uciok", config.timeout)
    if tuple(reply) != context.handshake().lines:
        raise fail("uci during a search gave a different reply")
    note = ""
    if has_d:
        shown = context.display(handle, lambda: run.read_other(config.timeout, "the d block"))
        compare_display(shown, rules, rules.start(), 0, "state ongoing")
        note = ", d shows the root"
    run.stop(config.timeout)
    validate_search(run, rules, rules.start())
    run.settle(config.timeout)
    return f"{len(cases)} commands answered as the contract says, uci unchanged{note}"


def check_one_bestmove(context: Context) -> str:
    """Exactly one bestmove per go: none follows within the grace period, also not after a
    stop sent once the search has ended or a second stop."""
    handle = context.engine()
    config = context.config
    root = context.rules.start()
    set_position(handle)
    run = SearchRun(handle, "go depth 1")
    run.wait_bestmove(config.timeout)
    run.hold(config.grace)
    handle.send("stop")
    run.hold(config.grace)
    run.settle(config.timeout)
    validate_search(run, context.rules, root)
    held = SearchRun(handle, "go infinite")
    held.hold(0.1)
    held.stop(config.timeout)
    handle.send("stop")
    held.hold(config.grace)
    held.settle(config.timeout)
    return f"one bestmove each for go depth 1 and go infinite (grace {config.grace:.1f} s)"


def check_game_end(context: Context) -> str:
    """A side to move without legal moves: go depth 1 -> bestmove (none); go infinite holds
    bestmove (none) until stop."""
    handle = context.engine()
    root = context.rules.from_fen(NO_MOVES_FEN)
    set_position(handle, fen=NO_MOVES_FEN)
    bounded_search(context, handle, "go depth 1", root)
    held_search(context, handle, "go infinite", root)
    return f"bestmove (none) for {NO_MOVES_FEN}, held back in infinite mode until stop"


def _signature(run: SearchRun) -> Tuple[str, ...]:
    return tuple(strip_volatile(line) for line, _ in run.infos) + (run.best_line(),)


def check_determinism(context: Context) -> str:
    """go depth / go nodes after ucinewgame give the same bestmove and infos (apart from
    time, nps and hashfull)."""
    handle = context.engine()
    config = context.config
    done = []
    for go_line in ("go depth 3", "go nodes 1000"):
        signatures = []
        for _ in range(2):
            expect_silent(handle, "ucinewgame")
            set_position(handle)
            run = SearchRun(handle, go_line)
            run.wait_bestmove(config.timeout)
            validate_search(run, context.rules, context.rules.start())
            run.settle(config.timeout)
            signatures.append(_signature(run))
        if signatures[0] != signatures[1]:
            diff = next((a, b) for a, b in zip(*signatures) if a != b) if len(
                signatures[0]) == len(signatures[1]) else (f"{len(signatures[0])} lines",
                                                           f"{len(signatures[1])} lines")
            raise fail(f"{go_line!r} differs between two runs: {diff[0]!r} vs {diff[1]!r}")
        done.append(f"{go_line}: {signatures[0][-1]}")
    return "; ".join(done)


def check_unknown_command(context: Context) -> str:
    """Unknown commands (also wrong case) answer 'error unknown command: <word>'."""
    handle = context.engine()
    base = error_base(context, handle)
    cases = [(line, f"unknown command: {line.split()[0]}", True)
             for line in ("foo 1 2", "GO depth 1", "Position startpos", "isready?")]
    return f"{len(cases)} unknown commands answered; " + expect_errors(context, handle, base, cases)


BAD_GO_LINES = (
    "go depth", "go depth x", "go depth 0", "go depth 100", "go depth -1", "go depth 3.5",
    "go nodes 0", "go nodes 99999999999999999999", "go movetime 0", "go movetime -5",
    "go depth 3 depth 4", "go infinite depth 3", "go infinite ponder", "go wtime 1000",
    "go winc 100", "go wtime 100 btime 100 movestogo 0", "go depth 3 foo",
)


def check_bad_go(context: Context) -> str:
    """Bad go arguments answer 'error go: ...' and start no search."""
    handle = context.engine()
    base = error_base(context, handle)
    note = expect_errors(context, handle, base, [(line, "go:", False) for line in BAD_GO_LINES])
    late = handle.drain(context.config.grace)
    if late:
        raise fail(f"a search ran after a bad go: {late[0]!r}")
    return f"{len(BAD_GO_LINES)} bad go lines rejected, no search; {note}"


def check_bad_fen(context: Context) -> str:
    """Bad FENs answer 'error position: ...' and keep the position."""
    handle = context.engine()
    base = error_base(context, handle)
    squares = context.rules.geometry.squares
    lines = ["position fen X:Y", "position fen", "position", f"position fen W:W{squares + 1}:B1",
             "position fen Q:W21:B1", "position fen W:W5:B5", "position fen W:W5:B1 foo",
             "position startpos fen W:W5:B1"]
    note = expect_errors(context, handle, base, [(line, "position:", False) for line in lines])
    return f"{len(lines)} bad position lines rejected; {note}"


def check_bad_moves(context: Context) -> str:
    """Illegal and malformed moves answer 'error position|move: ...'; nothing is played."""
    handle = context.engine()
    rules = context.rules
    base = error_base(context, handle)
    position = base[0]
    start_illegal = rules.illegal_move(rules.start())
    legal = rules.sorted_moves(position)[0]
    after_illegal = rules.illegal_move(position.play_raw(legal.raw))
    kings_illegal = rules.illegal_move(rules.from_fen(rules.kings_fen()))
    cases = [(f"position startpos moves {start_illegal}", "position:", False),
             ("position startpos moves bad!", "position:", False),
             (f"position fen {rules.kings_fen()} moves {kings_illegal}", "position:", False),
             (f"move {rules.illegal_move(position)}", "move:", False),
             (f"move {legal.pdn()} {after_illegal}", "move:", False),
             ("move", "move:", False),
             ("move 11-15-", "move:", False)]
    return f"{len(cases)} bad moves rejected; " + expect_errors(context, handle, base, cases)


def check_bad_lines(context: Context) -> str:
    """Extra arguments, over-long lines and invalid UTF-8 are errors; quit with an argument
    does not exit."""
    handle = context.engine()
    base = error_base(context, handle)
    cases: List[Tuple[Union[str, bytes], str, bool]] = [
        ("isready 1", "isready:", False), ("uci now", "uci:", False),
        ("stop now", "stop:", False), ("quit now", "quit:", False),
        ("ucinewgame x", "ucinewgame:", False),
        (b"isready " + b"x" * 9000 + b"\n", "line too long", True),
        (b"isready \xff\n", "invalid utf-8", True), (b"\xed\xa0\x80\n", "invalid utf-8", True),
    ]
    note = expect_errors(context, handle, base, cases)
    if not handle.alive:
        raise fail("the engine exited")
    return f"{len(cases)} bad lines rejected; {note}"


def _read_perft(handle: EngineHandle, depth: int, timeout: float) -> Tuple[List[Tuple[str, int]], int]:
    handle.send(f"perft {depth}")
    rows: List[Tuple[str, int]] = []
    deadline = time.monotonic() + timeout
    while True:
        try:
            line = handle.read(max(0.0, deadline - time.monotonic()))
        except EngineTimeoutError:
            raise fail(f"no 'nodes' line within {timeout:.1f} s of perft {depth}") from None
        tokens = tokenize(line)
        if tokens[:1] == ["nodes"] and len(tokens) == 2 and tokens[1].isdigit():
            return rows, int(tokens[1])
        if len(tokens) == 2 and tokens[0].endswith(":") and tokens[1].isdigit():
            rows.append((tokens[0][:-1], int(tokens[1])))
        else:
            raise fail(f"malformed perft line {line!r}")


def check_perft(context: Context) -> str:
    """perft N: one '<move>: <count>' per legal move, then 'nodes <total>' matching published
    counts (English start 7 49 302 1469) and the rules elsewhere."""
    handle = context.engine()
    rules = context.rules
    set_position(handle)
    context.require(handle, "perft")
    cases: List[Tuple[Position, int, Optional[Tuple[str, ...]]]] = [
        (rules.start(), depth, None) for depth in range(1, 5)]
    line = rules.opening_line()
    prefix = line.moves[:line.capture_at]
    cases.append((rules.play(rules.start(), prefix), 3, prefix))
    totals = []
    for position, depth, moves in cases:
        if moves is not None:
            set_position(handle, moves=moves)
        rows, total = _read_perft(handle, depth, context.config.timeout * 2)
        _compare_legal([text for text, _ in rows], rules, position)
        expected = rules.perft(position, depth)
        if sum(count for _, count in rows) != total or total != expected:
            raise fail(f"perft {depth} of {position.fen()}: nodes {total} (rows sum to "
                       f"{sum(c for _, c in rows)}), expected {expected}")
        totals.append(str(total))
    expect_error(handle, "perft 0", "perft:")
    return f"start perft 1..4 = {' '.join(totals[:4])}; after {' '.join(prefix)}: {totals[4]}"


def check_eval(context: Context) -> str:
    """eval: 'eval <term> <int>' lines, the last one 'eval total <int>'."""
    handle = context.engine()
    set_position(handle)
    context.require(handle, "eval")
    handle.send("eval")
    lines: List[str] = []
    while not lines or tokenize(lines[-1])[:2] != ["eval", "total"]:
        line = handle.read()
        tokens = tokenize(line)
        number = tokens[2].lstrip("-") if len(tokens) == 3 else ""
        if len(tokens) != 3 or tokens[0] != "eval" or not tokens[1].islower() or not number.isdigit():
            raise fail(f"malformed eval line {line!r}")
        lines.append(line)
        if len(lines) > 100:
            raise fail("more than 100 eval lines without 'eval total'")
    if handle.sync():
        raise fail("output after 'eval total'")
    return f"{len(lines)} lines, {lines[-1]}"


def check_quit(context: Context) -> str:
    """quit: exit status 0 at once, nothing more written."""
    handle = context.spawn()
    handle.send("quit")
    return expect_exit(handle, context.config, "quit", time.monotonic())


def check_quit_searching(context: Context) -> str:
    """quit during go infinite: exit status 0 at once (the stopped search's bestmove may be
    written first)."""
    handle = context.spawn()
    set_position(handle)
    run = SearchRun(handle, "go infinite")
    run.hold(0.2)
    handle.send("quit")
    return expect_exit(handle, context.config, "quit during a search", time.monotonic(),
                       bestmove_allowed=True)


def check_end_of_input(context: Context) -> str:
    """End of input: exit status 0 at once, idle and during go infinite and a bare go (the
    search is stopped; its bestmove may be written). A search with a limit of its own may run
    to its end first (PROTOCOL.md section 9), so none is tried. Every case is tried; failures
    are joined."""
    passed, failed = [], []
    for go_line in (None, "go infinite", "go"):
        what = "end of input" + (f" during {go_line!r}" if go_line else "")
        try:
            passed.append(_end_of_input_case(context, go_line, what))
        except CheckFailed as exc:
            failed.append(str(exc))
    if failed:
        raise fail("; ".join(failed))
    return "; ".join(passed)


def _end_of_input_case(context: Context, go_line: Optional[str], what: str) -> str:
    handle = context.spawn()
    if go_line is not None:
        set_position(handle)
        run = SearchRun(handle, go_line)
        run.hold(0.2, allow_bestmove=True)
        if run.best is not None:
            return f"{go_line} ended before end of input"
    handle.close_input()
    return expect_exit(handle, context.config, what, time.monotonic(),
                       bestmove_allowed=go_line is not None)


_CHECK_TABLE: Tuple[Tuple[str, Callable[[Context], str], float, float], ...] = (
    # (name, function, budget units of --timeout, extra seconds)
    ("handshake", check_handshake, 3.0, 2.0),
    ("isready", check_isready, 3.0, 2.0),
    ("options accepted", check_options_accepted, 4.0, 2.0),
    ("options out of range", check_spin_range, 3.0, 2.0),
    ("options bad names and values", check_bad_options, 3.0, 2.0),
    ("startpos", check_startpos, 3.0, 2.0),
    ("d block", check_display, 3.0, 2.0),
    ("fen", check_fen, 3.0, 2.0),
    ("moves", check_moves, 3.0, 2.0),
    ("move notation", check_notation, 3.0, 2.0),
    ("move and undo", check_move_undo, 3.0, 2.0),
    ("ucinewgame", check_ucinewgame, 3.0, 2.0),
    ("go depth", _go_check("go depth 3", max_depth=3), 3.0, 2.0),
    ("go nodes", _go_check("go nodes 2000"), 3.0, 2.0),
    ("go movetime", _go_check("go movetime 300", limit_ms=300), 3.0, 2.0),
    ("go clock", check_go_clock, 4.0, 4.0),
    ("go movestogo", check_go_movestogo, 3.0, 3.0),
    ("go infinite + stop", check_go_infinite, 3.0, 2.0),
    ("go ponder + ponderhit", check_go_ponder, 4.0, 3.0),
    ("go without limits", check_go_bare, 3.0, 2.0),
    ("search other positions", check_search_positions, 4.0, 2.0),
    ("stop latency", check_stop_latency, 3.0, 2.0),
    ("isready during search", check_isready_during_search, 3.0, 2.0),
    ("commands during search", check_busy, 4.0, 2.0),
    ("one bestmove per go", check_one_bestmove, 3.0, 3.0),
    ("bestmove (none) at game end", check_game_end, 3.0, 2.0),
    ("determinism", check_determinism, 4.0, 2.0),
    ("error: unknown command", check_unknown_command, 3.0, 2.0),
    ("error: bad go arguments", check_bad_go, 3.0, 2.0),
    ("error: bad FEN", check_bad_fen, 3.0, 2.0),
    ("error: bad moves", check_bad_moves, 3.0, 2.0),
    ("error: bad lines", check_bad_lines, 3.0, 2.0),
    ("perft", check_perft, 4.0, 2.0),
    ("eval", check_eval, 3.0, 2.0),
    ("quit", check_quit, 2.0, 3.0),
    ("quit during search", check_quit_searching, 2.0, 3.0),
    ("end of input", check_end_of_input, 3.0, 5.0),
)


def _summary(function: Callable[[Context], str]) -> str:
    doc = (function.__doc__ or "").strip()
    return " ".join(doc.split())


CHECKS: Tuple[Check, ...] = tuple(
    Check(number, name, _summary(function), function, units, extra,
          per_sample=function is check_stop_latency)
    for number, (name, function, units, extra) in enumerate(_CHECK_TABLE, start=1)
)
"""Every check, numbered from 1 in the order they run."""


# --------------------------------------------------------------------------- runner


class Reporter:
    """Writes result lines (and, verbose, the live transcript) to ``out``; thread-safe."""

    def __init__(self, out: TextIO, config: Config) -> None:
        self._out = out
        self._config = config
        self._lock = threading.Lock()

    def line(self, text: str) -> None:
        with self._lock:
            self._out.write(text + "\n")
            self._out.flush()

    def result(self, result: CheckResult) -> None:
        """``STATUS number name: reason (seconds)``; a FAIL adds the last lines exchanged."""
        self.line(f"{result.status} {result.number:2d} {result.name}: {result.reason} "
                  f"({result.seconds:.2f} s)")
        if result.transcript and not self._config.verbose:
            self.line("      last lines:")
            for entry in result.transcript[-self._config.transcript_lines:]:
                self.line("        " + (entry if len(entry) <= 200 else entry[:197] + "..."))


def select_checks(only: Optional[FrozenSet[int]]) -> List[Check]:
    """The checks to run, in order; ``only`` (numbers) must name existing checks."""
    if only is None:
        return list(CHECKS)
    unknown = sorted(only - {c.number for c in CHECKS})
    if unknown:
        raise UsageError(f"no check numbered {', '.join(map(str, unknown))} "
                         f"(1..{len(CHECKS)}; see --list)")
    return [c for c in CHECKS if c.number in only]


def run_suite(config: Config, out: TextIO) -> List[CheckResult]:
    """Run the selected checks against ``config.command``, reporting to ``out``.

    Bounded by ``config.total_timeout``: checks that cannot start in time FAIL as not run.
    """
    rules = Rules(config.variant)
    reporter = Reporter(out, config)
    harness = Harness(config, rules, reporter.line)
    deadline = time.monotonic() + config.total_timeout
    results: List[CheckResult] = []
    try:
        for check in select_checks(config.only):
            remaining = deadline - time.monotonic()
            if remaining <= 1.0:
                result = CheckResult(check.number, check.name, FAIL,
                                     f"not run: the suite's budget of {config.total_timeout:.0f} s "
                                     "is exhausted", 0.0)
            else:
                result = harness.run(check, min(check.budget(config), remaining))
            results.append(result)
            reporter.result(result)
    finally:
        harness.close()
    return results


def parse_only(text: str) -> FrozenSet[int]:
    """``1,3,5-7`` -> {1, 3, 5, 6, 7}; raises :class:`UsageError`."""
    numbers: Set[int] = set()
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        try:
            first, last = int(low), int(high or low)
        except ValueError:
            raise UsageError(f"--only: bad check number or range {part.strip()!r}") from None
        if first > last:
            raise UsageError(f"--only: range {part.strip()!r} runs backwards")
        numbers.update(range(first, last + 1))
    return frozenset(numbers)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="draughts-conformance",
        description="Check an engine against the protocol contract (PROTOCOL.md).",
        epilog="examples: draughts-conformance --only 13-22 -- python3 -m protocol\n"
               "          draughts-conformance --hub -- scan hub",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--variant", default="english",
                        help=f"rules to test with: {', '.join(variant_names())} (default english)")
    parser.add_argument("--timeout", type=float, default=5.0,
                        help="seconds to wait for any single answer (default 5)")
    parser.add_argument("--stop-threshold", type=int, default=500, metavar="MS",
                        help="worst acceptable stop/isready latency in ms (default 500)")
    parser.add_argument("--stop-samples", type=int, default=5, metavar="N",
                        help="searches stopped to measure the stop latency (default 5)")
    parser.add_argument("--grace", type=float, default=0.3,
                        help="seconds to watch for lines that must not come (default 0.3)")
    parser.add_argument("--total-timeout", type=float, default=300.0,
                        help="budget of the whole run in seconds (default 300)")
    parser.add_argument("--only", metavar="N,M", help="run only these checks (e.g. 1,13-20)")
    parser.add_argument("--list", action="store_true", help="list the checks and exit")
    parser.add_argument("--verbose", action="store_true",
                        help="show every line exchanged as it happens")
    parser.add_argument("--hub", action="store_true",
                        help="check a Hub v2 engine instead (only --timeout applies)")
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="the engine command, after --")
    return parser


def parse_args(argv: Sequence[str]) -> Tuple[Config, bool]:
    """(config, list_only) from command-line arguments; raises :class:`UsageError`."""
    argv = list(argv)
    command: List[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, command = argv[:cut], argv[cut + 1:]
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        raise UsageError("bad arguments (see --help)") if exc.code else exc
    command = command or list(args.command)
    if args.timeout <= 0 or args.grace < 0 or args.stop_threshold <= 0 or args.stop_samples < 1:
        raise UsageError("--timeout, --stop-threshold and --stop-samples must be positive")
    if not command and not args.list:
        raise UsageError("no engine command: draughts-conformance [options] -- <command...>")
    config = Config(
        command=tuple(command), variant=Rules(args.variant).name, timeout=args.timeout,
        stop_threshold_ms=args.stop_threshold, stop_samples=args.stop_samples, grace=args.grace,
        total_timeout=args.total_timeout,
        only=parse_only(args.only) if args.only else None, verbose=args.verbose,
    )
    select_checks(config.only)
    return config, args.list


def list_checks(out: TextIO) -> None:
    """Print every check: number, name and what it verifies."""
    for check in CHECKS:
        out.write(f"{check.number:2d} {check.name}: {check.summary}\n")


def main(argv: Optional[Sequence[str]] = None, out: Optional[TextIO] = None) -> int:
    """Entry point of ``draughts-conformance`` and ``python3 -m protocol.conformance``.

    Returns 0 when no check failed, 1 when one did, 2 for a usage error.
    """
    out = sys.stdout if out is None else out
    args = list(sys.argv[1:] if argv is None else argv)
    options = args[:args.index("--")] if "--" in args else args
    if "--hub" in options:  # judge a Hub engine instead (PROTOCOL.md section 10)
        from .hub_conformance import main as hub_main
        args.remove("--hub")
        return hub_main(args)
    try:
        config, list_only = parse_args(args)
    except UsageError as exc:
        sys.stderr.write(f"draughts-conformance: {exc}\n")
        return 2
    if list_only:
        list_checks(out)
        return 0
    try:
        return _run_and_summarize(config, out)
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 1


def _run_and_summarize(config: Config, out: TextIO) -> int:
    started = time.monotonic()
    out.write(f"engine: {shlex.join(config.command)}   variant: {config.variant}\n")
    results = run_suite(config, out)
    counts = {status: sum(r.status == status for r in results) for status in (PASS, FAIL, SKIP)}
    out.write(f"ran {plural(len(results), 'check')} in {time.monotonic() - started:.1f} s\n")
    out.write(f"{counts[PASS]} passed, {counts[FAIL]} failed, {counts[SKIP]} skipped\n")
    out.flush()
    return 1 if counts[FAIL] else 0


if __name__ == "__main__":
    sys.exit(main())
