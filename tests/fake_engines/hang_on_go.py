"""A fake engine that stops answering (and ignores SIGTERM) at a given command.

Usage: ``hang_on_go.py [uci|isready|go]`` (default ``go``). Until then it behaves. Once hung it
reads nothing more, so only SIGKILL ends it: the client's reaping ladder must get that far.
"""

from __future__ import annotations

import signal
import sys
import time


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> int:
    hang_at = sys.argv[1] if len(sys.argv) > 1 else "go"
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == hang_at:
            while True:
                time.sleep(3600)
        if words[0] == "uci":
            say("id name hanging-engine")
            say("id protocol 1")
            say("uciok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
