"""protocol.client: pure line parsers, exact exchanges over a scripted transport, and real
subprocesses (tests/fake_engines/) that behave, hang, crash or print garbage."""

from __future__ import annotations

import collections
import doctest
import importlib
import io
import os
import sys
import threading
import time
from typing import Callable, Deque, List, Optional, Sequence, Tuple

import pytest

import protocol.client
from protocol.client import (
    BestMove,
    ClientStateError,
    CommandRejectedError,
    Engine,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    GoResult,
    InfoReport,
    EngineOption,
    ProtocolError,
    Transport,
    parse_bestmove,
    parse_id,
    parse_info,
    parse_option,
)
from draughts_engine.search.limits import SearchLimits
from protocol.commands import ArgumentError, go_tokens

FAKE_ENGINES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_engines")


def fake(name: str, *args: str) -> List[str]:
    return [sys.executable, os.path.join(FAKE_ENGINES, name), *args]


# --------------------------------------------------------------------------- pure parsers


#: Each parser: well-formed lines and what they read as.
PARSED = {
    parse_info: [
        (
            "info depth 3 seldepth 5 score cp 8 nodes 420 nps 42000 time 10 hashfull 7 pv 11-15 23-19 8-11",
            InfoReport(3, 5, 8, None, 420, 42000, 10, 7, ("11-15", "23-19", "8-11")),
        ),
        ("info depth 9 score mate 3", InfoReport(depth=9, score_mate=3)),
        ("info score mate -1 pv", InfoReport(score_mate=-1)),
        ("info score cp -250", InfoReport(score_cp=-250)),
        ("info string  hash  resized ", InfoReport(string="hash  resized ")),
        ("info string", InfoReport(string="")),
        ("info\tdepth\t2\tcurrmove 11-15 multipv 1 nodes 5",
         InfoReport(depth=2, nodes=5, currmove="11-15", multipv=1)),
        ("info depth 4 score cp 10 lowerbound nodes 3",
         InfoReport(depth=4, score_cp=10, nodes=3, bound="lowerbound")),
        ("info depth 5 currmove 9-13 currmovenumber 3",
         InfoReport(depth=5, currmove="9-13", currmovenumber=3)),
        ("info", InfoReport()),
    ],
    parse_bestmove: [
        ("bestmove 11-15", BestMove("11-15")),
        ("bestmove 15x24x31 ponder 28x19", BestMove("15x24x31", "28x19")),
        ("bestmove  c3-d4\tponder f6-e5", BestMove("c3-d4", "f6-e5")),
        ("bestmove (none)", BestMove(None)),
    ],
    parse_option: [
        (
            "option name Hash type spin default 16 min 1 max 1024",
            EngineOption("Hash", "spin", "16", 1, 1024),
        ),
        (
            "option name Variant type combo default english var english var russian var brazilian",
            EngineOption("Variant", "combo", "english", vars=("english", "russian", "brazilian")),
        ),
        ("option name Clear Hash type button", EngineOption("Clear Hash", "button")),
        (
            "option name Book File type string default my book.pdn",
            EngineOption("Book File", "string", "my book.pdn"),
        ),
        ("option name Ponder type check default false", EngineOption("Ponder", "check", "false")),
        ("option name Contempt type spin default -5 min -100 max 100",
         EngineOption("Contempt", "spin", "-5", -100, 100)),
    ],
    parse_id: [
        ("id name draughts-engine  0.1.0", ("name", "draughts-engine  0.1.0")),
        ("id protocol 1", ("protocol", "1")),
    ],
}

#: Each parser: lines it must refuse with a ProtocolError.
MALFORMED = {
    parse_info: [
        "bestmove 11-15",
        "information depth 1",
        "info depth",
        "info depth x",
        "info depth -1",
        "info nodes 1.5",
        "info score 10",
        "info score cp",
        "info score cp ten",
        "info score cp 1 score mate 2",
        "info depth 1 depth 2",
    ],
    parse_bestmove: [
        "bestmove",
        "bestmove 11-15 ponder",
        "bestmove 11-15 23-19",
        "bestmove 11-15 ponder 23-19 x",
        "bestmove (none) ponder 11-15",
        "bestmove 11-15 ponder (none)",
        "bestmove ???",
        "best 11-15",
    ],
    parse_option: [
        "option name Hash",
        "option Hash type spin",
        "option name type spin",
        "option name Hash type integer default 1",
        "option name Hash type spin default 1 min x max 2",
        "option name Hash type spin default 1 default 2",
        "option name Hash type spin foo 1",
    ],
    parse_id: ["id"],
}


@pytest.mark.parametrize("parse, line, expected", [
    pytest.param(parse, line, expected, id=f"{parse.__name__}: {line}")
    for parse, cases in PARSED.items() for line, expected in cases])
def test_parsers_read_well_formed_lines(parse, line, expected):
    assert parse(line) == expected


@pytest.mark.parametrize("parse, line", [
    pytest.param(parse, line, id=f"{parse.__name__}: {line}")
    for parse, lines in MALFORMED.items() for line in lines])
def test_parsers_reject_malformed_lines(parse, line):
    with pytest.raises(ProtocolError):
        parse(line)


@pytest.mark.parametrize("module", ["errors", "reports", "parsers", "transcript", "transport",
                                    "connection", "engine"])
def test_docstring_examples(module):
    assert doctest.testmod(importlib.import_module("protocol.client." + module)).failed == 0


def test_package_exports_its_names_and_no_removed_alias():
    """``OptionSpec`` and ``GoLimits`` were removed at 0.1.0 (CHANGELOG.md)."""
    names = set(protocol.client.__all__)
    assert {"Engine", "EngineConnection", "StreamTransport", "ProcessTransport", "Transcript",
            "SearchLimits", "Limit", "EngineOption", "parse_id"} <= names
    assert not {"GoLimits", "OptionSpec"} & names
    with pytest.raises(AttributeError):
        protocol.client.OptionSpec  # noqa: B018
    with pytest.raises(AttributeError):
        protocol.client.GoLimits  # noqa: B018


# --------------------------------------------------------------------------- scripted transport


class ScriptedTransport(Transport):
    """A fake engine as a script of exact exchanges: ``expect(sent, replies)``.

    Each line the client writes must be the next expected one; its replies are delivered at
    once (``None`` in the replies ends the engine's output).
    """

    def __init__(self) -> None:
        self._script: Deque[Tuple[str, Sequence[Optional[str]]]] = collections.deque()
        self._on_line: Optional[Callable[[Optional[str]], None]] = None
        self.closed = False

    def expect(self, line: str, replies: Sequence[Optional[str]] = ()) -> "ScriptedTransport":
        self._script.append((line, replies))
        return self

    def assert_done(self) -> None:
        assert not self._script, f"expected but never sent: {[line for line, _ in self._script]}"

    def start(self, on_line, on_stderr) -> None:
        self._on_line = on_line

    def write(self, data: bytes) -> None:
        if self.closed:
            raise ValueError("closed")
        line = data.decode("utf-8").rstrip("\n")
        assert self._script, f"unexpected line sent: {line!r}"
        expected, replies = self._script.popleft()
        assert line == expected
        assert self._on_line is not None
        for reply in replies:
            self._on_line(reply)

    def close(self, timeout: float) -> Optional[int]:
        self.closed = True
        return None


UCI_REPLY = [
    "id name draughts-engine 0.1.0",
    "id author the draughts-engine authors",
    "id protocol 1",
    "option name Variant type combo default english var english var russian",
    "option name Hash type spin default 16 min 1 max 1024",
    "option name Ponder type check default false",
    "uciok",
]


def scripted(*extra: Tuple[str, Sequence[Optional[str]]], **options) -> Tuple[Engine, ScriptedTransport]:
    transport = ScriptedTransport().expect("uci", UCI_REPLY)
    for line, replies in extra:
        transport.expect(line, replies)
    engine = Engine(transport, timeout=0.5, **options)
    engine.handshake()
    return engine, transport


def test_handshake_collects_id_and_options():
    engine, transport = scripted()
    assert engine.id == {
        "name": "draughts-engine 0.1.0",
        "author": "the draughts-engine authors",
        "protocol": "1",
    }
    assert engine.protocol_version == 1
    assert list(engine.options) == ["Variant", "Hash", "Ponder"]
    assert engine.option("HASH") == EngineOption("Hash", "spin", "16", 1, 1024)
    assert engine.option("nope") is None
    transport.assert_done()


def test_commands_are_confirmed_with_isready():
    engine, transport = scripted(
        ("setoption name Hash value 64", []),
        ("isready", ["readyok"]),
        ("setoption name Ponder value true", []),
        ("isready", ["info string ok", "readyok"]),
        ("ucinewgame", []),
        ("isready", ["readyok"]),
        ("position fen B:W21-32:B1-12 moves 9-13 22-18", []),
        ("isready", ["readyok"]),
        ("position startpos", []),
        ("isready", ["readyok"]),
        ("move 11-15", []),
        ("isready", ["readyok"]),
        ("undo 2", []),
        ("isready", ["readyok"]),
        ("isready", ["readyok"]),
        ("quit", []),
    )
    engine.set_option("Hash", 64)
    engine.set_option("Ponder", True)
    engine.new_game()
    engine.position("B:W21-32:B1-12", ["9-13", "22-18"])
    engine.position()
    engine.play(["11-15"])
    engine.undo(2)
    engine.is_ready()
    assert engine.quit() is None
    assert engine.quit() is None  # idempotent, sends nothing more
    transport.assert_done()
    assert transport.closed


def test_an_error_line_rejects_the_command_and_keeps_the_stream_in_step():
    engine, transport = scripted(
        ("setoption name Hash value 0", []),
        ("isready", ["error setoption: Hash must be in 1..1024, got 0", "readyok"]),
        ("isready", ["readyok"]),
    )
    with pytest.raises(CommandRejectedError) as caught:
        engine.set_option("Hash", 0)
    assert caught.value.reason == "setoption: Hash must be in 1..1024, got 0"
    assert "> setoption name Hash value 0" in caught.value.transcript
    assert "< error setoption: Hash must be in 1..1024, got 0" in str(caught.value)
    engine.is_ready()  # readyok of the failed command was consumed: nothing is left over
    transport.assert_done()


def test_bad_arguments_are_refused_before_sending():
    engine, transport = scripted()
    with pytest.raises(ArgumentError):
        engine.position(moves=["11-15", "oops!"])
    with pytest.raises(ValueError):  # InvalidLimitsError, before anything is sent
        engine.go(SearchLimits(depth=0))
    transport.assert_done()


def test_go_collects_infos_and_bestmove():
    infos = [
        "info depth 1 seldepth 1 score cp 0 nodes 8 nps 8000 time 1 hashfull 0 pv 11-15",
        "info string between iterations",
        "info depth 2 seldepth 4 score cp 8 nodes 60 nps 30000 time 2 hashfull 0 pv 11-15 23-19",
    ]
    engine, transport = scripted(("go depth 2", infos + ["bestmove 11-15 ponder 23-19"]))
    seen: List[InfoReport] = []
    result = engine.go(SearchLimits(depth=2), on_info=seen.append)
    assert result.bestmove == "11-15" and result.ponder == "23-19"
    assert [info.depth for info in result.infos] == [1, None, 2]
    assert result.infos[1].string == "between iterations"
    assert result.last_info == InfoReport(2, 4, 8, None, 60, 30000, 2, 0, ("11-15", "23-19"))
    assert list(result.infos) == seen
    assert not engine.searching
    transport.assert_done()


def test_go_without_legal_move():
    engine, transport = scripted(("go movetime 100", ["bestmove (none)"]))
    assert engine.go(SearchLimits(movetime_ms=100)) == GoResult(None, None, ())
    transport.assert_done()


def test_go_infinite_runs_until_stop_and_isready_works_meanwhile():
    engine, transport = scripted(
        ("go infinite", ["info depth 1 score cp 3 pv 11-15"]),
        ("isready", ["info depth 2 score cp 4 pv 11-15 23-19", "readyok"]),
        ("stop", ["bestmove 11-15 ponder 23-19"]),
        ("isready", ["readyok"]),
    )
    engine.go_infinite()
    assert engine.searching
    engine.is_ready()
    with pytest.raises(ClientStateError):
        engine.position()
    with pytest.raises(ClientStateError):
        engine.go(SearchLimits(depth=1))
    result = engine.stop()
    assert (result.bestmove, [i.depth for i in result.infos]) == ("11-15", [1, 2])
    with pytest.raises(ClientStateError):
        engine.stop()
    engine.is_ready()
    transport.assert_done()


def test_bestmove_read_by_isready_is_kept_and_stop_is_not_sent():
    engine, transport = scripted(
        ("go depth 1", []),
        ("isready", ["info depth 1 pv 9-13", "bestmove 9-13", "readyok"]),
    )
    engine.start_search(SearchLimits(depth=1))
    engine.is_ready()
    assert engine.stop() == GoResult("9-13", None, (InfoReport(depth=1, pv=("9-13",)),))
    transport.assert_done()


def test_ponder_then_ponderhit():
    engine, transport = scripted(
        ("go ponder wtime 1000 btime 1000", ["info depth 1 pv 9-13"]),
        ("ponderhit", ["info depth 2 pv 9-13 22-18", "bestmove 9-13 ponder 22-18"]),
    )
    engine.start_search(SearchLimits(wtime_ms=1000, btime_ms=1000, ponder=True))
    engine.ponderhit()
    assert engine.wait_bestmove().bestmove == "9-13"
    with pytest.raises(ValueError):
        engine.go(SearchLimits(ponder=True))
    transport.assert_done()


def test_refused_go_raises_and_ends_the_search():
    engine, transport = scripted(
        ("go nodes 5", ["error go: minimax search supports only go depth N"]),
    )
    with pytest.raises(CommandRejectedError) as caught:
        engine.go(SearchLimits(nodes=5))
    assert caught.value.reason == "go: minimax search supports only go depth N"
    assert not engine.searching
    transport.assert_done()


def test_a_malformed_info_field_is_left_out_not_an_error():
    """An info line is advice: a bad field (even in strict mode) is dropped, the rest kept."""
    for on_info in (None, lambda report: None):
        engine, transport = scripted(("go depth 1", [
            "info depth one score cp 12", "info depth 2 nps 7501.5 pv 11-15",
            "bestmove 11-15"]))
        result = engine.go(SearchLimits(depth=1), on_info=on_info)
        assert result.bestmove == "11-15"
        assert [(i.depth, i.score_cp, i.nps) for i in result.infos] == [(None, 12, None),
                                                                        (2, None, None)]
        assert result.last_info is not None and result.last_info.pv == ("11-15",)
        transport.assert_done()


def test_a_flood_of_infos_is_kept_within_a_bound():
    from protocol.client.infos import INFO_KEPT
    lines = ["info depth 7 score cp 3 pv 11-15"] + [f"info nodes {n}" for n in range(5000)]
    engine, transport = scripted(("go depth 1", lines + ["bestmove 11-15"]))
    result = engine.go(SearchLimits(depth=1))
    assert len(result.infos) == INFO_KEPT + 1  # the last ones and the last with a depth
    assert result.infos[-1].nodes == 4999
    assert result.last_info is not None and result.last_info.score_cp == 3
    assert result.elapsed is not None and result.elapsed >= 0
    transport.assert_done()


@pytest.mark.parametrize("timeout", [float("nan"), -1.0])
def test_a_timeout_that_is_not_a_duration_is_refused_before_go_is_sent(timeout):
    engine, transport = scripted()
    with pytest.raises(ValueError, match="timeout"):
        engine.go(SearchLimits(depth=1), timeout=timeout)
    assert not engine.searching
    transport.assert_done()  # nothing was sent


def test_an_infinite_timeout_waits_for_the_bestmove():
    engine, transport = scripted(("go depth 1", ["bestmove 11-15"]))
    assert engine.go(SearchLimits(depth=1), timeout=float("inf")).bestmove == "11-15"
    transport.assert_done()


def test_garbage_during_a_search_is_a_protocol_error():
    engine, _ = scripted(("go depth 1", ["readyok"]))
    with pytest.raises(ProtocolError, match="unexpected line 'readyok' during a search"):
        engine.go(SearchLimits(depth=1))


def test_lenient_mode_skips_unknown_lines():
    engine, transport = scripted(
        ("go depth 1", ["hello there", "bestmove 11-15"]),
        ("isready", ["more noise", "readyok"]),
        strict=False,
    )
    assert engine.go(SearchLimits(depth=1)).bestmove == "11-15"
    engine.is_ready()
    assert "< hello there" in engine.transcript
    transport.assert_done()


def test_garbage_in_the_handshake():
    transport = ScriptedTransport().expect("uci", ["Welcome!", "uciok"])
    with pytest.raises(ProtocolError, match="during the uci handshake"):
        Engine(transport).handshake()
    transport = ScriptedTransport().expect("uci", ["option name Hash type int", "uciok"])
    with pytest.raises(ProtocolError, match="malformed option line"):
        Engine(transport).handshake()


def test_silence_times_out_and_the_search_can_still_be_stopped():
    engine, transport = scripted(("go depth 5", []), ("stop", ["bestmove 11-15"]),
                                 search_timeout=600.0)
    started = time.monotonic()
    with pytest.raises(EngineTimeoutError) as caught:
        engine.go(SearchLimits(depth=5), timeout=0.05)
    # the given timeout, not search_timeout, ended the wait (a margin for any slow host)
    assert time.monotonic() - started < 60.0
    assert caught.value.transcript[-1] == "> go depth 5"
    assert "timed out waiting for bestmove" in str(caught.value)
    assert engine.searching
    assert engine.stop().bestmove == "11-15"
    transport.assert_done()


def test_end_of_output_is_termination():
    engine, _ = scripted(("go depth 5", ["info depth 1 pv 11-15", None]))
    with pytest.raises(EngineTerminatedError) as caught:
        engine.go(SearchLimits(depth=5))
    assert caught.value.transcript[-1] == "# end of engine output"
    with pytest.raises(EngineTerminatedError):  # and stays so
        engine.read_line(0.01)


def test_write_after_close_is_a_client_state_error():
    engine, _ = scripted(("quit", []))
    engine.quit()
    with pytest.raises(ClientStateError):
        engine.send_raw("isready")


def test_raw_lines_for_conformance_checks():
    engine, transport = scripted(
        ("frobnicate", ["error unknown command: frobnicate"]),
        ("isready", ["readyok"]),
        ("stop", []),
        ("isready", ["readyok"]),
        ("d", ["board -b-b-b-b", "fen B:W21-32:B1-12", "state ongoing"]),
    )
    engine.send_raw("frobnicate")
    assert engine.read_line() == "error unknown command: frobnicate"
    assert engine.sync() == []
    engine.send_raw("stop")
    assert engine.sync() == []
    engine.send_raw("d")
    block = engine.read_until(lambda line: line.startswith("state "))
    assert block == ["board -b-b-b-b", "fen B:W21-32:B1-12", "state ongoing"]
    with pytest.raises(ValueError):
        engine.send_raw("two\nlines")
    transport.assert_done()


def test_transcript_log_receives_every_entry():
    entries: List[str] = []
    engine, _ = scripted(("isready", ["readyok"]), log=entries.append)
    engine.is_ready()
    assert entries[0] == "> uci" and entries[-2:] == ["> isready", "< readyok"]
    buffer = io.StringIO()
    engine, _ = scripted(log=buffer)
    assert buffer.getvalue().splitlines()[:2] == ["> uci", "< id name draughts-engine 0.1.0"]


def test_go_timeout_follows_the_limits():
    engine, _ = scripted(go_margin=1.5, search_timeout=42.0)
    assert engine.search_timeout_for(SearchLimits(movetime_ms=2000)) == pytest.approx(3.5)
    assert engine.search_timeout_for(
        SearchLimits(wtime_ms=4000, btime_ms=1000, winc_ms=500)) == pytest.approx(6.0)
    assert engine.search_timeout_for(SearchLimits(depth=3)) == 42.0


def test_errors_share_a_base_and_show_the_transcript():
    for error in (EngineTimeoutError, EngineTerminatedError, ProtocolError, ClientStateError):
        assert issubclass(error, EngineError)
    assert issubclass(CommandRejectedError, EngineError)
    assert str(ProtocolError("bad", ["> uci", "< junk"])) == "bad\nlast lines:\n  > uci\n  < junk"
    assert str(ProtocolError("bad")) == "bad"


# --------------------------------------------------------------------------- streams and processes


def test_attach_to_text_streams():
    to_read, to_write = os.pipe()
    engine_out = os.fdopen(to_read, "r", encoding="utf-8")
    feeder = os.fdopen(to_write, "w", encoding="utf-8")
    sent = io.StringIO()
    feeder.write("id name piped\nuciok\nreadyok\n")
    feeder.flush()
    engine = Engine.attach(sent, engine_out, timeout=20.0)
    engine.is_ready()
    assert engine.id == {"name": "piped"}
    assert sent.getvalue() == "uci\nisready\n"
    feeder.close()
    with pytest.raises(EngineTerminatedError):
        engine.read_line(20.0)
    engine.quit()
    assert sent.closed  # the client closes the engine's input; its output belongs to the caller
    engine_out.close()


def test_well_behaved_engine_end_to_end():
    with Engine.popen(fake("well_behaved.py"), timeout=20.0) as engine:
        assert engine.id["name"] == "fake-engine 1.0" and engine.protocol_version == 1
        engine.set_option("Hash", 64)
        with pytest.raises(CommandRejectedError, match="Hash must be in 1..1024"):
            engine.set_option("Hash", 4096)
        engine.new_game()
        engine.position(moves=["11-15", "23-19"])
        with pytest.raises(CommandRejectedError, match="illegal move 11-16"):
            engine.position(moves=["11-16"])
        result = engine.go(SearchLimits(depth=2))
        assert (result.bestmove, result.ponder) == ("11-15", "23-19")
        assert result.last_info is not None and result.last_info.score_cp == 12
        engine.go_infinite()
        engine.is_ready()
        assert engine.stop().bestmove == "11-15"
        engine.send_raw("go depth 1 foo")  # the fake checks nothing: a search happens
        assert engine.read_until(lambda line: line.startswith("bestmove"))[-1].startswith("bestmove")
        engine.send_raw("frobnicate")
        assert engine.sync() == ["error unknown command: frobnicate"]
        engine.position("W:W:B1")
        assert engine.go(SearchLimits(movetime_ms=50)).bestmove is None
    assert engine.returncode == 0
    assert "well_behaved: started" in engine.stderr_lines
    assert "well_behaved: setoption name Hash value 64" in engine.stderr_lines
    assert engine.transcript[-1] == "# closed, exit status 0"


def test_engine_that_hangs_on_go_times_out_and_is_killed():
    started = time.monotonic()
    with pytest.raises(EngineTimeoutError) as caught:
        with Engine.popen(fake("hang_on_go.py"), timeout=20.0, quit_timeout=0.3) as engine:
            engine.is_ready()
            engine.go(SearchLimits(movetime_ms=100), timeout=0.3)
    assert caught.value.transcript[-1] == "> go movetime 100"
    assert engine.returncode is not None and engine.returncode != 0  # SIGTERM ignored: killed
    assert time.monotonic() - started < 60.0  # the ladder ended it: the engine never would


def test_engine_that_never_finishes_the_handshake_is_reaped():
    with pytest.raises(EngineTimeoutError, match="uciok"):
        Engine.popen(fake("hang_on_go.py", "uci"), timeout=0.3, quit_timeout=0.2)


@pytest.mark.parametrize("script", ["info_flood.py", "hang_on_go.py"])
def test_quit_from_another_thread_while_infos_stream_in_ends_the_search_cleanly(script):
    """The match runner's Ctrl-C: quit() while the search's reader handles info lines (or waits
    on a silent engine): the search ends with an error that says so, not one blaming the
    engine."""
    for _ in range(5 if script == "info_flood.py" else 2):  # (a race: several tries)
        engine = Engine.popen(fake(script), timeout=20.0, quit_timeout=0.5)
        streaming = threading.Event()
        caught: List[BaseException] = []

        def search() -> None:
            try:
                engine.go(SearchLimits(depth=1), on_info=lambda _: streaming.set(), timeout=30.0)
            except BaseException as exc:  # noqa: BLE001 - the test looks at what it was
                caught.append(exc)

        worker = threading.Thread(target=search)
        worker.start()
        if script == "info_flood.py":
            assert streaming.wait(20.0)
        else:
            while not any(line == "> go depth 1" for line in engine.transcript):
                time.sleep(0.01)  # (the silent engine: go is sent, nothing comes back)
        engine.quit()
        worker.join(30.0)
        assert not worker.is_alive()
        assert len(caught) == 1 and isinstance(caught[0], ClientStateError), caught
        assert "quit() was called" in str(caught[0])  # not blamed on the engine


def test_engine_that_dies_mid_search():
    with Engine.popen(fake("die_mid_search.py"), timeout=20.0) as engine:
        with pytest.raises(EngineTerminatedError) as caught:
            engine.go(SearchLimits(depth=5), timeout=20.0)
        assert caught.value.returncode == 3
        assert "exit status 3" in str(caught.value)
        assert "! die_mid_search: simulated crash in search" in caught.value.transcript
        assert "< info depth 1 score cp 0 nodes 1 pv 11-15" in caught.value.transcript
        # Writing to the dead engine, or reading its closed output, says how it ended.
        with pytest.raises(EngineTerminatedError, match=r"exit status 3\)"):
            engine.send_raw("isready")
            engine.read_line(1.0)
        for _ in range(3):  # a write that hits the closed pipe (once the pipe's buffer is gone)
            with pytest.raises(EngineTerminatedError, match=r"exit status 3\)"):
                engine.send_raw("isready " + "x" * 70000)
    assert engine.returncode == 3


@pytest.mark.parametrize(
    "mode, message",
    [
        ("banner", "unexpected line 'Garbage Engine 0.0 by nobody, have fun!' during the uci handshake"),
        ("bestmove", "malformed bestmove line: 'bestmove'"),
        ("bytes", "junk"),
    ],
)
def test_engine_that_prints_garbage(mode, message):
    with pytest.raises(ProtocolError) as caught:
        with Engine.popen(fake("garbage.py", mode), timeout=20.0) as engine:
            engine.go(SearchLimits(depth=1))
    assert message in str(caught.value)


def test_engine_with_a_malformed_info_still_plays():
    with Engine.popen(fake("garbage.py", "info"), timeout=20.0) as engine:
        result = engine.go(SearchLimits(depth=1))
    assert result.bestmove == "11-15" and [i.depth for i in result.infos] == [None]


def test_missing_engine_program():
    with pytest.raises(OSError):
        Engine.popen(["/nonexistent/engine-binary"])
    with pytest.raises(ValueError, match="command is empty"):
        Engine.popen([])
    with pytest.raises(ValueError, match="command is empty"):
        Engine.popen("  ")


def test_command_as_one_string_is_split_like_a_shell_would():
    command = " ".join(f"'{word}'" for word in fake("well_behaved.py"))
    with Engine.popen(command, timeout=20.0) as engine:
        assert engine.id["name"] == "fake-engine 1.0"


def test_the_time_of_a_search_ends_when_its_bestmove_arrives_not_when_it_is_parsed(
        monkeypatch):
    """The reader thread stamps each line as it arrives: a slow reader (here an on_info that
    waits until the bestmove line has been read, then dawdles) is not charged to the engine.

    The client's clock is the test's: it reads 100.0 while the lines arrive and 1000.0 once
    on_info dawdles, so ``elapsed`` is 0.0 exactly when it ends at the bestmove's arrival."""
    import types

    from protocol.client import connection as connection_module
    from protocol.client import engine as engine_module

    now = [100.0]
    clock = types.SimpleNamespace(monotonic=lambda: now[0])
    monkeypatch.setattr(connection_module, "time", clock)
    monkeypatch.setattr(engine_module, "time", clock)
    to_engine_r, to_engine_w = os.pipe()
    from_engine_r, from_engine_w = os.pipe()

    def engine_side() -> None:
        with os.fdopen(to_engine_r, "rb") as commands, os.fdopen(from_engine_w, "wb") as out:
            for line in commands:
                if line.startswith(b"go"):
                    out.write(b"".join(b"info depth %d nodes 9 pv 11-15\n" % d
                                       for d in range(1, 51)) + b"bestmove 11-15\n")
                    out.flush()
                elif line.startswith(b"quit"):
                    return

    thread = threading.Thread(target=engine_side, daemon=True)
    thread.start()
    engine = Engine.attach(os.fdopen(to_engine_w, "wb", buffering=0),
                           os.fdopen(from_engine_r, "rb"), handshake=False)
    arrived = threading.Event()

    def slow_reader(report: InfoReport) -> None:
        if not arrived.is_set():
            for _ in range(6000):  # a hang guard: the line comes at once
                if "< bestmove 11-15" in engine.transcript:
                    break
                threading.Event().wait(0.01)
            arrived.set()
            now[0] = 1000.0  # the reader dawdles: the client's clock moves on

    result = engine.go(SearchLimits(depth=50), on_info=slow_reader, timeout=120)
    engine.quit()
    assert arrived.is_set() and result.bestmove == "11-15" and result.last_info.depth == 50
    assert result.elapsed == 0.0


# --------------------------------------------------------------------------- Limit: seconds, python-chess's names


def test_limit_takes_python_chess_names_in_seconds():
    from protocol.client import Limit

    assert Limit(time=0.5).search_limits() == SearchLimits(movetime_ms=500)
    assert Limit(depth=6, nodes=1000).search_limits() == SearchLimits(depth=6, nodes=1000)
    clock = Limit(white_clock=60, black_clock=59.5, white_inc=1, black_inc=0.25, remaining_moves=20)
    assert clock.search_limits() == SearchLimits(wtime_ms=60000, btime_ms=59500, winc_ms=1000,
                                                 binc_ms=250, movestogo=20)
    assert Limit(infinite=True).search_limits() == SearchLimits(infinite=True)
    assert Limit(ponder=True, time=1).search_limits() == SearchLimits(ponder=True, movetime_ms=1000)
    assert Limit(time=0.0001).search_limits().movetime_ms == 1  # never 0 ms
    assert repr(Limit(time=0.5, depth=4)) == "Limit(time=0.5, depth=4)"
    assert Limit(time=0.5) == Limit(0.5)


@pytest.mark.parametrize("name, hint", [("movetime", "time="), ("movetime_ms", "time="),
                                        ("wtime", "white_clock="), ("binc", "black_inc="),
                                        ("movestogo", "remaining_moves="),
                                        ("clock_id", "no such limit"), ("seconds", "")])
def test_a_wrong_limit_name_is_a_type_error_that_names_the_limits(name, hint):
    from protocol.client import Limit

    with pytest.raises(TypeError) as caught:
        Limit(**{name: 1})
    message = str(caught.value)
    assert repr(name) in message and hint in message
    assert ("time, depth, nodes, white_clock, black_clock, white_inc, black_inc, "
            "remaining_moves, mate, infinite, ponder") in message


def test_limit_mate_is_go_mate() -> None:
    from protocol.client import Limit

    assert Limit(mate=3).search_limits() == SearchLimits(mate=3)
    assert "mate 3" in " ".join(go_tokens(Limit(mate=3).search_limits()))


@pytest.mark.parametrize("kwargs, words", [
    ({"time": 0}, "time must be more than 0 seconds"),
    ({"time": -1}, "time must be in 0.."),
    ({"time": "1"}, "time is a number of seconds"),
    ({"white_clock": True, "black_clock": 1}, "white_clock is a number of seconds"),
    ({"white_clock": 60}, "a clock needs both white_clock and black_clock"),
    ({"depth": 0}, "depth must be in 1..99"),
    ({"infinite": True, "time": 1}, "infinite cannot be combined with time"),
    ({"time": float("nan")}, "time must be in 0.."),
])
def test_a_bad_limit_value_is_a_value_error_in_limits_words(kwargs, words):
    from protocol.client import Limit
    from draughts_engine.search.limits import InvalidLimitsError

    with pytest.raises(InvalidLimitsError, match=words.replace(".", r"\.")):
        Limit(**kwargs)


def test_limit_doctests():
    assert doctest.testmod(importlib.import_module("protocol.client.limit")).failed == 0


def test_go_and_start_search_take_a_limit():
    from protocol.client import Limit

    engine, transport = scripted(("go movetime 250", ["bestmove 11-15"]),
                                 ("go wtime 60000 btime 30000 winc 1000 binc 0", ["bestmove 9-13"]),
                                 ("go infinite", []), ("stop", ["bestmove 11-16"]))
    assert engine.go(Limit(time=0.25)).bestmove == "11-15"
    clock = Limit(white_clock=60, black_clock=30, white_inc=1, black_inc=0)
    assert engine.go(clock).bestmove == "9-13"
    engine.start_search(Limit(infinite=True))
    assert engine.stop().bestmove == "11-16"
    transport.assert_done()


def test_go_refuses_what_is_not_limits_before_sending():
    from protocol.client import Limit

    engine, transport = scripted()
    with pytest.raises(TypeError, match="protocol.client.Limit"):
        engine.go(6)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="start_search"):
        engine.go(Limit(infinite=True))
    transport.assert_done()  # nothing was sent


def test_the_hub_client_takes_a_limit():
    from protocol.client import Limit
    from protocol.hub.client import HubEngine

    root = os.path.dirname(os.path.dirname(FAKE_ENGINES))
    with HubEngine.popen([sys.executable, "-m", "protocol"], timeout=20, cwd=root) as engine:
        engine.set_option("Variant", "english")
        engine.position(None, ["11-15"])
        assert engine.go(Limit(depth=2)).bestmove is not None
        assert engine.go(Limit(time=0.05)).bestmove is not None
