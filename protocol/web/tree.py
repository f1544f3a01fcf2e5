"""The web board's tree of variations: every line tried on a board, with its review.

The board's :class:`~protocol.play.controller.GameController` plays one line at a time (the
moves up to the position shown, and those that redo replays); the tree remembers the others.
After anything that changed the controller's moves, :meth:`GameTree.follow` walks the tree
along them and adds what is new: a move played after going back becomes a *variation* (a
second child) instead of replacing the line. A node's first child is its main continuation,
as in PDN; :meth:`promote` makes a side line the main line, :meth:`delete` drops one.

Each node keeps what the review learnt of the position after its move (:attr:`TreeNode.score`,
White's view), its ``mark`` and the ``better`` move; the root keeps the start position's.
PDN comes and goes with the variations ``( ... )`` and the review's comments
(:mod:`protocol.play.review`).
"""
from __future__ import annotations

import itertools
from typing import Any, Dict, Iterator, List, Optional, Sequence

from draughts_engine.pdn_reader import MoveNode
from protocol.play.review import Score, parse_review_comment, review_comment

__all__ = ["TreeNode", "GameTree", "TreeError", "score_json"]

MAX_NODES = 20_000
"""Nodes a tree holds at most (a board's memory stays bounded whatever a page sends)."""


class TreeError(ValueError):
    """No such node, or a tree too large."""


class TreeNode:
    """A move of the tree (the root has none): canonical ``move``, ``display`` text, move
    number ``label``, ``comments`` (other than the review's), and the review's ``score``,
    ``mark`` and ``better`` (canonical) / ``better_display``."""

    def __init__(self, node_id: int, move: str = "", display: str = "", label: str = "",
                 parent: Optional["TreeNode"] = None) -> None:
        self.id = node_id
        self.move = move
        self.display = display or move
        self.label = label
        self.parent = parent
        self.children: List[TreeNode] = []
        self.comments: List[str] = []
        self.score: Optional[Score] = None
        self.mark: Optional[str] = None
        self.better: Optional[str] = None
        self.better_display: Optional[str] = None

    @property
    def ply(self) -> int:
        ply, node = 0, self
        while node.parent is not None:
            ply, node = ply + 1, node.parent
        return ply

    def path(self) -> List["TreeNode"]:
        """The nodes from the first move to this one (empty for the root)."""
        out, node = [], self
        while node.parent is not None:
            out.append(node)
            node = node.parent
        return out[::-1]

    def main_continuation(self) -> List["TreeNode"]:
        out, node = [], self
        while node.children:
            node = node.children[0]
            out.append(node)
        return out

    def forget_review(self) -> None:
        self.score = None
        self.mark = self.better = self.better_display = None

    def to_json(self, depth: int = 0) -> Dict[str, Any]:
        """This move for the page's list of the line shown, with the other moves played in its
        place (variations, each with its own main line; nested ones down to a few levels)."""
        data: Dict[str, Any] = {"id": self.id, "ply": self.ply, "label": self.label,
                                "text": self.display, "mark": self.mark,
                                "better": self.better_display or self.better,
                                "score": score_json(self.score),
                                "comments": list(self.comments)}
        parent = self.parent
        siblings = [] if parent is None else [c for c in parent.children if c is not self]
        if depth < 3:
            data["variations"] = [[n.to_json(depth + 1) for n in [side] + side.main_continuation()]
                                  for side in siblings]
        else:
            data["variations"] = []
        data["main"] = parent is not None and parent.children[:1] == [self]
        return data


def score_json(score: Optional[Score]) -> Optional[Dict[str, Any]]:
    """A review's score for the page: ``cp`` and ``mate`` (White's view), or ``None``."""
    return None if score is None else {"cp": score.cp, "mate": score.mate}


class GameTree:
    """The tree of one board's game (see the module docstring)."""

    def __init__(self) -> None:
        self._ids = itertools.count()
        self.root = TreeNode(next(self._ids))
        self._nodes: Dict[int, TreeNode] = {self.root.id: self.root}

    def __len__(self) -> int:
        return len(self._nodes)

    def node(self, node_id: int) -> TreeNode:
        """The node called ``node_id``; raises :class:`TreeError`."""
        node = self._nodes.get(node_id)
        if node is None:
            raise TreeError(f"no move {node_id} in this game's tree")
        return node

    def add(self, parent: TreeNode, move: str, display: str, label: str) -> TreeNode:
        """``parent``'s child playing ``move`` (the one there, or a new last child)."""
        for child in parent.children:
            if child.move == move:
                return child
        if len(self._nodes) >= MAX_NODES:
            raise TreeError(f"the tree of variations is full ({MAX_NODES} moves)")
        child = TreeNode(next(self._ids), move, display, label, parent)
        parent.children.append(child)
        self._nodes[child.id] = child
        return child

    def follow(self, moves: Sequence[Any]) -> List[TreeNode]:
        """The nodes of a line of played moves (objects with ``text``, ``display`` and
        ``label``, as :class:`~protocol.play.controller.PlayedMove`), added where new."""
        node, out = self.root, []
        for move in moves:
            node = self.add(node, move.text, move.display, move.label)
            out.append(node)
        return out

    def promote(self, node: TreeNode) -> None:
        """Make the line through ``node`` the main line (first child at every branch)."""
        while node.parent is not None:
            siblings = node.parent.children
            siblings.remove(node)
            siblings.insert(0, node)
            node = node.parent

    def delete(self, node: TreeNode) -> TreeNode:
        """Drop ``node`` and everything after it; returns its parent. The root stays."""
        parent = node.parent
        if parent is None:
            raise TreeError("the start position cannot be deleted")
        parent.children.remove(node)
        for gone in self._walk(node):
            self._nodes.pop(gone.id, None)
        return parent

    def _walk(self, node: TreeNode) -> Iterator[TreeNode]:
        stack = [node]
        while stack:
            current = stack.pop()
            yield current
            stack.extend(current.children)

    # ------------------------------------------------------------------ PDN

    def to_move_nodes(self) -> MoveNode:
        """The tree as :class:`~draughts_engine.pdn_reader.MoveNode` s for
        :func:`~draughts_engine.pdn_writer.write_tree`: moves in the game's notation, the
        review as a comment after each reviewed move."""
        def convert(node: TreeNode, into: MoveNode) -> None:
            into.comments = list(node.comments)
            if node.score is not None and node.parent is not None:
                into.comments.insert(0, self._review_text(node))
            for child in node.children:
                convert(child, into.add(child.display))
        root = MoveNode()
        convert(self.root, root)
        if self.root.score is not None:  # the start position's score: before the first move
            root.comments.insert(0, review_comment(self.root.score, None))
        return root

    @staticmethod
    def _review_text(node: TreeNode) -> str:
        assert node.score is not None
        text = review_comment(node.score, None)
        if node.mark:
            text += f" {node.mark}"
            if node.better_display or node.better:
                text += f"; better {node.better_display or node.better}"
        return text

    def read_comments(self, node: TreeNode, comments: Sequence[str]) -> None:
        """Comments read from PDN onto ``node``: a review's comment becomes its score, mark
        and better move (:func:`~protocol.play.review.parse_review_comment`)."""
        for text in comments:
            parsed = parse_review_comment(text)
            if parsed is None:
                node.comments.append(text)
                continue
            score, mark, better, rest = parsed
            node.score = score
            node.mark = mark
            node.better = node.better_display = better
            if rest:
                node.comments.append(rest)
