"""The real server process, driven through pipes command by command (PROTOCOL.md)."""
from __future__ import annotations

import random
import subprocess
import sys
import time
from typing import Iterator, List

import pytest

from draughts_engine.game import Game
from draughts_engine.position import Position
from draughts_engine.search.limits import SearchLimits
from protocol.client import Engine
from protocol.commands import MAX_LINE_BYTES

SERVER = [sys.executable, "-m", "protocol"]


@pytest.fixture
def engine() -> Iterator[Engine]:
    with Engine.popen(SERVER, timeout=20, search_timeout=60) as eng:
        yield eng


def display(eng: Engine) -> dict:
    """The ``d`` block as a dict of first word -> rest (board rows as a list)."""
    eng.send_raw("d")
    lines = eng.read_until(lambda line: line.startswith("state"), timeout=20)
    out: dict = {"board": []}
    for line in lines:
        word, _, rest = line.partition(" ")
        if word == "board":
            out["board"].append(rest)
        else:
            out[word] = rest
    return out


def errors_of(eng: Engine, line: str) -> List[str]:
    """The lines answering ``line`` (search ``info`` lines that arrive meanwhile left out)."""
    eng.send_raw(line)
    return [answer for answer in eng.sync() if not answer.startswith("info ")]


def test_handshake_lists_options_and_protocol_version(engine: Engine) -> None:
    assert engine.id["name"].startswith("draughts-engine ")
    assert engine.protocol_version == 1
    assert {"Variant", "Hash", "Search", "Eval", "Ponder", "MoveOverhead"} <= set(engine.options)


def test_display_block_of_start_position(engine: Engine) -> None:
    d = display(engine)
    assert d["fen"] == Position.start("english").fen()
    assert d["side"] == "black" and d["ply"] == "0" and d["state"] == "ongoing"
    assert sorted(d["legal"].split()) == sorted(["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])
    assert d["board"][0] == "-b-b-b-b" and d["board"][7] == "w-w-w-w-"


def test_position_moves_move_and_undo_match_direct_calls(engine: Engine) -> None:
    engine.position(moves=["11-15", "23-19"])
    engine.play(["8-11", "22-17"])
    game = Game("english")
    game.push_all(["11-15", "23-19", "8-11", "22-17"])
    assert display(engine)["fen"] == game.position.fen()
    engine.undo(3)
    game.undo(3)
    d = display(engine)
    assert d["fen"] == game.position.fen() and d["ply"] == "1"


# Each bad line answers exactly one error with this prefix and changes nothing.
BAD_LINES = [
    ("foo 1 2", "error unknown command: foo"),
    ("GO depth 3", "error unknown command: GO"),
    ("go depth", "error go:"),
    ("go depth x", "error go:"),
    ("go depth -1", "error go:"),
    ("go depth 0", "error go:"),
    ("go depth 100", "error go:"),
    ("go nodes 99999999999999999999", "error go:"),
    ("go depth 3 depth 4", "error go:"),
    ("go infinite depth 3", "error go:"),
    ("go wtime 1000", "error go:"),
    ("go depth 3 foo", "error go:"),
    ("perft", "error perft:"),
    ("perft two", "error perft:"),
    ("position", "error position:"),
    ("position fen X:Y", "error position:"),
    ("position fen W:W33:B1", "error position:"),
    ("position startpos moves 11-15 bad!", "error position:"),
    ("position startpos moves 11-17", "error position: illegal move"),
    ("position startpos moves 11-15 23-19 15-19", "error position: illegal move"),
    ("move", "error move:"),
    ("move 11-16", "error move: illegal move"),
    ("move 11-15 22-99", "error move:"),
    ("undo 5", "error undo:"),
    ("undo 0", "error undo:"),
    ("undo -1", "error undo:"),
    ("setoption name Hash value 0", "error setoption:"),
    ("setoption name Hash value big", "error setoption:"),
    ("setoption name Variant value chess", "error setoption:"),
    ("setoption name Foo value 1", "error setoption:"),
    ("setoption name Hash", "error setoption:"),
    ("quit now", "error quit:"),
    ("isready 1", "error isready:"),
    ("hub", "error hub:"),
]


def test_bad_input_table(engine: Engine) -> None:
    engine.position(moves=["11-15"])
    before = display(engine)
    for line, prefix in BAD_LINES:
        answer = errors_of(engine, line)
        assert len(answer) == 1 and answer[0].startswith(prefix), (line, answer)
        assert display(engine) == before, line


def test_raw_byte_problems(engine: Engine) -> None:
    before = display(engine)
    assert errors_of(engine, "") == []
    assert errors_of(engine, " \t ") == []
    engine.send_raw(b"isready\r\n")
    assert engine.read_line() == "readyok"
    engine.send_raw(b"d\xff\xfe\n")
    assert engine.sync() == ["error invalid utf-8"]
    engine.send_raw(b"x" * (MAX_LINE_BYTES + 1) + b"\n")
    assert engine.sync() == ["error line too long"]
    assert display(engine) == before


def test_lines_longer_than_8_kib_are_read(engine: Engine) -> None:
    """A GUI resends the whole game before every move: a line of a long game (more than the
    8 KiB once allowed, which cut games of about 1,400 plies) is a command like any other."""
    moves = " ".join(["11-15", "23-19"] + ["8-11", "22-17"])
    line = "position startpos" + " " * 20000 + "moves " + moves
    assert len(line.encode()) > 8192
    assert errors_of(engine, line) == []
    assert display(engine)["ply"] == "4"


def test_fen_error_reasons_are_not_cut(engine: Engine) -> None:
    """The rules core's reason is the point of the error: it is shown whole (only the quoted
    input is cut), in every game the server plays."""
    engine.set_option("Variant", "frisian")
    assert errors_of(engine, "position fen W:W31,K46:B5,10:KW47/3") == [
        "error position: bad fen 'W:W31,K46:B5,10:KW47/3': king-move field 'KW47/3' needs a "
        "white king on 47 and men of its side"]
    engine.set_option("Variant", "tictactoe")
    assert errors_of(engine, "position fen xxx/ooo/xxx x")[0].endswith(
        "X moves first, so x must equal o or exceed it by one")


def test_ambiguous_move_names_candidates(engine: Engine) -> None:
    engine.set_option("Variant", "international")
    engine.position(fen="W:WK47:B14,19,29,31,42")
    answer = errors_of(engine, "move 47x36")
    assert len(answer) == 1 and answer[0].startswith("error move: ambiguous move")
    assert "47x38x24x13x36" in answer[0] and "47x38x20x9x36" in answer[0]
    engine.play(["47x38x20x9x36"])
    assert display(engine)["fen"] == "B:WK36:B19"


def test_perft_command(engine: Engine) -> None:
    engine.send_raw("perft 3")
    lines = engine.read_until(lambda line: line.startswith("nodes"), timeout=30)
    assert lines[-1] == "nodes 302"
    assert sum(int(line.split(": ")[1]) for line in lines[:-1]) == 302


def test_small_games_through_the_protocol(engine: Engine) -> None:
    engine.set_option("Variant", "tictactoe")
    engine.position(moves=["b2", "a1"])
    d = display(engine)
    assert d["fen"] == "3/1x1/o2 x" and d["variant"] == "tictactoe"
    engine.set_option("Variant", "tatedrez")
    engine.play(["R@a1"])
    assert display(engine)["fen"] == "3/3/R2 b -"


def test_go_returns_a_legal_bestmove_with_info(engine: Engine) -> None:
    engine.position(moves=["11-15", "23-19"])
    result = engine.go(SearchLimits(depth=4))
    position = Position.start("english").play("11-15").play("23-19")
    legal = {m.pdn() for m in position.legal_moves()}
    assert result.bestmove in legal
    info = result.last_info
    assert info is not None and info.depth == 4 and info.pv and info.pv[0] == result.bestmove
    for move in info.pv:  # the pv replays legally
        position = position.play(move)


def test_bestmove_none_without_legal_moves(engine: Engine) -> None:
    engine.position(fen="W:W:B1,2")
    assert engine.go(SearchLimits(depth=3)).bestmove is None


def test_busy_commands_are_refused_during_search(engine: Engine) -> None:
    engine.go_infinite()
    for line in ("go depth 3", "position startpos", "setoption name Hash value 32", "ucinewgame",
                 "move 11-15", "undo", "perft 2", "eval", "bench"):
        answer = errors_of(engine, line)
        assert answer[0].startswith(f"error busy: {line.split()[0]} during search"), answer
    result = engine.stop()
    assert result.bestmove in {m.pdn() for m in Position.start("english").legal_moves()}
    assert display(engine)["fen"] == Position.start("english").fen()


def test_infinite_holds_bestmove_until_stop(engine: Engine) -> None:
    engine.position(fen="W:W:B1,2")  # no legal move: the search ends at once
    engine.go_infinite()
    assert engine.sync() == [] or all(not line.startswith("bestmove") for line in engine.sync())
    assert engine.stop().bestmove is None


def test_ponderhit_turns_ponder_into_timed_search(engine: Engine) -> None:
    engine.start_search(SearchLimits(ponder=True, movetime_ms=200))
    time.sleep(0.3)
    assert all(not line.startswith("bestmove") for line in engine.sync())
    engine.ponderhit()
    result = engine.wait_bestmove(timeout=10)
    assert result.bestmove in {m.pdn() for m in Position.start("english").legal_moves()}


def test_exactly_one_bestmove_per_go_even_after_late_stop(engine: Engine) -> None:
    engine.go(SearchLimits(depth=2))
    engine.send_raw("stop")
    assert not any(line.startswith("bestmove") for line in engine.sync())


def _run_script(script: bytes, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run(SERVER, input=script, capture_output=True, timeout=timeout)


def test_eof_lets_a_bounded_search_finish() -> None:
    done = _run_script(b"position startpos\ngo depth 5\n")
    assert done.returncode == 0
    assert done.stdout.decode().splitlines()[-1].startswith("bestmove ")


END_SCRIPTS = {
    "quit after a finished search": (b"isready\nposition startpos\ngo depth 1\nisready\nquit\n", "bestmove"),
    "end of input during infinite": (b"position startpos\ngo infinite\n", "bestmove"),
    "quit during infinite": (b"position startpos\ngo infinite\nquit\n", "bestmove"),
    "end of input after a bounded search": (b"position startpos\ngo depth 2\n", "bestmove"),
    "quit during a classic search": (b"setoption name Search value minimax\nposition startpos\n"
                                     b"go depth 30\nisready\nquit\n", "bestmove"),
    "hub quit after go": (b"hub\ninit\npos start\nlevel depth=1\ngo think\nping\nquit\n", "done"),
    "hub end of input after go": (b"hub\ninit\npos start\nlevel depth=3\ngo think\n", "done"),
    "hub quit during analyze": (b"hub\ninit\npos start\ngo analyze\nquit\n", "done"),
}


@pytest.mark.parametrize("name", list(END_SCRIPTS))
def test_every_go_gets_exactly_one_final_line_whatever_ends_the_process(name: str) -> None:
    # Several processes at once, so that the search thread and the exit race for real.
    script, word = END_SCRIPTS[name]
    procs = [subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL) for _ in range(6)]
    outputs = [proc.communicate(script, timeout=60)[0].decode() for proc in procs]
    for out in outputs:
        finals = [line for line in out.splitlines() if line.split()[:1] == [word]]
        assert len(finals) == 1, out


def test_quit_during_search_writes_bestmove_and_exits_fast() -> None:
    with subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE) as proc:
        proc.stdin.write(b"go infinite\n")
        proc.stdin.flush()
        time.sleep(0.5)
        started = time.monotonic()
        proc.stdin.write(b"quit\n")
        proc.stdin.flush()
        status = proc.wait(timeout=30)
        elapsed = time.monotonic() - started
        out = proc.stdout.read().decode()
    # It does not wait for the infinite search: at most QUIT_WAIT (0.8 s) on a quiet host;
    # the margin holds on a host five times slower (latency figures: bench/latency.py).
    assert status == 0 and elapsed < 5.0
    assert out.splitlines()[-1].startswith("bestmove ")


def test_random_garbage_never_kills_the_server(engine: Engine) -> None:
    rng = random.Random(7)
    words = ["go", "depth", "position", "fen", "startpos", "moves", "move", "undo", "setoption",
             "name", "value", "Hash", "perft", "11-15", "x", "-3", "99999", "W:W21-32:B1-12",
             "d", "eval", "ucinewgame", "isready", "\x00", "é", "stop", "ponderhit"]
    for _ in range(300):
        line = " ".join(rng.choice(words) for _ in range(rng.randint(1, 6)))
        if line.split()[0] in ("go", "perft", "quit"):
            continue  # searches and perft are covered elsewhere; keep this test quick
        engine.send_raw(line)
    answers = engine.sync(timeout=30)
    assert all(line.startswith("error ") or line.startswith(("board", "fen", "variant", "side", "ply",
                                                              "legal", "state", "eval", "readyok",
                                                              "info string undo: nothing"))
               for line in answers)
    assert display(engine)["variant"] == "english"


def _random_game_moves(variant: str, plies: int, seed: int) -> List[str]:
    """A seeded game of exactly ``plies`` plies: random moves, preferring those that leave
    the opponent no capture (so the game lasts); draw rules are ignored, as the protocol
    accepts moves after a draw.  Tries further seeds until a game lasts long enough."""
    while True:
        rng = random.Random(seed)
        game = Game(variant)
        while game.ply < plies and game.legal_moves():
            moves = game.legal_moves()
            safe = [m for m in moves if not game.position.play_raw(m.raw).has_capture()]
            game.push(rng.choice(safe or moves))
        if game.ply == plies:
            return [m.pdn() for m in game.moves]
        seed += 1000


def test_scripted_200_move_game_matches_direct_calls(engine: Engine) -> None:
    moves = _random_game_moves("international", 200, seed=5)
    engine.set_option("Variant", "international")
    engine.position(moves=moves[:40])
    played = 40
    rng = random.Random(9)
    while played < len(moves):
        chunk = moves[played:played + rng.randint(1, 12)]
        engine.play(chunk)
        played += len(chunk)
        back = rng.randint(0, min(3, played))
        if back and played < len(moves):
            engine.undo(back)
            engine.play(moves[played - back:played])
    game = Game("international")
    game.push_all(moves)
    d = display(engine)
    assert d["fen"] == game.position.fen() and d["ply"] == "200"
    assert d["state"] == ("ongoing" if not game.result().is_over else d["state"])


def test_notation_option_writes_squares_as_the_client_asked(engine: Engine) -> None:
    engine.set_option("Variant", "russian")
    engine.position(moves=["c3-d4"])                  # input takes every notation
    assert engine.go(SearchLimits(depth=2)).bestmove[0].isdigit()   # numbers by default
    d = display(engine)
    assert d["fen"].startswith("B:W18,21") and all(t[0].isdigit() for t in d["legal"].split())
    engine.set_option("Notation", "variant")          # Russian's own: algebraic
    assert engine.go(SearchLimits(depth=2)).bestmove[0].isalpha()
    d = display(engine)
    assert d["fen"].startswith("B:Wa1") and "b6-c5" in d["legal"].split()
    engine.set_option("Variant", "international")     # no algebraic squares on 10x10
    assert engine.go(SearchLimits(depth=1)).bestmove[0].isdigit()


@pytest.mark.parametrize("args, words", [
    (["hub", "extra"], "hub takes no arguments, got 'extra'"),
    (["--bogus"], "unknown option '--bogus'"),
])
def test_bad_command_line_is_one_line_and_status_2(args: List[str], words: str) -> None:
    done = subprocess.run([sys.executable, "-m", "protocol", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [done.stderr.strip()] and words in done.stderr


def test_undo_counts_plies_in_words(engine: Engine) -> None:
    engine.send_raw("position startpos moves 11-15")
    assert errors_of(engine, "undo 2") == ["error undo: only 1 ply to take back"]
    assert errors_of(engine, "undo 3") == ["error undo: only 1 ply to take back"]


@pytest.mark.parametrize("closed, stdin, expected", [
    ("2>&-", "isready\n", "readyok\n"),                  # no stderr: answers as always
    ("2>&-", "hub\nping\n", "pong\n"),
    ("<&-", "", ""),                                      # no stdin: as an empty input
])
def test_a_closed_standard_stream_is_no_crash(closed: str, stdin: str, expected: str) -> None:
    import shlex
    command = f"{shlex.quote(sys.executable)} -m protocol {closed}"
    done = subprocess.run(["sh", "-c", command], input=stdin.encode(), capture_output=True,
                          timeout=60)
    assert done.returncode == 0, done
    assert done.stdout.decode().endswith(expected) and b"Traceback" not in done.stdout


@pytest.mark.parametrize("variant, fen", [
    ("tictactoe", "xo1/1x1/o2 x"),           # not the engine's search at all
    ("international", "W:WK46,K47:BK5"),     # the databases answer at once
])
def test_a_ponderhit_after_the_ponder_search_ended_is_not_kept_for_the_next(
        variant: str, fen: str) -> None:
    """A ponder search that ended on its own before its ponderhit: that ponderhit is for no
    search, and must not be kept by the engine (it would turn the next ponder search into a
    normal one, searching from its start instead of from its own ponderhit)."""
    from protocol.search_job import SearchJob
    from protocol.session import Session

    class Job(SearchJob):
        def report(self, info: object) -> None:
            pass

        def final_line(self, best: object, ponder: object) -> str:
            return f"bestmove {best}"

        def finish(self, line: str) -> None:
            pass

        def log(self, text: str) -> None:
            raise AssertionError(text)

    session = Session(variant)
    session.board.set_position(fen, [])
    job = Job(session, SearchLimits(depth=2, ponder=True), hold=True)
    job.start()
    deadline = time.monotonic() + 30
    while job.searching and time.monotonic() < deadline:  # the search ends on its own ...
        time.sleep(0.01)
    assert not job.searching and not job.finished.is_set()  # ... its line waits
    job.ponderhit()
    assert job.wait(30)
    assert not session.engine()._ponderhit.is_set()


@pytest.mark.parametrize("line, error", [
    ("setoption name Hash\u00a0 value 32", "error setoption: unknown option 'Hash\\xa0'"),
    ("setoption name Variant value \u00a0russian\u0085", "error setoption: Variant must be one of"),
    ("setoption name Hash value 32\u2028", "error setoption: Hash needs an integer, got '32\\u2028'"),
])
def test_only_spaces_and_tabs_separate_option_words(engine: Engine, line: str, error: str) -> None:
    """PROTOCOL.md §1: a no-break space or another Unicode space is part of the token."""
    before = display(engine)
    assert [answer.startswith(error) for answer in errors_of(engine, line)] == [True]
    assert display(engine) == before


def test_a_block_of_lines_is_never_split_by_search_reports() -> None:
    """``d``, ``uci``, ``perft`` and ``eval`` blocks go out whole, even while another thread
    (a search) writes its ``info`` lines."""
    import io
    import threading

    from protocol.server import Server

    out = io.StringIO()
    server = Server(io.BytesIO(), out)
    done = threading.Event()

    def reports() -> None:
        while not done.is_set():
            server.send("info depth 1")

    thread = threading.Thread(target=reports)
    thread.start()
    try:
        for _ in range(300):
            server.send_lines([f"board {i}" for i in range(10)])
    finally:
        done.set()
        thread.join()
    lines = out.getvalue().splitlines()
    starts = [n for n, line in enumerate(lines) if line == "board 0"]
    assert len(starts) == 300
    assert all(lines[n:n + 10] == [f"board {i}" for i in range(10)] for n in starts)


def test_commands_right_after_stop_wait_for_the_bestmove_instead_of_busy() -> None:
    """A GUI that sends ``position`` and ``go`` straight after ``stop`` (without waiting for
    ``bestmove``) gets them handled once the stopped search has answered, in order."""
    script = "".join("go infinite\nstop\nposition startpos moves 11-15\ngo depth 1\nstop\n"
                     for _ in range(30)) + "quit\n"
    done = subprocess.run(SERVER, input=script, text=True, capture_output=True, timeout=300)
    lines = done.stdout.splitlines()
    assert not [line for line in lines if line.startswith("error")]
    bestmoves = [line for line in lines if line.startswith("bestmove")]
    assert len(bestmoves) == 60
    assert all(line.split()[1] in ("23-19", "22-18", "22-17", "21-17", "24-20", "24-19", "23-18")
               for line in bestmoves[1::2])  # each go depth 1 searched the position after 11-15


def _server_with_search(lines: bytes, search) -> "tuple":
    """An in-process server reading ``lines``, its session's search replaced by ``search``."""
    import io

    from protocol.server import Server

    out = io.StringIO()
    server = Server(io.BytesIO(lines), out)
    server.session.search = search  # type: ignore[assignment]
    return server, out


def test_commands_after_stop_wait_for_a_slow_stopped_search_and_run_in_order() -> None:
    """A stopped search that takes its time (a slow move list): ``position`` and ``go`` after the
    ``stop`` wait for its bestmove, then run, in order; nothing is refused."""
    import threading

    calls = []

    def search(limits, report, stop, on_root_move=None):
        calls.append(limits)
        if len(calls) == 1:  # the go infinite: stops only a while after being told
            stop.wait(30)
            threading.Event().wait(0.5)
        return server.session.board.legal_moves()[0], None

    server, out = _server_with_search(
        b"go infinite\nstop\nposition startpos moves 11-15\ngo depth 1\n", search)
    server.run()
    lines = out.getvalue().splitlines()
    assert not [line for line in lines if line.startswith("error")]
    assert [line.split()[0] for line in lines] == ["bestmove", "bestmove"]
    start = Game("english")
    after = Game("english")
    after.push("11-15")
    assert lines == [f"bestmove {start.legal_moves()[0].pdn()}",   # each of its own position
                     f"bestmove {after.legal_moves()[0].pdn()}"]


def test_quit_while_a_command_waits_for_a_stuck_stopped_search_exits_with_its_bestmove() -> None:
    """``quit`` still ends the process at once (after writing the bestmove) when the stopped
    search does not end: the command waiting for it is dropped."""
    import threading

    release = threading.Event()

    def stuck(limits, report, stop):  # never ends by itself (until the test releases it)
        release.wait(60)
        return None, None

    server, out = _server_with_search(b"go infinite\nstop\nposition startpos\nquit\n", stuck)
    try:
        assert server.run() == 0
        assert not release.is_set()  # it returned while the search was still stuck
        lines = out.getvalue().splitlines()
        assert len(lines) == 1 and lines[0].startswith("bestmove ")
    finally:
        release.set()


def test_end_of_input_after_ponderhit_lets_the_now_bounded_search_finish() -> None:
    """After ``ponderhit`` a ``go ponder depth 8`` is a depth-8 search: the end of input
    waits for it (as for a plain ``go depth 8``) instead of stopping it at once."""
    import io

    from protocol.server import Server

    out = io.StringIO()
    lines = b"setoption name Variant value international\nposition startpos\n" \
            b"go ponder depth 8\nponderhit\n"
    Server(io.BytesIO(lines), out).run()
    answer = out.getvalue().splitlines()
    assert [line for line in answer if line.startswith("bestmove")] == [answer[-1]]
    assert any(line.startswith("info depth 8 ") for line in answer), answer[-3:]


def test_no_report_after_the_final_line_written_for_a_stuck_search() -> None:
    """``end`` writes the final line for a search that does not stop in time; when that search
    comes back later, its reports are not written after the final line."""
    import threading

    from protocol.search_job import SearchJob

    unblock = threading.Event()
    written: List[str] = []

    class StuckSession:
        board = None

        def search(self, limits: object, on_info: object, stop: object) -> tuple:
            unblock.wait(30)  # deaf to stop, as inside a very long move generation
            on_info("info depth 9")  # type: ignore[operator]
            return "late", None

        def forget_ponderhit(self) -> None:
            pass

    class Job(SearchJob):
        def report(self, info: object) -> None:
            written.append(str(info))

        def final_line(self, best: object, ponder: object) -> str:
            return f"bestmove {best}"

        def finish(self, line: str) -> None:
            written.append(line)

        def fallback(self) -> tuple:
            return "first", None

        def log(self, text: str) -> None:
            pass

    job = Job(StuckSession(), SearchLimits(depth=5), hold=False)
    job.start()
    job.end(0.05)
    assert written == ["bestmove first"]
    unblock.set()
    job.thread.join(30)
    assert written == ["bestmove first"]


@pytest.mark.parametrize("variant", ["tatedrez", "tictactoe"])
def test_ponderhit_ends_a_small_game_ponder_search(engine: Engine, variant: str) -> None:
    """The small games' search has no ponderhit: it ends at the ponderhit with its move."""
    engine.set_option("Variant", variant)
    engine.send_raw("go ponder movetime 20")
    time.sleep(0.3)
    engine.send_raw("ponderhit")
    lines = engine.read_until(lambda line: line.startswith("bestmove"), timeout=30)
    assert lines[-1].startswith("bestmove ")
