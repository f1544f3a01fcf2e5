"""``python3 -m protocol.play`` in a real pseudo-terminal (the standard library's ``pty``).

The program sees a terminal on stdin and stdout: it draws in colour, updates the engine's
thinking in place, reads with line editing, and Ctrl-C (the byte 0x03 typed into the terminal,
turned into SIGINT by the terminal driver) means "move now" while an engine thinks and asks
before quitting at the prompt. Waits have generous limits and measure nothing.
"""
from __future__ import annotations

import os
import select
import signal
import sys
import time
from pathlib import Path
from typing import List, Optional

import pytest

from helpers_processes import default_sigint
from test_play_support import (ANSI, ROOT, check_moves_with_reference, pdn_games,
                               refuse_a_move_then_save)

pty = pytest.importorskip("pty", reason="the pty module needs a POSIX system")
if os.name != "posix":  # pragma: no cover
    pytest.skip("pseudo-terminals need a POSIX system", allow_module_level=True)

WAIT = 120.0  # seconds: only ever a limit for a hung program, never a measurement


class Terminal:
    """A program running on the child side of a pseudo-terminal."""

    def __init__(self, args: List[str]) -> None:
        env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        env["TERM"] = "xterm"
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        argv = [sys.executable, "-m", "protocol.play", *args]
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pty is its controlling terminal
            try:
                default_sigint()  # what a terminal gives, also under a background test run
                os.chdir(str(ROOT))
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.raw = b""
        self.seen = 0  # how much of the text expect() has consumed
        self.status: Optional[int] = None
        try:
            import fcntl
            import struct
            import termios
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 150, 0, 0))
        except (ImportError, OSError):
            pass

    @property
    def text(self) -> str:
        """Everything the program wrote, without colour codes and carriage returns."""
        return ANSI.sub("", self.raw.decode("utf-8", "replace")).replace("\r", "\n")

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        if not data:
            return False
        self.raw += data
        return True

    def expect(self, needle: str, timeout: float = WAIT) -> str:
        """Wait until ``needle`` appears after what was already expected; return the text
        between."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.text.find(needle, self.seen)
            if found >= 0:
                between = self.text[self.seen:found]
                self.seen = found + len(needle)
                return between
            if time.monotonic() > deadline or not self._read(0.2):
                raise AssertionError(f"{needle!r} did not appear; the screen ends with:\n"
                                     + self.text[-2500:])

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def send(self, line: str) -> None:
        """Type ``line`` and Enter."""
        self.type(line + "\r")

    def interrupt_at_prompt(self, needle: str, tries: int = 5) -> str:
        """Type Ctrl-C at a line-editing prompt until ``needle`` appears; return the text
        before it.

        CPython's readline waits in ``select()`` with no timeout; a SIGINT that lands after
        the prompt is drawn but before that ``select()`` starts is noted and acted on only
        at the next key (a person simply presses Ctrl-C again, and so does this).  One
        Ctrl-C is enough whenever it lands inside the wait.
        """
        for attempt in range(tries):
            self.type("\x03")
            try:
                return self.expect(needle, timeout=WAIT if attempt == tries - 1 else 5.0)
            except AssertionError:
                if attempt == tries - 1 or self._exited():
                    raise
        raise AssertionError("unreachable")

    def _exited(self) -> bool:
        """Whether the program has ended (its status kept for :meth:`wait_exit`)."""
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status) if hasattr(
                    os, "waitstatus_to_exitcode") else status >> 8
        return self.status is not None

    def wait_exit(self, timeout: float = WAIT) -> int:
        deadline = time.monotonic() + timeout
        while not self._exited():
            if time.monotonic() > deadline:
                raise AssertionError("the program did not exit:\n" + self.text[-2500:])
            self._read(0.1)
        return self.status

    def close(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGTERM)
                self.wait_exit(30)
            except (OSError, AssertionError):
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
        os.close(self.fd)


@pytest.fixture
def terminal_factory():
    started: List[Terminal] = []

    def start(*args: str) -> Terminal:
        terminal = Terminal(list(args))
        started.append(terminal)
        return terminal
    yield start
    for terminal in started:
        terminal.close()


def test_a_game_in_a_real_terminal(terminal_factory, tmp_path: Path) -> None:
    saved = tmp_path / "pty-game.pdn"
    term = terminal_factory("--variant", "english", "--black", "human", "--white", "engine",
                            "--level", "3")
    term.expect("Black 1> ")
    assert "\x1b[" in term.raw.decode()  # colour on a terminal
    assert " 8         1b        2b        3b        4b   8" in term.text
    term.type("11-15\r")
    reply_block = term.expect("Black 2> ")
    reply = next(line for line in reply_block.splitlines() if line.startswith("1... "))
    reply_move = reply.split()[1]
    assert "Last move: 1... " + reply_move in reply_block
    # One board for the move and its reply, drawn after the reply, with 11-15 on it.
    assert reply_block.count("Last move: ") == 1 and reply_block.count("\n 8 ") == 1
    assert " 15b " in reply_block and "[15b]" not in reply_block
    term.type("undo\r")
    assert "Took back 11-15 " + reply_move + "." in term.expect("Black 1> ")
    term.type("redo\r")
    assert "Replayed 11-15 " + reply_move + "." in term.expect("Black 2> ")
    term.type("undo 3\r")  # more plies than were played: refused, nothing changes
    assert "undo: N must be 1..2 (2 moves can be taken back), got '3'" in \
        term.expect("Black 2> ")
    term.type("foo\r")
    assert "Unknown command 'foo' (type help" in term.expect("Black 2> ")
    term.type("new game\r")
    assert "new: takes no arguments, got 'game' (nothing done)" in term.expect("Black 2> ")
    refuse_a_move_then_save(term, saved)
    term.interrupt_at_prompt("Quit? [y/N] ")  # Ctrl-C at the prompt asks first
    term.type("n\r")
    term.expect("Black 2> ")
    term.type("quit\r")
    assert term.wait_exit() == 0
    (tags, moves), = pdn_games(saved.read_text())
    assert moves == ["11-15", reply_move]
    check_moves_with_reference("english", moves)


# The engine plays from its opening book by default (OwnBook), and a book move comes at once:
# the tests that interrupt a search start from a position outside the book (the start position
# with one black man fewer), so that the engine has to search.
OFF_BOOK = {"international": "W:W31-50:B1-19", "english": "B:W21-32:B1-11"}


def off_book(variant: str) -> str:
    """A FEN of ``variant`` that the built-in book does not know (checked here)."""
    from draughts_engine.book import builtin_book
    from draughts_engine.position import Position
    fen = OFF_BOOK[variant]
    book = builtin_book(variant)
    assert book is not None and book.moves(Position.from_fen(fen, variant)) is None, fen
    return fen


def test_ctrl_c_while_the_engine_thinks_plays_its_best_move_so_far(terminal_factory) -> None:
    # A ten-minute move: only "move now" can end it within the test's limits.
    fen = off_book("international")
    term = terminal_factory("--variant", "international", "--white", "engine",
                            "--movetime", "600000", "--black", "human", "--fen", fen)
    term.expect("White thinks: depth 2")
    term.type("\x03")
    after = term.expect("Black 1> ")
    assert "(move now: the engine plays its best move so far)" in after
    move = next(line for line in after.splitlines() if line.startswith("1. "))
    assert "(White, draughts-engine" in move
    check_moves_with_reference("international", [move.split()[1]], fen)
    term.interrupt_at_prompt("Quit? [y/N] ")
    term.type("y\r")
    term.expect("This game is not finished and not saved. File name to save it (Enter to "
                "leave without saving): ")
    term.type("\r")
    term.expect("The unfinished game (1 move) is not saved.")
    assert term.wait_exit() == 0


def test_ctrl_c_during_a_hint_shows_the_best_move_so_far_and_plays_nothing(
        terminal_factory) -> None:
    fen = off_book("international")
    term = terminal_factory("--variant", "international", "--white", "human", "--black",
                            "human", "--movetime", "600000", "--fen", fen)
    term.expect("White 1> ")
    term.type("hint\r")
    term.expect("hint: depth 2")
    term.type("\x03")
    after = term.expect("White 1> ")
    assert "(hint stopped: the best move found so far follows; nothing is played)" in after
    assert "move now" not in after
    hint = next(line for line in after.splitlines() if line.startswith("Hint: "))
    check_moves_with_reference("international", [hint.split()[1]], fen)
    term.type("quit\r")
    assert term.wait_exit() == 0


def test_ctrl_c_while_two_engines_play_moves_now_then_asks_to_quit(terminal_factory,
                                                                   tmp_path: Path) -> None:
    term = terminal_factory("--variant", "english", "--white", "engine", "--black", "engine",
                            "--movetime", "600000", "--fen", off_book("english"))
    term.expect("Black thinks: depth 2")
    term.type("\x03")
    after = term.expect("Quit? [y/N] ")
    assert "(move now: the engine plays its best move so far)" in after
    assert "1. " in after and "Last move: 1. " in after
    term.type("y\r")
    term.expect("File name to save it (Enter to leave without saving): ")
    saved = tmp_path / "watched.pdn"
    term.type(f"{saved}\r")  # the unfinished game is offered: saved as it stands
    term.expect(f"Saved to {saved}.")
    assert term.wait_exit() == 0
    (tags, moves), = pdn_games(saved.read_text())
    assert len(moves) >= 1 and tags["Result"] == "*"


def test_end_of_input_at_the_prompt_quits(terminal_factory) -> None:
    term = terminal_factory("--variant", "tictactoe", "--white", "human", "--black", "human")
    term.expect("X 1> ")
    term.type("b2\r")
    term.expect("O 1> ")
    term.type("\x04")  # Ctrl-D
    assert term.wait_exit() == 0


HANG_ON_GO = ROOT / "tests" / "fake_engines" / "hang_on_go.py"


def test_ctrl_c_twice_on_a_hung_engine_offers_to_kill_it_and_saves_the_game(
        terminal_factory, tmp_path: Path) -> None:
    """An engine that ignores stop during a level search (no time-out of its own): the second
    Ctrl-C asks, and yes kills it: an engine failure, exit 1, the unfinished game saved."""
    saved = tmp_path / "hung.pdn"
    term = terminal_factory("--variant", "international", "--white", "human", "--black",
                            f"cmd:{sys.executable} {HANG_ON_GO}", "name=stuck", "level=2",
                            "--save", str(saved))
    term.expect("White 1> ")
    term.type("32-28\r")
    term.expect("Black thinks: ...")  # drawn as the search starts
    term.type("\x03")
    term.expect("(move now: the engine plays its best move so far)")
    term.type("\x03")
    term.expect("Kill it now and end the game? [y/N] ")
    term.type("y\r")
    assert term.wait_exit() == 1
    assert "engine failure: stuck was killed (Ctrl-C twice: it did not answer stop)" in \
        term.text, term.text[-3000:]
    assert "the unfinished game is saved to" in term.text
    (tags, moves), = pdn_games(saved.read_text())
    assert moves == ["32-28"] and tags["Result"] == "*"
    assert tags["Termination"] == "unfinished: an engine failed"


def test_the_save_offer_comes_only_for_a_game_finished_here_and_never_eats_a_command(
        terminal_factory, tmp_path: Path) -> None:
    finished = tmp_path / "finished.pdn"
    finished.write_text('[GameType "21"]\n[SetUp "1"]\n[FEN "B:W18:B14"]\n\n1. 14x23 0-1\n')
    term = terminal_factory("--black", "human", "--white", "engine", "--level", "1",
                            "--fen", "B:W18:B14")
    term.expect("Black 1> ")
    term.type(f"load {finished}\r")  # a finished game: shown, no offer
    loaded = term.expect("game over> ")
    assert "Game over: Black wins (0-1)" in loaded and "Save this game?" not in loaded
    term.type("fen B:W18:B14\r")
    term.expect("Black 1> ")
    term.type("14x23\r")  # finished here: the offer, which a command does not answer
    term.expect("Save this game? Type a file name to save it, or press Enter to skip: ")
    term.type("moves\r")
    after = term.expect("game over> ")
    assert "Not saved: 'moves' is a command (it is carried out)" in after
    assert "Legal moves: none (the game is over)" in after
    term.type("quit\r")
    assert term.wait_exit() == 0
    assert not (ROOT / "moves").exists()  # the program runs in ROOT
