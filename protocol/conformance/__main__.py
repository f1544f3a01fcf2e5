"""``python3 -m protocol.conformance [options] -- <engine command...>``."""
from __future__ import annotations

import sys

from protocol.launch import run_main

if __name__ == "__main__":
    sys.exit(run_main("protocol.conformance.cli"))  # Ctrl-C while it loads: 130, quietly
