"""A fake engine that crashes (exit status 1) on an unknown command instead of answering
``error unknown command: <word>``."""

from __future__ import annotations

import sys
from typing import List, Optional

from broken_base import CannedEngine, serve


class ExitsOnError(CannedEngine):
    def on_unknown(self, words: List[str]) -> Optional[int]:
        sys.stderr.write(f"broken_exits_on_error: KeyError: {words[0]!r}\n")
        return 1


if __name__ == "__main__":
    serve(ExitsOnError)
