"""The Bar of issue 11 in a real terminal emulator: tmux, driven by send-keys and read by
capture-pane (what a person would see on the screen).

``python3 -m protocol.play --variant english --black human --white engine --level 3``:
typing ``11-15`` gets an engine reply on the board (one board for the two moves); ``undo``
returns to the position before ``11-15``; ``redo`` replays it, as ``undo 2`` and ``redo 2`` do;
words after ``flip`` and an unknown word are refused; an illegal move gets a reason and the game
goes on; ``save FILE`` writes a PDN game that independent tools read (the reference rules here,
pydraughts when installed). Skips when tmux is not installed. Waits have generous limits and
measure nothing.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import List

import pytest

from test_play_support import (ROOT, check_moves_with_reference, check_with_pydraughts, pdn_games,
                               refuse_a_move_then_save)

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed "
                                                     "(apt-get install tmux)")

WAIT = 120.0

ENGLISH_START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


class Tmux:
    """One detached tmux session on a private server socket."""

    def __init__(self, command: str) -> None:
        self.socket = f"draughts-play-test-{uuid.uuid4().hex[:8]}"
        self.target = "play"
        env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        self._env = env
        self.tmux("new-session", "-d", "-s", self.target, "-x", "160", "-y", "60",
                  f"cd {shlex.quote(str(ROOT))} && {command}; echo EXIT=$?; sleep 600")
        self.seen = 0

    def tmux(self, *args: str) -> str:
        done = subprocess.run([TMUX, "-L", self.socket, *args], capture_output=True, text=True,
                              env=self._env, timeout=60)
        if done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def screen(self) -> str:
        """The whole history of the pane as plain text."""
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", self.target)

    def send(self, keys: str) -> None:
        self.tmux("send-keys", "-t", self.target, "-l", keys)
        self.tmux("send-keys", "-t", self.target, "Enter")

    def expect(self, needle: str) -> str:
        """Wait for ``needle`` after what was already expected; return the text between."""
        deadline = time.monotonic() + WAIT
        while True:
            text = self.screen()
            found = text.find(needle, self.seen)
            if found >= 0:
                between = text[self.seen:found]
                self.seen = found + len(needle)
                return between
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} did not appear; the screen ends with:\n"
                                     + text[-2500:])
            time.sleep(0.2)

    def close(self) -> None:
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], capture_output=True,
                       env=self._env, timeout=60)


def _command(args: List[str]) -> str:
    return " ".join(shlex.quote(a) for a in [sys.executable, "-m", "protocol.play", *args])


@pytest.fixture(scope="module")
def bar_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Play the Bar's session in tmux (checking each step) and return the saved PDN file."""
    saved = tmp_path_factory.mktemp("tmux") / "bar.pdn"
    term = Tmux(_command(["--variant", "english", "--black", "human", "--white", "engine",
                          "--level", "3"]))
    try:
        term.expect("Black 1> ")
        term.send("11-15")
        block = term.expect("Black 2> ")
        reply = next(line for line in block.splitlines() if line.startswith("1... "))
        reply_move = reply.split()[1]
        assert f"Last move: 1... {reply_move}" in block  # the reply is on the board
        assert "[15b]" not in block.split("1... ")[-1]  # the board now marks the reply
        # What the screen shows for a move and its reply: one board, after the reply.
        assert block.count("Last move: ") == 1 and block.count("\n 8 ") == 1, block
        term.send("undo 2")
        assert f"Took back 11-15 {reply_move}." in term.expect("Black 1> ")
        term.send("redo 2")
        assert f"Replayed 11-15 {reply_move}." in term.expect("Black 2> ")
        term.send("flip now")
        flip = term.expect("Black 2> ")
        assert "flip: takes no arguments, got 'now' (nothing done)" in flip
        assert "Last move" not in flip  # not drawn, not flipped
        term.send("hello")
        hello = term.expect("Black 2> ")
        assert "Unknown command 'hello'" in hello and "Legal moves" not in hello
        term.send("fen")
        after = term.expect("Black 2> ").strip().splitlines()[-1]
        term.send("undo")
        assert f"Took back 11-15 {reply_move}." in term.expect("Black 1> ")
        term.send("fen")
        assert term.expect("Black 1> ").strip().splitlines()[-1] == ENGLISH_START
        term.send("redo")
        assert f"Replayed 11-15 {reply_move}." in term.expect("Black 2> ")
        term.send("fen")
        assert term.expect("Black 2> ").strip().splitlines()[-1] == after
        refuse_a_move_then_save(term, saved)
        term.send("quit")
        term.expect("EXIT=0")
    finally:
        term.close()
    return saved


def test_the_bar_in_tmux(bar_game: Path) -> None:
    (tags, moves), = pdn_games(bar_game.read_text())
    assert moves[0] == "11-15" and len(moves) == 2 and tags["GameType"] == "21"
    assert tags["Black"] == "Human" and tags["White"].startswith("draughts-engine")
    check_moves_with_reference("english", moves)


def test_the_bar_game_is_read_by_pydraughts(bar_game: Path) -> None:
    assert check_with_pydraughts(bar_game) == 1
