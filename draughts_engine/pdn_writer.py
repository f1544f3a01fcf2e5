"""Writing one game as PDN text.

The writer reads a game record through a small interface (``variant``,
``start`` position, ``moves``, ``tags`` and ``result()``), so that
:class:`~.game.Game` can use it without this module knowing the class.

Tag values are written on one line whatever they hold: a control character
(a line break, a tab, ...) or a Unicode line separator becomes a space, and
``"`` and ``\\`` are escaped with a backslash, as PDN strings are
(:func:`tag_value`, :func:`tag_line`).

Output: the seven standard tags (Event, Site, Date, Round, White, Black,
Result), ``[GameType "<n>"]`` (the variant's PDN number), ``[SetUp "1"]``
and ``[FEN ...]`` when the game does not start from the variant's start
position, any other tags, then numbered moves and the result token in the
variant's convention (``2-0 0-2 1-1`` for International).  Squares are
written in the variant's notation unless asked otherwise: numbers for
English and International, algebraic for Russian and Brazilian (``c3-d4``,
``c3xe5``, ``[FEN "W:Wa1,c3:Bh8"]``), as their federations, lidraughts and
pydraughts write them.

>>> from draughts_engine.game import Game
>>> game = Game("russian")
>>> _ = game.push_all(["c3-d4", "f6-g5"])
>>> print(write_game(game, {"Event": "demo"}).rstrip())   # doctest: +ELLIPSIS
[Event "demo"]
...
[GameType "25"]
<BLANKLINE>
1. c3-d4 f6-g5 *
>>> write_game(game, notation="numeric").rstrip().splitlines()[-1]
'1. 22-18 11-16 *'
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from .notation import format_move, resolve_notation
from .variants import WHITE

__all__ = ["write_game", "write_tree", "SEVEN_TAGS", "tag_line", "tag_value", "comment_token",
           "wrap_tokens"]

SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
"""The tags every PDN game carries, in their order."""

_ONE_LINE = {code: " " for code in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029)}
"""``str.translate`` table: the C0 and C1 control characters, DEL and the Unicode line and
paragraph separators (what ``str.splitlines`` or a terminal may break a line at) to a space."""

_NOT_IN_NAMES = frozenset(' "]')


def tag_value(value: str) -> str:
    """``value`` as a tag carries it: control characters and line separators made spaces.

    >>> tag_value("Club\\nnight\\t2")
    'Club night 2'
    """
    return value.translate(_ONE_LINE)


def tag_line(name: str, value: str) -> str:
    """One PDN tag line, the value quoted (:func:`tag_value`, then ``\\`` and ``"`` escaped).

    >>> print(tag_line("White", 'a "b"\\nc'))
    [White "a \\"b\\" c"]

    Raises ValueError for a name no reader could take back (empty, or with a space, a
    control character, ``"`` or ``]``).
    """
    if not name or not _NOT_IN_NAMES.isdisjoint(name) or name != tag_value(name):
        raise ValueError(f"not a PDN tag name: {name!r}")
    escaped = tag_value(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def comment_token(text: str) -> str:
    """``text`` as one PDN comment on one line (braces inside turned into parentheses).

    >>> comment_token("a {b}\\n c")
    '{a (b) c}'
    """
    return "{" + " ".join(text.replace("{", "(").replace("}", ")").split()) + "}"


def wrap_tokens(tokens: Sequence[str], width: int = 79) -> List[str]:
    """Movetext tokens joined into lines of at most ``width`` characters (a longer token
    stands on a line of its own)."""
    out: List[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            out.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        out.append(line)
    return out


def _header(game: Any, tags: Optional[Dict[str, str]], style: str) -> List[str]:
    """The tag lines of ``game`` (see :func:`write_game`), then an empty line."""
    variant = game.variant
    merged: Dict[str, str] = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?",
                              "White": "?", "Black": "?"}
    merged.update(game.tags)
    merged.update(tags or {})
    merged.setdefault("Result", game.result().pdn(variant))
    merged["GameType"] = str(variant.game_type)
    if variant.pdn_variant:  # the game variants that share International's number
        merged.setdefault("Variant", variant.pdn_variant)
    start = game.start
    if start != type(start).start(variant):
        merged["SetUp"] = "1"
        merged["FEN"] = start.fen(style)
    lines = []
    for name in SEVEN_TAGS + ("GameType", "Variant", "SetUp", "FEN"):
        if name in merged:
            lines.append(tag_line(name, merged.pop(name)))
    for name, value in merged.items():
        lines.append(tag_line(name, value))
    lines.append("")
    return lines


def write_game(game: Any, tags: Optional[Dict[str, str]] = None,
               notation: Optional[str] = None,
               comments: Optional[Mapping[int, Union[str, Sequence[str]]]] = None) -> str:
    """PDN text of a game record (ends with a blank line).

    ``tags`` override ``game.tags`` which override the defaults; the Result
    tag and the final token follow ``game.result()`` unless a Result tag is
    given.  ``notation`` (``numeric``/``algebraic``) overrides the variant's own.
    ``comments`` maps a number of plies to a comment (or several) written after
    that many moves (after all of them: just before the result).
    """
    variant = game.variant
    style = resolve_notation(notation, variant)
    lines = _header(game, tags, style)
    notes = {ply: [text] if isinstance(text, str) else list(text)
             for ply, text in (comments or {}).items()}
    tokens: List[str] = []
    first_mover_white = variant.first == WHITE
    white_to_move = game.start.white_to_move
    number = 1
    for i, move in enumerate(game.moves):
        is_first_mover = white_to_move == first_mover_white
        if is_first_mover:
            tokens.append(f"{number}.")
        elif i == 0:
            tokens.append(f"{number}...")
        tokens.append(format_move(move, variant, style))
        tokens.extend(comment_token(text) for text in notes.get(i + 1, ()))
        if not is_first_mover:
            number += 1
        white_to_move = not white_to_move
    tokens[:0] = [comment_token(text) for text in notes.get(0, ())]
    tokens.append(_result_of(lines))
    lines.extend(wrap_tokens(tokens))
    return "\n".join(lines) + "\n\n"


def write_tree(game: Any, root: Any, tags: Optional[Dict[str, str]] = None,
               notation: Optional[str] = None) -> str:
    """PDN text of a game with variations: the header as :func:`write_game` writes it for
    ``game`` (its moves are not used), the movetext from ``root``, a tree of nodes with
    ``move`` (the text to write, as is), ``comments`` and ``children`` (the main continuation
    first, then the variations, written as ``( ... )`` after the main move they replace), as
    :class:`~.pdn_reader.MoveNode` has them.  Ends with a blank line.

    >>> from draughts_engine.game import Game
    >>> from draughts_engine.pdn_reader import MoveNode
    >>> root = MoveNode()
    >>> main = root.add("11-15")
    >>> _ = main.add("23-19"), main.add("22-18").comments.append("also good")
    >>> print(write_tree(Game("english"), root).rstrip().splitlines()[-1])
    1. 11-15 23-19 (1... 22-18 {also good}) *
    """
    variant = game.variant
    lines = _header(game, tags, resolve_notation(notation, variant))
    # plies are counted from the first mover's first move: offset 1 when the other side starts
    offset = 0 if game.start.white_to_move == (variant.first == WHITE) else 1
    tokens: List[str] = [comment_token(text) for text in root.comments]
    _line_tokens(root, offset, tokens, True)
    tokens.append(_result_of(lines))
    lines.extend(wrap_tokens(tokens))
    return "\n".join(lines) + "\n\n"


def _move_tokens(node: Any, ply: int, numbered: bool, out: List[str]) -> None:
    """``node``'s move (with its number where due) and its comments."""
    if ply % 2 == 0:
        out.append(f"{ply // 2 + 1}.")
    elif numbered:
        out.append(f"{ply // 2 + 1}...")
    out.append(node.move)
    out.extend(comment_token(text) for text in node.comments)


def _line_tokens(parent: Any, ply: int, out: List[str], numbered: bool) -> None:
    """The line that follows ``parent`` (whose children move at ``ply``), with the
    variations of each of its moves. Iterative along the main line, recursive per variation."""
    while parent.children:
        main = parent.children[0]
        _move_tokens(main, ply, numbered, out)
        numbered = bool(main.comments)
        for side in parent.children[1:]:
            inner: List[str] = []
            _move_tokens(side, ply, True, inner)
            _line_tokens(side, ply + 1, inner, bool(side.comments))
            inner[0] = "(" + inner[0]
            inner[-1] += ")"
            out.extend(inner)
            numbered = True
        parent = main
        ply += 1


def _result_of(tag_lines: List[str]) -> str:
    for line in tag_lines:
        if line.startswith("[Result "):
            return line.split('"')[1]
    return "*"
