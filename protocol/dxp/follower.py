"""The DXP follower: one connection's games, played through a draughts session.

:class:`DxpFollower` reads frames on a thread of its own and handles them, one at a time, on
the thread that calls :meth:`~DxpFollower.run`; the engine searches on a third thread, through
:meth:`protocol.session.Session.search` (the path every wire takes to the engine), with
:class:`~draughts_engine.search.limits.SearchLimits` built once here from the game request's
clock or the fixed limits of :class:`DxpSettings`.

The connection's resources are bounded (PROTOCOL.md section 11): at most ``max_pending``
frames wait to be handled (an initiator that sends without reading the answers is cut off),
a frame must be finished within ``frame_timeout`` seconds of its first byte and a frame we send
must leave within the same time, no game may be started for ``idle_timeout`` seconds, and inside
a game the initiator may be silent at its turn for ``game_timeout`` seconds (or its whole game
time, if longer).  Each of these closes the connection with one line to ``notice`` saying why.

Several connections may be open at once, but one game is played at a time: the connection whose
game request is accepted first holds the :class:`GameSlot` until it closes, and a game request on
another connection meanwhile is declined with ``A`` code ``3``.  A connection that has not
started a game holds nothing, so silent connections cannot keep an initiator waiting.
"""
from __future__ import annotations

import queue
import socket
import threading
import time
from dataclasses import dataclass
from typing import Callable, List, Optional

from draughts_engine.move import Move
from draughts_engine.position import Position
from draughts_engine.search.limits import SearchLimits
from protocol.dxp.codec import (FOLLOWER_NAME, BackRequest, Chat, DxpFormatError, GameEnd,
                                GameRequest, MoveMessage, encode_back_accept, encode_chat,
                                encode_game_accept, encode_game_end, encode_move, fen_from_dxp,
                                parse_message)
from protocol.dxp.frames import MAX_FRAME, FrameError, FrameReader, close_socket
from protocol.boards import DraughtsBoard, SessionError
from protocol.session import Session

__all__ = ["DxpSettings", "DxpFollower", "GameSlot", "SEND_GAP", "match_move"]

SEND_GAP = 0.03
"""Seconds kept between two frames we send (some readers merge frames that arrive together)."""

_CLOSING_CHAT_TIMEOUT = 1.0  # seconds the last chat ("closing: why") may take to leave
_SLOT_GRACE = 0.5    # seconds a game request waits for a live holder of the slot (it may be gone)
_SLOT_FINISHING = 10.0  # seconds it waits for a holder whose connection is ending to let go


@dataclass
class DxpSettings:
    """How the follower plays and what it tolerates.

    Fixed limits (``depth``, ``nodes``, ``move_time`` in seconds) override the game clock;
    without a clock in the game request a move takes ``default_move_time`` seconds.  The
    timeouts are in seconds (0 turns one off) and ``max_pending`` counts frames: see the module
    docstring.  ``max_connections`` bounds the connections open at once (see
    :func:`protocol.dxp.listener.serve`).
    """

    variant: str = "international"
    hash_mb: int = 16
    evaluation: str = "full"
    depth: Optional[int] = None
    nodes: Optional[int] = None
    move_time: Optional[float] = None
    default_move_time: float = 1.0
    move_overhead_ms: int = 100
    name: str = FOLLOWER_NAME
    frame_timeout: float = 10.0
    idle_timeout: float = 120.0
    game_timeout: float = 900.0
    max_pending: int = 64
    max_frame: int = MAX_FRAME
    max_connections: int = 16


class GameSlot:
    """The one game the follower plays at a time, shared by its connections.

    The first connection to claim it (an accepted game request) holds it until the connection
    closes; a connection that never started a game never holds it.  Claims, releases and
    :meth:`dismiss` are atomic, so a connection is never dismissed once it holds the game.
    """

    def __init__(self) -> None:
        self._changed = threading.Condition()   # an RLock: dismiss closes under it
        self.holder: Optional["DxpFollower"] = None

    def claim(self, follower: "DxpFollower", grace: float = _SLOT_GRACE,
              finishing: float = _SLOT_FINISHING) -> bool:
        """Take the slot for ``follower`` (True), or False when another connection holds it.

        A holder may be on its way out (its initiator gone, its search being stopped): the claim
        waits up to ``grace`` seconds for a live holder and ``finishing`` for one whose
        connection is ending, so that an initiator that reconnects at once is not declined.
        """
        start = time.monotonic()
        with self._changed:
            while True:
                if follower.closed:
                    return False
                holder = self.holder
                if holder is None or holder is follower:
                    self.holder = follower
                    return True
                left = start + (finishing if holder.finishing else grace) - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)

    def release(self, follower: "DxpFollower") -> None:
        """``follower``'s connection ended: the slot is free (if it held it)."""
        with self._changed:
            if self.holder is follower:
                self.holder = None
            self._changed.notify_all()

    def changed(self) -> None:
        """A connection began to end: wake the claims that wait for it."""
        with self._changed:
            self._changed.notify_all()

    def dismiss(self, follower: "DxpFollower", reason: str) -> bool:
        """Close ``follower``'s connection for ``reason`` unless it holds the slot (False)."""
        with self._changed:
            if self.holder is follower or follower.closed:
                return False
            follower._close(reason)
        follower.events.put(("fatal", reason))  # wakes its handler: it says why and closes
        return True


class DxpFollower:
    """One connection's games.  :meth:`run` returns when the connection ends.

    ``session`` (shared between connections) holds the options and the engine; the follower
    puts each game's board on it and searches through it.  ``log`` receives the traffic and diagnostics;
    ``notice`` (default: ``log``) the one line that says why the follower closed a connection
    it could not keep (a flood, a timeout, a frame it cannot cut).  ``slot`` is the game slot
    shared with the other connections (default: one of its own); only its holder touches the
    session.
    """

    def __init__(self, sock: socket.socket, session: Session, settings: DxpSettings,
                 log: Callable[[str], None] = lambda text: None,
                 notice: Optional[Callable[[str], None]] = None,
                 slot: Optional[GameSlot] = None) -> None:
        self.sock = sock
        self.session = session
        self.settings = settings
        self.slot = slot if slot is not None else GameSlot()
        self._board = DraughtsBoard(settings.variant)
        self.variant = self._board.variant
        self.log = log
        self.notice = notice if notice is not None else log
        self.events: "queue.Queue[tuple]" = queue.Queue()
        self._send_lock = threading.Lock()
        self._close_lock = threading.Lock()
        self._last_send = 0.0
        self.my_white = False
        self.state = "idle"            # idle | playing | ending (our E awaits its answer)
        self.minutes = 0
        self.moves_limit = 0
        self.used = 0.0
        self.generation = 0
        self.stop_event: Optional[threading.Event] = None
        self.search_thread: Optional[threading.Thread] = None
        self.closed = False
        self.close_reason: Optional[str] = None
        self._peer_gone = False        # the reader saw the end of the stream (or gave up)
        self.games_played = 0
        now = time.monotonic()
        self._idle_since = now         # when the connection last had no game
        self._last_traffic = now       # when a frame last came in or went out
        self.peer = _peer_name(sock)

    @property
    def board(self) -> DraughtsBoard:
        """The board of this connection's game (DXP plays draughts only); while the connection
        holds the game slot, also the session's board."""
        return self._board

    @property
    def finishing(self) -> bool:
        """Whether the connection is ending (closed by us, or its initiator gone)."""
        return self.closed or self._peer_gone

    @property
    def game(self):
        """The game record (None before the first game request was accepted)."""
        return self.board.game if self.games_played else None

    # ---- plumbing ----------------------------------------------------------------
    def send(self, frame: str, timeout: Optional[float] = None) -> None:
        """Send one frame (spaced by :data:`SEND_GAP`); a frame that cannot leave within
        ``timeout`` (default: the frame timeout) closes the connection."""
        with self._send_lock:
            if self.closed and timeout is None:
                return
            gap = SEND_GAP - (time.monotonic() - self._last_send)
            if gap > 0:
                time.sleep(gap)
            self.log(f"> {frame}")
            try:
                if timeout is not None:
                    self.sock.settimeout(timeout)
                self.sock.sendall(frame.encode("ascii", "replace") + b"\0")
            except socket.timeout:
                self._close(f"a frame could not be sent for {self._send_timeout():g} s "
                            f"(the initiator reads nothing)")
            except OSError as exc:
                self.log(f"send failed: {exc}")
                self.closed = True
            self._last_send = self._last_traffic = time.monotonic()

    def _send_timeout(self) -> float:
        return self.sock.gettimeout() or 0.0

    def _close(self, reason: str) -> None:
        """Close the connection for ``reason`` (the first reason given is kept and noticed)."""
        with self._close_lock:
            first = self.close_reason is None
            if first:
                self.close_reason = reason
            self.closed = True
        if first:
            self.notice(f"closing the connection from {self.peer}: {reason}")
        self.slot.changed()

    def _reader(self) -> None:
        reader = FrameReader(self.sock, self.settings.max_frame, self.settings.frame_timeout)
        limit = self.settings.max_pending
        while True:
            try:
                frame = reader.read()
            except FrameError as exc:
                self._gone(("fatal", str(exc)))
                return
            except OSError as exc:
                self._gone(("eof", str(exc)))
                return
            if frame is None:
                self._gone(("eof", "connection closed by the initiator"))
                return
            if limit and self.events.qsize() >= limit:
                self._close(f"more than {limit} frames wait to be handled (the initiator "
                            f"sends without reading the answers)")
                self.events.put(("fatal", self.close_reason))  # wakes the handler: it stops
                return
            self.events.put(("frame", frame))

    def _gone(self, event: tuple) -> None:
        """The reader stops: no frame will come again."""
        self._peer_gone = True
        self.events.put(event)
        self.slot.changed()

    def interrupt(self, reason: str) -> None:
        """End the connection from another thread, without a closing chat (the follower stops)."""
        self.events.put(("eof", reason))

    def run(self) -> None:
        """Handle the connection until it ends, then close the socket and free the game slot."""
        try:
            self._run()
        finally:
            self.slot.release(self)

    def _run(self) -> None:
        timeout = self.settings.frame_timeout
        self.sock.settimeout(timeout if timeout and timeout > 0 else None)
        threading.Thread(target=self._reader, name="dxp-reader", daemon=True).start()
        while not self.closed:
            try:
                event = self.events.get(timeout=self._wait_time())
            except queue.Empty:
                self._check_silence()
                continue
            if self.closed:
                break
            kind = event[0]
            if kind == "frame":
                self._last_traffic = time.monotonic()
                self._on_frame(event[1])
            elif kind == "searched":
                self._on_searched(*event[1:])
            elif kind == "fatal":
                self._close(event[1])
            else:
                self.log(f"connection ends: {event[1]}")
                break
        if self.close_reason is not None:
            self.send(encode_chat(f"closing: {self.close_reason}"), _CLOSING_CHAT_TIMEOUT)
        self._abort_search()
        close_socket(self.sock)  # wakes the reader thread, sends the FIN

    # ---- silence ---------------------------------------------------------------------
    def _silence_deadline(self) -> Optional[float]:
        """When the connection has been quiet too long (None: no limit now)."""
        s = self.settings
        if self.state == "playing":
            if s.game_timeout <= 0 or self.search_thread is not None:
                return None  # we are thinking: the initiator waits for us
            return self._last_traffic + max(s.game_timeout, self.minutes * 60.0)
        if s.idle_timeout <= 0:
            return None
        return self._idle_since + s.idle_timeout

    def _wait_time(self) -> Optional[float]:
        deadline = self._silence_deadline()
        return None if deadline is None else max(0.0, deadline - time.monotonic()) + 0.01

    def _check_silence(self) -> None:
        deadline = self._silence_deadline()
        if deadline is None or time.monotonic() < deadline:
            return
        if self.state == "playing":
            limit = max(self.settings.game_timeout, self.minutes * 60.0)
            self._close(f"the initiator was silent for {limit:g} s in a game")
        else:
            self._close(f"no game was started for {self.settings.idle_timeout:g} s")

    def _set_state(self, state: str) -> None:
        if self.state == "playing" and state != "playing":
            self._idle_since = time.monotonic()
        self.state = state

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
        board = DraughtsBoard(self.variant.name)
        try:
            fen = None if request.start == "A" else fen_from_dxp(request.colour_to_move or "W",
                                                                 request.position or "")
            board.set_position(fen, [])
        except (ValueError, SessionError) as exc:
            self.log(f"declined game request: {exc}")
            self.send(encode_game_accept("2", self.settings.name))
            return
        if not board.legal_moves():
            self.send(encode_game_accept("2", self.settings.name))
            return
        if not self.slot.claim(self):
            self.log("declined game request: a game is being played on another connection")
            self.send(encode_game_accept("3", self.settings.name))
            self.send(encode_chat("busy: a game is being played on another connection"))
            return
        self._abort_search()
        self._board = board
        self.session.board = board
        self.my_white = request.follower_colour == "W"
        self.minutes, self.moves_limit, self.used = request.minutes, request.moves, 0.0
        self._set_state("playing")
        self.games_played += 1
        try:
            self.session.engine().new_game()
        except Exception as exc:  # an engine's failure to clear its tables costs no game
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
        move = match_move(game.position, message)
        if move is None:
            self.send(encode_chat(f"illegal move {message.start:02d}-{message.end:02d}"
                                  f" captures {list(message.captured)}"))
            self._end_game("0")
            return
        game.push(move)
        self._our_turn_maybe()

    def _on_game_end(self, message: GameEnd) -> None:
        if self.state == "ending":
            self._set_state("idle")     # the answer to our own game end
        elif self.state == "playing":
            self._abort_search()
            self._set_state("idle")
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
        self.board.undo(game.ply - target)
        self.send(encode_back_accept("0"))
        self._our_turn_maybe()

    # ---- playing ----------------------------------------------------------------------
    def _my_turn(self) -> bool:
        game = self.game
        return game is not None and game.position.white_to_move == self.my_white

    def _end_game(self, reason: str) -> None:
        self._abort_search()
        self._set_state("ending")
        self.send(encode_game_end(reason, "0"))

    def _our_turn_maybe(self) -> None:
        game = self.game
        if self.state != "playing" or game is None or not self._my_turn():
            return
        result = game.result()
        if result.is_over:
            self._end_game("1" if result.code == "no-moves" else "2")
            return
        self._start_search()

    def limits(self) -> SearchLimits:
        """The limits of our next search: fixed ones, or a share of the game's clock."""
        s = self.settings
        if s.depth is not None or s.nodes is not None or s.move_time is not None:
            move_ms = None if s.move_time is None else max(1, int(s.move_time * 1000))
            overhead = 0 if move_ms is None else min(s.move_overhead_ms, move_ms // 2)
            return SearchLimits(depth=s.depth, nodes=s.nodes, movetime_ms=move_ms,
                                move_overhead_ms=overhead)
        if self.minutes <= 0:
            return SearchLimits(movetime_ms=max(1, int(s.default_move_time * 1000)),
                                move_overhead_ms=min(s.move_overhead_ms,
                                                     int(s.default_move_time * 500)))
        left_ms = max(100, int((self.minutes * 60 - self.used) * 1000))
        movestogo = None
        game = self.game
        if self.moves_limit > 0 and game is not None:
            my_moves = (game.ply + (0 if game.start.white_to_move == self.my_white else 1)) // 2
            remaining = self.moves_limit - my_moves
            movestogo = remaining if remaining > 0 else None
        return SearchLimits(wtime_ms=left_ms, btime_ms=left_ms, movestogo=movestogo,
                            move_overhead_ms=s.move_overhead_ms)

    def _start_search(self) -> None:
        self.generation += 1
        generation = self.generation
        session = self.session
        position = self.board.game.position
        limits = self.limits()  # with its own move overhead (see limits)
        stop = threading.Event()
        self.stop_event = stop

        def work() -> None:
            started = time.monotonic()
            move: Optional[Move] = None
            try:
                move, _ = session.search(limits, lambda info: None, stop)
            except Exception as exc:  # a failed search still answers: with the first legal move
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
        game = self.game
        if (generation != self.generation or self.state != "playing" or game is None
                or not self._my_turn()):
            return
        self.search_thread = None
        self.stop_event = None
        if move is None:
            self._end_game("1")
            return
        self.used += seconds
        game.push(move)
        self.send(encode_move(move, seconds))


def match_move(position: Position, message: MoveMessage) -> Optional[Move]:
    """The one legal move with the message's origin, destination and captures (any order)."""
    wanted = sorted(message.captured)
    matches: List[Move] = [m for m in position.legal_moves()
                           if m.start == message.start and m.end == message.end
                           and (not wanted or sorted(m.captured) == wanted)]
    return matches[0] if len(matches) == 1 else None


def _peer_name(sock: socket.socket) -> str:
    try:
        address = sock.getpeername()
    except (OSError, AttributeError):
        return "the initiator"
    return f"{address[0]}:{address[1]}" if isinstance(address, tuple) else str(address)

