"""``python3 -m protocol``: start the engine server on stdin/stdout (PROTOCOL.md)."""
from __future__ import annotations

import os
import sys

if __name__ == "__main__":
    try:
        from protocol.server import main
    except KeyboardInterrupt:  # Ctrl-C while the modules load: the documented 130, silently
        os._exit(130)
    sys.exit(main())
