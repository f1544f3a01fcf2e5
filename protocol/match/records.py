"""Match records as PDN: a finished game written out (:func:`game_text`), and PDN files read
back for ``--resume`` and ``merge`` (:func:`read_records`).

Reading is one pass over the file, line by line, in constant memory per game: the file is
split into game texts as it goes (a game starts at a tag line that follows a non-tag line,
outside comments and variations). Each game's text then gives a :class:`FinishedGame`:

* ``check_moves=True`` hands the text to :func:`draughts_engine.pdn.read_games`, which replays
  every move against the rules (about a millisecond and a half per game of CPython);
* ``check_moves=False`` reads only the tags and the result token at the end (what resume and
  merge need; a 40,000-game file takes seconds).

A stray ``}`` or ``]`` (outside a comment, tag or variation) makes that game a problem named by
file and line before any reader sees it. Problems do not stop the pass: the caller decides
(resume drops a cut-off last game and refuses anything else; merge skips with a warning).
Text at the end without a result is a cut-off game (``tail_unfinished``) only when it reads
as the start of one (:func:`looks_cut_off`): anything else there (notes, a document) is a
problem like any other, never something to drop. A byte order mark at the start and PDN
escape lines (``%`` in the first column) are skipped.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import IO, Any, Dict, Iterator, List, Optional, Tuple

from draughts_engine.errors import InvalidPdnError
from draughts_engine.game import Game
from draughts_engine.pdn import RESULT_TOKENS, read_games, stream_games
from draughts_engine.variants import Variant
from protocol.match.errors import MAX_DIGITS, MatchError

__all__ = ["TERMINATIONS", "FORFEITS", "FinishedGame", "game_text", "OPENING_END_COMMENT",
           "GameText", "split_games", "read_game_text", "record_from_game", "PdnContents",
           "read_records", "copy_games", "MAX_LINE_BYTES", "looks_cut_off", "opening_key",
           "same_game", "DuplicateFinder"]

TERMINATIONS = ("normal", "adjudication", "time forfeit", "stalled", "crash", "illegal move",
                "protocol error")
"""The values of the ``Termination`` tag, in the order the table lists them."""
FORFEITS = frozenset(TERMINATIONS[2:])
"""The terminations that are a forfeit of the side to move."""
OUTCOMES = {"1-0": "white", "2-0": "white", "0-1": "black", "0-2": "black",
            "1/2-1/2": "draw", "1-1": "draw"}
OPENING_END_COMMENT = "end of opening"
MAX_LINE_BYTES = 1 << 20
"""Longest line read from a PDN file (our writer wraps movetext at 79 columns)."""
MAX_PROBLEMS = 50
"""Problems kept word for word; beyond that they are only counted."""
MAX_PROBLEM_CHARS = 300
"""A problem's message is cut there (a reader may quote a whole 5,000-digit tag)."""
_SPECIAL = frozenset("{};])(")  # what makes a movetext line worth a closer look
_MOVE_CHARS = frozenset("0123456789abcdefghx-:/")
"""What the moves (and a cut result token) of our games are made of: numeric or algebraic
squares, ``-``, ``x``, ``:``."""


@dataclass
class FinishedGame:
    """A finished game: ``outcome`` is ``white``, ``black`` or ``draw``.

    ``index`` is the plan index (``Round`` - 1; None if the file has no usable Round). A record
    read from a file may have no ``text``/``moves`` (see :func:`read_records`); ``span`` is
    then where its text is: ``(path, first byte, end byte)``. ``notes`` are lines for the
    user (the end of a crashed engine's stderr), never written to the PDN file.

    Read from a file, a record also keeps what says which match it belongs to (None when the
    game does not have it): the ``WhiteLimits``, ``BlackLimits`` and ``Opening`` tags, and
    ``opening_key``, its start position and opening moves (:func:`opening_key`).
    """

    index: Optional[int]
    white: str
    black: str
    outcome: str
    termination: str = "normal"
    reason: str = ""
    plies: int = 0
    text: str = ""
    moves: Tuple[str, ...] = ()
    event: str = ""
    game_type: str = ""
    span: Optional[Tuple[str, int, int]] = None
    notes: Tuple[str, ...] = ()
    white_limits: Optional[str] = None
    black_limits: Optional[str] = None
    opening: Optional[str] = None
    opening_key: Optional[Tuple[str, ...]] = None
    adjudication: Optional[str] = None
    """For ``termination`` ``adjudication``: the kind (``resign``, ``draw``, ``tables``,
    ``move cap``), the ``Adjudication`` tag."""
    seconds: Tuple[float, float] = (0.0, 0.0)
    """Thinking time White and Black used (a game just played; not in the PDN)."""

    @property
    def loser(self) -> Optional[str]:
        if self.outcome == "white":
            return self.black
        if self.outcome == "black":
            return self.white
        return None


# --------------------------------------------------------------------------- writing


def game_text(game: Game, tags: Dict[str, str], comment: str = "", opening_plies: int = 0) -> str:
    """PDN of ``game``: ``{end of opening}`` after its first ``opening_plies`` plies (when
    there are any) and ``comment`` just before the result token.

    >>> g = Game("english"); _ = g.push_all(["11-15", "23-19", "8-11"])
    >>> print(game_text(g, {"Result": "*"}, "stopped", 2).split("\\n\\n")[1])
    1. 11-15 23-19 {end of opening} 2. 8-11 {stopped} *
    """
    comments: Dict[int, List[str]] = {}
    if 0 < opening_plies <= game.ply:
        comments[opening_plies] = [OPENING_END_COMMENT]
    if comment:
        comments.setdefault(game.ply, []).append(comment)
    return game.to_pdn(tags, comments=comments)


def opening_key(text: str, fen: Optional[str] = None) -> Tuple[str, ...]:
    """What tells one opening from another in a game's PDN text (as our writer puts it: tag
    lines, then the movetext): its ``FEN`` tag (``""`` without one; ``fen`` when given, read
    from the tags already) and the moves as written before ``{end of opening}`` (none without
    that comment).

    >>> g = Game("english"); _ = g.push_all(["11-15", "23-19", "8-11"])
    >>> opening_key(game_text(g, {"Result": "*"}, "", 2))
    ('', '11-15', '23-19')
    """
    at = text.find("{" + OPENING_END_COMMENT + "}")
    head = text[:at] if at >= 0 else text
    last_tag = head.rfind("\n[") + 1  # where the last tag line begins (0: none, or the first)
    end_of_tags = head.find("\n", last_tag) + 1 if last_tag or head.startswith("[") else 0
    if fen is None:
        fen = ""
        for line in head[:end_of_tags].splitlines():
            tag = _tag(line.strip())
            if tag is not None and tag[0] == "FEN":
                fen = tag[1]
    if at < 0 or end_of_tags <= 0:
        return (fen,)
    movetext = head[end_of_tags:]
    if "%" in movetext:
        movetext = "\n".join(line for line in movetext.splitlines() if not line.startswith("%"))
    moves: List[str] = []
    in_comment = False
    for word in movetext.split():
        if in_comment or word.startswith("{"):
            in_comment = not word.endswith("}")
            continue
        word = word.rsplit(".", 1)[-1]
        if word and not word.isdigit():
            moves.append(word)
    return (fen, *moves)


# --------------------------------------------------------------------------- splitting files


@dataclass
class GameText:
    """One game's text as it stands in a file: from line ``line``, bytes ``start:end``;
    ``tag_lines`` are its leading tag lines (stripped); ``problem`` is the first stray bracket
    met (empty when none); ``last_word`` the last word of its last line that is neither blank
    nor an escape line (``%``)."""

    text: str
    line: int
    start: int
    end: int
    problem: str = ""
    tag_lines: Tuple[str, ...] = ()
    last_word: str = ""


def _scan(line: str, state: List[int]) -> str:
    """Follow comments and variations through one non-tag line; ``state`` is
    ``[in_comment, variation_depth]``. Returns what is stray in it ('' if nothing)."""
    i, n = 0, len(line)
    stray = ""
    while i < n:
        if state[0]:
            close = line.find("}", i)
            if close < 0:
                return stray
            state[0], i = 0, close + 1
            continue
        hits = [j for j in (line.find(c, i) for c in "{};])(") if j >= 0]
        if not hits:
            return stray
        j = min(hits)
        ch = line[j]
        if ch == ";":
            return stray
        if ch == "{":
            state[0] = 1
        elif ch == "(":
            state[1] += 1
        elif ch == ")":
            state[1] = max(0, state[1] - 1)
        elif not stray and (ch == "}" or state[1] == 0):
            stray = "'}' without '{'" if ch == "}" else "']' outside a tag"
        i = j + 1
    return stray


def split_games(handle: IO[bytes], path: str) -> Iterator[GameText]:
    """The games of a binary PDN stream, one :class:`GameText` at a time, in one pass.

    A byte order mark at the start is skipped (the first game's span begins after it); escape
    lines (``%`` in the first column) belong to the game around them but count for nothing.
    Raises :class:`MatchError` (naming file and line) for text that is not UTF-8 or a line
    longer than :data:`MAX_LINE_BYTES`.
    """
    lines: List[str] = []
    tag_lines: List[str] = []
    first_line = start = offset = 0
    number = 0
    previous_tag = False
    has_content = False
    state = [0, 0]
    opened_at = 0  # the line where the open comment or variation began
    blank_before = True
    problem = ""
    last_word = ""
    while True:
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            break
        number += 1
        if len(raw) > MAX_LINE_BYTES:
            raise MatchError(f"{path}:{number}: a line longer than {MAX_LINE_BYTES} bytes: "
                             f"not a PDN file")
        if number == 1 and raw.startswith(codecs.BOM_UTF8):
            raw = raw[len(codecs.BOM_UTF8):]
            offset = len(codecs.BOM_UTF8)
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise MatchError(f"{path}:{number}: not UTF-8 text") from None
        if not state[0] and line.startswith("%"):  # an escape line: kept, but counts for nothing
            if not lines:
                first_line, start = number, offset
            lines.append(line)
            offset += len(raw)
            continue
        stripped = line.strip()
        is_tag = not state[0] and not state[1] and stripped.startswith("[")
        if (state[0] or state[1]) and blank_before and _tag(stripped) is not None:
            # a tag line after a blank line: the next game, so the comment or variation
            # opened earlier was never closed
            if not problem:
                what = "comment" if state[0] else "variation"
                problem = f"{path}:{opened_at}: unterminated {what}"
            state[0] = state[1] = 0
            is_tag = True
        blank_before = not stripped
        if is_tag and not previous_tag and has_content:
            yield GameText("".join(lines), first_line, start, offset, problem, tuple(tag_lines),
                           last_word)
            lines, tag_lines, has_content, problem = [], [], False, ""
        if not lines:
            first_line, start = number, offset
        lines.append(line)
        offset += len(raw)
        if stripped:
            last_word = stripped.rsplit(None, 1)[-1]
            if is_tag and (previous_tag or not has_content):
                tag_lines.append(stripped)
            has_content = True
            previous_tag = is_tag
            if not is_tag and (state[0] or not _SPECIAL.isdisjoint(stripped)):
                was_open = state[0] or state[1]
                stray = _scan(stripped, state)
                if not was_open and (state[0] or state[1]):
                    opened_at = number
                if stray and not problem:
                    problem = f"{path}:{number}: {stray}"
    if has_content:
        yield GameText("".join(lines), first_line, start, offset, problem, tuple(tag_lines),
                       last_word)


def looks_cut_off(text: str) -> bool:
    """Whether ``text``, found after the last finished game of a file, can be a game our
    writer was writing when it was stopped: its first line is a tag line (or the start of one),
    it reads as one game without a result token, every move word is made of move characters,
    and anything the reader finds wrong is on its last line (cut in the middle of a tag, a
    comment or a token). Notes or a document appended to a file are not.

    >>> looks_cut_off('[Event "x"]\\n[Round "2"]\\n\\n1. 11-15 23-19 {end of')
    True
    >>> looks_cut_off("# My notes\\n\\nSome text.\\n")
    False
    """
    return _cut_off(text, _TAIL, list(stream_games(text, strict=False, replay=False,
                                                   source=_TAIL)))


_TAIL = "<tail>"


def _cut_off(text: str, source: str, games: List[Any]) -> bool:
    """:func:`looks_cut_off` of ``text``, read as ``games`` (errors naming ``source``)."""
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)
             if line.strip() and not line.startswith("%")]
    if not lines or len(games) != 1:
        return False
    first = lines[0][1]
    if _tag(first) is None and not (len(lines) == 1 and _tag_start(first)):
        return False
    game = games[0]
    if game.result is not None:
        return False
    if game.error is not None and not str(game.error).startswith(f"{source}:{lines[-1][0]}:"):
        return False
    return all(_MOVE_CHARS.issuperset(word) for word in game.move_texts)


def _tag_start(line: str) -> bool:
    """Whether ``line`` is the start of a tag line cut short: ``[``, ``[Name``, ``[Name "val``."""
    if not line.startswith("["):
        return False
    name, space, rest = line[1:].partition(" ")
    if name and not name.replace("_", "").isalnum():
        return False
    return not space or rest == "" or (rest.startswith('"') and not rest.endswith('"]'))


def _unfinished(game: GameText, path: str) -> Tuple[str, bool]:
    """What is wrong with a game text without a result at its end, and whether it is a game
    cut off by an interrupted writer (:func:`looks_cut_off`)."""
    games = list(stream_games(game.text, strict=False, replay=False, source=_TAIL))
    if _cut_off(game.text, _TAIL, games):
        return f"{path}:{game.line}: an unfinished game (no result at its end)", True
    if len(games) > 1 and games[0].result is not None:
        return (f"{path}:{game.line + games[1].line - 1}: text after the end of the game at "
                f"line {game.line} (not a game)"), False
    return (f"{path}:{game.line}: text that is not a game (no result at its end, and it does "
            f"not read as the start of a game)"), False


# --------------------------------------------------------------------------- reading records


def _number(text: str) -> Optional[int]:
    """A tag's non-negative integer; None for anything else (also for more than
    :data:`~protocol.match.errors.MAX_DIGITS` digits: such a Round is in no plan)."""
    digits = text.strip()
    if digits.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS:
        return int(digits)
    return None


def _round_index(text: str) -> Optional[int]:
    number = _number(text)
    return number - 1 if number is not None and number >= 1 else None


def _tag(line: str) -> Optional[Tuple[str, str]]:
    """``[Name "value"]`` on a line of its own (as our writer puts it), the value unescaped
    (``\\"`` and ``\\\\``); None for anything else (the real reader decides then)."""
    space = line.find(' "')
    if space < 2 or not line.endswith('"]'):
        return None
    value = line[space + 2:-2]
    if '"' not in value and "\\" not in value:
        return line[1:space], value
    out: List[str] = []
    index, length = 0, len(value)
    while index < length:
        ch = value[index]
        if ch == "\\":
            if index + 1 == length:
                return None  # the closing quote is escaped: not a tag of its own line
            if value[index + 1] in '"\\':
                index += 1
                ch = value[index]
        elif ch == '"':
            return None
        out.append(ch)
        index += 1
    return line[1:space], "".join(out)


def _header_tags(game: GameText, variant: Optional[Variant], path: str) -> Dict[str, str]:
    tags: Dict[str, str] = {}
    for line in game.tag_lines:
        tag = _tag(line)
        if tag is None:  # several tags on a line, or odd spacing: the real reader decides
            header = "\n".join(game.tag_lines) + "\n*\n"
            return read_game_text(game, path, variant, header)[0].tags
        tags[tag[0]] = tag[1]
    return tags


def read_game_text(game: GameText, path: str, variant: Optional[Variant] = None,
                   text: Optional[str] = None) -> List[Any]:
    """:func:`read_games` on one game's text (or on ``text``, a part of it), its errors'
    line numbers made lines of the file: raises :class:`InvalidPdnError`."""
    try:
        return read_games(game.text if text is None else text, variant, source=path)
    except InvalidPdnError as exc:
        message = str(exc)
        prefix = f"{path}:"
        if message.startswith(prefix):
            number, _, rest = message[len(prefix):].partition(":")
            if number.isdigit():
                message = f"{path}:{int(number) + game.line - 1}:{rest}"
        raise InvalidPdnError(message) from None


def record_from_game(game: Any, text: str) -> Optional[FinishedGame]:
    """A :class:`FinishedGame` from a game read from PDN; None if it has no decisive/draw result."""
    tags = game.tags
    outcome = OUTCOMES.get(tags.get("Result", "*"))
    if outcome is None:
        return None
    return FinishedGame(_round_index(tags.get("Round", "")), tags.get("White", "?"),
                      tags.get("Black", "?"), outcome, tags.get("Termination", "normal"), "",
                      game.ply, text, tuple(m.pdn() for m in game.moves), tags.get("Event", ""),
                      tags.get("GameType", str(game.variant.game_type)),
                      white_limits=tags.get("WhiteLimits"), black_limits=tags.get("BlackLimits"),
                      opening=tags.get("Opening"), adjudication=tags.get("Adjudication"))


def _record(game: GameText, path: str, variant: Optional[Variant], check_moves: bool,
            keep_text: bool) -> FinishedGame:
    """The record of one game text; :class:`MatchError` says what is wrong with it."""
    if game.problem:
        raise MatchError(game.problem)
    text = game.text.strip("\n") + "\n\n"
    if check_moves:
        games = read_game_text(game, path, variant)
        if len(games) != 1:
            raise MatchError(f"{path}:{game.line}: {len(games)} games where one was expected")
        record = record_from_game(games[0], text if keep_text else "")
        if record is None:
            raise MatchError(f"{path}:{game.line}: a game without a result")
        record.opening_key = opening_key(text, games[0].tags.get("FEN", ""))
    else:
        tags = _header_tags(game, variant, path)
        outcome = OUTCOMES.get(tags.get("Result", "*"))
        if outcome is None:
            raise MatchError(f"{path}:{game.line}: a game without a result")
        last = game.last_word
        if last != tags["Result"]:
            raise MatchError(f"{path}:{game.line}: the Result tag says {tags['Result']}, "
                             f"the game ends with {last}")
        plies = _number(tags.get("PlyCount", ""))
        record = FinishedGame(_round_index(tags.get("Round", "")), tags.get("White", "?"),
                            tags.get("Black", "?"), outcome, tags.get("Termination", "normal"),
                            "", plies or 0, text if keep_text else "",
                            (), tags.get("Event", ""), tags.get("GameType", ""),
                            white_limits=tags.get("WhiteLimits"),
                            black_limits=tags.get("BlackLimits"), opening=tags.get("Opening"),
                            opening_key=opening_key(text, tags.get("FEN", "")),
                            adjudication=tags.get("Adjudication"))
    record.span = (path, game.start, game.end)
    return record


def _share(record: FinishedGame, shared: Dict[Any, Any]) -> None:
    """Make the values many records of a file repeat one object each (memory for big files)."""
    record.white_limits = shared.setdefault(record.white_limits, record.white_limits)
    record.black_limits = shared.setdefault(record.black_limits, record.black_limits)
    record.opening = shared.setdefault(record.opening, record.opening)
    record.opening_key = shared.setdefault(record.opening_key, record.opening_key)
    record.white = shared.setdefault(record.white, record.white)
    record.black = shared.setdefault(record.black, record.black)
    record.event = shared.setdefault(record.event, record.event)


@dataclass
class PdnContents:
    """What :func:`read_records` found: the finished games, the problems (messages naming
    file and line; at most :data:`MAX_PROBLEMS` kept, ``problem_count`` counts all), the byte
    offset after the last good game and the file's size; ``tail_unfinished`` says that the last
    game has no result at its end and reads as the start of a game (:func:`looks_cut_off`:
    what an interrupted writer leaves, the last problem)."""

    records: List[FinishedGame]
    good_end: int
    size: int
    problems: List[str]
    problem_count: int = 0
    tail_unfinished: bool = False


def read_records(path: str, variant: Optional[Variant] = None, check_moves: bool = True,
                 keep_text: bool = True) -> PdnContents:
    """The finished games of a PDN file, in one streaming pass (see the module docstring).

    A file that does not exist has no games. Games that cannot be read, or lack a result
    token at their end, are reported in ``problems``. Raises :class:`MatchError` when the
    file cannot be read at all.
    """
    contents = PdnContents([], 0, 0, [])
    shared: Dict[Any, Any] = {}
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        return contents
    except OSError as exc:
        raise MatchError(f"cannot read {path}: {exc.strerror or exc}") from None
    with handle:
        try:
            for game in split_games(handle, path):
                contents.tail_unfinished = False
                if not game.problem and game.last_word not in RESULT_TOKENS:
                    problem, contents.tail_unfinished = _unfinished(game, path)
                else:
                    try:
                        record = _record(game, path, variant, check_moves, keep_text)
                        _share(record, shared)
                        contents.records.append(record)
                        contents.good_end = game.end
                        continue
                    except (MatchError, ValueError) as exc:  # the rules' errors are ValueErrors
                        problem = str(exc)
                        if not problem.startswith(f"{path}:"):
                            problem = f"{path}:{game.line}: {problem}"
                contents.problem_count += 1
                if len(contents.problems) < MAX_PROBLEMS:
                    if len(problem) > MAX_PROBLEM_CHARS:
                        problem = problem[:MAX_PROBLEM_CHARS] + "..."
                    contents.problems.append(problem)
        except OSError as exc:
            raise MatchError(f"cannot read {path}: {exc.strerror or exc}") from None
        contents.size = handle.tell()
    return contents


def _moves_of(record: FinishedGame) -> Tuple[str, ...]:
    """The moves of a record as written in its PDN text (read back from its span if need be);
    ``()`` when they cannot be read."""
    if record.moves:
        return record.moves
    text = record.text
    if not text and record.span is not None:
        path, start, end = record.span
        try:
            with open(path, "rb") as handle:
                handle.seek(start)
                text = handle.read(end - start).decode("utf-8", "replace")
        except OSError:
            return ()
    games = list(stream_games(text, strict=False, replay=False))
    return games[0].move_texts if len(games) == 1 else ()


def _header(record: FinishedGame) -> Tuple[Any, ...]:
    """What two records of one game written twice share besides their moves."""
    return (record.event, record.index, record.white, record.black, record.outcome,
            record.game_type)


def same_game(a: FinishedGame, b: FinishedGame) -> bool:
    """Whether two records are one game written twice: the same event, round, players,
    variant, result and moves (the date, the comments, the other tags may differ)."""
    if _header(a) != _header(b):
        return False
    if a.plies and b.plies and a.plies != b.plies:
        return False
    return _moves_of(a) == _moves_of(b)


class DuplicateFinder:
    """Tells the games of several PDN files apart: :meth:`add` each record in turn.

    A record is a duplicate when an earlier one is the same game (:func:`same_game`); a
    record that only shares Event and Round with an earlier different game is a clash
    (counted in ``clashes``, the first pair kept in ``clash_example``).  The moves of a record
    are read at most once, and only when an earlier record has its header: a merge of many
    files costs one comparison of headers per record, not one per pair of games.
    """

    def __init__(self) -> None:
        self.clashes = 0
        self.clash_example: Optional[Tuple[FinishedGame, FinishedGame]] = None
        self._rounds: Dict[Tuple[str, int], FinishedGame] = {}
        self._by_header: Dict[Tuple[Any, ...], List[List[Any]]] = {}

    def add(self, record: FinishedGame) -> bool:
        """Whether ``record`` repeats a game added before (then it is not kept); records
        without a round number are never duplicates."""
        if record.index is None:
            return False
        header = _header(record)
        seen = self._by_header.setdefault(header, [])
        moves: Optional[Tuple[str, ...]] = None
        if seen:
            moves = _moves_of(record)
            for entry in seen:  # [record, its moves or None until needed]
                other = entry[0]
                if record.plies and other.plies and record.plies != other.plies:
                    continue
                if entry[1] is None:
                    entry[1] = _moves_of(other)
                if entry[1] == moves:
                    return True
        seen.append([record, moves])
        first = self._rounds.setdefault((record.event, record.index), record)
        if first is not record:
            self.clashes += 1
            if self.clash_example is None:
                self.clash_example = (first, record)
        return False


def copy_games(records: List[FinishedGame], out: IO[str]) -> None:
    """Write the games of ``records`` to ``out`` in their order: their ``text``, or else the
    bytes their ``span`` names (read back from the files, one game at a time)."""
    handles: Dict[str, IO[bytes]] = {}
    try:
        for record in records:
            if record.text or record.span is None:
                out.write(record.text)
                continue
            path, start, end = record.span
            if path not in handles:
                handles[path] = open(path, "rb")
            handle = handles[path]
            handle.seek(start)
            out.write(handle.read(end - start).decode("utf-8").strip("\n") + "\n\n")
    except OSError as exc:
        raise MatchError(f"cannot copy games: {exc.strerror or exc}"
                         + (f" ({exc.filename})" if exc.filename else "")) from None
    finally:
        for handle in handles.values():
            handle.close()
