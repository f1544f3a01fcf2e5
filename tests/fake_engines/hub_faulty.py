"""A fake Hub v2 engine that answers every ``go`` with one fault (International rules).

    hub_faulty.py MODE

* ``illegal``: ``done move=01-02`` (well formed, not a legal move);
* ``garbage``: ``done mov==`` (a malformed line);
* ``bad-info``: ``info depth=x nps=7501.5`` then ``done move=32-28`` (a legal first move).
"""

from __future__ import annotations

import sys


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "hub":
            say("id name=hub-faulty version=1")
            say('param name=variant value=normal type=enum values="normal"')
            say("wait")
        elif words[0] == "init":
            say("ready")
        elif words[0] == "ping":
            say("pong")
        elif words[0] == "go":
            if mode == "illegal":
                say("done move=01-02")
            elif mode == "garbage":
                say("done mov==")
            else:
                say("info depth=x nps=7501.5")
                say("done move=32-28")
        elif words[0] == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
