"""A fake engine that writes two ``bestmove`` lines for every search."""

from __future__ import annotations

from typing import Optional

from broken_base import CannedEngine, serve


class TwoBestmoves(CannedEngine):
    def finish(self) -> Optional[int]:
        super().finish()
        self.say("bestmove 9-14")
        return None


if __name__ == "__main__":
    serve(TwoBestmoves)
