"""``python3 -m protocol``: start the engine server on stdin/stdout (PROTOCOL.md)."""
from __future__ import annotations

import sys

from protocol.launch import run_main

if __name__ == "__main__":
    sys.exit(run_main("protocol.server"))  # Ctrl-C while it loads: 130, quietly
