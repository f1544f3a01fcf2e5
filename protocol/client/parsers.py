"""Pure functions that turn one engine output line into a typed value (PROTOCOL.md).

* :func:`parse_info` -> :class:`~protocol.client.reports.InfoReport`;
* :func:`parse_bestmove` -> :class:`~protocol.client.reports.BestMove`;
* :func:`parse_option` -> :class:`~protocol.client.reports.EngineOption`;
* :func:`parse_id` -> ``(key, value)``;
* :func:`first_word` and :func:`error_reason`, small helpers for routing lines.

Each raises :class:`~protocol.client.errors.ProtocolError` for a malformed line. They keep no
state, so they can judge any engine's output (the conformance suite uses them too).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from protocol.client.errors import ProtocolError
from protocol.client.reports import BestMove, EngineOption, InfoReport
from protocol.commands import is_move_token, token_spans, tokenize

__all__ = [
    "OPTION_TYPES",
    "parse_info",
    "parse_bestmove",
    "parse_option",
    "parse_id",
    "first_word",
    "error_reason",
]

OPTION_TYPES = frozenset({"spin", "check", "combo", "string", "button"})
"""The option types of the ``uci`` reply."""

_INFO_INTS: Mapping[str, str] = {
    "depth": "depth",
    "seldepth": "seldepth",
    "nodes": "nodes",
    "nps": "nps",
    "time": "time_ms",
    "hashfull": "hashfull",
    "multipv": "multipv",
    "currmovenumber": "currmovenumber",
}


def _to_int(token: Optional[str], what: str, line: str, signed: bool = False) -> int:
    digits = token[1:] if signed and token is not None and token.startswith("-") else token
    if not digits or not digits.isascii() or not digits.isdigit() or len(digits) > 30:
        raise ProtocolError(f"{what} needs an integer, got {token!r} in {line!r}")
    return int(token)  # type: ignore[arg-type]


def parse_info(line: str, lenient: bool = False) -> InfoReport:
    """Parse an ``info`` line (PROTOCOL.md, ``go``) into an :class:`InfoReport`.

    ``pv`` and ``string`` take the rest of the line (``string`` verbatim). Unknown tokens are
    skipped, so engines may add fields. Raises :class:`ProtocolError` for a line that is not
    ``info``, a known field given twice or with a malformed value; with ``lenient`` such a
    field is left out instead (the report keeps the others: an ``info`` line is advice, and
    one bad field must not cost a game), and only a line that is not ``info`` raises.

    >>> parse_info("info depth 3 score mate -2 nodes 91 pv 11-15 23-19")
    InfoReport(depth=3, seldepth=None, score_cp=None, score_mate=-2, nodes=91, nps=None, \
time_ms=None, hashfull=None, pv=('11-15', '23-19'), string=None, multipv=None, bound=None, \
currmove=None, currmovenumber=None)
    >>> parse_info("info depth 3 nps 7501.5 score cp 12", lenient=True).nps is None
    True
    """
    spans = token_spans(line)
    if not spans or spans[0][0] != "info":
        raise ProtocolError(f"not an info line: {line!r}")
    values: Dict[str, Any] = {}
    index = 1
    while index < len(spans):
        token = spans[index][0]
        if token == "string":
            values["string"] = line[spans[index + 1][1] :] if index + 1 < len(spans) else ""
            break
        if token == "pv":
            values["pv"] = tuple(t for t, _, _ in spans[index + 1 :])
            break
        nxt = spans[index + 1][0] if index + 1 < len(spans) else None
        try:
            if token == "score":
                index += 3
                if "score" in values:
                    raise ProtocolError(f"score given twice in {line!r}")
                if nxt not in ("cp", "mate"):
                    index -= 1  # (the token after score is not a kind: it may be a field)
                    raise ProtocolError(f"score needs cp or mate, got {nxt!r} in {line!r}")
                score_token = spans[index - 1][0] if index - 1 < len(spans) else None
                values["score_" + nxt] = _to_int(score_token, "score " + nxt, line, signed=True)
                values["score"] = True
                if index < len(spans) and spans[index][0] in ("lowerbound", "upperbound"):
                    values["bound"] = spans[index][0]
                    index += 1
            elif token == "currmove":
                index += 2
                if "currmove" in values:
                    raise ProtocolError(f"currmove given twice in {line!r}")
                if nxt is None:
                    raise ProtocolError(f"currmove needs a move in {line!r}")
                values["currmove"] = nxt
            elif token in _INFO_INTS:
                index += 2
                name = _INFO_INTS[token]
                if name in values:
                    raise ProtocolError(f"{token} given twice in {line!r}")
                values[name] = _to_int(nxt, token, line)
            else:
                index += 1
        except ProtocolError:
            if not lenient:
                raise
    values.pop("score", None)
    return InfoReport(**values)


def parse_bestmove(line: str) -> BestMove:
    """Parse ``bestmove <m> [ponder <m>]`` or ``bestmove (none)``; else :class:`ProtocolError`.

    >>> parse_bestmove("bestmove 15x24x31 ponder 28x19")
    BestMove(move='15x24x31', ponder='28x19')
    """
    tokens = tokenize(line)
    if len(tokens) not in (2, 4) or tokens[0] != "bestmove":
        raise ProtocolError(f"malformed bestmove line: {line!r}")
    move: Optional[str] = None if tokens[1] == "(none)" else tokens[1]
    if move is not None and not is_move_token(move):
        raise ProtocolError(f"malformed best move in {line!r}")
    if len(tokens) == 2:
        return BestMove(move)
    if move is None or tokens[2] != "ponder" or not is_move_token(tokens[3]):
        raise ProtocolError(f"malformed bestmove line: {line!r}")
    return BestMove(move, tokens[3])


def _join(spans: Sequence[Tuple[str, int, int]]) -> str:
    return " ".join(token for token, _, _ in spans)


def parse_option(line: str) -> EngineOption:
    """Parse ``option name <N> type <t> [default <v>] [min <a> max <b>] [var <v>]...``.

    Names, defaults and vars may span several tokens. Raises :class:`ProtocolError`.

    >>> parse_option("option name Hash type spin default 16 min 1 max 1024")
    EngineOption(name='Hash', type='spin', default='16', min=1, max=1024, vars=())
    """
    spans = token_spans(line)
    words = [token for token, _, _ in spans]
    if len(words) < 5 or words[0] != "option" or words[1] != "name" or "type" not in words:
        raise ProtocolError(f"malformed option line: {line!r}")
    type_at = words.index("type")
    if type_at == 2 or type_at + 1 >= len(words) or words[type_at + 1] not in OPTION_TYPES:
        raise ProtocolError(f"malformed option line: {line!r}")
    fields: Dict[str, Any] = {"name": _join(spans[2:type_at]), "type": words[type_at + 1]}
    vars_: List[str] = []
    keywords = ("default", "min", "max", "var")
    index = type_at + 2
    while index < len(words):
        keyword = words[index]
        if keyword not in keywords:
            raise ProtocolError(f"unexpected {keyword!r} in option line {line!r}")
        end = index + 1
        while end < len(words) and words[end] not in keywords:
            end += 1
        value = _join(spans[index + 1 : end])
        if keyword == "var":
            vars_.append(value)
        elif keyword in fields:
            raise ProtocolError(f"{keyword} given twice in {line!r}")
        elif keyword == "default":
            fields["default"] = value
        else:
            fields[keyword] = _to_int(value, keyword, line, signed=True)
        index = end
    return EngineOption(vars=tuple(vars_), **fields)


def parse_id(line: str) -> Tuple[str, str]:
    """Parse ``id <key> <value...>`` into ``(key, value)``; the value is taken verbatim."""
    spans = token_spans(line)
    if len(spans) < 2 or spans[0][0] != "id":
        raise ProtocolError(f"malformed id line: {line!r}")
    value = line[spans[2][1] : spans[-1][2]] if len(spans) > 2 else ""
    return spans[1][0], value


def first_word(line: str) -> str:
    """The line's first token (the kind of line), or "" for a blank line."""
    spans = token_spans(line)
    return spans[0][0] if spans else ""


def error_reason(line: str) -> str:
    """The text after ``error`` in an ``error <reason>`` line, verbatim."""
    spans = token_spans(line)
    return line[spans[1][1] : spans[-1][2]] if len(spans) > 1 else ""
