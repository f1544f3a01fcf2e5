"""DamExchange follower (PROTOCOL.md section 11): the message codec with its fixed field widths,
frames, the follower against scripted initiators (whole games, take-backs, game ends, chat,
malformed frames, bursts, a peer that disconnects) and the real process over loopback."""
from __future__ import annotations

import os
import random
import re
import select
import socket
import subprocess
import sys
import threading
import time
from typing import Iterator, List, Optional, Tuple

import pytest

from draughts_engine.game import Game
from draughts_engine.move import Move
from draughts_engine.position import Position
from draughts_engine.search.limits import SearchResult
from protocol import dxp
from protocol.dxp import (BackAccept, BackRequest, Chat, DxpFormatError, DxpSettings, FrameError,
                          FrameReader, FrameTimeoutError, FrameTooLongError, GameAccept, GameEnd, GameRequest, MoveMessage, dxp_position,
                          encode_back_accept, encode_back_request, encode_chat, encode_game_accept,
                          encode_game_end, encode_game_request, encode_move, fen_from_dxp,
                          parse_message)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = Position.start("international")


class FakeEngine:
    """Plays the first legal move at once (or after ``delay``, unless stopped)."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.searches: List[Tuple[Position, object]] = []
        self.new_games = 0
        self.searching = threading.Event()
        self.stopped = 0

    def search(self, position, limits, history=(), on_info=None, stop=None):
        self.searches.append((position, limits))
        self.searching.set()
        if stop is not None and stop.wait(self.delay):
            self.stopped += 1
        move = position.legal_moves()[0]
        return SearchResult(move, None, 0, None, 1, 1, 1, 1, (move,))

    def new_game(self) -> None:
        self.new_games += 1


# --------------------------------------------------------------------------- codec

def test_spec_examples_decode_with_exact_field_widths() -> None:
    assert parse_message("M0012061100") == MoveMessage(12, 6, 11, ())
    assert parse_message("M001205250422122320") == MoveMessage(12, 5, 25, (22, 12, 23, 20))
    request = parse_message("R01Tornado voor Windows 4.0        W060065A")
    assert request == GameRequest(1, "Tornado voor Windows 4.0", "W", 60, 65, "A")
    assert parse_message("ATornado voor Windows 4.0        0") == GameAccept("Tornado voor Windows 4.0", "0")
    assert parse_message("E00") == GameEnd("0", "0")
    assert parse_message("B005Z") == BackRequest(5, "Z")
    assert parse_message("K1") == BackAccept("1")
    assert parse_message("CWhat about move 35?") == Chat("What about move 35?")


def test_encoders_write_the_fixed_layouts() -> None:
    request = encode_game_request("Z", 5, 75, name="initiator")
    assert request == "R01" + "initiator".ljust(32) + "Z005075A" and len(request) == 43
    with_position = encode_game_request("W", 0, 0, START)
    assert len(with_position) == 94 and with_position[42:44] == "BW"
    assert with_position[44:] == "z" * 20 + "e" * 10 + "w" * 20
    accept = encode_game_accept("0", "x" * 40)
    assert accept == "A" + "x" * 32 + "0"
    game = Game("international", fen="W:W28:B23,13")
    capture = game.legal_moves()[0]
    assert encode_move(capture, 3.4) == "M0003280802" + "1323"
    assert encode_move(START.legal_moves()[0], 12345) == f"M9999{START.legal_moves()[0].start:02d}" \
        f"{START.legal_moves()[0].end:02d}00"
    assert (encode_game_end("1"), encode_back_request(12, "W"), encode_back_accept("2")) == ("E10", "B012W", "K2")
    assert encode_chat("hé\nllo") == "Ch  llo"
    for bad in (lambda: encode_game_request("Z", 1000, 0), lambda: encode_game_request("Z", 5, -1),
                lambda: encode_game_request("B", 5, 0), lambda: encode_back_request(10 ** 5000, "W"),
                lambda: encode_back_request(1, "x")):
        with pytest.raises(ValueError, match="must be"):
            bad()


def test_positions_round_trip_and_accept_b_for_black() -> None:
    text = dxp_position(START)
    assert text == "W" + "z" * 20 + "e" * 10 + "w" * 20
    assert Position.from_fen(fen_from_dxp(text[0], text[1:]), "international") == START
    kings = Position.from_fen("B:WK3,40:BK47,12", "international")
    text = dxp_position(kings)
    assert text[0] == "Z" and text[3] == "W" and text[47] == "Z"
    assert Position.from_fen(fen_from_dxp("Z", text[1:].replace("z", "b")), "international") == kings
    with pytest.raises(ValueError, match="square 1"):
        fen_from_dxp("W", "x" + "e" * 49)


@pytest.mark.parametrize("frame, header", [
    ("R01short", "R"),
    ("R01" + " " * 32 + "X005075A", "R"),
    ("R01" + " " * 32 + "W0x5075A", "R"),
    ("R01" + " " * 32 + "W005075C", "R"),
    ("R01" + " " * 32 + "W005075BW" + "e" * 49, "R"),
    ("M00120611", "M"),
    ("M0012061101", "M"),
    ("M00120611012", "M"),
    ("M00a2061100", "M"),
    ("E0", "E"),
    ("E000", "E"),
    ("B05Z", "B"),
    ("B005Q", "B"),
    ("K", "K"),
    ("A" + "x" * 10 + "0", "A"),
    ("Xhello", "X"),
    ("M0012061100\x7f", "M"),
    ("M0000005000", "M"),               # from square 0
    ("M0000325100", "M"),               # to square 51 on a 50-square board
    ("M000032500199", "M"),             # captured square 99
    ("M" + "9" * 5000, "M"),            # a huge number is just a frame of the wrong length
    ("R01" + " " * 32 + "W" + "9" * 5000, "R"),
    ("B" + "1" * 5000 + "W", "B"),
])
def test_malformed_frames_raise_with_their_header(frame: str, header: str) -> None:
    with pytest.raises(DxpFormatError) as info:
        parse_message(frame)
    assert info.value.header == header


class _ChunkSocket:
    def __init__(self, chunks: List[bytes]) -> None:
        self.chunks = list(chunks)

    def recv(self, size: int) -> bytes:
        return self.chunks.pop(0) if self.chunks else b""


def test_square_numbers_are_checked_against_the_board() -> None:
    assert parse_message("M0000322800", squares=32) == MoveMessage(0, 32, 28, ())
    with pytest.raises(DxpFormatError, match="to field must be in 1..32, got 33"):
        parse_message("M0000323300", squares=32)
    with pytest.raises(DxpFormatError) as info:
        parse_message("M" + "x" * 5000)
    assert len(str(info.value)) < 200  # a bad field is quoted short


class _SlowSocket:
    """Delivers one chunk per ``recv``; an empty list entry is a timeout (nothing yet)."""

    def __init__(self, chunks: List[bytes], clock: List[float], step: float) -> None:
        self.chunks, self.clock, self.step = list(chunks), clock, step

    def recv(self, size: int) -> bytes:
        self.clock[0] += self.step
        if not self.chunks:
            return b""
        chunk = self.chunks.pop(0)
        if chunk == b"":
            raise socket.timeout("timed out")
        return chunk


def test_frame_reader_gives_an_unfinished_frame_its_time_and_no_more() -> None:
    clock = [0.0]
    trickle = _SlowSocket([b"E"] + [b"0"] * 3 + [b"\0"], clock, step=1.0)  # a byte a second
    reader = FrameReader(trickle, frame_timeout=10, clock=lambda: clock[0])  # type: ignore[arg-type]
    assert reader.read() == "E000"  # finished within 10 s
    slow = _SlowSocket([b"C"] + [b"y"] * 30, clock, step=1.0)
    reader = FrameReader(slow, frame_timeout=10, clock=lambda: clock[0])  # type: ignore[arg-type]
    with pytest.raises(FrameTimeoutError, match="unfinished for 10 s"):
        reader.read()
    silent = _SlowSocket([b"C12", b"", b"", b""], clock, step=5.0)  # then nothing arrives
    reader = FrameReader(silent, frame_timeout=10, clock=lambda: clock[0])  # type: ignore[arg-type]
    with pytest.raises(FrameTimeoutError):
        reader.read()
    idle = _SlowSocket([b"", b"", b"", b"K0\0"], clock, step=100.0)  # silence between frames
    reader = FrameReader(idle, frame_timeout=10, clock=lambda: clock[0])  # type: ignore[arg-type]
    assert reader.read() == "K0"


def test_frame_reader_handles_bursts_split_frames_and_overlong_frames() -> None:
    reader = FrameReader(_ChunkSocket([b"E00\0C hi\0M00", b"12061100\0", b"\0K0"]))  # type: ignore[arg-type]
    assert [reader.read() for _ in range(5)] == ["E00", "C hi", "M0012061100", "", None]
    long = FrameReader(_ChunkSocket([b"C" + b"x" * 3000]), max_frame=1024)  # type: ignore[arg-type]
    with pytest.raises(FrameTooLongError):  # a FrameError, like FrameTimeoutError
        long.read()
    for chunks in ([b"C" + b"x" * 3000 + b"\0E00\0"],  # whole, in one read
                   [b"C" + b"x" * 600, b"x" * 500 + b"\0"]):  # over two reads
        whole = FrameReader(_ChunkSocket(chunks), max_frame=1024)  # type: ignore[arg-type]
        with pytest.raises(FrameTooLongError):  # too long even with its 0 byte
            whole.read()
    assert issubclass(FrameTooLongError, FrameError) and issubclass(FrameTimeoutError, FrameError)
    junk = FrameReader(_ChunkSocket([b"C\xff\0"]))  # type: ignore[arg-type]
    assert junk.read() == "C\x7f"


# --------------------------------------------------------------------------- the follower, in process

class Initiator:
    """A scripted DXP initiator on a socket."""

    def __init__(self, address: Tuple[str, int]) -> None:
        self.sock = socket.create_connection(address, timeout=60)
        self.reader = FrameReader(self.sock)

    def send(self, *frames: str) -> None:
        self.sock.sendall(b"".join(frame.encode() + b"\0" for frame in frames))

    def read(self) -> Optional[str]:
        return self.reader.read()

    def read_message(self):
        frame = self.read()
        assert frame is not None, "the follower closed the connection"
        return parse_message(frame)

    def close(self) -> None:
        self.sock.close()


class Follower:
    """``dxp.serve`` on a free loopback port, in a thread, with a fake engine."""

    def __init__(self, engine: Optional[FakeEngine] = None, settings: Optional[DxpSettings] = None,
                 once: bool = False) -> None:
        self.engine = engine or FakeEngine()
        self.stop = threading.Event()
        self.log: List[str] = []
        self.notices: List[str] = []
        ready = threading.Event()
        box: List[Tuple[str, int]] = []
        self.thread = threading.Thread(target=dxp.serve, args=(settings or DxpSettings(),), kwargs=dict(
            port=0, once=once, engine_factory=lambda s: self.engine, log=self.log.append,
            ready=lambda address: (box.append(address), ready.set()), stop=self.stop,
            notice=self.notices.append), daemon=True)
        self.thread.start()
        assert ready.wait(5)
        self.address = box[0]

    def connect(self) -> Initiator:
        return Initiator(self.address)


@pytest.fixture
def follower() -> Iterator[Follower]:
    f = Follower()
    yield f
    f.stop.set()
    f.thread.join(5)


def _legal(position: Position, message: MoveMessage) -> Move:
    matches = [m for m in position.legal_moves() if m.start == message.start and m.end == message.end
               and sorted(m.captured) == sorted(message.captured)]
    assert len(matches) == 1, (message, [m.pdn() for m in position.legal_moves()])
    return matches[0]


def play_game(peer: Initiator, game: Game, initiator_white: bool, seed: int = 1,
              max_plies: int = 400) -> GameEnd:
    """Random moves for the initiator until someone ends the game; returns the follower's E."""
    rng = random.Random(seed)
    while game.ply < max_plies:
        if game.position.white_to_move == initiator_white:
            moves = game.position.legal_moves()
            if not moves:
                peer.send(encode_game_end("1"))
                reply = peer.read_message()
                assert isinstance(reply, GameEnd) and reply.reason == "0"
                return reply
            move = rng.choice(moves)
            game.push(move)
            peer.send(encode_move(move, 1))
        else:
            message = peer.read_message()
            if isinstance(message, GameEnd):
                peer.send(encode_game_end("0"))
                return message
            assert isinstance(message, MoveMessage), message
            game.push(_legal(game.position, message))
    raise AssertionError("the game did not end")


def test_follower_plays_complete_games_with_either_colour(follower: Follower) -> None:
    peer = follower.connect()
    peer.send(encode_game_request("Z", 10, 0))
    accept = peer.read_message()
    assert accept == GameAccept(dxp.FOLLOWER_NAME, "0")
    game = Game("international")
    end = play_game(peer, game, initiator_white=True)
    assert end.reason in "0123" and end.stop == "0"
    peer.send(encode_game_request("W", 0, 50))  # follower White moves at once
    assert peer.read_message().code == "0"
    game = Game("international")
    play_game(peer, game, initiator_white=False, seed=2)
    assert follower.engine.new_games == 2
    peer.send("E01")
    assert peer.read() is None  # the follower acknowledged earlier; stop code 1 closes
    peer.close()


def test_follower_loses_with_no_moves_and_says_so(follower: Follower) -> None:
    peer = follower.connect()
    # White (the initiator) takes Black's last man: the follower, to move, has lost ("I lose")
    blocked = Position.from_fen("W:W33,32:B28", "international")
    peer.send(encode_game_request("Z", 1, 0, blocked))
    assert peer.read_message().code == "0"
    game = Game("international", fen=blocked.fen())
    capture = game.legal_moves()[0]
    peer.send(encode_move(capture))
    end = peer.read_message()
    assert end == GameEnd("1", "0")
    peer.send("E00")
    peer.send(encode_game_request("W", 1, 0))
    assert peer.read_message().code == "0"  # a new game after the acknowledgement
    assert isinstance(peer.read_message(), MoveMessage)
    peer.close()


def test_game_requests_that_cannot_be_played_are_declined(follower: Follower) -> None:
    peer = follower.connect()
    peer.send("R02" + "x".ljust(32) + "W005000A")
    assert peer.read_message().code == "1"
    peer.send("R0a" + "x".ljust(32) + "W005000A")
    assert peer.read_message().code == "1"
    peer.send("R01" + "x".ljust(32) + "Q005000A")
    assert peer.read_message().code == "2"
    peer.send("R01" + "x".ljust(32) + "W005000BW" + "w" * 50)  # white men on its promotion row
    assert peer.read_message().code == "2"
    no_moves = Position.from_fen("W:W46:B41,37", "international")  # no legal move for White
    assert not no_moves.legal_moves()
    peer.send(encode_game_request("W", 5, 0, no_moves))
    assert peer.read_message().code == "2"
    peer.send(encode_game_request("Z", 5, 0))
    assert peer.read_message().code == "0"
    peer.close()


def test_take_back_is_accepted_by_undoing(follower: Follower) -> None:
    peer = follower.connect()
    peer.send(encode_game_request("Z", 5, 0))
    assert peer.read_message().code == "0"
    game = Game("international")
    for _ in range(3):
        move = game.position.legal_moves()[-1]
        game.push(move)
        peer.send(encode_move(move))
        game.push(_legal(game.position, peer.read_message()))
    peer.send(encode_back_request(2, "W"))  # back to move 2, White (the initiator) to move
    assert peer.read_message() == BackAccept("0")
    game.undo(game.ply - 2)
    move = game.position.legal_moves()[0]
    game.push(move)
    peer.send(encode_move(move))
    reply = peer.read_message()
    assert isinstance(reply, MoveMessage)
    assert follower.engine.searches[-1][0] == game.position
    peer.send(encode_back_request(2, "Z"))  # the follower to move: it moves again at once
    assert peer.read_message() == BackAccept("0")
    assert isinstance(peer.read_message(), MoveMessage)
    peer.send(encode_back_request(99, "W"))
    assert peer.read_message() == BackAccept("2")
    peer.close()


def test_chat_bad_moves_and_unknown_messages(follower: Follower) -> None:
    peer = follower.connect()
    peer.send("Chello", "Xnonsense")
    reply = peer.read_message()
    assert isinstance(reply, Chat) and "unknown message type" in reply.text
    peer.send(encode_move(START.legal_moves()[0]))
    assert "no game" in peer.read_message().text
    peer.send(encode_game_request("Z", 5, 0))
    assert peer.read_message().code == "0"
    peer.send("M0000325000")  # not a legal move
    assert "illegal move" in peer.read_message().text
    assert peer.read_message() == GameEnd("0", "0")
    peer.send("E00")
    peer.send(encode_game_request("Z", 5, 0))
    assert peer.read_message().code == "0"
    peer.send("M00003228")  # malformed
    assert "bad move message" in peer.read_message().text
    assert peer.read_message() == GameEnd("0", "0")
    peer.close()


def test_initiator_game_end_is_acknowledged_during_the_search() -> None:
    engine = FakeEngine(delay=3600.0)  # searches until stopped
    f = Follower(engine)
    try:
        peer = f.connect()
        peer.send(encode_game_request("W", 5, 0))
        assert peer.read_message().code == "0"
        assert engine.searching.wait(60)  # the follower is thinking
        peer.send("E20")
        assert peer.read_message() == GameEnd("0", "0")  # answered at once: the search stopped
        assert engine.stopped == 1
        peer.send("E21")  # no game: nothing to acknowledge, but stop code 1 closes
        assert peer.read() is None
    finally:
        f.stop.set()
        f.thread.join(5)


def test_bursts_and_a_disconnecting_peer_do_not_stop_the_follower() -> None:
    f = Follower(FakeEngine(delay=0.2))
    try:
        peer = f.connect()
        first = START.legal_moves()[0]
        peer.send(encode_game_request("Z", 5, 0), "Chi", encode_move(first))  # one burst
        assert peer.read_message().code == "0"
        game = Game("international")
        game.push(first)
        game.push(_legal(game.position, peer.read_message()))
        peer.send(encode_move(game.position.legal_moves()[0]))
        peer.close()  # gone in the middle of the follower's search
        again = f.connect()
        again.send(encode_game_request("Z", 5, 0))
        assert again.read_message().code == "0"
        again.sock.sendall(b"C" + b"y" * 5000)  # a frame without end
        assert "closing" in again.read_message().text
        assert again.read() is None
        third = f.connect()  # still serving
        third.send(encode_game_request("Z", 5, 0))
        assert third.read_message().code == "0"
        third.close()
    finally:
        f.stop.set()
        f.thread.join(5)
    assert not f.thread.is_alive()


def test_time_management_follows_the_game_request() -> None:
    engine = FakeEngine()
    f = Follower(engine)
    try:
        peer = f.connect()
        peer.send(encode_game_request("W", 2, 50))
        assert peer.read_message().code == "0"
        peer.read_message()
        limits = engine.searches[-1][1]
        assert limits.wtime_ms == 120000 and limits.movestogo == 50
        peer.send(encode_game_request("W", 0, 0))
        assert peer.read_message().code == "0"
        peer.read_message()
        assert engine.searches[-1][1].movetime_ms == 1000  # no thinking time: the default per move
        peer.close()
    finally:
        f.stop.set()
        f.thread.join(5)
    fixed = Follower(FakeEngine(), DxpSettings(depth=3))
    try:
        peer = fixed.connect()
        peer.send(encode_game_request("W", 5, 0))
        assert peer.read_message().code == "0"
        peer.read_message()
        assert fixed.engine.searches[-1][1].depth == 3
        peer.close()
    finally:
        fixed.stop.set()
        fixed.thread.join(5)


# --------------------------------------------------------------------------- bounded resources

def _closing_text(peer: Initiator) -> str:
    """The follower's last chat before it closes the connection (then end of stream)."""
    frames = []
    while True:
        frame = peer.read()
        if frame is None:
            break
        frames.append(frame)
    closing = [f for f in frames if f.startswith("Cclosing: ")]
    assert closing, frames
    return closing[-1]


def _served(f: Follower) -> None:
    """The follower takes a new connection and a game after closing one."""
    peer = f.connect()
    peer.send(encode_game_request("Z", 5, 0))
    assert peer.read_message().code == "0"
    peer.close()


@pytest.mark.parametrize("frame", ["M0000325000", "Cflood", encode_game_request("Z", 5, 0), "E00"])
def test_a_flood_of_unread_frames_is_cut_off(frame: str) -> None:
    f = Follower(settings=DxpSettings(max_pending=16))
    try:
        peer = f.connect()
        peer.send(encode_game_request("Z", 5, 0))
        assert peer.read_message().code == "0"
        burst = ((frame.encode() + b"\0") * 4000)[:60000]  # sent in one go, never read
        try:
            peer.sock.sendall(burst)
        except OSError:
            pass  # the follower may already have closed
        try:  # the follower's last chat says why, unless a reset (unread input) loses it
            while peer.read() is not None:
                pass
        except OSError:
            pass
        peer.close()
        _served(f)
    finally:
        f.stop.set()
        f.thread.join(5)
    assert any("more than 16 frames wait to be handled" in n for n in f.notices), f.notices


def test_idle_connections_are_closed() -> None:
    f = Follower(settings=DxpSettings(idle_timeout=0.3))
    try:
        idle = f.connect()  # says nothing
        assert _closing_text(idle) == "Cclosing: no game was started for 0.3 s"
        chatty = f.connect()  # talks, but never asks for a game
        chatty.send("Chello")
        assert _closing_text(chatty) == "Cclosing: no game was started for 0.3 s"
        _served(f)
    finally:
        f.stop.set()
        f.thread.join(5)
    assert [n.split(": ", 1)[1] for n in f.notices] == ["no game was started for 0.3 s"] * 2
    assert all(n.startswith("closing the connection from 127.0.0.1:") for n in f.notices)


def test_a_frame_begun_and_never_finished_closes_the_connection() -> None:
    f = Follower(settings=DxpSettings(idle_timeout=0, frame_timeout=0.3))
    try:
        trickle = f.connect()
        trickle.sock.sendall(b"R01")  # and nothing more
        assert "frame left unfinished for 0.3 s (3 bytes without its 0 byte)" in _closing_text(trickle)
        _served(f)
    finally:
        f.stop.set()
        f.thread.join(5)
    assert len(f.notices) == 1 and "frame left unfinished" in f.notices[0]


def test_silence_in_a_game_is_bounded_but_our_thinking_is_not() -> None:
    f = Follower(FakeEngine(delay=0.6), DxpSettings(game_timeout=0.3, idle_timeout=0))
    try:
        peer = f.connect()
        peer.send(encode_game_request("W", 0, 0))  # the follower moves first, thinking 0.6 s
        assert peer.read_message().code == "0"
        assert isinstance(peer.read_message(), MoveMessage)  # not cut off while it thinks
        assert _closing_text(peer) == "Cclosing: the initiator was silent for 0.3 s in a game"
    finally:
        f.stop.set()
        f.thread.join(5)


def test_an_idle_timeout_of_zero_means_none() -> None:
    f = Follower(settings=DxpSettings(idle_timeout=0, frame_timeout=0))
    try:
        peer = f.connect()
        peer.sock.sendall(b"Chel")
        time.sleep(0.5)  # longer than any timeout of the other tests: none applies here
        peer.sock.sendall(b"lo\0" + encode_game_request("Z", 5, 0).encode() + b"\0")
        assert peer.read_message().code == "0"
        assert "chat: hello" in f.log
        peer.close()
    finally:
        f.stop.set()
        f.thread.join(5)
    assert f.notices == []


# --------------------------------------------------------------------------- many connections, one game

def _still_open_and_silent(peer: Initiator) -> bool:
    """Whether the follower has neither written to nor closed ``peer``'s connection."""
    peer.sock.setblocking(False)
    try:
        peer.sock.recv(1)
    except BlockingIOError:
        return True
    finally:
        peer.sock.setblocking(True)
    return False


def _answer(peer: Initiator, seconds: float = 60.0):
    """The next message, which must begin to arrive within ``seconds`` (a bound, not a timing)."""
    readable, _, _ = select.select([peer.sock], [], [], seconds)
    assert readable, f"no answer within {seconds:g} s"
    return peer.read_message()


def test_silent_connections_do_not_hold_the_follower(follower: Follower) -> None:
    silent = [follower.connect() for _ in range(3)]  # connect and say nothing (idle timeout 120 s)
    peer = follower.connect()
    peer.send(encode_game_request("W", 5, 0))
    # answered well before the first silent connection could time out (120 s): the old follower
    # served them one after the other and answered only after all three timeouts
    assert _answer(peer) == GameAccept(dxp.FOLLOWER_NAME, "0")
    assert isinstance(peer.read_message(), MoveMessage)
    assert all(_still_open_and_silent(s) for s in silent)
    assert follower.notices == []
    for s in silent:
        s.close()
    peer.close()


def test_a_game_request_while_another_connection_plays_is_declined(follower: Follower) -> None:
    first, second = follower.connect(), follower.connect()
    first.send(encode_game_request("Z", 5, 0))
    assert first.read_message().code == "0"
    second.send(encode_game_request("Z", 5, 0))
    assert _answer(second) == GameAccept(dxp.FOLLOWER_NAME, "3")  # no game for now
    assert "busy" in second.read_message().text
    game = Game("international")
    move = game.position.legal_moves()[0]
    game.push(move)
    first.send(encode_move(move))  # the first game goes on undisturbed
    game.push(_legal(game.position, first.read_message()))
    assert follower.engine.new_games == 1
    first.send("E01")
    assert first.read_message() == GameEnd("0", "1")
    assert first.read() is None
    second.send(encode_game_request("Z", 5, 0))  # the follower is free again
    assert second.read_message().code == "0"
    second.close()


class StubbornEngine(FakeEngine):
    """Takes ``delay`` seconds over every search, stopped or not."""

    def search(self, position, limits, history=(), on_info=None, stop=None):
        self.searching.set()
        time.sleep(self.delay)
        return super().search(position, limits, history, on_info, None)


def test_an_initiator_that_reconnects_at_once_gets_the_game() -> None:
    engine = StubbornEngine(delay=1.5)  # the old connection needs that long to let go
    f = Follower(engine)
    try:
        gone = f.connect()
        gone.send(encode_game_request("W", 5, 0))  # the follower moves first: it searches
        assert gone.read_message().code == "0"
        assert engine.searching.wait(60)
        gone.close()
        again = f.connect()
        again.send(encode_game_request("Z", 5, 0))
        assert _answer(again).code == "0"  # not 3: it waited for the old connection to end
        again.close()
    finally:
        f.stop.set()
        f.thread.join(5)


def test_stopping_ends_the_open_connections_without_a_chat() -> None:
    f = Follower()
    silent, playing = f.connect(), f.connect()
    playing.send(encode_game_request("Z", 5, 0))
    assert playing.read_message().code == "0"
    f.stop.set()
    f.thread.join(30)
    assert not f.thread.is_alive()
    assert silent.read() is None and playing.read() is None
    assert f.notices == []


def test_a_new_connection_makes_room_by_closing_the_oldest_without_a_game() -> None:
    f = Follower(settings=DxpSettings(max_connections=2))
    try:
        oldest, newer = f.connect(), f.connect()
        newer.send("Chello")
        player = f.connect()  # the third: the oldest without a game makes room
        assert "the oldest without a game, makes room" in _closing_text(oldest)
        player.send(encode_game_request("Z", 5, 0))
        assert player.read_message().code == "0"
        latest = f.connect()  # the player holds the game: the newer one goes
        assert "makes room" in _closing_text(newer)
        latest.send(encode_game_request("Z", 5, 0))
        assert latest.read_message().code == "3"
        player.close()
        latest.close()
    finally:
        f.stop.set()
        f.thread.join(5)
    alone = Follower(settings=DxpSettings(max_connections=1))
    try:
        player = alone.connect()
        player.send(encode_game_request("Z", 5, 0))
        assert player.read_message().code == "0"
        refused = alone.connect()  # no room, and the one connection plays: closed at once
        assert "1 connections are open, the most allowed" in _closing_text(refused)
        game = Game("international")
        move = game.position.legal_moves()[0]
        player.send(encode_move(move))
        assert isinstance(player.read_message(), MoveMessage)
        player.close()
    finally:
        alone.stop.set()
        alone.thread.join(5)
    assert len(alone.notices) == 1 and "the most allowed" in alone.notices[0]


# --------------------------------------------------------------------------- the real process

def test_real_process_plays_a_complete_game_over_loopback() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "protocol", "--dxp", "--port", "0", "--depth", "2",
                             "--once"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().decode()
        match = re.match(r"dxp: listening on (127\.0\.0\.1):(\d+)", line)
        assert match, line
        silent = Initiator((match.group(1), int(match.group(2))))  # holds nothing, ends with it
        peer = Initiator((match.group(1), int(match.group(2))))
        peer.send(encode_game_request("Z", 5, 0, START))  # a B request with the start position
        assert peer.read_message() == GameAccept(dxp.FOLLOWER_NAME, "0")
        game = Game("international")
        end = play_game(peer, game, initiator_white=True, seed=5)
        assert game.result().is_over or end.reason == "0"
        peer.send("E01")
        assert peer.read() is None
        peer.close()
        assert proc.wait(10) == 0  # --once: the connection that played has closed
        assert proc.stderr is not None and proc.stderr.read() == b""
        assert silent.read() is None
        silent.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_command_line_rejects_bad_options() -> None:
    proc = subprocess.run([sys.executable, "-m", "protocol", "--dxp", "--depth", "0"], cwd=ROOT,
                          capture_output=True, timeout=60)
    assert proc.returncode == 2 and b"--depth" in proc.stderr
    assert proc.stderr.count(b"\n") == 1 and b"Traceback" not in proc.stderr


@pytest.mark.parametrize("args, words", [
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["--port", "65536"], "--port: must be in 0..65535"),
    (["--port", "9" * 5000], "--port: must be in 0..65535"),
    (["--port", "x"], "--port: needs a whole number"),
    (["--port"], "--port: expected one argument"),
    (["--hash", "0"], "--hash: must be in 1..1024"),
    (["--nodes", "1" * 5000], "--nodes: must be in 1.."),
    (["--movetime", "1e400"], "--movetime: must be 0.001..86400 seconds"),
    (["--movetime", "nan"], "--movetime: needs a number of seconds"),
    (["--default-movetime", "0"], "--default-movetime: must be 0.001..86400"),
    (["--idle-timeout", "-1"], "--idle-timeout: must be 0 (off) or 0.1..86400 seconds"),
    (["--max-connections", "0"], "--max-connections: must be in 1..1024"),
    (["--frame-timeout", "inf"], "--frame-timeout: must be 0 (off)"),
    (["--game-timeout", "soon"], "--game-timeout: needs a number of seconds"),
    (["--eval", "x" * 5000], "--eval: must be full or hand or classic"),
    (["--variant", "frisian"], "--variant: unknown variant 'frisian'"),
    (["--host", "h" * 5000], "--host: not a host name or address"),
    (["--host", "no such host.invalid", "--port", "0"], "cannot listen on 'no such host.invalid'"),
])
def test_command_line_answers_bad_usage_with_one_line(capsys, args: List[str], words: str) -> None:
    assert dxp.main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and words in err, err
    assert err.startswith("draughts-engine --dxp: ") and len(err) < 400


def test_command_line_answers_a_port_in_use_with_one_line(capsys) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert dxp.main(["--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot listen on '127.0.0.1' port {port}" in err


def test_command_line_takes_one_fixed_limit() -> None:
    proc = subprocess.run([sys.executable, "-m", "protocol", "--dxp", "--depth", "3", "--nodes",
                           "5"], cwd=ROOT, capture_output=True, timeout=60)
    assert proc.returncode == 2 and b"not allowed with argument --depth" in proc.stderr
    assert proc.stderr.count(b"\n") == 1 and b"Traceback" not in proc.stderr


def test_closed_stderr_keeps_diagnostics_off_stdout() -> None:
    import shlex
    command = f"{shlex.quote(sys.executable)} -m protocol --dxp --depth 0 2>&-"
    proc = subprocess.run(["sh", "-c", command], cwd=ROOT, capture_output=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == b""
