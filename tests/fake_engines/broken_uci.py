"""A fake engine whose ``uci`` reply is broken, in the way its argument names.

* ``garbage`` (default): answers ``uci`` with nonsense and never writes ``uciok``.
* ``noprotocol``: leaves out ``id protocol``.
* ``badoption``: advertises a spin option whose default lies outside its range.
"""

from __future__ import annotations

from typing import List, Optional

from broken_base import CannedEngine, serve


class BrokenUci(CannedEngine):
    def on_uci(self, words: List[str]) -> Optional[int]:
        mode = self.argv[1] if len(self.argv) > 1 else "garbage"
        if mode == "garbage":
            self.say("hello there, I am an engine")
            self.say("option Hash 16")
            return None
        self.say("id name broken-uci")
        self.say("id author the test suite")
        if mode != "noprotocol":
            self.say("id protocol 1")
        if mode == "badoption":
            self.say("option name Hash type spin default 2000 min 1 max 1024")
        self.say("uciok")
        return None


if __name__ == "__main__":
    serve(BrokenUci)
