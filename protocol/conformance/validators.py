"""Pure validators: judge what an engine wrote, without talking to it.

* the ``uci`` reply (:func:`validate_handshake`, strict; :func:`lenient_handshake` for setup);
* search ``info`` lines (:func:`check_info_line`, :func:`check_info_sequence`);
* the ``d`` block (:func:`parse_display` for its shape, :func:`compare_display` for its content).

Each raises :class:`CheckFailed` naming the first problems; none has side effects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence, Set, Tuple

from draughts_engine import Move, Position
from draughts_engine.errors import DraughtsError

from .errors import MoveTextError, fail
from .oracle import Rules
from .text import first_word
from .wire import (
    PROTOCOL_VERSION,
    InfoReport,
    EngineOption,
    ProtocolError,
    parse_id,
    parse_option,
    tokenize,
)

__all__ = [
    "INFO_FIELDS",
    "DISPLAY_KEYS",
    "Handshake",
    "lenient_handshake",
    "validate_handshake",
    "check_info_line",
    "check_info_sequence",
    "strip_volatile",
    "DisplayBlock",
    "parse_display",
    "compare_display",
    "compare_legal",
]

INFO_FIELDS = ("depth", "seldepth", "score", "nodes", "nps", "time", "hashfull", "pv")
"""The ``info`` fields in the order PROTOCOL.md gives them; all but ``pv`` are required."""


def _option_problem(spec: EngineOption) -> Optional[str]:
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
    options: Tuple[EngineOption, ...]

    def option(self, name: str) -> Optional[EngineOption]:
        """The option called ``name`` (case-insensitive), or None."""
        return next((o for o in self.options if o.name.casefold() == name.casefold()), None)


def lenient_handshake(lines: Sequence[str]) -> Handshake:
    """The ids and the well-formed options of a ``uci`` reply, skipping anything malformed."""
    ids: List[Tuple[str, str]] = []
    options: List[EngineOption] = []
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
    options: List[EngineOption] = []
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

    Raises :class:`CheckFailed` naming the line.  A ``currmove`` line (the root move being
    searched) needs only a legal move of ``root``.
    """
    if report.currmove is not None:
        try:
            rules.resolve(root, report.currmove)
        except MoveTextError as exc:
            raise fail(f"illegal currmove in {line!r}: {exc}") from None
        return
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
class DisplayBlock:
    """The fields of a ``d`` block (PROTOCOL.md section 7)."""

    board: Tuple[str, ...]
    fen: str
    variant: str
    side: str
    ply: int
    legal: Tuple[str, ...]
    state: str


DISPLAY_KEYS = ("fen", "variant", "side", "ply", "legal", "state")


def _state_ok(tokens: Sequence[str]) -> bool:
    def reason_ok(word: str) -> bool:
        return word.islower() and all(c.isalpha() or c == "-" for c in word)

    if tokens[1:] == ["ongoing"]:
        return True
    if len(tokens) == 4 and tokens[1] == "win" and tokens[2] in ("white", "black"):
        return reason_ok(tokens[3])
    return len(tokens) == 3 and tokens[1] == "draw" and reason_ok(tokens[2])


def parse_display(lines: Sequence[str], size: int) -> DisplayBlock:
    """Check the shape of a ``d`` block for a ``size`` x ``size`` board and return its fields.

    Raises :class:`CheckFailed` naming the first problem.
    """
    words = [first_word(line) for line in lines]
    expected = ["board"] * size + list(DISPLAY_KEYS)
    if words != expected:
        raise fail(f"d block lines are [{' '.join(words)}], expected {size} board lines, then "
                   f"{' '.join(DISPLAY_KEYS)}")
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
    return DisplayBlock(tuple(rows), fields["fen"][1], fields["variant"][1], fields["side"][1],
                   int(fields["ply"][1]), tuple(fields["legal"][1:]),
                   " ".join(fields["state"]))


def compare_display(shown: DisplayBlock, rules: Rules, expected: Position, ply: int,
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
    compare_legal(shown.legal, rules, expected)
    if shown.state != state:
        raise fail(f"d shows {shown.state!r}, expected {state!r}")


def compare_legal(texts: Sequence[str], rules: Rules, position: Position) -> None:
    """Each of ``texts`` names a different legal move of ``position`` in full notation, and
    together they are all of them. Raises :class:`CheckFailed`."""
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
