"""What one process of a parallel search does differently: :class:`ParallelRole`.

The main process and each helper run the same search (:class:`~.pvs.PvsSearch`);
their role says which table they share, which depths a helper skips (so that the
processes do not all search the same depth at once), and how node counts travel:
a helper publishes its own (:class:`PublishingBudget`), the main process adds the
helpers' to its reports.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from .budget import SearchAborted, SearchBudget
from .shared_table import HelperResult, SharedTable

__all__ = ["ParallelRole", "PublishingBudget", "FollowingBudget", "HelperAhead", "helper_skips",
           "SKIP_SIZES", "SKIP_PHASES"]

#: Depth skipping of helper ``i`` (from 0): the helper leaves out depth ``d`` when
#: ``(d + SKIP_PHASES[i]) // SKIP_SIZES[i]`` is odd (indices taken modulo the length),
#: so that helpers spread over the depths just above the main process's.
SKIP_SIZES = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4)
SKIP_PHASES = (0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7)


def helper_skips(index: int, offset: int = 0) -> Callable[[int], bool]:
    """Whether helper ``index`` skips a depth; ``offset`` (the game's ply) shifts the
    pattern so that a helper does not skip the same depths every move."""
    size = SKIP_SIZES[index % len(SKIP_SIZES)]
    phase = SKIP_PHASES[index % len(SKIP_PHASES)] + offset

    def skips(depth: int) -> bool:
        return depth > 1 and ((depth + phase) // size) % 2 == 1

    return skips


@dataclass(frozen=True)
class ParallelRole:
    """One process's part in a parallel search.

    ``table``: the table shared by the processes.  ``skip(depth)``: True for the
    depths this process leaves out (a helper; None for the main process).
    ``publish_nodes(nodes)``: a helper's node count, told every poll.
    ``publish_result(depth, score, move)``: a helper's completed iteration.
    ``helper_nodes()``: the helpers' nodes in the running search, and ``helper_best()``:
    the deepest iteration a helper completed in it (the main process).
    """

    table: SharedTable
    skip: Optional[Callable[[int], bool]] = None
    publish_nodes: Optional[Callable[[int], None]] = None
    publish_result: Optional[Callable[[int, int, Any], None]] = None
    helper_nodes: Optional[Callable[[], int]] = None
    helper_best: Optional[Callable[[], Optional[HelperResult]]] = None


class PublishingBudget(SearchBudget):
    """A :class:`~.budget.SearchBudget` that tells ``publish(nodes)`` the node count at
    each poll."""

    def __init__(self, publish: Callable[[int], None], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._publish = publish

    def poll(self, nodes: int) -> int:
        self._publish(nodes)
        return super().poll(nodes)


class HelperAhead(SearchAborted):
    """Raised by :meth:`FollowingBudget.poll`: a helper completed the iteration the main
    search is in (the main search takes the helper's result and goes deeper)."""


class FollowingBudget(SearchBudget):
    """The main process's :class:`~.budget.SearchBudget` in a parallel search: besides the
    limits, each poll asks ``ahead(depth)`` whether a helper has completed ``depth``, the
    depth of the running iteration (:attr:`iteration`; 0: none to cut short), and raises
    :class:`HelperAhead` when one has.  The first iteration is never cut short."""

    def __init__(self, ahead: Callable[[int], bool], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._ahead = ahead
        self.iteration = 0

    def poll(self, nodes: int) -> int:
        next_poll = super().poll(nodes)
        if self.iteration and not self.first_iteration and self._ahead(self.iteration):
            raise HelperAhead
        return next_poll
