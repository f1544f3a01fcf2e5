"""``--replay FILE.pdn [--game N]``: step through a saved game, forward and back.

:func:`read_collection` reads every game of a PDN file (ours, ``draughts-match`` output, other
programs') with its tags, its comments by ply and its result; the moves are checked by the rules
core. :class:`ReplaySession` shows one game: Enter steps forward, ``b`` back, a number jumps to
that ply, ``end``/``start`` to the ends, ``game N`` to another game, ``tags``, ``help``, ``quit``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import IO, Callable, Dict, List, Optional, Set, Tuple

from draughts_engine.pdn_writer import tag_line

from .movetext import pieces
from .records import GameRecord, LoadError, PlayError, records_from_text
from .render import Style, board_lines

__all__ = ["ReplayGame", "read_collection", "ReplaySession", "REPLAY_HELP"]

REPLAY_HELP = (
    "Enter or n: next move    b: back one move    N (a number): go to ply N",
    "start / end: first / last position    game N: another game of the file",
    "tags: the game's tags    help: this list    q or quit: leave",
)


@dataclass
class ReplayGame:
    """One game of a file: the record with every move played, its tags and the comments that
    follow each ply (``comments[0]`` are those before the first move)."""

    number: int
    record: GameRecord
    tags: Dict[str, str]
    comments: Dict[int, List[str]] = field(default_factory=dict)

    @property
    def plies(self) -> int:
        return len(self.moves)

    def __post_init__(self) -> None:
        self.moves: List[str] = list(self.record.move_texts)
        #: The moves as a person reads them (the game's own notation: ``c3-d4`` in Russian).
        self.shown: List[str] = list(self.record.display_texts)


def _game_chunks(text: str) -> List[Tuple[int, str]]:
    """(first line, text) of each game, cut where the rules core's reader ends a game: after a
    result (with the rest of its line: ``1-0 {resigned}``), before a tag that follows moves or
    repeats a tag of the game. Comments and blank lines between games go with the next game;
    those after the last game with the last one."""
    spans: List[Tuple[int, int]] = []
    start, substance, in_moves = 0, False, False
    names: Set[str] = set()
    result_line_end: Optional[int] = None  # after a result: where its line ends

    def cut(at: int) -> None:
        nonlocal start, substance, in_moves, result_line_end
        spans.append((start, at))
        start, substance, in_moves, result_line_end = at, False, False, None
        names.clear()

    for piece in pieces(text):
        kind = piece.kind
        substantial = kind not in ("space", "comment", "escape", "stray")
        if result_line_end is not None and (substantial or piece.start >= result_line_end):
            cut(piece.start)
        if piece.depth or not substantial:
            continue
        if kind == "tag":
            name = piece.text.strip().partition(" ")[0]
            if in_moves or name in names:
                if substance:
                    cut(piece.start)
            names.add(name)
        elif kind in ("move", "number", "nag"):
            in_moves = True
        substance = True
        if kind == "result":
            result_line_end = text.find("\n", piece.end)
            if result_line_end < 0:
                result_line_end = len(text)
    if substance:
        spans.append((start, len(text)))
    elif spans:
        spans[-1] = (spans[-1][0], len(text))
    return [(text.count("\n", 0, first) + 1, text[first:last]) for first, last in spans]


def _comments_by_ply(movetext: str) -> Dict[int, List[str]]:
    """The ``{...}`` and ``; ...`` comments of the main line of PDN movetext, keyed by the plies
    before them. Those of variations are left out, like the variations themselves."""
    comments: Dict[int, List[str]] = {}
    ply = 0
    for piece in pieces(movetext):
        if piece.depth:
            continue
        if piece.kind == "move":
            ply += 1
        elif piece.kind == "comment":
            text = " ".join(piece.text.split())
            if text:
                comments.setdefault(ply, []).append(text)
    return comments


def read_collection(text: str, default_variant: str, source: str) -> List[ReplayGame]:
    """Every game of PDN ``text`` with tags, comments and result; :class:`LoadError` names the
    file and line of a problem."""
    games: List[ReplayGame] = []
    for first_line, chunk in _game_chunks(text):
        if not chunk.strip():
            continue
        try:
            records = records_from_text(chunk, default_variant, source)
        except LoadError as exc:
            raise LoadError(_shift_line(str(exc), source, first_line - 1)) from None
        record = records[0]
        tags = record.tags()
        games.append(ReplayGame(len(games) + 1, record, tags, _comments_by_ply(chunk)))
    if not games:
        raise LoadError(f"{source}: no game found")
    return games


def _shift_line(message: str, source: str, offset: int) -> str:
    """``source:N: ...`` of a chunk as the line of the whole file."""
    prefix = source + ":"
    if message.startswith(prefix):
        number, sep, rest = message[len(prefix):].partition(":")
        if sep and number.isdigit():
            return f"{prefix}{int(number) + offset}:{rest}"
    return message


class ReplaySession:
    """Show the games of a file one ply at a time (see the module docstring)."""

    def __init__(self, games: List[ReplayGame], out: IO[str], read_line: Callable[[str], str],
                 style: Style, flipped: bool = False) -> None:
        self.games = games
        self.out = out
        self._read_line = read_line
        self.style = style
        self.flipped = flipped
        self.game = games[0]
        self.ply = 0

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    # ---- moving ----------------------------------------------------------------------
    def open_game(self, number: int) -> None:
        """Show game ``number`` (from 1) at its start; :class:`PlayError` if there is none."""
        if not 1 <= number <= len(self.games):
            raise PlayError(f"the file has {len(self.games)} game(s), not a game {number}")
        self.game = self.games[number - 1]
        record = self.game.record
        if record.ply:
            record.undo(record.ply)
        self.ply = 0
        self.show_header()
        self.show()

    def go_to(self, ply: int) -> None:
        """Show the position after ``ply`` moves (clamped to the game)."""
        ply = max(0, min(ply, self.game.plies))
        record = self.game.record
        if ply > record.ply:
            record.redo(ply - record.ply)
        elif ply < record.ply:
            record.undo(record.ply - ply)
        self.ply = ply

    # ---- showing ---------------------------------------------------------------------
    def show_header(self) -> None:
        game = self.game
        tags = game.tags
        white, black = tags.get("White", "?"), tags.get("Black", "?")
        title = game.record.title
        plies = f"{game.plies} {'ply' if game.plies == 1 else 'plies'}"
        self.say(self.style.bold(f"Game {game.number} of {len(self.games)}: {white} - {black} "
                                 f"({title}, {plies}, result {tags.get('Result', '*')})"))
        for name in ("Event", "Round", "Date", "Termination"):
            if tags.get(name) and tags[name] not in ("?", "????.??.??"):
                self.say(f"  {name}: {tags[name]}")

    def show(self) -> None:
        game, record = self.game, self.game.record
        for line in board_lines(record.board_view(), self.style, self.flipped):
            self.say(line)
        if self.ply == 0:
            where = "Start position"
        else:
            where = f"Ply {self.ply}/{game.plies}: {record.move_label(self.ply - 1)} " \
                    f"{game.shown[self.ply - 1]}"
        if self.ply == game.plies:
            result = game.tags.get("Result", record.result().score)
            where += f"  (end of the game, result {result})"
            outcome = record.result()
            if outcome.is_over:
                where += f": {outcome.reason}"
        self.say(where)
        for comment in game.comments.get(self.ply, []):
            self.say(f"  {{{comment}}}")

    # ---- the loop --------------------------------------------------------------------
    def run(self, number: int = 1) -> int:
        """Show game ``number`` and follow commands until ``quit`` or the end of input."""
        self.open_game(number)
        self.say("Enter: next, b: back, a number: go to that ply, end, help, q: quit.")
        while True:
            try:
                line = self._read_line(f"ply {self.ply}/{self.game.plies}> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.say()
                return 0
            try:
                if not self.handle(line):
                    return 0
            except PlayError as exc:
                self.say(self.style.problem(str(exc)))

    def handle(self, line: str) -> bool:
        """Carry out one command; False to leave."""
        word, _, rest = line.lower().partition(" ")
        if word in ("q", "quit", "exit"):
            return False
        if word in ("", "n", "next", "f"):
            if self.ply == self.game.plies:
                self.say("End of the game (b: back, start, game N, q: quit).")
                return True
            self.go_to(self.ply + 1)
        elif word in ("b", "back", "p", "prev"):
            if self.ply == 0:
                self.say("Start of the game.")
                return True
            self.go_to(self.ply - 1)
        elif word.isdigit():
            self.go_to(int(word))
        elif word in ("end", "e", "last"):
            self.go_to(self.game.plies)
        elif word in ("start", "s", "first"):
            self.go_to(0)
        elif word == "game":
            if not rest.strip().isdigit():
                raise PlayError("give a game number: game N")
            self.open_game(int(rest))
            return True
        elif word == "tags":
            for name, value in self.game.tags.items():
                self.say(_tag_text(name, value))
            return True
        elif word == "flip":
            self.flipped = not self.flipped
        elif word in ("help", "?"):
            for text in REPLAY_HELP:
                self.say(text)
            return True
        else:
            raise PlayError(f"unknown command {line!r} (help lists them)")
        self.show()
        return True


def _tag_text(name: str, value: str) -> str:
    """A tag as PDN writes it (``"`` and ``\\`` in the value escaped), so that it reads back."""
    try:
        return tag_line(name, value)
    except ValueError:  # a name no PDN writer would write: shown as read
        return f"[{name} {value!r}]"
