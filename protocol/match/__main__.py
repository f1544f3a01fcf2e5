"""``python3 -m protocol.match``: the match runner's command line."""

import sys

from protocol.match.cli import main

if __name__ == "__main__":
    sys.exit(main())
