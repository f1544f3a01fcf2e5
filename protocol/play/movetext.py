"""PDN text as pieces, comments kept: what the replay needs to show comments and split games.

The rules core's reader (:mod:`draughts_engine.pdn_reader`) checks moves and drops comments;
:func:`pieces` keeps them. It cuts text into :class:`Piece` values that tile it exactly: each
has ``start < end``, each starts where the one before ended, and together they cover the whole
text, so the scan always advances and ends after at most ``len(text)`` pieces, whatever the
input. Nothing is ever refused here (a stray ``}`` is a piece of its own); the reader says what
is wrong with a file.

Kinds: ``space``; ``tag`` (``[...]`` outside variations, quotes respected, ending on its line);
``comment`` (``{...}``, or ``;`` to the end of the line; ``text`` is what stands inside);
``escape`` (a line with ``%`` in column 1); ``open`` and ``close`` (a variation's brackets);
``result`` (``1-0``, ``*``, ...); ``nag`` (``$3``); ``number`` (``12.``, ``12...``); ``move``
(its text without move number and ``!?`` suffixes); ``stray`` (a closing bracket without its
opener). Every piece carries the ``depth`` of variations it stands in (0: the main line); the
brackets of a variation count their own level (``open`` 1 and ``close`` 1 for a first-level
variation). Inside a variation brackets in comments do not count and ``[`` is no tag, as in
the reader.

>>> [(p.kind, p.text) for p in pieces("1. 11-15 {a} (9-14 {:)}) *") if p.kind != "space"]
[('number', '1.'), ('move', '11-15'), ('comment', 'a'), ('open', '('), ('move', '9-14'), \
('comment', ':)'), ('close', ')'), ('result', '*')]
"""
from __future__ import annotations

from typing import Iterator, NamedTuple

from draughts_engine.pdn import RESULT_TOKENS
from draughts_engine.pdn_reader import tag_end

__all__ = ["Piece", "pieces", "move_word"]

_SPECIAL = frozenset("[]{}();")
_SPECIAL_IN_VARIATION = frozenset("(){};")  # the reader reads no tags inside a variation


class Piece(NamedTuple):
    """One piece of PDN text: ``text[start:end]`` of the source is what it covers."""

    kind: str
    text: str
    start: int
    end: int
    depth: int


def move_word(word: str) -> str:
    """The move a movetext word holds, or ``''`` for a move number: ``1.11-15`` -> ``11-15``,
    ``12...`` -> ``''``, ``11-15!?`` -> ``11-15`` (as the rules core's reader reads them)."""
    if "." in word:
        word = word.rsplit(".", 1)[1]
    word = word.rstrip("!?+#*")
    return "" if word.isdigit() else word


def _line_end(text: str, index: int) -> int:
    end = text.find("\n", index)
    return len(text) if end < 0 else end


def pieces(text: str) -> Iterator[Piece]:
    """The pieces of PDN ``text``, in order (see the module docstring for the guarantees)."""
    index, length, depth = 0, len(text), 0
    while index < length:
        ch = text[index]
        start = index
        if ch == "%" and (index == 0 or text[index - 1] in "\r\n"):
            end = _line_end(text, index)  # > index: text[index] is "%"
            yield Piece("escape", text[index + 1:end], start, end, depth)
            index = end
            continue
        if ch.isspace():
            end = index + 1
            while end < length and text[end].isspace():
                end += 1
            yield Piece("space", text[start:end], start, end, depth)
            index = end
            continue
        if ch == "{":
            close = text.find("}", index + 1)
            end = length if close < 0 else close + 1
            inside = text[index + 1:close if close >= 0 else length]
            yield Piece("comment", inside, start, end, depth)
            index = end
            continue
        if ch == ";":
            end = _line_end(text, index)
            yield Piece("comment", text[index + 1:end], start, end, depth)
            index = end
            continue
        if ch == "(":
            depth += 1
            yield Piece("open", ch, start, start + 1, depth)
            index += 1
            continue
        if ch == ")":
            if depth:
                yield Piece("close", ch, start, start + 1, depth)
                depth -= 1
            else:
                yield Piece("stray", ch, start, start + 1, depth)
            index += 1
            continue
        if ch == "[" and not depth:
            stop = _line_end(text, index)
            close = tag_end(text, index + 1, stop)
            end = stop if close < 0 else close + 1
            yield Piece("tag", text[index + 1:close if close >= 0 else stop], start, end, depth)
            index = end
            continue
        if ch == "}" or (ch == "]" and not depth):
            yield Piece("stray", ch, start, start + 1, depth)
            index += 1
            continue
        special = _SPECIAL_IN_VARIATION if depth else _SPECIAL
        end = index + 1  # a word: at least this character, which is neither space nor special
        while end < length and not text[end].isspace() and text[end] not in special:
            end += 1
        word = text[start:end]
        kind = _word_kind(word)
        yield Piece(kind, move_word(word) if kind == "move" else word, start, end, depth)
        index = end


def _word_kind(word: str) -> str:
    if word in RESULT_TOKENS:
        return "result"
    if word.startswith("$"):
        return "nag"
    return "move" if move_word(word) else "number"
