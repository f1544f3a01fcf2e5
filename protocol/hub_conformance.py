"""Deprecated: the Hub checks now live in :mod:`protocol.conformance` (``hub_checks``).

``from protocol.conformance import run_hub_checks`` replaces
``from protocol.hub_conformance import run_hub_checks`` (same signature and results), and
``python3 -m protocol.conformance --hub -- <command...>`` replaces
``python3 -m protocol.hub_conformance -- <command...>``. This module keeps both working and
warns once on import.
"""

from __future__ import annotations

import sys
import warnings
from typing import Optional, Sequence

from protocol.conformance.cli import main as _conformance_main
from protocol.conformance.hub_checks import HubResult as CheckResult
from protocol.conformance.hub_checks import run_hub_checks

__all__ = ["run_hub_checks", "CheckResult", "main"]

warnings.warn("protocol.hub_conformance is deprecated: use protocol.conformance.run_hub_checks "
              "and 'python3 -m protocol.conformance --hub -- <command>'",
              DeprecationWarning, stacklevel=2)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python3 -m protocol.hub_conformance [--timeout S] -- <command...>``: the same as
    ``python3 -m protocol.conformance --hub [--timeout S] -- <command...>``."""
    args = list(sys.argv[1:] if argv is None else argv)
    return _conformance_main(["--hub", *args])


if __name__ == "__main__":
    sys.exit(main())
