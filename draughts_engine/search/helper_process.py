"""A helper process of the parallel search (started by :class:`~.parallel.HelperPool`).

Usage (by the pool only): ``python -m draughts_engine.search.helper_process FD ENTRIES INDEX``.
``FD`` is the inherited descriptor of the shared table of ``ENTRIES`` entries, ``INDEX``
the helper's number (its node-count slot and depth-skipping pattern).

Standard input carries one JSON object per line: ``{"cmd": "go", ...}`` (search the
position until the next command), ``{"cmd": "stop"}``, ``{"cmd": "newgame"}`` (forget the
tables), ``{"cmd": "clearhash"}`` (empty the transposition table).  A helper keeps its own
table, killers and history from one search to the next, as the main process does, and
forgets them only on ``newgame``, ``clearhash`` (the table only) or a change of evaluation.
The search runs in the main thread; a reader thread takes the commands and, at the end of
the input (the parent ended, however), stops the running search and tells the main thread
to return, which ends the process (within a poll of the search).  The helper writes
nothing: it works only through the shared table.  A failed search is dropped and the
helper waits for the next command.
"""
from __future__ import annotations

import json
import queue
import sys
import threading
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from ..eval import evaluation_key
from ..position import Position
from .limits import SearchLimits
from .parallel import CLEAR_HASH, GO, NEW_GAME
from .parallel_role import ParallelRole, helper_skips
from .shared_table import SharedTable

if TYPE_CHECKING:  # (the engine is imported by the helper only once it runs)
    from .engine import Searcher

__all__ = ["main", "serve"]


def read_commands(stream: Any,
                  commands: "queue.Queue[Optional[Tuple[Dict[str, Any], threading.Event]]]",
                  ) -> None:
    """Queue each command with the stop signal of the search it starts; set the running
    search's signal on ``stop``; at the end of ``stream``, stop the search and queue None."""
    current = threading.Event()
    for raw in stream:
        try:
            command = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(command, dict):
            continue
        current.set()  # every command ends the running search
        if command.get("cmd") in (GO, NEW_GAME, CLEAR_HASH):
            current = threading.Event()
            commands.put((command, current))
    current.set()
    commands.put(None)


def serve(command: Dict[str, Any], stop: threading.Event, searcher: "Optional[Searcher]",
          table: SharedTable, index: int) -> "Optional[Searcher]":
    """Carry out one command of the parent (helper ``index``, the shared ``table``) with
    ``searcher``, the helper's search kept from the last command (None at first); the
    searcher to keep for the next one is returned.  A ``go`` searches until ``stop`` is
    set.  The searcher is made again only when the hash size changes; its own table is
    cleared only by ``newgame``, ``clearhash`` and a change of evaluation.  Raises what a
    malformed command raises (the caller drops the command)."""
    from .engine import Searcher
    if command["cmd"] == NEW_GAME:
        if searcher is not None:
            searcher.new_game()
        return searcher
    if command["cmd"] == CLEAR_HASH:
        if searcher is not None:
            searcher.clear_hash()
        return searcher
    if searcher is None or searcher.hash_mb != command["hash"]:
        searcher = Searcher(hash_mb=int(command["hash"]))
    if searcher.evaluation != evaluation_key(command["evaluation"]):
        searcher.set_evaluation(command["evaluation"])  # (clears its table)
    searcher.pruning = bool(command["pruning"])
    searcher.set_endgame_tables(bool(command["tables"]))
    table.new_search(int(command["generation"]))
    w, b, k, wtm = command["raw"]
    position = Position(command["variant"], int(w), int(b), int(k), bool(wtm))
    history = [(int(h[0]), int(h[1]), int(h[2]), bool(h[3])) for h in command["history"]]
    role = ParallelRole(table, skip=helper_skips(index, int(command.get("ply", 0))),
                        publish_nodes=lambda nodes: table.set_nodes(index, nodes),
                        publish_result=lambda depth, score, move: table.set_result(
                            index, depth, score, move))
    searcher.search_pvs(position, SearchLimits(infinite=True), history, stop=stop,
                        parallel=role)
    return searcher


def main(argv: Optional[List[str]] = None) -> None:
    """Serve the parent's searches until its input ends."""
    args = sys.argv[1:] if argv is None else argv
    fd, entries, index = (int(word) for word in args[:3])
    table = SharedTable.attach(fd, entries)
    commands: "queue.Queue[Optional[Tuple[Dict[str, Any], threading.Event]]]" = queue.Queue()
    reader = threading.Thread(target=read_commands, args=(sys.stdin.buffer, commands),
                              daemon=True)
    reader.start()
    searcher: Optional[Searcher] = None
    while True:
        item = commands.get()
        if item is None:  # the parent is gone
            return
        command, stop = item
        try:
            searcher = serve(command, stop, searcher, table, index)
        except Exception:  # a helper's failure costs the search its help, nothing more
            continue


if __name__ == "__main__":
    main()
