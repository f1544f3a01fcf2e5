"""``python3 -m protocol.match``: the match runner's command line."""
from __future__ import annotations

import sys

from protocol.launch import run_main

if __name__ == "__main__":
    sys.exit(run_main("protocol.match.cli"))  # Ctrl-C while it loads: 130, quietly
