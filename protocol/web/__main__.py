"""``python3 -m protocol.web``: the local web board (see :mod:`protocol.web.cli`)."""
from __future__ import annotations

import sys

from protocol.launch import run_main

if __name__ == "__main__":
    sys.exit(run_main("protocol.web.cli"))  # Ctrl-C while it loads: 130, quietly
