"""``python -m draughts_engine perft ...``: the rules core's command line (:mod:`.cli`).

The one place where the package ends the process (by ``SystemExit``, as any script does; the
library itself never exits): with the status of the command, and with
status 130 and nothing printed on a Ctrl-C while the command's modules load, as
``protocol.launch`` does for the other commands (this package may not import ``protocol``).
The package's ``__init__`` loads nothing while ``python -m`` locates this module, so the
guard below meets every such Ctrl-C.
"""
from __future__ import annotations

if __name__ == "__main__":
    try:
        from draughts_engine.cli import main
    except KeyboardInterrupt:
        raise SystemExit(130) from None  # nothing written yet: status 130, quietly
    raise SystemExit(main())
