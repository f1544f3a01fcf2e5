"""``python -m draughts_engine perft ...``: the rules core's command line (:mod:`.cli`).

A Ctrl-C while the command's modules load ends it with status 130 and no traceback, as
``protocol.launch`` does for the other commands (this package may not import ``protocol``).
"""
from __future__ import annotations

import os
import sys

if __name__ == "__main__":
    try:
        from draughts_engine.cli import main
    except KeyboardInterrupt:
        os._exit(130)
    sys.exit(main())
