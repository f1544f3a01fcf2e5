"""DamExchange (DXP) follower: play games over TCP against a DXP initiator.

PROTOCOL.md section 11 is the contract.  ``draughts-engine --dxp [--host H]
[--port P]`` (or ``python3 -m protocol --dxp ...``) listens on loopback port
27531 by default and serves one connection at a time.  The initiator sends a
game request (``R``), we answer ``A``, the two sides exchange moves (``M``)
until one sends a game end (``E``) that the other acknowledges; ``B``/``K``
take moves back and ``C`` carries chat.  Every message is a frame of ASCII
characters ended by one 0 byte; the fields have fixed widths:

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

The codec (:func:`parse_message`, the ``encode_*`` functions), the frame
reader and the game logic (:class:`DxpFollower`) are separate so that tests can
drive each one; the engine is made by a factory, so tests can use a fake one.
"""
from __future__ import annotations

import argparse
import queue
import socket
import sys
import threading
import time
from dataclasses import dataclass
from typing import Callable, List, Optional, Sequence, Tuple, Union

from draughts_engine import __version__
from draughts_engine.errors import DraughtsError
from draughts_engine.game import Game
from draughts_engine.move import Move
from draughts_engine.position import Position
from draughts_engine.search.limits import SearchLimits
from draughts_engine.variants import Variant, get_variant

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "FOLLOWER_NAME", "DxpFormatError", "GameRequest",
           "GameAccept", "MoveMessage", "GameEnd", "Chat", "BackRequest", "BackAccept",
           "parse_message", "encode_game_request", "encode_game_accept", "encode_move",
           "encode_game_end", "encode_chat", "encode_back_request", "encode_back_accept",
           "dxp_position", "fen_from_dxp", "FrameReader", "FrameError", "DxpFollower",
           "DxpSettings", "serve", "main"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 27531
FOLLOWER_NAME = f"draughts-engine {__version__}"
MAX_FRAME = 1024          # longer frames (the standard says 127) end the connection
SEND_GAP = 0.03           # seconds kept between two frames (some readers merge frames)


# --------------------------------------------------------------------------- messages

class DxpFormatError(ValueError):
    """A frame that does not follow the message layout; ``header`` is its first character."""

    def __init__(self, header: str, message: str) -> None:
        super().__init__(message)
        self.header = header


@dataclass(frozen=True)
class GameRequest:
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
    follower: str
    code: str


@dataclass(frozen=True)
class MoveMessage:
    seconds: int
    start: int
    end: int
    captured: Tuple[int, ...]


@dataclass(frozen=True)
class GameEnd:
    reason: str
    stop: str


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class BackRequest:
    move_number: int
    colour: str


@dataclass(frozen=True)
class BackAccept:
    code: str


Message = Union[GameRequest, GameAccept, MoveMessage, GameEnd, Chat, BackRequest, BackAccept]


def _number(header: str, text: str, what: str) -> int:
    if len(text) == 0 or not text.isascii() or not text.isdigit():
        raise DxpFormatError(header, f"{what} must be digits, got {text!r}")
    return int(text)


def _exact(header: str, frame: str, length: int, what: str) -> None:
    if len(frame) != length:
        raise DxpFormatError(header, f"{what} message must have {length} characters, got {len(frame)}")


def parse_message(frame: str, squares: int = 50) -> Message:
    """Decode one frame (without its 0 byte); :class:`DxpFormatError` for a bad layout.

    ``squares`` is the number of squares of a ``B`` position in a game request.
    """
    if not frame:
        raise DxpFormatError("", "empty message")
    header = frame[0]
    if header == "C":
        return Chat(frame[1:])
    if not frame.isascii() or not frame.isprintable():
        raise DxpFormatError(header, "message has characters outside printable ASCII")
    if header == "R":
        if len(frame) < 43:
            raise DxpFormatError(header, f"game request too short ({len(frame)} characters)")
        version = _number(header, frame[1:3], "version")
        colour = frame[35]
        if colour not in "WZ":
            raise DxpFormatError(header, f"follower colour must be W or Z, got {colour!r}")
        minutes = _number(header, frame[36:39], "thinking time")
        moves = _number(header, frame[39:42], "number of moves")
        start = frame[42]
        if start == "A":
            _exact(header, frame, 43, "game request (start A)")
            return GameRequest(version, frame[3:35].strip(), colour, minutes, moves, "A")
        if start == "B":
            _exact(header, frame, 44 + squares, "game request (start B)")
            to_move = frame[43]
            if to_move not in "WZ":
                raise DxpFormatError(header, f"colour to move must be W or Z, got {to_move!r}")
            return GameRequest(version, frame[3:35].strip(), colour, minutes, moves, "B",
                               to_move, frame[44:])
        raise DxpFormatError(header, f"starting position must be A or B, got {start!r}")
    if header == "A":
        _exact(header, frame, 34, "game accept")
        return GameAccept(frame[1:33].strip(), frame[33])
    if header == "M":
        if len(frame) < 11:
            raise DxpFormatError(header, f"move too short ({len(frame)} characters)")
        seconds = _number(header, frame[1:5], "time")
        from_field = _number(header, frame[5:7], "from field")
        to_field = _number(header, frame[7:9], "to field")
        count = _number(header, frame[9:11], "number captured")
        _exact(header, frame, 11 + 2 * count, f"move with {count} captures")
        captured = tuple(_number(header, frame[11 + 2 * i:13 + 2 * i], "captured field")
                         for i in range(count))
        return MoveMessage(seconds, from_field, to_field, captured)
    if header == "E":
        _exact(header, frame, 3, "game end")
        return GameEnd(frame[1], frame[2])
    if header == "B":
        _exact(header, frame, 5, "back request")
        colour = frame[4]
        if colour not in "WZ":
            raise DxpFormatError(header, f"colour to move must be W or Z, got {colour!r}")
        return BackRequest(_number(header, frame[1:4], "move number"), colour)
    if header == "K":
        _exact(header, frame, 2, "back accept")
        return BackAccept(frame[1])
    raise DxpFormatError(header, f"unknown message type {header!r}")


def _name_field(name: str) -> str:
    text = "".join(ch if " " <= ch <= "~" else "?" for ch in name).strip()
    return text[:32].ljust(32)


def encode_game_request(follower_colour: str, minutes: int, moves: int,
                        position: Optional[Position] = None, name: str = "draughts-engine") -> str:
    """An ``R`` frame; with ``position``, a ``B`` request carrying it."""
    text = f"R01{_name_field(name)}{follower_colour}{minutes:03d}{moves:03d}"
    if position is None:
        return text + "A"
    pos = dxp_position(position)
    return text + "B" + pos


def encode_game_accept(code: str, name: str = FOLLOWER_NAME) -> str:
    return f"A{_name_field(name)}{code}"


def encode_move(move: Move, seconds: float = 0.0) -> str:
    """An ``M`` frame: time, from, to, number captured and every captured square (sorted)."""
    secs = max(0, min(9999, int(round(seconds))))
    captured = "".join(f"{square:02d}" for square in sorted(move.captured))
    return f"M{secs:04d}{move.start:02d}{move.end:02d}{len(move.captured):02d}{captured}"


def encode_game_end(reason: str, stop: str = "0") -> str:
    return f"E{reason}{stop}"


def encode_chat(text: str) -> str:
    clean = "".join(ch if " " <= ch <= "~" else " " for ch in text)
    return "C" + clean[:126]


def encode_back_request(move_number: int, colour: str) -> str:
    return f"B{move_number:03d}{colour}"


def encode_back_accept(code: str) -> str:
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


# --------------------------------------------------------------------------- frames

class FrameError(ValueError):
    """The byte stream cannot be cut into frames (a frame longer than MAX_FRAME)."""


class FrameReader:
    """Cut a socket's bytes into 0-terminated frames (decoded as ASCII, bad bytes as '?')."""

    def __init__(self, sock: socket.socket, max_frame: int = MAX_FRAME) -> None:
        self.sock = sock
        self.max_frame = max_frame
        self._buffer = b""

    def read(self) -> Optional[str]:
        """The next frame, or None at end of stream; raises FrameError or OSError."""
        while True:
            end = self._buffer.find(b"\0")
            if end >= 0:
                raw, self._buffer = self._buffer[:end], self._buffer[end + 1:]
                return raw.decode("ascii", "replace").replace("\ufffd", "\x7f")
            if len(self._buffer) > self.max_frame:
                raise FrameError(f"frame longer than {self.max_frame} bytes without a 0 byte")
            chunk = self.sock.recv(4096)
            if not chunk:
                return None
            self._buffer += chunk


# --------------------------------------------------------------------------- the follower

@dataclass
class DxpSettings:
    """How the follower plays: fixed limits (depth, nodes, move time) override the game clock."""

    variant: str = "international"
    hash_mb: int = 16
    evaluation: str = "full"
    depth: Optional[int] = None
    nodes: Optional[int] = None
    move_time: Optional[float] = None      # seconds per move
    default_move_time: float = 1.0         # seconds per move when the request has no thinking time
    move_overhead_ms: int = 100
    name: str = FOLLOWER_NAME


def default_engine_factory(settings: DxpSettings):
    from draughts_engine.search.engine import Engine
    return Engine(hash_mb=settings.hash_mb, evaluation=settings.evaluation, algorithm="pvs")


class DxpFollower:
    """One connection's games.  :meth:`run` returns when the connection ends.

    ``log`` receives diagnostic lines; ``engine`` is shared between connections.
    """

    def __init__(self, sock: socket.socket, engine, settings: DxpSettings,
                 log: Callable[[str], None] = lambda text: None) -> None:
        self.sock = sock
        self.engine = engine
        self.settings = settings
        self.variant: Variant = get_variant(settings.variant)
        self.log = log
        self.events: "queue.Queue[tuple]" = queue.Queue()
        self._send_lock = threading.Lock()
        self._last_send = 0.0
        self.game: Optional[Game] = None
        self.my_white = False
        self.state = "idle"            # idle | playing | ending (our E awaits its answer)
        self.minutes = 0
        self.moves_limit = 0
        self.used = 0.0
        self.generation = 0
        self.stop_event: Optional[threading.Event] = None
        self.search_thread: Optional[threading.Thread] = None
        self.closed = False
        self.games_played = 0

    # ---- plumbing ----------------------------------------------------------------
    def send(self, frame: str) -> None:
        with self._send_lock:
            gap = SEND_GAP - (time.monotonic() - self._last_send)
            if gap > 0:
                time.sleep(gap)
            self.log(f"> {frame}")
            try:
                self.sock.sendall(frame.encode("ascii", "replace") + b"\0")
            except OSError as exc:
                self.log(f"send failed: {exc}")
                self.closed = True
            self._last_send = time.monotonic()

    def _reader(self) -> None:
        reader = FrameReader(self.sock)
        while True:
            try:
                frame = reader.read()
            except FrameError as exc:
                self.events.put(("fatal", str(exc)))
                return
            except OSError as exc:
                self.events.put(("eof", str(exc)))
                return
            if frame is None:
                self.events.put(("eof", "connection closed by the initiator"))
                return
            self.events.put(("frame", frame))

    def run(self) -> None:
        threading.Thread(target=self._reader, name="dxp-reader", daemon=True).start()
        while not self.closed:
            event = self.events.get()
            kind = event[0]
            if kind == "frame":
                self._on_frame(event[1])
            elif kind == "searched":
                self._on_searched(*event[1:])
            else:  # eof or fatal
                self.log(f"connection ends: {event[1]}")
                if kind == "fatal":
                    self.send(encode_chat(f"closing: {event[1]}"))
                break
        self._abort_search()
        try:
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes the reader thread, sends the FIN
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass

    # ---- frames ----------------------------------------------------------------------
    def _on_frame(self, frame: str) -> None:
        self.log(f"< {frame}")
        body = frame if frame[:1] == "C" else frame.strip()
        if not body:
            return
        try:
            message = parse_message(body, self.variant.squares)
        except DxpFormatError as exc:
            self._on_malformed(exc)
            return
        if isinstance(message, GameRequest):
            self._on_game_request(message)
        elif isinstance(message, MoveMessage):
            self._on_move(message)
        elif isinstance(message, GameEnd):
            self._on_game_end(message)
        elif isinstance(message, BackRequest):
            self._on_back_request(message)
        elif isinstance(message, Chat):
            self.log(f"chat: {message.text}")
        # GameAccept and BackAccept answer requests a follower never sends: ignored.

    def _on_malformed(self, exc: DxpFormatError) -> None:
        self.log(f"malformed frame: {exc}")
        if exc.header == "R":
            code = "1" if "version" in str(exc) else "2"
            self.send(encode_game_accept(code, self.settings.name))
        elif exc.header == "M" and self.state == "playing":
            self.send(encode_chat(f"bad move message: {exc}"))
            self._end_game("0")
        else:
            self.send(encode_chat(f"ignored a bad message: {exc}"))

    def _on_game_request(self, request: GameRequest) -> None:
        if request.version != 1:
            self.send(encode_game_accept("1", self.settings.name))
            return
        try:
            if request.start == "A":
                game = Game(self.variant)
            else:
                game = Game(self.variant, fen=fen_from_dxp(request.colour_to_move or "W",
                                                          request.position or ""))
        except (ValueError, DraughtsError) as exc:
            self.log(f"declined game request: {exc}")
            self.send(encode_game_accept("2", self.settings.name))
            return
        if not game.position.legal_moves():
            self.send(encode_game_accept("2", self.settings.name))
            return
        self._abort_search()
        self.game = game
        self.my_white = request.follower_colour == "W"
        self.minutes, self.moves_limit, self.used = request.minutes, request.moves, 0.0
        self.state = "playing"
        self.games_played += 1
        try:
            self.engine.new_game()
        except Exception as exc:
            self.log(f"new_game failed: {exc!r}")
        self.send(encode_game_accept("0", self.settings.name))
        self._our_turn_maybe()

    def _on_move(self, message: MoveMessage) -> None:
        game = self.game
        if self.state != "playing" or game is None:
            self.send(encode_chat("ignored a move: no game is being played"))
            return
        if self._my_turn():
            self.send(encode_chat("ignored a move: it is my turn"))
            return
        move = self._match_move(game.position, message)
        if move is None:
            self.send(encode_chat(f"illegal move {message.start:02d}-{message.end:02d}"
                                  f" captures {list(message.captured)}"))
            self._end_game("0")
            return
        game.push(move)
        self._our_turn_maybe()

    @staticmethod
    def _match_move(position: Position, message: MoveMessage) -> Optional[Move]:
        wanted = sorted(message.captured)
        matches = [m for m in position.legal_moves()
                   if m.start == message.start and m.end == message.end
                   and (not wanted or sorted(m.captured) == wanted)]
        return matches[0] if len(matches) == 1 else None

    def _on_game_end(self, message: GameEnd) -> None:
        if self.state == "ending":
            self.state = "idle"     # the answer to our own game end
        elif self.state == "playing":
            self._abort_search()
            self.state = "idle"
            self.send(encode_game_end("0", message.stop if message.stop in "01" else "0"))
        if message.stop == "1":
            self.log("the initiator wants no further game: closing")
            self.closed = True

    def _on_back_request(self, message: BackRequest) -> None:
        game = self.game
        if self.state != "playing" or game is None:
            self.send(encode_back_accept("2"))
            return
        offset = 0 if game.start.white_to_move else 1
        target = 2 * (message.move_number - 1) + (0 if message.colour == "W" else 1) - offset
        if not 0 <= target <= game.ply:
            self.send(encode_back_accept("2"))
            return
        self._abort_search()
        game.undo(game.ply - target)
        self.send(encode_back_accept("0"))
        self._our_turn_maybe()

    # ---- playing ----------------------------------------------------------------------
    def _my_turn(self) -> bool:
        return self.game is not None and self.game.position.white_to_move == self.my_white

    def _end_game(self, reason: str) -> None:
        self._abort_search()
        self.state = "ending"
        self.send(encode_game_end(reason, "0"))

    def _our_turn_maybe(self) -> None:
        if self.state != "playing" or self.game is None or not self._my_turn():
            return
        result = self.game.result()
        if result.is_over:
            self._end_game("1" if result.code == "no-moves" else "2")
            return
        self._start_search()

    def _limits(self) -> SearchLimits:
        s = self.settings
        if s.depth is not None or s.nodes is not None or s.move_time is not None:
            move_ms = None if s.move_time is None else max(1, int(s.move_time * 1000))
            return SearchLimits(depth=s.depth, nodes=s.nodes, movetime_ms=move_ms,
                                move_overhead_ms=0 if move_ms is None else min(s.move_overhead_ms, move_ms // 2))
        if self.minutes <= 0:
            return SearchLimits(movetime_ms=max(1, int(s.default_move_time * 1000)),
                                move_overhead_ms=min(s.move_overhead_ms, int(s.default_move_time * 500)))
        left_ms = max(100, int((self.minutes * 60 - self.used) * 1000))
        movestogo = None
        if self.moves_limit > 0 and self.game is not None:
            game = self.game
            my_moves = (game.ply + (0 if game.start.white_to_move == self.my_white else 1)) // 2
            remaining = self.moves_limit - my_moves
            movestogo = remaining if remaining > 0 else None
        return SearchLimits(wtime_ms=left_ms, btime_ms=left_ms, movestogo=movestogo,
                            move_overhead_ms=s.move_overhead_ms)

    def _start_search(self) -> None:
        self.generation += 1
        generation = self.generation
        game = self.game
        assert game is not None
        position = game.position
        history = game.search_history()
        limits = self._limits()
        stop = threading.Event()
        self.stop_event = stop

        def work() -> None:
            started = time.monotonic()
            move: Optional[Move] = None
            try:
                result = self.engine.search(position, limits, history=history,
                                            on_info=lambda info: None, stop=stop)
                move = result.best_move
            except Exception as exc:
                self.log(f"search failed: {exc!r}")
            legal = position.legal_moves()
            if move not in legal:
                move = legal[0] if legal else None
            self.events.put(("searched", generation, move, time.monotonic() - started))

        self.search_thread = threading.Thread(target=work, name="dxp-search", daemon=True)
        self.search_thread.start()

    def _abort_search(self) -> None:
        self.generation += 1
        if self.stop_event is not None:
            self.stop_event.set()
        thread = self.search_thread
        if thread is not None:
            thread.join(5.0)
        self.stop_event = None
        self.search_thread = None

    def _on_searched(self, generation: int, move: Optional[Move], seconds: float) -> None:
        if (generation != self.generation or self.state != "playing" or self.game is None
                or not self._my_turn()):
            return
        self.search_thread = None
        self.stop_event = None
        if move is None:
            self._end_game("1")
            return
        self.used += seconds
        self.game.push(move)
        self.send(encode_move(move, seconds))


# --------------------------------------------------------------------------- server

def serve(settings: DxpSettings, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
          once: bool = False, engine_factory: Callable[[DxpSettings], object] = default_engine_factory,
          log: Callable[[str], None] = lambda text: None,
          ready: Optional[Callable[[Tuple[str, int]], None]] = None,
          stop: Optional[threading.Event] = None) -> int:
    """Listen on ``host:port`` and follow one initiator at a time.

    ``ready`` is called with the bound address (useful with port 0); ``stop``
    ends the loop between connections; ``once`` serves a single connection.
    """
    engine = None
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
        listener.listen(4)
        listener.settimeout(0.2)
        if ready is not None:
            ready(listener.getsockname()[:2])
        while stop is None or not stop.is_set():
            try:
                conn, peer = listener.accept()
            except socket.timeout:
                continue
            conn.settimeout(None)
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            log(f"connection from {peer[0]}:{peer[1]}")
            if engine is None:
                engine = engine_factory(settings)
            try:
                DxpFollower(conn, engine, settings, log).run()
            except Exception as exc:  # a bug ends this connection, not the follower
                log(f"connection failed: {exc!r}")
                try:
                    conn.close()
                except OSError:
                    pass
            if once:
                break
    finally:
        listener.close()
    return 0


def main(args: Optional[Sequence[str]] = None) -> int:
    """``draughts-engine --dxp [--host H] [--port P] ...``: run the DXP follower."""
    parser = argparse.ArgumentParser(prog="draughts-engine --dxp",
                                     description="DamExchange follower (PROTOCOL.md section 11)")
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"address to listen on (default {DEFAULT_HOST}: loopback only)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"TCP port (default {DEFAULT_PORT}; 0 picks a free one)")
    parser.add_argument("--variant", default="international",
                        help="rules of the games (default international)")
    parser.add_argument("--hash", type=int, default=16, help="hash table size in MiB")
    parser.add_argument("--eval", default="full", choices=("full", "classic"))
    parser.add_argument("--depth", type=int, help="search every move to this depth")
    parser.add_argument("--nodes", type=int, help="search every move about this many nodes")
    parser.add_argument("--movetime", type=float, help="seconds per move (overrides the game clock)")
    parser.add_argument("--default-movetime", type=float, default=1.0,
                        help="seconds per move when the game request gives no thinking time")
    parser.add_argument("--once", action="store_true", help="exit after the first connection")
    parser.add_argument("--verbose", action="store_true", help="log the frames to stderr")
    options = parser.parse_args(list(args or []))
    try:
        variant = get_variant(options.variant)
    except ValueError as exc:
        parser.error(str(exc))
    if options.depth is not None and not 1 <= options.depth <= 99:
        parser.error("--depth must be in 1..99")
    if options.nodes is not None and options.nodes < 1:
        parser.error("--nodes must be positive")
    if options.movetime is not None and options.movetime <= 0:
        parser.error("--movetime must be positive")
    if not 1 <= options.hash <= 1024:
        parser.error("--hash must be in 1..1024")
    if not 0 <= options.port <= 65535:
        parser.error("--port must be in 0..65535")
    settings = DxpSettings(variant=variant.name, hash_mb=options.hash, evaluation=options.eval,
                           depth=options.depth, nodes=options.nodes, move_time=options.movetime,
                           default_move_time=max(0.01, options.default_movetime))

    def log(text: str) -> None:
        if options.verbose:
            print(f"dxp: {text}", file=sys.stderr, flush=True)

    def ready(address: Tuple[str, int]) -> None:
        print(f"dxp: listening on {address[0]}:{address[1]}", flush=True)

    try:
        return serve(settings, options.host, options.port, once=options.once, log=log, ready=ready)
    except (OSError, OverflowError) as exc:
        print(f"dxp: cannot listen on {options.host}:{options.port}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
