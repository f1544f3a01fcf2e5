"""Hub v2 on the wire: the line syntax, positions, move texts, numbering and info lines.

Shared by both sides of the wire: :mod:`protocol.hub.server` (our engine in Hub mode) and
:mod:`protocol.hub.client` (driving any Hub engine).  PROTOCOL.md section 10 is the contract.

Lines have the form ``<command> <name>=<value> ...``; a value holding a space,
``=`` or ``"`` or an empty value is quoted with double quotes; a name without
``=value`` is a flag.  :func:`parse_hub_line` and :func:`format_hub_line`
implement that syntax, :func:`hub_pos` / :func:`position_from_hub_pos` the
position format (side to move ``W``/``B``, then one of ``w b W B e`` per square
in PDN square order) and :func:`format_hub_info` the ``info`` line.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

from draughts_engine.errors import DraughtsError
from draughts_engine.move import Move
from draughts_engine.notation import parse_hub_move, parse_move
from draughts_engine.position import Position
from draughts_engine.search.limits import SearchInfo
from draughts_engine.variants import VARIANTS, Variant, get_variant

from ..commands import printable

__all__ = ["HubSyntaxError", "parse_hub_line", "format_hub_line", "hub_value",
           "hub_pos", "position_from_hub_pos", "parse_hub_move_text", "format_hub_info",
           "hub_score", "VARIANT_VALUES", "NUMBERING_VALUES",
           "flip_square", "flip_move_text", "uses_white_side_numbering", "PARAM_OF_OPTION"]

#: The Hub parameter of each text-protocol option that has one whose name is not the option's
#: own in kebab case (PROTOCOL.md 10.2): what the server declares and the client translates.
PARAM_OF_OPTION = {"UCI_LimitStrength": "limit-strength", "UCI_Elo": "elo"}

DEFAULT_VARIANT = "international"
"""What a Hub engine plays until ``set-param name=variant`` says otherwise (Scan's ``normal``)."""

#: Values of the ``variant`` parameter: the default's names (Scan's and lidraughts' ``normal``)
#: first, then every variant's Hub names (:attr:`~draughts_engine.variants.Variant.hub_names`).
VARIANT_VALUES: Tuple[str, ...] = tuple(dict.fromkeys(
    get_variant(DEFAULT_VARIANT).hub_names
    + tuple(name for variant in VARIANTS.values() for name in variant.hub_names)))
#: Values of the ``numbering`` parameter (how squares are numbered in 8x8 move texts).
NUMBERING_VALUES: Tuple[str, ...] = ("auto", "pdn", "white-side")


# --------------------------------------------------------------------------- line syntax

class HubSyntaxError(ValueError):
    """A line that is not ``<command> <name>[=<value>] ...``."""


def _is_name_char(ch: str) -> bool:
    return ch not in ' \t="' and ch.isprintable()


def parse_hub_line(line: str) -> Tuple[str, List[Tuple[str, Optional[str]]]]:
    """Split a Hub line into its command and ``(name, value)`` pairs (value None for a flag).

    Spaces around ``=`` are allowed; a quoted value runs to the next ``"``.
    Returns ``("", [])`` for a line without tokens.

    >>> parse_hub_line('pos pos=Wbe moves="32-28 17-22" start')
    ('pos', [('pos', 'Wbe'), ('moves', '32-28 17-22'), ('start', None)])
    """
    i, n = 0, len(line)

    def skip() -> None:
        nonlocal i
        while i < n and line[i] in " \t":
            i += 1

    def name() -> str:
        nonlocal i
        start = i
        while i < n and _is_name_char(line[i]):
            i += 1
        if i == start:
            shown = line[i] if i < n else "end of line"
            raise HubSyntaxError(f"expected a name at column {i + 1}, got {shown!r}")
        return line[start:i]

    skip()
    if i >= n:
        return "", []
    command = name()
    pairs: List[Tuple[str, Optional[str]]] = []
    while True:
        skip()
        if i >= n:
            return command, pairs
        key = name()
        skip()
        if i < n and line[i] == "=":
            i += 1
            skip()
            if i < n and line[i] == '"':
                end = line.find('"', i + 1)
                if end < 0:
                    raise HubSyntaxError(f"missing closing quote for {key}")
                value = line[i + 1:end]
                i = end + 1
            else:
                value = name()
            pairs.append((key, value))
        else:
            pairs.append((key, None))


def hub_value(value: object) -> str:
    """A value as written on a Hub line: quoted when it is empty or holds a special character."""
    text = str(value).replace('"', "'").replace("\n", " ").replace("\r", " ")
    text = printable(text)  # control characters, line separators, escapes: shown escaped
    if text and all(_is_name_char(ch) for ch in text):
        return text
    return f'"{text}"'


def format_hub_line(command: str, *pairs: Tuple[str, object]) -> str:
    """``command name=value ...`` with values quoted as needed (a None value writes a flag)."""
    parts = [command]
    for name, value in pairs:
        parts.append(name if value is None else f"{name}={hub_value(value)}")
    return " ".join(parts)


# --------------------------------------------------------------------------- positions and moves

_PIECE_CHARS = {"w": ("W", False), "b": ("B", False), "W": ("W", True), "B": ("B", True)}
_EMPTY_CHARS = "e.-"


def hub_pos(position: Position) -> str:
    """Hub position text: ``W``/``B`` then ``w b W B e`` for each square 1..N."""
    cells = [position.piece_at(square) or "e"
             for square in range(1, position.variant.squares + 1)]
    return ("W" if position.white_to_move else "B") + "".join(cells)


def position_from_hub_pos(text: str, variant: Variant) -> str:
    """The PDN FEN of Hub position text for ``variant``; ValueError names what is wrong."""
    squares = variant.squares
    if len(text) != squares + 1:
        raise ValueError(f"position must have {squares + 1} characters for {variant.name} "
                         f"(side to move and {squares} squares), got {len(text)}")
    side = text[0].upper()
    if side not in "WB":
        raise ValueError(f"side to move must be W or B, got {text[0]!r}")
    pieces: Dict[str, List[str]] = {"W": [], "B": []}
    for square, ch in enumerate(text[1:], start=1):
        if ch in _EMPTY_CHARS:
            continue
        if ch not in _PIECE_CHARS:
            raise ValueError(f"square {square}: {ch!r} is not one of w b W B e")
        colour, king = _PIECE_CHARS[ch]
        pieces[colour].append(("K" if king else "") + str(square))
    return f"{side}:W{','.join(pieces['W'])}:B{','.join(pieces['B'])}"


def flip_square(square: int) -> int:
    """8x8: PDN square number <-> the number counted from White's side (a1 = 1, h8 = 32).

    Both count left to right within a row; PDN starts at Black's side (b8 = 1).  The map is its
    own inverse.  pydraughts (lidraughts-bot) numbers Russian and Brazilian Hub moves this way
    while its position text uses PDN order.
    """
    if not 1 <= square <= 32:
        return square
    row, index = divmod(square - 1, 4)
    return 4 * (7 - row) + index + 1


def flip_move_text(text: str) -> str:
    """Move text with every square number passed through :func:`flip_square`."""
    # Only numbers of at most two digits can be squares of the board; longer ones are left
    # as they are (and refused by the move parser; int() of thousands of digits would fail).
    return re.sub(r"\d+", lambda m: str(flip_square(int(m.group())))
                  if len(m.group().lstrip("0")) <= 2 else m.group(), text)


def uses_white_side_numbering(variant: Variant) -> bool:
    """Variants whose Hub moves may come numbered from White's side (pydraughts numbers
    Russian and Brazilian squares from a1): :attr:`Variant.white_side_numbers`."""
    return variant.white_side_numbers


def parse_hub_move_text(position: Position, text: str) -> Move:
    """A legal move from Hub text (``32-28``, ``28x19x23``), also accepting a PDN path (``15x24x31``)."""
    try:
        return parse_hub_move(position, text)
    except DraughtsError as first:
        try:
            return parse_move(position, text)
        except DraughtsError:
            raise first from None


def hub_score(score_cp: Optional[int], mate_in: Optional[int]) -> str:
    """Score in men with two decimals; a forced result found ``p`` plies away is +-(100 - p/100)."""
    if mate_in is not None and mate_in != 0:
        plies = 2 * mate_in - 1 if mate_in > 0 else -2 * mate_in
        value = 100.0 - plies / 100.0
        return f"{value if mate_in > 0 else -value:.2f}"
    return f"{(score_cp or 0) / 100.0:.2f}"


def format_hub_info(info: SearchInfo, pv: Sequence[str]) -> str:
    """``info depth= score= nodes= time= nps= pv=``: score in men, time in seconds, nps in millions."""
    pairs: List[Tuple[str, object]] = [
        ("depth", info.depth),
        ("score", hub_score(info.score_cp, info.mate_in)),
        ("nodes", info.nodes),
        ("time", f"{info.time_ms / 1000.0:.3f}"),
        ("nps", f"{info.nps / 1e6:.3f}"),
    ]
    if pv:
        pairs.append(("pv", " ".join(pv)))
    return format_hub_line("info", *pairs)
