"""A fake engine that stops reading its input for 1.5 s after starting an infinite or ponder
search, so ``isready`` and ``stop`` during the search are answered late."""

from __future__ import annotations

import time
from typing import List, Optional

from broken_base import CannedEngine, serve


class BlockingSearch(CannedEngine):
    def on_go(self, words: List[str]) -> Optional[int]:
        status = super().on_go(words)
        if self.pending:
            time.sleep(1.5)
        return status


if __name__ == "__main__":
    serve(BlockingSearch)
