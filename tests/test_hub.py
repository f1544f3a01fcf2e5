"""Hub mode (PROTOCOL.md section 10): syntax helpers, the in-process server against scripted
peers (orderly, bursty, disconnecting), the real process end to end, the Hub client and the Hub
conformance checks."""
from __future__ import annotations

import os
import queue
import random
import subprocess
import sys
import threading
import time
from typing import Iterator, List, Optional, Tuple

import pytest

from draughts_engine.game import Game
from draughts_engine.position import Position
from draughts_engine.search.limits import SearchInfo, SearchLimits, SearchResult
from draughts_engine.variants import VARIANTS, get_variant
from protocol.commands import MAX_LINE_BYTES
from protocol.hub import server as hub
from protocol.hub import wire
from protocol.session import Session
from protocol.client import (CommandRejectedError, EngineTerminatedError, EngineTimeoutError,
                             ProtocolError)
from draughts_engine.search.limits import SearchLimits
from protocol.hub.wire import (HubSyntaxError, flip_move_text, flip_square, format_hub_line, hub_pos,
                          hub_score, parse_hub_line, position_from_hub_pos)
from protocol.hub.client import HubEngine, hub_level_pairs, parse_hub_info
from protocol.conformance import run_hub_checks
from protocol.server import Server

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER = [sys.executable, "-m", "protocol"]


# --------------------------------------------------------------------------- a fake engine

class FakeEngine:
    """The engine API with no search: the first legal move, one info line, stop/ponder aware."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.searches: List[Tuple[Position, SearchLimits]] = []
        self.ponderhits = 0
        self.new_games = 0
        self._hit = threading.Event()

    def search(self, position, limits, history=(), on_info=None, stop=None):
        self.searches.append((position, limits))
        self._hit.clear()
        legal = position.legal_moves()
        pv = [legal[0]]
        after = position.play_raw(legal[0].raw).legal_moves()
        if after:
            pv.append(after[0])
        if on_info is not None:
            on_info(SearchInfo(1, 1, 25, None, 10, 2000, 5, 0, tuple(pv)))
        end = time.monotonic() + self.delay
        while (limits.infinite or limits.ponder) and not stop.is_set() and not self._hit.is_set():
            time.sleep(0.002)
        while time.monotonic() < end and not stop.is_set():
            time.sleep(0.002)
        return SearchResult(pv[0], pv[1] if len(pv) > 1 else None, 25, None, 1, 1, 10, 5, tuple(pv))

    def ponderhit(self) -> None:
        self.ponderhits += 1
        self._hit.set()

    def new_game(self) -> None:
        self.new_games += 1

    def set_hash_size(self, mb: int) -> None:
        pass

    def set_evaluation(self, name: str) -> None:
        pass


# --------------------------------------------------------------------------- an in-process peer

class HubPeer:
    """A Server on pipes, driven line by line; the Hub mode starts with the first ``hub``."""

    def __init__(self, engine: Optional[FakeEngine] = None) -> None:
        r_in, self.w_in = os.pipe()
        r_out, w_out = os.pipe()
        self.engine = engine or FakeEngine()
        self.server = Server(os.fdopen(r_in, "rb", buffering=0),
                             os.fdopen(w_out, "w", encoding="utf-8", newline="\n"),
                             session=Session(engine=self.engine))
        self.lines: "queue.Queue[Optional[Tuple[float, str]]]" = queue.Queue()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        threading.Thread(target=self._pump, args=(r_out,), daemon=True).start()

    def _serve(self) -> None:
        try:
            self.server.run()
        except SystemExit:  # the server leaves Hub mode this way
            pass
        finally:
            try:
                self.server.stdout.close()
            except OSError:
                pass

    def _pump(self, fd: int) -> None:
        with os.fdopen(fd, "r", encoding="utf-8") as stream:
            for line in stream:
                self.lines.put((time.monotonic(), line.rstrip("\n")))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        os.write(self.w_in, ("".join(line + "\n" for line in lines)).encode())

    def send_bytes(self, data: bytes) -> None:
        os.write(self.w_in, data)

    def close_input(self) -> None:
        os.close(self.w_in)

    def read(self, timeout: float = 5.0) -> str:
        item = self.lines.get(timeout=timeout)
        assert item is not None, "the server closed its output"
        return item[1]

    def rest(self, timeout: float = 5.0) -> List[str]:
        """The lines up to the end of the server's output."""
        out: List[str] = []
        while True:
            item = self.lines.get(timeout=timeout)
            if item is None:
                return out
            out.append(item[1])

    def until(self, command: str, timeout: float = 5.0) -> List[str]:
        out: List[str] = []
        while True:
            out.append(self.read(timeout))
            if parse_hub_line(out[-1])[0] == command:
                return out

    def ping(self) -> List[str]:
        self.send("ping")
        return self.until("pong")[:-1]

    def nothing_for(self, seconds: float) -> None:
        with pytest.raises(queue.Empty):
            self.lines.get(timeout=seconds)

    def handshake(self) -> List[str]:
        self.send("hub")
        return self.until("wait")


@pytest.fixture
def peer(monkeypatch) -> Iterator[HubPeer]:
    monkeypatch.setattr(hub, "LINE_GAP", 0.0)
    p = HubPeer()
    p.handshake()
    p.send("init")
    p.until("ready")
    yield p
    try:
        p.send("quit")
    except OSError:
        pass
    p.thread.join(3)


def done_of(lines: List[str]) -> dict:
    dones = [line for line in lines if line.startswith("done")]
    assert len(dones) == 1, lines
    pairs = parse_hub_line(dones[0])[1]
    assert pairs and pairs[0][0] == "move", dones[0]
    return dict(pairs)


# --------------------------------------------------------------------------- syntax helpers

def test_parse_hub_line_pairs_quotes_flags_and_spaces() -> None:
    assert parse_hub_line("  ") == ("", [])
    assert parse_hub_line("go think") == ("go", [("think", None)])
    assert parse_hub_line('pos pos = Wbe  moves="32-28 17-22" start') == (
        "pos", [("pos", "Wbe"), ("moves", "32-28 17-22"), ("start", None)])
    assert parse_hub_line('error message=""') == ("error", [("message", "")])
    for bad in ('pos moves="32-28', "level =3", 'set-param name="x"y"'):
        with pytest.raises(HubSyntaxError):
            parse_hub_line(bad)


def test_format_hub_line_quotes_only_when_needed_and_round_trips() -> None:
    line = format_hub_line("info", ("depth", 3), ("pv", "32-28 17-22"), ("empty", ""),
                           ("flag", None), ("quote", 'say "hi"'))
    assert line == "info depth=3 pv=\"32-28 17-22\" empty=\"\" flag quote=\"say 'hi'\""
    assert parse_hub_line(line)[1][:2] == [("depth", "3"), ("pv", "32-28 17-22")]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_hub_pos_round_trips_in_every_variant(name: str) -> None:
    variant = get_variant(name)
    rng = random.Random(7)
    game = Game(variant)
    for _ in range(30):
        moves = game.position.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    for position in (Position.start(variant), game.position):
        text = hub_pos(position)
        assert len(text) == variant.squares + 1
        assert Position.from_fen(position_from_hub_pos(text, variant), variant) == position


def test_hub_pos_errors_name_the_problem() -> None:
    variant = get_variant("international")
    with pytest.raises(ValueError, match="51 characters"):
        position_from_hub_pos("W" + "e" * 32, variant)
    with pytest.raises(ValueError, match="side to move"):
        position_from_hub_pos("X" + "e" * 50, variant)
    with pytest.raises(ValueError, match="square 3"):
        position_from_hub_pos("Wee?" + "e" * 47, variant)


def test_white_side_numbering_is_an_involution_matching_pydraughts() -> None:
    assert all(flip_square(flip_square(s)) == s for s in range(1, 33))
    assert [flip_square(s) for s in (21, 17, 22, 29, 1)] == [9, 13, 10, 1, 29]
    # pydraughts writes Russian c3xe5xg7 (taking d4, f6) as 10x28x14x23
    assert flip_move_text("10x28x14x23") == "22x8x18x11"
    # a number that cannot be a square is left alone (thousands of digits: no int() limit)
    huge = "9" * 5000
    assert flip_move_text(f"{huge}-13") == f"{huge}-17" and flip_move_text("010-13") == "22-17"


def test_values_with_control_characters_are_written_escaped() -> None:
    """A Hub line is one line of printable text whatever the input it quotes."""
    line = format_hub_line("error", ("message", "bad x\x0by\u2028\x1b[31m\x85"))
    assert line == 'error message="bad x\\x0by\\u2028\\x1b[31m\\x85"'
    assert line.isprintable() and len(line.splitlines()) == 1


def test_scores_in_men_and_forced_results() -> None:
    assert hub_score(25, None) == "0.25" and hub_score(-310, None) == "-3.10"
    assert hub_score(None, 1) == "99.99" and hub_score(None, -2) == "-99.96"
    for mate in (1, 2, 5, -1, -3):
        line = format_hub_line("info", ("score", hub_score(None, mate)))
        assert parse_hub_info(line).score_mate == mate
    assert parse_hub_info("info score=-0.37 nps=1.5 time=0.25").score_cp == -37
    assert parse_hub_info("info nps=1.5").nps == 1_500_000
    assert parse_hub_info("info nps=45000").nps == 45000
    with pytest.raises(ProtocolError):
        parse_hub_info("info depth=x")


@pytest.mark.parametrize("field", ["depth=" + "9" * 5000, "nodes=" + "1" * 40, "time=1e400",
                                   "time=nan", "score=inf", "score=-1e308", "nps=1e999.5"])
def test_hub_client_rejects_absurd_numbers_in_info_lines(field: str) -> None:
    with pytest.raises(ProtocolError, match="malformed value"):
        parse_hub_info("info " + field)


# --------------------------------------------------------------------------- the server, in process

def test_handshake_is_strict_key_value_and_lists_the_variants(monkeypatch) -> None:
    monkeypatch.setattr(hub, "LINE_GAP", 0.0)
    p = HubPeer()
    lines = p.handshake()
    assert lines[0].startswith("id ") and lines[-1] == "wait"
    ident = dict(parse_hub_line(lines[0])[1])
    assert ident["name"] == "draughts-engine" and ident["version"] and ident["country"]
    params = {}
    for line in lines[1:-1]:
        command, pairs = parse_hub_line(line)
        assert command == "param"
        assert all(value is not None for _, value in pairs), line
        params[dict(pairs)["name"]] = (line, dict(pairs))
    line, variant = params["variant"]
    assert variant["value"] == "normal" and variant["type"] == "enum"
    assert {"normal", "international", "english", "russian", "brazilian"} <= set(variant["values"].split())
    assert line.rsplit("=", 1)[0].endswith("values")  # values= last: pydraughts reads it so
    assert line.startswith("param name=variant ")
    assert params["hash"][1]["type"] == "int" and "min" in params["hash"][1]
    p.send("init")
    assert p.until("ready") == ["ready"]
    p.send("quit")
    p.thread.join(3)
    assert not p.thread.is_alive()


def test_go_think_writes_info_then_exactly_one_done(peer: HubPeer) -> None:
    peer.send("pos start", "level depth=3", "go think")
    lines = peer.until("done")
    info = [line for line in lines if line.startswith("info")]
    assert info and all(v is not None for _, v in parse_hub_line(info[0])[1])
    assert dict(parse_hub_line(info[0])[1])["score"] == "0.25"
    done = done_of(lines)
    start = Position.start("international")
    assert done["move"] == start.legal_moves()[0].hub()
    position, limits = peer.engine.searches[-1]
    assert position == start and limits.depth == 3
    assert peer.ping() == []


def test_level_forms_map_to_search_limits_and_reset_after_go_and_pos(peer: HubPeer) -> None:
    def limits_of(*lines: str, mode: str = "think", stop: bool = False) -> SearchLimits:
        peer.send(*lines, f"go {mode}")
        if stop:
            peer.send("stop")
        peer.until("done")
        return peer.engine.searches[-1][1]

    assert limits_of("level move-time=0.25").movetime_ms == 250
    clock = limits_of("level moves=20 time=10 inc=0.5")
    assert (clock.wtime_ms, clock.btime_ms, clock.movestogo) == (10500, 10500, 20)
    assert limits_of("level time=3.5").wtime_ms == 3500 and peer.engine.searches[-1][1].movestogo is None
    assert limits_of("level nodes=1000").nodes == 1000
    both = limits_of("level depth=4", "level nodes=500 handicap=3")  # lines add up; unknown args ignored
    assert (both.depth, both.nodes) == (4, 500)
    default = limits_of()  # the level was consumed by the last go
    assert default.movetime_ms == int(hub.DEFAULT_MOVE_TIME * 1000) and default.depth is None
    assert limits_of(mode="analyze", stop=True).infinite
    assert limits_of("level infinite", mode="think", stop=True).infinite
    peer.send("level depth=5", "pos start")  # pos resets the level too
    assert limits_of().depth is None
    peer.send("level depth=6", "level depth=x")  # a bad level line changes nothing
    assert [dict(parse_hub_line(e)[1])["message"].split(":")[0] for e in peer.ping()] == ["level"]
    assert limits_of().depth == 6


def test_ponder_holds_done_until_ponder_hit_or_stop(peer: HubPeer) -> None:
    peer.send("pos start", "level time=30", "go ponder")
    peer.read()  # the info line
    peer.nothing_for(0.2)
    peer.send("ponder-hit")
    done_of(peer.until("done"))
    assert peer.engine.ponderhits == 1 and peer.engine.searches[-1][1].ponder
    peer.send("go ponder")
    peer.read()
    peer.nothing_for(0.1)
    peer.send("stop")
    done_of(peer.until("done"))
    assert peer.ping() == []  # one done per go, nothing after it


def test_ponder_under_level_infinite_holds_done_until_stop(peer: HubPeer) -> None:
    """``level infinite``: after the ponder-hit the search still runs until ``stop``."""
    peer.send("pos start", "level infinite", "go ponder")
    peer.read()  # the info line
    peer.send("ponder-hit")
    peer.nothing_for(0.3)
    assert peer.engine.ponderhits == 0  # the search is not told: it goes on as it was
    peer.send("stop")
    done_of(peer.until("done"))
    assert peer.ping() == []


def test_during_a_search_only_ping_stop_ponder_hit_and_quit_are_taken(peer: HubPeer) -> None:
    peer.send("pos start", "level infinite", "go analyze")
    peer.read()
    peer.send("ping")
    assert peer.read() == "pong"
    for line in ("pos start", "level depth=2", "set-param name=hash value=8", "new-game", "go think",
                 "init"):
        peer.send(line)
        word = line.split()[0]
        assert peer.read() == f'error message="busy: {word} during search"'
    peer.send("ponder-hit")  # not a ponder search: nothing happens
    peer.nothing_for(0.1)
    peer.send("stop")
    done_of(peer.until("done"))
    assert peer.server.session.options["Hash"] == 16 and peer.engine.new_games == 0


def test_bad_pos_is_an_error_and_keeps_the_previous_position(peer: HubPeer) -> None:
    game = Game("international")
    moves = [game.push(text).hub() for text in ("32-28", "19-23", "28x19")]
    peer.send(format_hub_line("pos", ("pos", hub_pos(Position.start("international"))),
                              ("moves", " ".join(moves))))
    for bad in ("pos pos=W", "pos pos=" + "W" + "e" * 32, 'pos start moves="32-28 32-28"',
                "pos pos", 'pos start moves="31-99"'):
        peer.send(bad)
        errors = peer.ping()
        assert len(errors) == 1 and errors[0].startswith('error message="pos: '), (bad, errors)
    peer.send("level depth=1", "go think")
    peer.until("done")
    assert peer.engine.searches[-1][0] == game.position


def test_set_param_variant_hash_and_errors(peer: HubPeer) -> None:
    peer.send("set-param name=hash value=64", "set-param name=Ponder value=true",
              "set-param name=eval value=classic", "set-param name=move-overhead value=7")
    assert peer.ping() == []
    options = peer.server.session.options
    assert (options["Hash"], options["Ponder"], options["Eval"], options["MoveOverhead"]) == (
        64, True, "classic", 7)
    for bad, start in (("set-param name=hash value=0", "set-param: hash must be in 1..1024"),
                       ("set-param name=foo value=1", "set-param: unknown parameter foo"),
                       ("set-param value=1", "set-param: missing name"),
                       ("set-param name=variant value=chess", "set-param: variant must be one of"),
                       ("set-param name=numbering value=odd", "set-param: numbering must be"),
                       ("set-param name=ponder value=maybe",
                        "set-param: ponder must be true or false"),
                       ("set-param name=move-overhead value=-1",
                        "set-param: move-overhead must be"),
                       ("pos start moves=\"50-45\"", "pos: illegal move 50-45 (legal:")):
        peer.send(bad)
        errors = peer.ping()
        assert len(errors) == 1 and dict(parse_hub_line(errors[0])[1])["message"].startswith(start)
    assert options["Hash"] == 64
    peer.send("set-param name=variant value=russian", "pos pos=" + hub_pos(Position.start("russian")),
              "level depth=1", "go think")
    peer.until("done")
    assert peer.engine.searches[-1][0] == Position.start("russian")
    peer.send("pos pos=" + hub_pos(Position.start("international")))
    assert "33 characters" in peer.ping()[0]
    peer.send("set-param name=variant value=international", "pos start", "go think")
    peer.until("done")
    assert peer.engine.searches[-1][0] == Position.start("international")


def test_russian_moves_numbered_from_whites_side_are_detected(peer: HubPeer) -> None:
    start = Position.start("russian")
    peer.send("set-param name=variant value=russian")

    def best(*lines: str) -> str:
        peer.send(*lines, "level depth=1", "go think")
        return done_of(peer.until("done"))["move"]

    first = start.legal_moves()[0]
    # no moves to go by: pydraughts' convention (White's side) for Russian and Brazilian
    assert best(f"pos pos={hub_pos(start)}") == flip_move_text(first.hub())
    # moves in PDN numbers: answers in PDN numbers
    game = Game("russian")
    pdn_moves = [game.push(text).hub() for text in ("c3-d4", "f6-e5")]
    reply = game.position.legal_moves()[0]
    assert best(format_hub_line("pos", ("pos", hub_pos(start)), ("moves", " ".join(pdn_moves)))) == reply.hub()
    # the same moves as pydraughts writes them
    flipped = [flip_move_text(text) for text in pdn_moves]
    assert best(format_hub_line("pos", ("pos", hub_pos(start)), ("moves", " ".join(flipped)))) == \
        flip_move_text(reply.hub())
    assert peer.engine.searches[-1][0] == game.position
    peer.send("set-param name=numbering value=pdn")
    assert best(f"pos pos={hub_pos(start)}") == first.hub()
    peer.send(format_hub_line("pos", ("pos", hub_pos(start)), ("moves", " ".join(flipped))))
    assert "illegal move" in peer.ping()[0]


def test_unknown_commands_syntax_errors_and_bad_bytes_are_answered(peer: HubPeer) -> None:
    peer.send("frobnicate x=1")
    assert peer.ping() == ['error message="unknown command: frobnicate"']
    peer.send('pos pos="Wbbb')
    assert peer.ping()[0].startswith('error message="syntax: missing closing quote')
    peer.send_bytes(b"x" * (MAX_LINE_BYTES + 1) + b"\n" + b"\xff\xfe\n")
    assert peer.ping() == ['error message="line too long"', 'error message="invalid utf-8"']
    peer.send("", "   ")
    assert peer.ping() == []
    peer.send("hub")
    assert peer.until("wait")[0].startswith("id ")


def test_quit_during_a_search_still_writes_its_done(peer: HubPeer) -> None:
    peer.send("pos start", "level infinite", "go think")
    peer.read()
    peer.send("quit")
    done_of(peer.until("done"))
    peer.thread.join(3)
    assert not peer.thread.is_alive()


def test_bursty_peer_gets_one_done_per_go_in_order(monkeypatch) -> None:
    monkeypatch.setattr(hub, "LINE_GAP", 0.0)
    p = HubPeer(FakeEngine(delay=0.5))
    russian = hub_pos(Position.start("russian"))
    p.send("hub", "init", "set-param name=numbering value=pdn", "pos start", "level depth=2",
           "go think", "ping", "stop", "pos start", 'level move-time=0.05', "go think", "stop",
           "set-param name=variant value=russian", f"pos pos={russian}", "go analyze", "ping",
           "stop", "new-game", "ping", "quit")
    lines = p.rest()
    words = [parse_hub_line(line)[0] for line in lines if not line.startswith(("id", "param", "info"))]
    # ping is answered during a search; stop ends one; quit ends the server
    assert words == ["wait", "ready", "pong", "done", "done", "pong", "done", "pong"], lines
    assert p.engine.searches[-1][0] == Position.start("russian") and p.engine.new_games >= 1
    p.thread.join(3)
    assert not p.thread.is_alive()


def test_disconnecting_peer_ends_the_server_and_stops_the_search(monkeypatch) -> None:
    monkeypatch.setattr(hub, "LINE_GAP", 0.0)
    p = HubPeer()
    p.send("hub", "init", "pos start", "level infinite", "go analyze")
    p.until("info")
    p.close_input()
    assert [line for line in p.rest() if line.startswith("done")]
    p.thread.join(3)
    assert not p.thread.is_alive()


def test_lines_are_spaced_for_select_based_clients() -> None:
    p = HubPeer()
    p.send("hub")
    stamps = []
    while True:
        when, line = p.lines.get(timeout=5)
        stamps.append(when)
        if line == "wait":
            break
    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
    # Measured at the reader, one late line shortens the next gap, so check the span:
    # lines written without spacing would all arrive at once.
    assert len(gaps) >= 5 and stamps[-1] - stamps[0] >= len(gaps) * hub.LINE_GAP * 0.8, gaps
    p.send("quit")
    p.thread.join(3)


# --------------------------------------------------------------------------- the real process

def test_real_process_plays_complete_games_in_hub_mode() -> None:
    for variant in ("russian", "international"):
        with HubEngine.popen(SERVER, cwd=ROOT, timeout=20) as engine:
            assert engine.id["name"] == "draughts-engine"
            engine.set_option("Variant", variant)
            engine.set_option("Hash", 4)
            engine.new_game()
            game = Game(variant)
            rng = random.Random(3)
            while not game.result().is_over and game.ply < 160:
                engine.position(None, [m.pdn() for m in game.moves])
                if game.position.white_to_move:
                    result = engine.go(SearchLimits(depth=2))
                    assert result.bestmove is not None and result.infos
                    game.push(result.bestmove)
                else:
                    game.push(rng.choice(game.position.legal_moves()))
            assert game.result().is_over or game.ply == 160
            assert engine.stderr_lines == ()
        assert engine.returncode == 0


def test_real_process_raw_exchange_and_end_of_input() -> None:
    start = Position.start("international")
    script = ("hub\ninit\nping\n"
              f"pos pos={hub_pos(start)} moves=\"32-28 19-23\"\nlevel depth=2\ngo think\nping\n")
    proc = subprocess.run(SERVER, input=script.encode(), capture_output=True, cwd=ROOT, timeout=30)
    assert proc.returncode == 0 and proc.stderr == b""
    lines = proc.stdout.decode().splitlines()
    assert lines[0].startswith("id name=draughts-engine ") and "wait" in lines
    assert lines[lines.index("wait") + 1:lines.index("wait") + 3] == ["ready", "pong"]
    game = Game("international")
    game.push_all(["32-28", "19-23"])
    move = done_of(lines)["move"]
    assert wire.parse_hub_move_text(game.position, move).hub() == move
    assert lines.count("pong") == 2  # the second one during the search, which end of input stopped


# --------------------------------------------------------------------------- the client

class ScriptedScan:
    """A Scan-like Hub engine in a thread: International only (variant values as Scan's)."""

    def __init__(self, answers_done: bool = True, die_on_go: bool = False) -> None:
        r_in, self.w_in = os.pipe()
        self.r_out, w_out = os.pipe()
        self.received: List[str] = []
        self.answers_done = answers_done
        self.die_on_go = die_on_go
        self.position: Optional[Position] = None
        self.thread = threading.Thread(target=self._run, args=(r_in, w_out), daemon=True)
        self.thread.start()

    def _run(self, r_in: int, w_out: int) -> None:
        out = os.fdopen(w_out, "w")

        def say(line: str) -> None:
            out.write(line + "\n")
            out.flush()

        with os.fdopen(r_in, "r") as stream:
            for raw in stream:
                line = raw.strip()
                self.received.append(line)
                command, pairs = parse_hub_line(line)
                args = dict(pairs)
                if command == "hub":
                    say('id name=Scan version=3.1 author="Fabien Letouzey" country=France')
                    say('param name=variant value=normal type=enum values="normal killer bt frisian losing"')
                    say("param name=threads value=1 type=int min=1 max=16")
                    say("wait")
                elif command == "init":
                    say("ready")
                elif command == "ping":
                    say("pong")
                elif command == "set-param" and args.get("name") == "bogus":
                    say('error message="unknown parameter"')
                elif command == "pos":
                    self.position = Position.from_fen(
                        position_from_hub_pos(args["pos"], get_variant("international")), "international")
                    for text in (args.get("moves") or "").split():
                        self.position = self.position.play_raw(
                            wire.parse_hub_move_text(self.position, text).raw)
                elif command == "go":
                    if self.die_on_go:
                        break
                    if not self.answers_done:
                        continue
                    assert self.position is not None
                    moves = self.position.legal_moves()
                    best = max(moves, key=lambda m: len(m.captured))
                    captured = "x".join(str(s) for s in reversed(best.captured))
                    text = f"{best.start}x{best.end}x{captured}" if best.captured else best.hub()
                    say(f'info depth=5 mean-depth=4.8 score=0.12 nodes=1234 time=0.5 nps=0.002 pv="{text}"')
                    say(f"done move={text}")
                elif command == "quit":
                    break
        out.close()

    def attach(self, **options) -> HubEngine:
        return HubEngine.attach(os.fdopen(self.w_in, "wb", buffering=0),
                                os.fdopen(self.r_out, "rb"), **options)


def test_hub_client_speaks_to_a_scan_like_engine() -> None:
    scan = ScriptedScan()
    engine = scan.attach(timeout=30)
    assert engine.id["name"] == "Scan" and engine.id["author"] == "Fabien Letouzey"
    assert engine.option("Variant").vars == ("normal", "killer", "bt", "frisian", "losing")
    assert engine.option("Threads").type == "spin" and engine.option("threads").max == 16
    engine.set_option("Variant", "international")
    assert "set-param name=variant value=normal" in scan.received
    with pytest.raises(CommandRejectedError, match="none for russian"):
        engine.set_option("Variant", "russian")
    with pytest.raises(CommandRejectedError, match="unknown parameter"):
        engine.set_option("bogus", 1)
    engine.new_game()
    fen = "W:W28,33:B23,13,24"  # 28 takes two men, on either of two routes
    engine.position(fen, [])
    result = engine.go(SearchLimits(depth=5))
    position = Position.from_fen(fen, "international")
    move = max(position.legal_moves(), key=lambda m: len(m.captured))
    assert result.bestmove == move.pdn()
    assert result.last_info.depth == 5 and result.last_info.score_cp == 12
    assert result.last_info.time_ms == 500 and result.last_info.pv == (move.pdn(),)
    sent = scan.received
    assert sent.count("init") == 1 and sent.index("init") < sent.index("new-game")
    assert f"pos pos={hub_pos(position)}" in sent
    assert sent[-2:] == ["level depth=5", "go think"]
    engine.quit()


def test_hub_client_converts_positions_moves_and_limits() -> None:
    scan = ScriptedScan()
    with scan.attach(timeout=30) as engine:
        engine.position(None, ["32-28", "19-23", "28x19"])
        assert scan.received[-2] == 'pos pos=' + hub_pos(Position.start("international")) + \
            ' moves="32-28 19-23 28x19x23"'
        with pytest.raises(CommandRejectedError, match="position"):
            engine.position(None, ["32-29"])
        engine.go(SearchLimits(wtime_ms=60000, btime_ms=50000, winc_ms=1000, binc_ms=1000, movestogo=20))
        assert "level moves=20 time=49 inc=1" in scan.received  # Black to move: its clock
    assert hub_level_pairs(SearchLimits(movetime_ms=1500), True) == [("move-time", "1.5")]
    assert hub_level_pairs(SearchLimits(infinite=True), True) == [("infinite", None)]
    assert hub_level_pairs(SearchLimits(wtime_ms=1000, btime_ms=2000), False) == [("time", "2")]


def test_hub_client_timeouts_and_dead_engines_raise_the_client_errors() -> None:
    silent = ScriptedScan(answers_done=False)
    with silent.attach(timeout=30) as engine:
        with pytest.raises(EngineTimeoutError, match="done"):
            engine.go(SearchLimits(depth=3), timeout=0.3)
    dying = ScriptedScan(die_on_go=True)
    with dying.attach(timeout=30) as engine:
        with pytest.raises(EngineTerminatedError):
            engine.go(SearchLimits(depth=3), timeout=30)


def test_hub_conformance_checks_pass_for_our_engine() -> None:
    results = run_hub_checks(SERVER, cwd=ROOT, timeout=15)
    failed = [(name, reason) for name, passed, reason in results if not passed]
    assert not failed, failed
    names = [name for name, _, _ in results]
    assert {"handshake", "think-depth", "capture-notation", "infinite-stop", "ponder-hit",
            "russian", "quit", "stderr-silent", "end-of-input"} <= set(names)


def test_hub_conformance_reports_an_engine_that_does_not_start() -> None:
    results = run_hub_checks([sys.executable, "-c", "import sys; sys.exit(3)"], timeout=2)
    assert results and not results[0][1]


def test_started_with_the_hub_argument_it_speaks_hub_from_the_first_line() -> None:
    # As Scan is started (`scan hub`) and as lidraughts-bot starts engines by default.
    script = b"hub\ninit\npos start\nlevel depth=1\ngo think\nquit\n"
    done = subprocess.run(SERVER + ["hub"], input=script, capture_output=True, timeout=60)
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 0 and done.stderr == b""
    assert lines[0].startswith("id name=draughts-engine") and "wait" in lines and "ready" in lines
    assert sum(line.startswith("done move=") for line in lines) == 1


def test_a_level_limit_given_twice_counts_with_its_smaller_value() -> None:
    from protocol.hub.server import HubLevel

    level = HubLevel()
    for name, value in (("depth", "5"), ("depth", "2"), ("depth", "7"), ("move-time", "3"),
                        ("move-time", "1.5"), ("nodes", "900"), ("nodes", "1000")):
        level.set(name, value)
    limits, _ = level.limits("think")
    assert (limits.depth, limits.movetime_ms, limits.nodes) == (2, 1500, 900)
    level = HubLevel()
    level.set("move-time", "-1e400")  # negative, however far: 0 (the least move time)
    assert level.limits("think")[0].movetime_ms == 1


def test_only_spaces_and_tabs_separate_hub_words_and_numbers_are_ascii(peer: HubPeer) -> None:
    for bad, start in (("set-param name=hash value=\"\u00a032\u00a0\"",
                        "set-param: hash needs an integer"),
                       ("set-param\u00a0name=ponder value=true", "syntax: expected a name"),
                       ("level move-time=\u0663", "level: move-time needs a number of seconds"),
                       ("level time=1_0", "level: time needs a number of seconds"),
                       ("level time=1e400", "level: time is out of range"),
                       ("pos start moves=\"32-28\u00a019-23\"", "pos: illegal move 32-28")):
        peer.send(bad)
        errors = peer.ping()
        assert len(errors) == 1 and dict(parse_hub_line(errors[0])[1])["message"].startswith(start)
    peer.send("level time=1.5e0 move-time=.5", "pos start moves=\"32-28 \t 19-23\"")
    assert peer.ping() == []


def _hub_faulty(mode: str) -> List[str]:
    return [sys.executable, os.path.join(os.path.dirname(__file__), "fake_engines",
                                         "hub_faulty.py"), mode]


def test_hub_client_calls_an_illegal_done_move_an_illegal_best_move() -> None:
    from protocol.client import IllegalBestMoveError
    with HubEngine.popen(_hub_faulty("illegal"), strict=False, timeout=30) as engine:
        engine.position(None, [])
        with pytest.raises(IllegalBestMoveError) as caught:
            engine.go(SearchLimits(depth=1), timeout=60)
    assert caught.value.move == "01-02"


def test_hub_client_a_malformed_done_is_a_protocol_error_at_once_even_when_lenient() -> None:
    from protocol.client import ProtocolError
    with HubEngine.popen(_hub_faulty("garbage"), strict=False, timeout=30) as engine:
        engine.position(None, [])
        # not a timeout: the wait would otherwise last until the engine's next line
        with pytest.raises(ProtocolError, match="malformed line 'done mov=='"):
            engine.go(SearchLimits(depth=1), timeout=30)


def test_hub_client_skips_a_malformed_info_line() -> None:
    with HubEngine.popen(_hub_faulty("bad-info"), strict=True, timeout=30) as engine:
        engine.position(None, [])
        result = engine.go(SearchLimits(depth=1), timeout=60)
    assert result.bestmove == "32-28" and result.elapsed is not None
