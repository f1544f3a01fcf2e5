"""A fake engine that does not hold back the ``bestmove`` of ``go infinite`` / ``go ponder``:
it answers at once, as for a bounded search, and ignores the later ``stop``."""

from __future__ import annotations

from typing import List, Optional

from broken_base import CannedEngine, serve


class EarlyBestmove(CannedEngine):
    def on_go(self, words: List[str]) -> Optional[int]:
        return self.finish()


if __name__ == "__main__":
    serve(EarlyBestmove)
