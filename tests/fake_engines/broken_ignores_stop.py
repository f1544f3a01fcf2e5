"""A fake engine whose infinite and ponder searches ignore ``stop`` and ``ponderhit``.

Usage: ``broken_ignores_stop.py [delay_ms]``. Without an argument the search never ends;
with one, the ``bestmove`` comes that many milliseconds after ``stop`` (a slow stop).
"""

from __future__ import annotations

import time
from typing import List, Optional

from broken_base import CannedEngine, serve


class IgnoresStop(CannedEngine):
    def on_stop(self, words: List[str]) -> Optional[int]:
        if not self.pending or len(self.argv) < 2:
            return None
        time.sleep(int(self.argv[1]) / 1000)
        return super().on_stop(words)


if __name__ == "__main__":
    serve(IgnoresStop)
