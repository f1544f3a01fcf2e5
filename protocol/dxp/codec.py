"""DamExchange messages: their fixed-width layouts, decoded and encoded (PROTOCOL.md section 11).

Every message is a frame of printable ASCII characters (the 0 byte that ends it is the
business of :mod:`protocol.dxp.frames`); its first character names it and the fields have
fixed widths:

=====  ==================================================================
``R``  version(2) initiator name(32) follower colour(1: W/Z) minutes(3)
       moves(3) start(1: A = start position, B = position follows)
       [colour to move(1) position(one of e w z W Z per square)]
``A``  follower name(32) code(1: 0 accepted, 1 version, 2 declined, 3 never)
``M``  seconds(4) from(2) to(2) number captured(2) captured squares(2 each)
``E``  reason(1: 0 unknown, 1 I lose, 2 draw, 3 I win) stop code(1: 0 next game, 1 stop)
``C``  text
``B``  move number(3) colour to move(1)
``K``  code(1: 0 accepted, 1 not supported, 2 declined)
=====  ==================================================================

:func:`parse_message` turns a frame into one frozen dataclass per message and raises
:class:`DxpFormatError` for anything else, including a square number outside the board;
the ``encode_*`` functions write the layouts.  Fields are read by position, so no field can
hold more digits than its width.

>>> parse_message("M001205250422122320")
MoveMessage(seconds=12, start=5, end=25, captured=(22, 12, 23, 20))
>>> encode_back_request(12, "W")
'B012W'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple, Union

from draughts_engine import __version__
from draughts_engine.move import Move
from draughts_engine.position import Position

__all__ = ["FOLLOWER_NAME", "DxpFormatError", "GameRequest", "GameAccept", "MoveMessage",
           "GameEnd", "Chat", "BackRequest", "BackAccept", "Message", "parse_message",
           "encode_game_request", "encode_game_accept", "encode_move", "encode_game_end",
           "encode_chat", "encode_back_request", "encode_back_accept", "dxp_position",
           "fen_from_dxp"]

FOLLOWER_NAME = f"draughts-engine {__version__}"
_QUOTE = 64  # characters of a bad field quoted in an error message, at most


class DxpFormatError(ValueError):
    """A frame that does not follow the message layout; ``header`` is its first character."""

    def __init__(self, header: str, message: str) -> None:
        super().__init__(message)
        self.header = header


@dataclass(frozen=True)
class GameRequest:
    """``R``: the initiator asks for a game (with a position when ``start`` is ``B``)."""

    version: int
    initiator: str
    follower_colour: str          # 'W' or 'Z'
    minutes: int
    moves: int
    start: str                    # 'A' or 'B'
    colour_to_move: Optional[str] = None
    position: Optional[str] = None


@dataclass(frozen=True)
class GameAccept:
    """``A``: the follower's answer to a game request (``code`` 0 accepts)."""

    follower: str
    code: str


@dataclass(frozen=True)
class MoveMessage:
    """``M``: a move as origin, destination and the captured squares (any order)."""

    seconds: int
    start: int
    end: int
    captured: Tuple[int, ...]


@dataclass(frozen=True)
class GameEnd:
    """``E``: a game ends (``reason``), and whether another one may follow (``stop``)."""

    reason: str
    stop: str


@dataclass(frozen=True)
class Chat:
    """``C``: free text."""

    text: str


@dataclass(frozen=True)
class BackRequest:
    """``B``: take moves back until move ``move_number`` with ``colour`` to move."""

    move_number: int
    colour: str


@dataclass(frozen=True)
class BackAccept:
    """``K``: the answer to a back request (``code`` 0 accepts)."""

    code: str


Message = Union[GameRequest, GameAccept, MoveMessage, GameEnd, Chat, BackRequest, BackAccept]


def _quoted(text: str) -> str:
    return repr(text) if len(text) <= _QUOTE else repr(text[:_QUOTE]) + "..."


def _number(header: str, text: str, what: str, low: int = 0, high: Optional[int] = None) -> int:
    if len(text) == 0 or not text.isascii() or not text.isdigit():
        raise DxpFormatError(header, f"{what} must be digits, got {_quoted(text)}")
    value = int(text)  # at most a field's width: never a huge number
    if value < low or (high is not None and value > high):
        top = "" if high is None else f"..{high}"
        raise DxpFormatError(header, f"{what} must be in {low}{top}, got {value}")
    return value


def _colour(header: str, letter: str, what: str) -> str:
    if letter not in ("W", "Z"):
        raise DxpFormatError(header, f"{what} must be W or Z, got {letter!r}")
    return letter


def _exact(header: str, frame: str, length: int, what: str) -> None:
    if len(frame) != length:
        raise DxpFormatError(header, f"{what} message must have {length} characters, got {len(frame)}")


def parse_message(frame: str, squares: int = 50) -> Message:
    """Decode one frame (without its 0 byte); :class:`DxpFormatError` for a bad layout.

    ``squares`` is the size of the board: the number of squares of a ``B`` position in a
    game request, and the highest square a move may name.
    """
    if not frame:
        raise DxpFormatError("", "empty message")
    header = frame[0]
    if header == "C":
        return Chat(frame[1:])
    if not frame.isascii() or not frame.isprintable():
        raise DxpFormatError(header, "message has characters outside printable ASCII")
    if header == "R":
        return _parse_request(frame, squares)
    if header == "A":
        _exact(header, frame, 34, "game accept")
        return GameAccept(frame[1:33].strip(), frame[33])
    if header == "M":
        return _parse_move(frame, squares)
    if header == "E":
        _exact(header, frame, 3, "game end")
        return GameEnd(frame[1], frame[2])
    if header == "B":
        _exact(header, frame, 5, "back request")
        colour = _colour(header, frame[4], "colour to move")
        return BackRequest(_number(header, frame[1:4], "move number"), colour)
    if header == "K":
        _exact(header, frame, 2, "back accept")
        return BackAccept(frame[1])
    raise DxpFormatError(header, f"unknown message type {header!r}")


def _parse_request(frame: str, squares: int) -> GameRequest:
    header = "R"
    if len(frame) < 43:
        raise DxpFormatError(header, f"game request too short ({len(frame)} characters)")
    version = _number(header, frame[1:3], "version")
    colour = _colour(header, frame[35], "follower colour")
    minutes = _number(header, frame[36:39], "thinking time")
    moves = _number(header, frame[39:42], "number of moves")
    start = frame[42]
    if start == "A":
        _exact(header, frame, 43, "game request (start A)")
        return GameRequest(version, frame[3:35].strip(), colour, minutes, moves, "A")
    if start == "B":
        _exact(header, frame, 44 + squares, "game request (start B)")
        to_move = _colour(header, frame[43], "colour to move")
        return GameRequest(version, frame[3:35].strip(), colour, minutes, moves, "B",
                           to_move, frame[44:])
    raise DxpFormatError(header, f"starting position must be A or B, got {start!r}")


def _parse_move(frame: str, squares: int) -> MoveMessage:
    header = "M"
    if len(frame) < 11:
        raise DxpFormatError(header, f"move too short ({len(frame)} characters)")
    seconds = _number(header, frame[1:5], "time")
    from_field = _number(header, frame[5:7], "from field", 1, squares)
    to_field = _number(header, frame[7:9], "to field", 1, squares)
    count = _number(header, frame[9:11], "number captured")
    _exact(header, frame, 11 + 2 * count, f"move with {count} captures")
    captured = tuple(_number(header, frame[11 + 2 * i:13 + 2 * i], "captured field", 1, squares)
                     for i in range(count))
    return MoveMessage(seconds, from_field, to_field, captured)


def _digits(value: int, width: int, what: str) -> str:
    """``value`` with leading zeros in exactly ``width`` digits; ValueError if it does not fit."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 10 ** width:
        shown = (repr(value) if not isinstance(value, int) or abs(value) < 10 ** 30
                 else "a number too long to show")
        raise ValueError(f"{what} must be a whole number in 0..{10 ** width - 1}, got {shown[:64]}")
    return str(value).zfill(width)


def _name_field(name: str) -> str:
    text = "".join(ch if " " <= ch <= "~" else "?" for ch in name).strip()
    return text[:32].ljust(32)


def encode_game_request(follower_colour: str, minutes: int, moves: int,
                        position: Optional[Position] = None, name: str = "draughts-engine") -> str:
    """An ``R`` frame; with ``position``, a ``B`` request carrying it.

    Raises ValueError for a value that does not fit its field (``minutes`` and ``moves``
    have three digits).
    """
    if follower_colour not in ("W", "Z"):
        raise ValueError(f"follower colour must be W or Z, got {follower_colour!r}")
    text = (f"R01{_name_field(name)}{follower_colour}{_digits(minutes, 3, 'thinking time')}"
            f"{_digits(moves, 3, 'number of moves')}")
    if position is None:
        return text + "A"
    return text + "B" + dxp_position(position)


def encode_game_accept(code: str, name: str = FOLLOWER_NAME) -> str:
    """An ``A`` frame: our name (cut or padded to 32 characters) and the answer code."""
    return f"A{_name_field(name)}{code}"


def encode_move(move: Move, seconds: float = 0.0) -> str:
    """An ``M`` frame: time, from, to, number captured and every captured square (sorted)."""
    secs = max(0, min(9999, int(round(seconds))))
    captured = "".join(f"{square:02d}" for square in sorted(move.captured))
    return f"M{secs:04d}{move.start:02d}{move.end:02d}{len(move.captured):02d}{captured}"


def encode_game_end(reason: str, stop: str = "0") -> str:
    """An ``E`` frame."""
    return f"E{reason}{stop}"


def encode_chat(text: str) -> str:
    """A ``C`` frame: the text in printable ASCII, cut to fit the standard's 127 characters."""
    clean = "".join(ch if " " <= ch <= "~" else " " for ch in text)
    return "C" + clean[:126]


def encode_back_request(move_number: int, colour: str) -> str:
    """A ``B`` frame; ValueError for a move number outside 0..999 or a colour not W/Z."""
    if colour not in ("W", "Z"):
        raise ValueError(f"colour must be W or Z, got {colour!r}")
    return f"B{_digits(move_number, 3, 'move number')}{colour}"


def encode_back_accept(code: str) -> str:
    """A ``K`` frame."""
    return f"K{code}"


def dxp_position(position: Position) -> str:
    """Colour to move (W/Z) and one of ``e w z W Z`` per square."""
    table = {None: "e", "w": "w", "W": "W", "b": "z", "B": "Z"}
    cells = "".join(table[position.piece_at(s)] for s in range(1, position.variant.squares + 1))
    return ("W" if position.white_to_move else "Z") + cells


def fen_from_dxp(colour_to_move: str, cells: str) -> str:
    """PDN FEN of a DXP position (``b``/``B`` are read as black too); ValueError if malformed."""
    white: List[str] = []
    black: List[str] = []
    for square, ch in enumerate(cells, start=1):
        if ch in "e.":
            continue
        if ch in "wW":
            white.append(("K" if ch == "W" else "") + str(square))
        elif ch in "zZbB":
            black.append(("K" if ch in "ZB" else "") + str(square))
        else:
            raise ValueError(f"square {square}: {ch!r} is not one of e w z W Z")
    side = "W" if colour_to_move == "W" else "B"
    return f"{side}:W{','.join(white)}:B{','.join(black)}"
