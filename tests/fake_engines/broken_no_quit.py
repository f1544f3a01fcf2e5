"""A fake engine that ignores ``quit`` and keeps running after the end of its input."""

from __future__ import annotations

import time
from typing import List, Optional

from broken_base import CannedEngine, serve


class NoQuit(CannedEngine):
    def on_quit(self, words: List[str]) -> Optional[int]:
        return None

    def on_end_of_input(self) -> int:
        while True:
            time.sleep(3600)


if __name__ == "__main__":
    serve(NoQuit)
