"""PDN variations and comments read into a game tree and written back (``variations=True``,
:func:`draughts_engine.pdn.write_tree`); the main line stays what the plain reader reads."""
from __future__ import annotations

import pytest

from draughts_engine.errors import InvalidPdnError
from draughts_engine.pdn import read_games, stream_games, write_tree

GAME = """[Event "x"]
{before} 1. 11-15 {c1} 23-19 (1... 22-18 {alt} 2. 15x22 25x18 (2... 26x17)) 2. 8-11
(2. 9-13 ; to the end of the line
 24-20) 22-17 *
"""


def tree_of(text: str):
    return next(stream_games(text, variations=True))


def test_the_main_line_is_the_plain_readers() -> None:
    record = tree_of(GAME)
    plain = read_games(GAME)[0]
    assert [m.pdn() for m in record.game.moves] == [m.pdn() for m in plain.moves]
    assert record.tree.main_line() == list(record.move_texts)


def test_variations_and_comments_are_kept_where_written() -> None:
    root = tree_of(GAME).tree
    assert root.comments == ["before"]
    first = root.children[0]
    assert (first.move, first.comments) == ("11-15", ["c1"])
    assert [child.move for child in first.children] == ["23-19", "22-18"]
    side = first.children[1]
    assert side.comments == ["alt"]
    assert [child.move for child in side.children[0].children] == ["25x18", "26x17"]
    second = first.children[0].children
    assert [child.move for child in second] == ["8-11", "9-13"]
    assert second[1].comments == ["to the end of the line"]


def test_write_tree_reads_back_the_same_tree() -> None:
    record = tree_of(GAME)
    text = write_tree(record.game, record.tree)
    assert "(1... 22-18 {alt} 2. 15x22 25x18 (2... 26x17))" in " ".join(text.split())
    again = tree_of(text)
    assert write_tree(again.game, again.tree) == text


@pytest.mark.parametrize("text, reason", [
    ("1. 11-15 (1. 11-16 23-19 12-12) 23-19 *", "in a variation"),
    ("(1. 11-16) 1. 11-15 *", "before any move"),
    ("1. 11-15 (11-16 *", "unterminated variation"),
], ids=["illegal-move-in-a-variation", "variation-first", "unclosed"])
def test_bad_variations_are_named(text: str, reason: str) -> None:
    with pytest.raises(InvalidPdnError, match=reason):
        tree_of(text)
