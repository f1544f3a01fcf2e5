"""PDN (Portable Draughts Notation) games: write one, read many.

Writing: the seven standard tags (Event, Site, Date, Round, White, Black,
Result), ``[GameType "<n>"]`` (20 International, 21 English, 25 Russian,
26 Brazilian), ``[SetUp "1"]`` and ``[FEN ...]`` when the game does not start
from the variant's start position, then numbered moves and the result
(``1-0 0-1 1/2-1/2 *``; ``2-0 0-2 1-1`` for International).

Reading: a collection of games; tags, move numbers (``12.`` and ``12...``),
comments (``{...}`` and ``;`` to the end of the line), variations
(``(...)``, nested), NAGs (``$3``) and move suffixes (``!?``) are handled and
skipped.  Every move is checked against the rules.  Errors raise
:class:`InvalidPdnError` with the source name and line of the problem.
"""
from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Tuple, Union

from .errors import DraughtsError, InvalidPdnError
from .variants import VARIANTS, Variant, get_variant

__all__ = ["write_game", "read_games", "iter_games", "GAME_TYPES", "RESULT_TOKENS"]

GAME_TYPES: Dict[int, str] = {v.game_type: v.name for v in VARIANTS.values()}
RESULT_TOKENS = {"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "*", "0-0"}
SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def write_game(game, tags: Optional[Dict[str, str]] = None) -> str:
    """PDN text of a :class:`~.game.Game` (ends with a newline).

    ``tags`` override ``game.tags`` which override the defaults; the Result
    tag and the final token follow ``game.result()`` unless a Result tag is given.
    """
    variant = game.variant
    international = variant.size == 10
    merged: Dict[str, str] = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?",
                              "White": "?", "Black": "?"}
    merged.update(game.tags)
    merged.update(tags or {})
    merged.setdefault("Result", game.result().score_text(international))
    merged["GameType"] = str(variant.game_type)
    start = game.start
    if start.fen() != type(start).start(variant).fen():
        merged["SetUp"] = "1"
        merged["FEN"] = start.fen()
    lines = []
    for name in SEVEN_TAGS + ("GameType", "SetUp", "FEN"):
        if name in merged:
            lines.append(f'[{name} "{_quote(merged.pop(name))}"]')
    for name, value in merged.items():
        lines.append(f'[{name} "{_quote(value)}"]')
    lines.append("")
    tokens: List[str] = []
    first_mover_white = variant.first == "white"
    white_to_move = start.white_to_move
    number = 1
    for i, move in enumerate(game.moves):
        is_first_mover = white_to_move == first_mover_white
        if is_first_mover:
            tokens.append(f"{number}.")
        elif i == 0:
            tokens.append(f"{number}...")
        tokens.append(move.pdn())
        if not is_first_mover:
            number += 1
        white_to_move = not white_to_move
    tokens.append(_result_of(lines))
    lines.extend(_wrap(tokens))
    return "\n".join(lines) + "\n\n"


def _result_of(tag_lines: List[str]) -> str:
    for line in tag_lines:
        if line.startswith("[Result "):
            return line.split('"')[1]
    return "*"


def _wrap(tokens: List[str], width: int = 79) -> List[str]:
    out, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            out.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        out.append(line)
    return out


# ---- reading -----------------------------------------------------------------------
Token = Tuple[str, str, int]  # (kind, text, line)


def _tokens(text: str, source: str) -> Iterator[Token]:
    """Kinds: 'tag' (text = raw inside brackets), 'word', 'result'."""
    i, n, line = 0, len(text), 1
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch.isspace():
            i += 1
        elif ch == "[":
            end = i + 1
            in_string = False
            while end < n and (in_string or text[end] != "]"):
                if text[end] == '"' and text[end - 1] != "\\":
                    in_string = not in_string
                if text[end] == "\n":
                    raise InvalidPdnError(f"{source}:{line}: unterminated tag")
                end += 1
            if end >= n:
                raise InvalidPdnError(f"{source}:{line}: unterminated tag")
            yield ("tag", text[i + 1:end], line)
            i = end + 1
        elif ch == "{":
            end = text.find("}", i)
            if end < 0:
                raise InvalidPdnError(f"{source}:{line}: unterminated comment")
            line += text.count("\n", i, end)
            i = end + 1
        elif ch == ";":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif ch == "(":
            depth, start_line = 0, line
            while i < n:
                c = text[i]
                if c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                    if depth == 0:
                        break
                elif c == "{":
                    close = text.find("}", i)
                    if close < 0:
                        break
                    line += text.count("\n", i, close)
                    i = close
                elif c == ";":
                    close = text.find("\n", i)
                    if close < 0:
                        break
                    i = close - 1  # the newline itself is counted on the next step
                elif c == "\n":
                    line += 1
                i += 1
            if i >= n:
                raise InvalidPdnError(f"{source}:{start_line}: unterminated variation")
            i += 1
        elif ch == ")":
            raise InvalidPdnError(f"{source}:{line}: ')' without '('")
        else:
            end = i
            while end < n and not text[end].isspace() and text[end] not in "[]{}();":
                end += 1
            word = text[i:end]
            i = end
            yield ("result" if word in RESULT_TOKENS else "word", word, line)


def _parse_tag(raw: str, source: str, line: int) -> Tuple[str, str]:
    name, _, rest = raw.strip().partition(" ")
    rest = rest.strip()
    if not name or len(rest) < 2 or rest[0] != '"' or rest[-1] != '"':
        raise InvalidPdnError(f"{source}:{line}: malformed tag [{raw}]")
    return name, rest[1:-1].replace('\\"', '"').replace("\\\\", "\\")


def _clean_move_word(word: str) -> str:
    """Strip move numbers glued to moves (``1.11-15``), suffixes (``!?``) and NAGs."""
    if "." in word:
        word = word.rsplit(".", 1)[1]
    return word.rstrip("!?+#*")


def iter_games(text: str, variant: Union[Variant, str, None] = None,
               source: str = "<pdn>") -> Iterator["object"]:
    """Yield :class:`~.game.Game` objects from PDN text, in order.

    The variant comes from each game's ``[GameType]`` tag, else ``variant``,
    else English.  A bad move or FEN raises :class:`InvalidPdnError` naming
    ``source`` and the line.
    """
    from .game import Game
    default = get_variant(variant) if variant is not None else None
    tags: Dict[str, str] = {}
    game: Optional[Game] = None
    have_content = False

    def new_game(line: int) -> Game:
        variant_here = default
        if "GameType" in tags:
            code_text = tags["GameType"].split(",")[0].strip()
            if not code_text.isdigit() or int(code_text) not in GAME_TYPES:
                raise InvalidPdnError(f"{source}:{line}: unsupported GameType {tags['GameType']!r}")
            variant_here = get_variant(GAME_TYPES[int(code_text)])
        try:
            g = Game(variant_here or "english", fen=tags.get("FEN") or None)
        except DraughtsError as exc:
            raise InvalidPdnError(f"{source}:{line}: {exc}") from None
        g.tags = dict(tags)
        return g

    for kind, word, line in _tokens(text, source):
        if kind == "tag":
            if game is not None:
                yield game  # the previous game ended without a result token
                game, tags, have_content = None, {}, False
            name, value = _parse_tag(word, source, line)
            if game is None and name in tags:
                # A tag seen twice: the previous game had tags only (no moves, no result).
                yield new_game(line)
                tags = {}
            tags[name] = value
            continue
        if game is None:
            game = new_game(line)
        if kind == "result":
            game.tags.setdefault("Result", word)
            yield game
            game, tags, have_content = None, {}, False
            continue
        if word.startswith("$"):
            continue
        move_text = _clean_move_word(word)
        if not move_text or move_text.isdigit():
            continue  # a move number such as "12." or "12..."
        have_content = True
        try:
            game.push(move_text)
        except DraughtsError as exc:
            raise InvalidPdnError(f"{source}:{line}: move {word!r}: {exc}") from None
    if game is not None:
        yield game


def read_games(text: str, variant: Union[Variant, str, None] = None,
               source: str = "<pdn>") -> List["object"]:
    """All games of PDN text (see :func:`iter_games`)."""
    return list(iter_games(text, variant, source))
