"""A fake engine that crashes (exit status 3) after the first info line of a search."""

from __future__ import annotations

import os
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
            say("id name crashing-engine")
            say("uciok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "go":
            say("info depth 1 score cp 0 nodes 1 pv 11-15")
            sys.stderr.write("die_mid_search: simulated crash in search\n")
            sys.stderr.flush()
            os._exit(3)
        elif words[0] == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
