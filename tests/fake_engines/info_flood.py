"""A fake engine that answers ``go`` with an endless stream of ``info`` lines (no bestmove).

It behaves in the handshake; once searching it writes ``info`` lines as fast as the pipe takes
them until it is killed or its output closes.
"""

from __future__ import annotations

import sys


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> int:
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == "uci":
            say("id name info-flood")
            say("id protocol 1")
            say("uciok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "go":
            nodes = 0
            try:
                while True:
                    nodes += 1
                    say(f"info depth 1 score cp 0 nodes {nodes} pv 11-15")
            except (BrokenPipeError, OSError):
                return 0
        elif words[0] == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
