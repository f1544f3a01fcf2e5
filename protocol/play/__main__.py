"""``python3 -m protocol.play``: play, watch or replay games in the terminal (docs/play.md)."""
from __future__ import annotations

import sys

from protocol.play.cli import main

if __name__ == "__main__":
    sys.exit(main())
