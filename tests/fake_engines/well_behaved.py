"""A tiny, well-behaved fake engine for client tests (standard library only, no project imports).

It knows no rules: it answers every command the way PROTOCOL.md says, with canned moves.
``go infinite`` and ``go ponder`` hold the bestmove until ``stop`` or ``ponderhit``. The
position ``fen W:W:B1`` has no legal move (``bestmove (none)``); a move token ``11-16`` is
illegal; ``setoption name Hash`` checks its range 1..1024.
"""

from __future__ import annotations

import sys


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def finish(lost: bool) -> None:
    if lost:
        say("bestmove (none)")
    else:
        say("info depth 2 seldepth 3 score cp 12 nodes 60 nps 6000 time 10 hashfull 1 pv 11-15 23-19")
        say("bestmove 11-15 ponder 23-19")


def main() -> int:
    sys.stderr.write("well_behaved: started\n")
    sys.stderr.flush()
    lost = False
    pending = False  # an infinite or ponder search is running
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        word = words[0]
        if pending and word not in ("isready", "stop", "ponderhit", "quit", "uci", "d"):
            say(f"error busy: {word} during search")
        elif word == "uci":
            say("id name fake-engine 1.0")
            say("id author the test suite")
            say("id protocol 1")
            say("option name Hash type spin default 16 min 1 max 1024")
            say("option name Variant type combo default english var english var russian")
            say("option name Ponder type check default false")
            say("uciok")
        elif word == "isready":
            say("readyok")
        elif word == "setoption":
            if words[1:3] == ["name", "Hash"] and not 1 <= int(words[4]) <= 1024:
                say(f"error setoption: Hash must be in 1..1024, got {words[4]}")
            sys.stderr.write(f"well_behaved: {raw.strip()}\n")
            sys.stderr.flush()
        elif word == "position":
            if "11-16" in words:
                say("error position: illegal move 11-16")
            else:
                lost = words[1:3] == ["fen", "W:W:B1"]
        elif word in ("ucinewgame", "move", "undo"):
            pass
        elif word == "go" and ("searchmoves" in words or "mate" in words):
            say("error go: searchmoves and mate are not supported")
        elif word == "go":
            say("info string thinking")
            if "infinite" in words or "ponder" in words:
                pending = True
                say("info depth 1 seldepth 1 score cp 5 nodes 8 nps 8000 time 1 hashfull 0 pv 11-15")
            else:
                finish(lost)
        elif word in ("stop", "ponderhit"):
            if pending:
                pending = False
                finish(lost)
        elif word == "quit":
            return 0
        else:
            say(f"error unknown command: {word}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
