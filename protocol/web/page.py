"""The page's first paint: ``index.html`` with the board already drawn in it.

``/`` is served with an SVG of the position its link names (``?variant=``, ``?fen=``; else
International's start position) in place of the ``<!--board-->`` mark, drawn with the classes
and hooks ``static/board.js`` uses (``rect[data-square][data-piece]``, ``text.num``,
``text.coord``), so the board shows before any script has run or any request has come back:
a plain screenshot, a slow engine start or a page without JavaScript still shows it. board.js
puts the live board in its place when the first state arrives.
"""
from __future__ import annotations

from html import escape
from typing import Dict, List, Optional

from draughts_engine.notation import ALGEBRAIC
from draughts_engine.variants import UnknownVariantError, get_variant
from protocol.play.records import DraughtsRecord, LoadError, new_record

__all__ = ["render_index", "board_svg", "BOARD_MARK"]

BOARD_MARK = b"<!--board-->"
MAX_FEN = 2000


def _record(variant: Optional[str], fen: Optional[str]) -> DraughtsRecord:
    """The position a link names; its variant's start for a bad FEN; International's for a
    variant that is not draughts."""
    try:
        name = get_variant(variant or "international").name
    except UnknownVariantError:
        name = "international"
    if fen and len(fen) <= MAX_FEN:
        try:
            record = new_record(name, fen)
            if isinstance(record, DraughtsRecord):
                return record
        except LoadError:  # a bad FEN: the start position (the page will say what was wrong)
            pass
    record = new_record(name, None)
    assert isinstance(record, DraughtsRecord)
    return record


def _number(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


PAINT = {"light": ' fill="#f0d9b5"', "dark": ' fill="#8b5a2b"',
         "white body": ' fill="#f7f3ea" stroke="#555" stroke-width="0.03"',
         "white ring": ' fill="none" stroke="#b8b0a0" stroke-width="0.025"',
         "black body": ' fill="#262626" stroke="#000" stroke-width="0.03"',
         "black ring": ' fill="none" stroke="#555" stroke-width="0.025"',
         "crown": ' fill="#d4a017" stroke="#7a5a00" stroke-width="0.02"'}
"""The colours of style.css as SVG attributes, for a drawing that stands alone (an export
opened without the page's style sheet)."""


def _piece(x: float, y: float, piece: str, painted: bool = False) -> str:
    colour = "white" if piece in "wW" else "black"
    body = PAINT[f"{colour} body"] if painted else ""
    ring = PAINT[f"{colour} ring"] if painted else ""
    parts = [f'<g class="piece {colour}">',
             f'<circle cx="{_number(x)}" cy="{_number(y)}" r="0.4" class="body"{body}/>',
             f'<circle cx="{_number(x)}" cy="{_number(y)}" r="0.28" class="ring"{ring}/>']
    if piece in "WB":  # a king: the crown board.js draws
        s = 0.2
        points = [(x - s, y + s * 0.6), (x - s, y - s * 0.5), (x - s * 0.5, y), (x, y - s * 0.8),
                  (x + s * 0.5, y), (x + s, y - s * 0.5), (x + s, y + s * 0.6)]
        text = " ".join(f"{_number(px)},{_number(py)}" for px, py in points)
        crown = PAINT["crown"] if painted else ""
        parts.append(f'<polygon points="{text}" class="crown"{crown}/>')
    parts.append("</g>")
    return "".join(parts)


def board_svg(variant: Optional[str] = None, fen: Optional[str] = None,
              standalone: bool = False) -> str:
    """The SVG of the position (see the module docstring), as board.js draws it unflipped
    with the square numbers (or names) shown. ``standalone``: coloured by attributes and
    sized (48 pixels a square), without labels, for an export viewed on its own."""
    record = _record(variant, fen)
    position = record.position
    geometry = position.geometry
    size = geometry.size
    squares = geometry.squares
    every = squares == size * size  # Turkish: every square plays
    names = ([geometry.algebraic(n) for n in range(1, squares + 1)]
             if record.notation == ALGEBRAIC else None)
    classes = [f"board-{size}", "show-numbers"] + (["all-squares"] if every else [])
    places = {n: tuple(geometry.row_col(n)) for n in range(1, squares + 1)}
    playing = set(places.values())
    paint_light = PAINT["light"] if standalone else ""
    paint_dark = PAINT["dark"] if standalone else ""
    light: List[str] = [f'<rect x="{col}" y="{row}" width="1" height="1" class="light"'
                        f'{paint_light}/>'
                        for row in range(size) for col in range(size)
                        if (row, col) not in playing]
    dark: List[str] = []
    pieces: List[str] = []
    labels: List[str] = []
    for n in range(1, squares + 1):
        row, col = places[n]
        piece = position.piece_at(n)
        kind = "dark even" if every and (row + col) % 2 == 0 else "dark"
        data = f' data-piece="{piece}"' if piece else ""
        dark.append(f'<rect x="{col}" y="{row}" width="1" height="1" class="{kind}" '
                    f'data-square="{n}"{data}{paint_dark}/>')
        if piece:
            pieces.append(_piece(col + 0.5, row + 0.5, piece, standalone))
        name = names[n - 1] if names else str(n)
        labels.append(f'<text x="{_number(col + 0.06)}" y="{_number(row + 0.27)}" '
                      f'class="num">{escape(name)}</text>')
    if names:
        files: Dict[int, str] = {}
        ranks: Dict[int, str] = {}
        for n in range(1, squares + 1):
            row, col = places[n]
            files[col] = names[n - 1][:1]
            ranks[row] = names[n - 1][1:]
        labels += [f'<text x="{_number(col + 0.94)}" y="{_number(size - 0.06)}" '
                   f'class="coord file">{escape(text)}</text>' for col, text in files.items()]
        labels += [f'<text x="0.06" y="{_number(row + 0.94)}" '
                   f'class="coord rank">{escape(text)}</text>' for row, text in ranks.items()]
    title = escape(f"{record.title}: {position.fen()}")
    if standalone:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{title}" '
                f'viewBox="0 0 {size} {size}" width="{48 * size}" height="{48 * size}">'
                f'<title>{title}</title>'
                f'<g class="squares">{"".join(light + dark)}</g>'
                f'<g class="pieces">{"".join(pieces)}</g></svg>\n')
    return (f'<svg id="board" xmlns="http://www.w3.org/2000/svg" role="img" '
            f'aria-label="{title}" viewBox="0 0 {size} {size}" class="{" ".join(classes)}">'
            f'<g class="squares">{"".join(light + dark)}</g>'
            f'<g class="pieces">{"".join(pieces)}</g>'
            f'<g class="labels">{"".join(labels)}</g></svg>')


def render_index(template: bytes, query: Dict[str, str]) -> bytes:
    """``index.html`` with the board of the link's ``variant`` and ``fen`` in place of the
    mark (the template as it is when it has no mark)."""
    if BOARD_MARK not in template:
        return template
    svg = board_svg(query.get("variant"), query.get("fen"))
    return template.replace(BOARD_MARK, svg.encode("utf-8"), 1)
