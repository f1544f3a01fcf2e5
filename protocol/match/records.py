"""Match records as PDN: a finished game written out (:func:`game_text`), and PDN files read
back for ``--resume`` and ``merge`` (:func:`read_records`).

Reading is one pass over the file, line by line, in constant memory per game: the file is
split into game texts as it goes (a game starts at a tag line that follows a non-tag line,
outside comments and variations). Each game's text then gives a :class:`GameRecord`:

* ``check_moves=True`` hands the text to :func:`draughts_engine.pdn.read_games`, which replays
  every move against the rules (about a millisecond and a half per game of CPython);
* ``check_moves=False`` reads only the tags and the result token at the end (what resume and
  merge need; a 40,000-game file takes seconds).

A stray ``}`` or ``]`` (outside a comment, tag or variation) makes that game a problem named by
file and line before any reader sees it. Problems do not stop the pass: the caller decides
(resume drops a cut-off last game and refuses anything else; merge skips with a warning).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, Any, Dict, Iterator, List, Optional, Tuple

from draughts_engine.errors import InvalidPdnError
from draughts_engine.game import Game
from draughts_engine.pdn import RESULT_TOKENS, read_games
from draughts_engine.variants import Variant
from protocol.match.errors import MAX_DIGITS, MatchError

__all__ = ["TERMINATIONS", "FORFEITS", "GameRecord", "game_text", "OPENING_END_COMMENT",
           "GameText", "split_games", "read_game_text", "record_from_game", "PdnContents",
           "read_records", "copy_games", "MAX_LINE_BYTES"]

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


@dataclass
class GameRecord:
    """A finished game: ``outcome`` is ``white``, ``black`` or ``draw``.

    ``index`` is the plan index (``Round`` - 1; None if the file has no usable Round). A record
    read from a file may have no ``text``/``moves`` (see :func:`read_records`); ``span`` is
    then where its text is: ``(path, first byte, end byte)``. ``notes`` are lines for the
    user (the end of a crashed engine's stderr), never written to the PDN file.
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


# --------------------------------------------------------------------------- splitting files


@dataclass
class GameText:
    """One game's text as it stands in a file: from line ``line``, bytes ``start:end``;
    ``tag_lines`` are its leading tag lines (stripped); ``problem`` is the first stray bracket
    met (empty when none)."""

    text: str
    line: int
    start: int
    end: int
    problem: str = ""
    tag_lines: Tuple[str, ...] = ()


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
    while True:
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            break
        number += 1
        if len(raw) > MAX_LINE_BYTES:
            raise MatchError(f"{path}:{number}: a line longer than {MAX_LINE_BYTES} bytes: "
                             f"not a PDN file")
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise MatchError(f"{path}:{number}: not UTF-8 text") from None
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
            yield GameText("".join(lines), first_line, start, offset, problem, tuple(tag_lines))
            lines, tag_lines, has_content, problem = [], [], False, ""
        if not lines:
            first_line, start = number, offset
        lines.append(line)
        offset += len(raw)
        if stripped:
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
        yield GameText("".join(lines), first_line, start, offset, problem, tuple(tag_lines))


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
    """``[Name "value"]`` on a line of its own (as our writer puts it); None for anything else."""
    space = line.find(' "')
    if space < 2 or not line.endswith('"]'):
        return None
    value = line[space + 2:-2]
    if '"' in value and '"' in value.replace('\\"', ""):
        return None
    if "\\" in value:
        value = value.replace('\\"', '"').replace("\\\\", "\\")
    return line[1:space], value


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


def record_from_game(game: Any, text: str) -> Optional[GameRecord]:
    """A :class:`GameRecord` from a game read from PDN; None if it has no decisive/draw result."""
    tags = game.tags
    outcome = OUTCOMES.get(tags.get("Result", "*"))
    if outcome is None:
        return None
    return GameRecord(_round_index(tags.get("Round", "")), tags.get("White", "?"),
                      tags.get("Black", "?"), outcome, tags.get("Termination", "normal"), "",
                      game.ply, text, tuple(m.pdn() for m in game.moves), tags.get("Event", ""),
                      tags.get("GameType", str(game.variant.game_type)))


def _record(game: GameText, path: str, variant: Optional[Variant], check_moves: bool,
            keep_text: bool) -> GameRecord:
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
    else:
        tags = _header_tags(game, variant, path)
        outcome = OUTCOMES.get(tags.get("Result", "*"))
        if outcome is None:
            raise MatchError(f"{path}:{game.line}: a game without a result")
        last = text.rsplit(None, 1)[-1]
        if last != tags["Result"]:
            raise MatchError(f"{path}:{game.line}: the Result tag says {tags['Result']}, "
                             f"the game ends with {last}")
        plies = _number(tags.get("PlyCount", ""))
        record = GameRecord(_round_index(tags.get("Round", "")), tags.get("White", "?"),
                            tags.get("Black", "?"), outcome, tags.get("Termination", "normal"),
                            "", plies or 0, text if keep_text else "",
                            (), tags.get("Event", ""), tags.get("GameType", ""))
    record.span = (path, game.start, game.end)
    return record


@dataclass
class PdnContents:
    """What :func:`read_records` found: the finished games, the problems (messages naming
    file and line; at most :data:`MAX_PROBLEMS` kept, ``problem_count`` counts all), the byte
    offset after the last good game and the file's size; ``tail_unfinished`` says that the last
    game has no result at its end (what an interrupted writer leaves)."""

    records: List[GameRecord]
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
                words = game.text.rsplit(None, 1)
                if not game.problem and (not words or words[-1] not in RESULT_TOKENS):
                    contents.tail_unfinished = True
                    problem = f"{path}:{game.line}: an unfinished game (no result at its end)"
                else:
                    try:
                        contents.records.append(_record(game, path, variant, check_moves,
                                                        keep_text))
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


def copy_games(records: List[GameRecord], out: IO[str]) -> None:
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
