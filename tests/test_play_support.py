"""Helpers shared by the tests of ``python3 -m protocol.play`` (no tests here).

* :func:`run_play`: the program as a subprocess with scripted stdin (not a terminal);
* :func:`pdn_games`: an independent, deliberately simple PDN splitter (tags and move words);
* :func:`check_moves_with_reference`: every move legal by tests/reference_rules.py;
* :func:`check_with_pydraughts`: the file read and replayed by pydraughts, when installed
  (each game's end seen by it too, but for our endgame-count draws, which it counts otherwise);
* :func:`rejection`: what a move record says when it refuses a move;
* :func:`refuse_a_move_then_save`: the end of the terminal games, in a pty and in tmux.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import reference_rules as ref  # noqa: E402

from draughts_engine.pdn import read_games  # noqa: E402
from protocol.play import MoveRejected  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

START_FENS = {"english": "B:W21-32:B1-12", "russian": "W:W21-32:B1-12",
              "brazilian": "W:W21-32:B1-12", "international": "W:W31-50:B1-20"}
GAME_TYPES = {"20": "international", "21": "english", "25": "russian", "26": "brazilian"}


def play_env() -> Dict[str, str]:
    env = dict(os.environ)
    env["NO_COLOR"] = "1"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run_play(args: Sequence[str], stdin_text: str = "", timeout: float = 600
             ) -> "subprocess.CompletedProcess[str]":
    """``python -m protocol.play ARGS`` with ``stdin_text`` on a pipe; stdout and stderr kept."""
    return subprocess.run([sys.executable, "-m", "protocol.play", *args], input=stdin_text,
                          capture_output=True, text=True, timeout=timeout, cwd=str(ROOT),
                          env=play_env())


def pdn_games(text: str) -> List[Tuple[Dict[str, str], List[str]]]:
    """(tags, move texts) of each game, read without the project's PDN reader."""
    games: List[Tuple[Dict[str, str], List[str]]] = []
    tags: Dict[str, str] = {}
    moves: List[str] = []
    text = re.sub(r"\{[^}]*\}", " ", text)
    for line in text.splitlines():
        match = re.match(r'\s*\[(\w+) "(.*)"\]\s*$', line)
        if match:
            if moves:
                games.append((tags, moves))
                tags, moves = {}, []
            tags[match.group(1)] = match.group(2)
            continue
        for word in line.split():
            if word in ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "*"):
                games.append((tags, moves))
                tags, moves = {}, []
            elif not re.fullmatch(r"\d+\.(\.\.)?", word):
                moves.append(word)
    if moves or tags:
        games.append((tags, moves))
    return games


def check_moves_with_reference(variant: str, moves: Sequence[str],
                               fen: Optional[str] = None) -> None:
    """Every move (PDN, full capture path) is a legal move of the reference generator."""
    size = ref.RULES[variant][0]
    board, white_to_move = ref.parse_fen(fen or START_FENS[variant], size)
    for ply, text in enumerate(moves):
        squares = tuple(int(s) for s in re.split(r"[-x]", text))
        legal = ref.legal_moves_with_paths(variant, board, white_to_move)
        matches = [move for move, paths in legal.items() if squares in paths]
        assert len(matches) == 1, f"ply {ply + 1}: {text} is not one legal move " \
                                  f"(reference: {sorted(m.origin for m in legal)})"
        board = ref.apply_move(matches[0])
        white_to_move = not white_to_move


def check_with_pydraughts(path: Path) -> int:
    """Read ``path`` with pydraughts and replay every game's moves on its boards; returns the
    number of games. Skips the test when pydraughts is not installed."""
    try:
        from draughts import Board, Move
        from draughts.PDN import PDNReader
    except ImportError:
        pytest.skip("pydraughts (the independent PDN reader) is not installed: "
                    "pip install pydraughts==0.6.7")
    reader = PDNReader(filename=str(path))
    ours = read_games(path.read_text())
    assert len(ours) == len(reader.games)
    for game, our_game in zip(reader.games, ours):
        board = Board(variant=game.variant)
        for text in game.moves:
            legal = [move.board_move for move in board.legal_moves()]
            move = Move(board, pdn_move=text)  # KeyError for a move pydraughts finds illegal
            assert move.board_move in legal, text
            board.push(move)
        if game.game_ending != "*" and not board.is_over():
            # pydraughts 0.6.7 counts the 5- and 16-move endgame draws in kings' moves only
            # (a man's move starts its count again); our rules count every move since that
            # material arose, so our draw may come before pydraughts sees one.
            assert our_game.result().code == "endgame-rule", \
                f"pydraughts does not see the end of the game ({path})"
    return len(reader.games)


def rejection(record, text: str) -> MoveRejected:
    """What ``record.play_text(text)`` raises: a refused move's reason and the legal moves."""
    with pytest.raises(MoveRejected) as caught:
        record.play_text(text)
    return caught.value


def refuse_a_move_then_save(term, saved: Path) -> None:
    """At Black's second move in English, on a terminal ``term`` (``send`` a line, ``expect``
    text): 11-16 is refused with the legal moves, then the game is saved to ``saved``."""
    term.send("11-16")
    rejected = term.expect("Black 2> ")
    assert "Not played: 11-16: square 11 is empty" in rejected
    assert "Legal moves: " in rejected
    term.send(f"save {saved}")
    assert f"Saved to {saved}." in term.expect("Black 2> ")
