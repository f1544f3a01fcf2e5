"""py-draughts' TurboEngine behind this project's text protocol (for ``draughts-match``).

Run it with a Python that has py-draughts 1.10.1 installed, for example a throwaway venv::

    python3 -m venv /tmp/pyd && /tmp/pyd/bin/pip install py-draughts==1.10.1
    python3 -m protocol.match --engine name=ours cmd="python3 -m protocol" movetime=500 \\
        --engine name=turbo cmd="/tmp/pyd/bin/python bench/adapters/pydraughts_turbo.py" \\
        movetime=500 --variant international --openings ballots --games 100

It answers ``uci``, ``isready``, ``setoption`` (Variant: international only; TurboEngine plays
10x10 only), ``ucinewgame``, ``position startpos|fen ... [moves ...]``, ``go`` (``movetime``,
``wtime``/``btime``/``winc``/``binc``/``movestogo`` or ``depth``) and ``quit``.  Moves are
read with this project's rules (``draughts_engine``, found next to this folder) and matched
to py-draughts' legal moves by origin, destination and captured squares, so the referee and
the engine agree on every capture.  Time: the budget given to TurboEngine is the move time
(or the clock's share, time left / 30 + most of the increment) minus ``OVERHEAD``, as its
``time_limit`` is soft.  One search at a time; ``stop`` is accepted and ignored.
"""
from __future__ import annotations

import os
import sys
import time
from typing import List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from draughts_engine.notation import parse_move  # noqa: E402
from draughts_engine.position import Position  # noqa: E402

try:
    from draughts import StandardBoard  # py-draughts
    from draughts.engines.turbo import TurboEngine
except ImportError:  # pragma: no cover - a usage error
    print("pydraughts_turbo: py-draughts is not installed in this Python "
          "(pip install py-draughts==1.10.1)", file=sys.stderr)
    sys.exit(2)

OVERHEAD = 0.06
"""Seconds kept back from each budget (TurboEngine's limit is soft: it finishes a node batch)."""

START_FEN = "W:W31-50:B1-20"


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Adapter:
    def __init__(self) -> None:
        self.position = Position.from_fen(START_FEN, "international")
        self.board = StandardBoard.from_fen(START_FEN)
        self.engine = TurboEngine(depth_limit=None, time_limit=1.0)

    def set_position(self, words: List[str]) -> None:
        if words and words[0] == "startpos":
            fen, rest = START_FEN, words[1:]
        elif words and words[0] == "fen":
            end = words.index("moves") if "moves" in words else len(words)
            fen, rest = " ".join(words[1:end]), words[end:]
        else:
            raise ValueError("position needs startpos or fen")
        moves = rest[1:] if rest and rest[0] == "moves" else []
        position = Position.from_fen(fen, "international")
        board = StandardBoard.from_fen(fen)
        for text in moves:
            move = parse_move(position, text)
            board.push(self.match(board, move))
            position = position.play(move)
        self.position, self.board = position, board

    @staticmethod
    def match(board, move):
        """py-draughts' legal move with ``move``'s origin, destination and captured squares."""
        captured = sorted(move.captured)
        for theirs in board.legal_moves:
            squares = [s + 1 for s in theirs.square_list]
            if squares[0] == move.start and squares[-1] == move.end \
                    and sorted(s + 1 for s in theirs.captured_list) == captured:
                return theirs
        raise ValueError(f"no py-draughts move for {move.pdn()}")

    def ours(self, theirs) -> str:
        squares = [s + 1 for s in theirs.square_list]
        captured = sorted(s + 1 for s in theirs.captured_list)
        for move in self.position.legal_moves():
            if move.start == squares[0] and move.end == squares[-1] \
                    and sorted(move.captured) == captured:
                return move.pdn()
        raise ValueError(f"py-draughts played {theirs}, not a legal move here")

    def go(self, words: List[str]) -> None:
        args = {}
        for key, value in zip(words[::2], words[1::2]):
            args[key] = value
        wtm = self.position.white_to_move
        budget: Optional[float] = None
        depth = None
        if "movetime" in args:
            budget = int(args["movetime"]) / 1000.0
        elif "wtime" in args or "btime" in args:
            left = int(args.get("wtime" if wtm else "btime", "0")) / 1000.0
            inc = int(args.get("winc" if wtm else "binc", "0")) / 1000.0
            togo = int(args.get("movestogo", "30")) or 30
            budget = min(left / togo + 0.8 * inc, 0.5 * left)
        if "depth" in args:
            depth = int(args["depth"])
        self.engine.depth_limit = depth
        self.engine.time_limit = max(0.01, budget - OVERHEAD) if budget else None
        started = time.perf_counter()
        theirs = self.engine.get_best_move(self.board)
        ms = int((time.perf_counter() - started) * 1000)
        say(f"info depth {self.engine.completed_depth} nodes {self.engine.nodes} time {ms}")
        say(f"bestmove {self.ours(theirs)}")


def main() -> int:
    adapter = Adapter()
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command = words[0]
        try:
            if command == "uci":
                say("id name py-draughts TurboEngine 1.10.1 (adapter)")
                say("id author py-draughts authors; adapter by draughts-engine")
                say("option name Variant type combo default international var international")
                say("uciok")
            elif command == "isready":
                say("readyok")
            elif command == "setoption":
                text = " ".join(words[1:]).lower()
                if "variant" in text and "international" not in text:
                    say("error TurboEngine plays international draughts only")
            elif command == "ucinewgame":
                adapter = Adapter()
            elif command == "position":
                adapter.set_position(words[1:])
            elif command == "go":
                adapter.go(words[1:])
            elif command == "quit":
                break
        except Exception as exc:  # one line, never a traceback
            say(f"error {exc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
