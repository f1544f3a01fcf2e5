"""A fake engine that breaks the protocol in one way, chosen by its argument.

* ``banner``: prints a banner line before the ``uci`` reply.
* ``info``: answers ``go`` with ``info depth three``.
* ``bestmove``: answers ``go`` with a bare ``bestmove``.
* ``bytes``: answers ``go`` with bytes that are not UTF-8, then a proper bestmove.
"""

from __future__ import annotations

import sys


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else "banner"
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == "uci":
            if mode == "banner":
                say("Garbage Engine 0.0 by nobody, have fun!")
            say("id name garbage-engine")
            say("uciok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "go":
            if mode == "info":
                say("info depth three")
            elif mode == "bestmove":
                say("bestmove")
            else:
                sys.stdout.buffer.write(b"\xff\xfe junk \xc3\n")
                sys.stdout.buffer.flush()
            say("bestmove 11-15")
        elif words[0] == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
