"""``python3 -m protocol.play``: play, watch or replay games in the terminal (docs/play.md)."""
from __future__ import annotations

import sys

from protocol.launch import run_main

if __name__ == "__main__":
    sys.exit(run_main("protocol.play.cli"))  # Ctrl-C while it loads: 130, quietly
