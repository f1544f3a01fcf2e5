"""A fake engine that crashes (exit status 3) after the first info line of a search.

Until then it answers as :class:`broken_base.CannedEngine`.
"""

from __future__ import annotations

import os
import sys
from typing import List, Optional

from broken_base import CannedEngine, serve


class DiesMidSearch(CannedEngine):
    name = "crashing-engine"

    def on_go(self, words: List[str]) -> Optional[int]:
        self.say("info depth 1 score cp 0 nodes 1 pv 11-15")
        sys.stderr.write("die_mid_search: simulated crash in search\n")
        sys.stderr.flush()
        os._exit(3)


if __name__ == "__main__":
    serve(DiesMidSearch)
