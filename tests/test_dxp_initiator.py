"""The DXP initiator (protocol/dxp/initiator.py) and DXP engines as players of draughts-match:
a scripted follower on a socket pair for the messages, and a real match of our follower
started by the runner (``proto=dxp cmd=``) against our follower listening on loopback
(``proto=dxp host= port=``)."""

from __future__ import annotations

import io
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterator, List

import pytest

from draughts_engine.pdn import read_games
from protocol.client import EngineTimeoutError
from protocol.dxp.codec import parse_message
from protocol.dxp.initiator import DxpDeclinedError, DxpEngine, DxpGameEndedError
from protocol.match import MatchError, MatchRunner, config_from_args, parse_engine
from protocol.match.engines import dxp_time

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
START = "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:" \
        "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"


class Scripted:
    """The follower's end of a socket pair: reads our frames, sends what the test says."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""

    def read(self) -> str:
        while b"\0" not in self.buffer:
            chunk = self.sock.recv(4096)
            assert chunk, "the initiator closed the connection"
            self.buffer += chunk
        frame, _, self.buffer = self.buffer.partition(b"\0")
        return frame.decode("ascii")

    def send(self, frame: str) -> None:
        self.sock.sendall(frame.encode("ascii") + b"\0")


@pytest.fixture
def pair() -> Iterator:
    ours, theirs = socket.socketpair()
    ours.settimeout(None)
    theirs.settimeout(10)  # hang guard
    engine = DxpEngine(ours, "international", minutes=5, moves=75, timeout=10)
    yield engine, Scripted(theirs)
    theirs.close()  # first: the initiator's quit then sees the end instead of waiting for E
    engine.quit()


ACCEPT = "A" + "scripted".ljust(32) + "0"


def test_game_request_moves_back_requests_and_game_end(pair):
    engine, follower = pair
    engine.new_game()
    engine.position(START, ["32-28", "19-23", "28x19"])  # the follower plays Black now
    follower.send(ACCEPT)                       # (read once the request is sent)
    follower.send("B001W")                      # a back-up request: not supported
    follower.send("Chello")
    follower.send("M0003181300")                # 18-13: not a legal move
    engine.start_search()
    request = parse_message(follower.read())
    assert request.follower_colour == "Z" and (request.minutes, request.moves) == (5, 75)
    assert request.start == "B" and request.colour_to_move == "Z"
    assert request.position is not None and request.position[18] == "w"  # square 19
    result = engine.wait_bestmove(5)   # (answers the back-up request on the way)
    assert result.bestmove == "18-13"  # not a legal move: handed on, the runner forfeits it
    assert follower.read() == "K1"
    assert engine.chat == ["hello"]


def test_moves_of_the_other_side_are_sent_and_the_result_ends_the_game(pair):
    engine, follower = pair
    engine.position(START, [])
    follower.send(ACCEPT)
    engine.start_search()                          # the follower plays White
    assert parse_message(follower.read()).follower_colour == "W"
    with pytest.raises(EngineTimeoutError):
        engine.wait_bestmove(0.0)                  # no move yet: the runner asks again
    follower.send("M0001322800")
    assert engine.wait_bestmove(5).bestmove == "32-28"
    engine.position(START, ["32-28", "19-23"])
    engine.start_search()
    assert follower.read() == "M0000192300"
    follower.send("M0001282200")
    assert engine.wait_bestmove(5).bestmove == "28-22"
    finished = threading.Thread(target=engine.game_over, args=("white",))
    finished.start()
    assert follower.read() == "E10"               # White (the follower) won: "I lose"
    follower.send("E00")
    finished.join(5)
    assert not finished.is_alive()


def test_a_declined_game_and_a_game_ended_by_the_follower(pair):
    engine, follower = pair
    engine.position(START, [])
    thread_errors: List[BaseException] = []

    def ask() -> None:
        try:
            engine.start_search()
        except BaseException as exc:  # noqa: BLE001 - looked at below
            thread_errors.append(exc)

    asking = threading.Thread(target=ask)
    asking.start()
    follower.read()
    follower.send("A" + "busy".ljust(32) + "3")
    asking.join(5)
    assert thread_errors and isinstance(thread_errors[0], DxpDeclinedError)
    assert "A code 3" in str(thread_errors[0])
    asking = threading.Thread(target=engine.start_search)
    asking.start()
    follower.read()
    follower.send("Ashort name0")  # not padded to 32 characters: read all the same
    asking.join(5)
    assert not asking.is_alive() and engine.follower_name == "short name"
    follower.send("E1")            # no stop code: read all the same
    with pytest.raises(DxpGameEndedError, match="it loses"):
        engine.wait_bestmove(5)
    assert follower.read() == "E00"


def test_dxp_engine_keys():
    spec = parse_engine(["proto=dxp", "host=127.0.0.1", "port=27531", "tc=40/90+1"])
    assert spec.listening and spec.name == "dxp-127.0.0.1-27531" and dxp_time(spec) == (2, 40)
    assert not parse_engine(["proto=dxp", "cmd=x --port 0", "depth=1"]).listening
    for tokens, words in ((["proto=dxp", "depth=1"], "host= and port="),
                          (["cmd=x", "port=4", "depth=1"], "are for proto=dxp"),
                          (["proto=dxp", "port=4", "depth=1", "option.Hash=1"], "no option"),
                          (["proto=dxp", "port=99999", "depth=1"], "port")):
        with pytest.raises(MatchError, match=words):
            parse_engine(tokens)
    with pytest.raises(MatchError, match="--concurrency 1"):
        MatchRunner(config_from_args(["--engine", "proto=dxp", "port=4", "depth=1",
                                      "--engine", "cmd=x", "depth=1", "--concurrency", "2"]))


@pytest.fixture(scope="module")
def listening_follower() -> Iterator[int]:
    """Our follower, listening on a free loopback port (as Kingsrow or Scan would)."""
    process = subprocess.Popen([PY, "-m", "protocol", "--dxp", "--port", "0", "--depth", "1"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
    try:
        line = process.stdout.readline() if process.stdout else ""
        assert "listening on" in line, line
        yield int(line.rsplit(":", 1)[1])
    finally:
        process.terminate()
        process.wait(10)


def test_a_dxp_match_our_follower_against_a_listening_one(tmp_path: Path,
                                                          listening_follower: int):
    pdn = tmp_path / "dxp.pdn"
    out, err = io.StringIO(), io.StringIO()
    config = config_from_args([
        "--engine", "name=started", "proto=dxp",
        f"cmd={PY} -m protocol --dxp --port 0 --depth 1", "depth=1",
        "--engine", "name=listening", "proto=dxp", "host=127.0.0.1",
        f"port={listening_follower}", "tc=60+1",
        "--variant", "international", "--games", "2", "--concurrency", "1",
        "--max-plies", "40", "--pdn", str(pdn)])
    assert MatchRunner(config, out, err).run() == 0, err.getvalue()
    games = read_games(pdn.read_text(encoding="utf-8"))
    assert len(games) == 2 and [g.tags["White"] for g in games] == ["started", "listening"]
    for game in games:
        assert game.tags["Termination"] in ("normal", "adjudication"), err.getvalue()
        assert game.tags["Result"] in ("2-0", "0-2", "1-1")
    assert "at 127.0.0.1:" in err.getvalue()


def test_a_follower_that_closes_after_each_game_is_connected_again():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(2)
    server.settimeout(10)  # hang guard
    port = server.getsockname()[1]
    engine = DxpEngine.start("international", "127.0.0.1", port, timeout=10)
    try:
        for _game in range(2):
            engine.new_game()  # connects again (the listening socket's backlog holds it)
            conn, _ = server.accept()
            conn.settimeout(10)
            follower = Scripted(conn)
            follower.send(ACCEPT)
            engine.position(START, [])
            engine.start_search()
            assert follower.read().startswith("R01")
            ender = threading.Thread(target=engine.game_over, args=("draw",))
            ender.start()
            assert follower.read() == "E20"
            follower.send("E00")
            ender.join(5)
            conn.close()  # this follower hangs up after every game
            deadline = 50
            while not engine._peer_closed and deadline:  # the reader sees the end
                threading.Event().wait(0.1)
                deadline -= 1
    finally:
        engine.quit()
        server.close()


def test_black_after_white_s_first_move_is_asked_from_the_start_position(pair):
    engine, follower = pair
    engine.position("", ["32-28"])
    follower.send(ACCEPT)
    engine.start_search()
    request = parse_message(follower.read())
    assert (request.start, request.follower_colour) == ("A", "Z")
    assert follower.read() == "M0000322800"     # White's move, then the follower's turn
    follower.send("M0001192300")
    assert engine.wait_bestmove(5).bestmove == "19-23"
