"""``python3 -m protocol.conformance [options] -- <engine command...>``."""

import sys

from protocol.conformance.cli import main

sys.exit(main())
