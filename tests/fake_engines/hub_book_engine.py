"""A fake Hub v2 engine with an opening book, for the Hub checks of the conformance suite.

It speaks Hub as Scan does, with a ``book`` param (``type=bool``, on by default). With the book
on, a ``go think`` or ``go ponder`` in a book position is answered at once (after ``ponder-hit``
for ponder) with ``done`` and no ``info`` line, as Scan answers from its book. Out of book it
"searches": one ``info`` line every 20 ms with a growing depth until its level is used up
(``depth=N``: N x 20 ms; ``nodes=N``: N / 100,000 s; ``move-time=S``: S s; ``time=S
[moves=M] [inc=I]``: S / (M or 30) + I s; ``infinite``, or ``go analyze`` without a level:
until ``stop``; no level: 1 s), then ``done move=<its first legal move>``. Moves are legal (rules
from draughts_engine); International only (``variant`` values ``normal``).

    hub_book_engine.py [--book-everywhere] [--ignore-levels]

``--book-everywhere``: every position is a book position (only switching the book off makes
it search). ``--ignore-levels``: out of book, ``move-time`` and ``time`` levels are ignored and
each search takes 4 s (an engine whose timing is broken where a book cannot hide it).
"""

from __future__ import annotations

import os
import shlex
import sys
import threading
import time
from typing import Dict, List, Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from draughts_engine.errors import DraughtsError  # noqa: E402
from draughts_engine.notation import parse_hub_move  # noqa: E402
from draughts_engine.position import Position  # noqa: E402

VARIANT = "international"
BROKEN_SEARCH_SECONDS = 4.0
INFO_EVERY = 0.02


def position_from_hub(text: str) -> Position:
    """Hub position text (side to move, then w b W B e per square) -> Position."""
    if len(text) != 51 or text[0] not in "WB":
        raise ValueError(f"bad position text {text[:20]!r}")
    pieces: Dict[str, List[str]] = {"W": [], "B": []}
    for square, char in enumerate(text[1:], start=1):
        if char in "eE":
            continue
        if char not in "wbWB":
            raise ValueError(f"square {square}: {char!r}")
        pieces[char.upper()].append(("K" if char.isupper() else "") + str(square))
    return Position.from_fen(f"{text[0]}:W{','.join(pieces['W'])}:B{','.join(pieces['B'])}",
                             VARIANT)


class Search(threading.Thread):
    """One ``go``: writes info lines, then exactly one done (held while pondering)."""

    def __init__(self, engine: "FakeHub", root: Position, seconds: Optional[float],
                 from_book: bool, mode: str) -> None:
        super().__init__(daemon=True)
        self.engine = engine
        self.root = root
        self.seconds = seconds  # None: until stop
        self.from_book = from_book
        self.pondering = mode == "ponder"
        self.started = time.monotonic()
        self.stopped = threading.Event()
        self.hit = threading.Event()
        if not self.pondering:
            self.hit.set()

    def run(self) -> None:
        moves = self.root.legal_moves()
        best = moves[0].hub() if moves else None
        depth = 0
        while not self.stopped.is_set():
            if not self.hit.is_set():
                self.stopped.wait(INFO_EVERY)
                continue
            if self.from_book:
                break
            elapsed = time.monotonic() - self.started
            if self.seconds is not None and elapsed >= self.seconds:
                break
            depth += 1
            if best is not None:
                self.engine.say(f"info depth={depth} score=0.00 nodes={depth * 1000} "
                                f"time={elapsed:.3f} nps=0.050 pv={best}")
            self.stopped.wait(INFO_EVERY)
        self.engine.finish(self, f"done move={best}" if best else "done")

    def ponder_hit(self) -> None:
        if self.pondering:
            self.pondering = False
            self.started = time.monotonic()  # the level applies from ponder-hit
            self.hit.set()

    def stop(self) -> None:
        self.hit.set()
        self.stopped.set()


class FakeHub:
    """The command loop."""

    def __init__(self, argv: List[str]) -> None:
        self.book_everywhere = "--book-everywhere" in argv
        self.ignore_levels = "--ignore-levels" in argv
        self.book = True
        self.position = Position.start(VARIANT)
        self.level: Dict[str, Optional[str]] = {}
        self.search: Optional[Search] = None
        self.lock = threading.Lock()  # output, and the search slot

    def say(self, line: str) -> None:
        with self.lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def finish(self, search: Search, line: str) -> None:
        """Write the final line and free the slot in one step (no busy window after done)."""
        with self.lock:
            if self.search is search:
                self.search = None
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def current(self) -> Optional[Search]:
        """The search running now, if any."""
        with self.lock:
            return self.search

    def busy(self) -> bool:
        return self.current() is not None

    def in_book(self, position: Position) -> bool:
        return self.book and (self.book_everywhere or position == Position.start(VARIANT))

    def budget(self, mode: str) -> Optional[float]:
        level = self.level
        if "infinite" in level or (mode == "analyze" and not level):
            return None
        if "depth" in level:
            return int(level["depth"] or 1) * INFO_EVERY
        if "nodes" in level:
            return int(level["nodes"] or 0) / 100_000
        if "move-time" in level or "time" in level:
            if self.ignore_levels:
                return BROKEN_SEARCH_SECONDS
            if "move-time" in level:
                return float(level["move-time"] or 0)
            moves = int(level.get("moves") or 0) or 30
            return float(level["time"] or 0) / moves + float(level.get("inc") or 0)
        return 1.0

    def run(self) -> int:
        for raw in sys.stdin:
            try:
                words = shlex.split(raw)
            except ValueError:
                self.say('error message="syntax"')
                continue
            if not words:
                continue
            command = words[0]
            args: Dict[str, Optional[str]] = {}
            for word in words[1:]:
                name, sep, value = word.partition("=")
                args[name] = value if sep else None
            if command == "quit":
                break
            if command in ("stop", "ponder-hit", "ping"):
                getattr(self, "on_" + command.replace("-", "_"))()
            elif self.busy():
                self.say(f'error message="busy: {command} during search"')
            else:
                handler = getattr(self, "on_" + command.replace("-", "_"), None)
                if handler is None:
                    self.say(f'error message="unknown command: {command}"')
                else:
                    handler(args)
        self.on_stop()
        return 0

    def on_hub(self, args: Dict[str, Optional[str]]) -> None:
        self.say("id name=book-fake version=1.0 author=tests")
        self.say('param name=variant value=normal type=enum values="normal"')
        self.say(f"param name=book value={'true' if self.book else 'false'} type=bool")
        self.say("wait")

    def on_init(self, args: Dict[str, Optional[str]]) -> None:
        self.say("ready")

    def on_ping(self) -> None:
        self.say("pong")

    def on_set_param(self, args: Dict[str, Optional[str]]) -> None:
        name, value = args.get("name"), args.get("value")
        if name == "book" and value in ("true", "false"):
            self.book = value == "true"
        elif not (name == "variant" and value == "normal"):
            self.say(f'error message="set-param: {name}={value}"')

    def on_new_game(self, args: Dict[str, Optional[str]]) -> None:
        pass

    def on_pos(self, args: Dict[str, Optional[str]]) -> None:
        try:
            position = Position.start(VARIANT) if "start" in args or "pos" not in args \
                else position_from_hub(args["pos"] or "")
            for text in (args.get("moves") or "").split():
                position = position.play_raw(parse_hub_move(position, text).raw)
        except (ValueError, DraughtsError) as exc:
            detail = str(exc)[:60].replace('"', "'")
            self.say(f'error message="pos: {detail}"')
            return
        self.position = position
        self.level = {}

    def on_level(self, args: Dict[str, Optional[str]]) -> None:
        self.level.update(args)

    def on_go(self, args: Dict[str, Optional[str]]) -> None:
        mode = next((m for m in ("think", "ponder", "analyze") if m in args), "think")
        from_book = mode != "analyze" and self.in_book(self.position)
        search = Search(self, self.position, self.budget(mode), from_book, mode)
        self.level = {}
        with self.lock:
            self.search = search
        search.start()

    def on_stop(self) -> None:
        search = self.current()
        if search is not None:
            search.stop()
            search.join()

    def on_ponder_hit(self) -> None:
        search = self.current()
        if search is not None:
            search.ponder_hit()


if __name__ == "__main__":
    sys.exit(FakeHub(sys.argv[1:]).run())
