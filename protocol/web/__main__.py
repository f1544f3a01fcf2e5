"""``python3 -m protocol.web``: the local web board (see :mod:`protocol.web.cli`)."""
from __future__ import annotations

import sys

from protocol.web.cli import main

if __name__ == "__main__":
    sys.exit(main())
