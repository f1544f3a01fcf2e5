"""``python3 -m protocol``: start the engine server on stdin/stdout (PROTOCOL.md)."""
from __future__ import annotations

import sys

from protocol.server import main

if __name__ == "__main__":
    sys.exit(main())
