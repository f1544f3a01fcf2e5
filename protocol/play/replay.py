"""``--replay FILE.pdn [--game N]``: step through a saved game, forward and back.

:func:`read_collection` reads every game of a PDN file (ours, ``draughts-match`` output, other
programs') with its tags, its comments by ply and its result; the moves are checked by the rules
core. :class:`ReplaySession` shows one game: Enter steps forward, ``b`` back, a number jumps to
that ply, ``end``/``start`` to the ends, ``game N`` to another game, ``tags``, ``help``, ``quit``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import IO, Callable, Dict, List, Tuple

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


def _game_chunks(text: str) -> List[Tuple[int, str]]:
    """(first line, text) of each game: a game starts at a tag line after moves or a result."""
    chunks: List[Tuple[int, str]] = []
    current: List[str] = []
    start, seen_moves, depth = 1, False, 0
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if depth == 0 and stripped.startswith("[") and seen_moves:
            chunks.append((start, "\n".join(current) + "\n"))
            current, start, seen_moves = [], number, False
        current.append(line)
        if not stripped.startswith("[") or depth:
            depth += line.count("{") - line.count("}")
            depth = max(depth, 0)
            if stripped:
                seen_moves = True
    if any(part.strip() for part in current):
        chunks.append((start, "\n".join(current) + "\n"))
    return chunks


_RESULTS = {"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"}


def _comments_by_ply(movetext: str) -> Dict[int, List[str]]:
    """The ``{...}`` and ``; ...`` comments of PDN movetext, keyed by the plies before them.

    Move numbers, results, NAGs and variations are passed over, as the PDN reader does."""
    comments: Dict[int, List[str]] = {}
    ply, i, n = 0, 0, len(movetext)
    while i < n:
        ch = movetext[i]
        if ch == "{":
            end = movetext.find("}", i)
            end = n if end < 0 else end
            text = " ".join(movetext[i + 1:end].split())
            if text:
                comments.setdefault(ply, []).append(text)
            i = end + 1
        elif ch == ";":
            end = movetext.find("\n", i)
            end = n if end < 0 else end
            text = movetext[i + 1:end].strip()
            if text:
                comments.setdefault(ply, []).append(text)
            i = end
        elif ch == "(":
            depth = 0
            while i < n:
                if movetext[i] == "(":
                    depth += 1
                elif movetext[i] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                i += 1
            i += 1
        elif ch == "[":
            end = movetext.find("]", i)
            i = n if end < 0 else end + 1
        elif ch.isspace():
            i += 1
        else:
            end = i
            while end < n and not movetext[end].isspace() and movetext[end] not in "{}();[":
                end += 1
            word = movetext[i:end]
            i = end
            if word in _RESULTS or word.startswith("$"):
                continue
            if "." in word:
                word = word.rsplit(".", 1)[1]
            if word.rstrip("!?+#*") and not word.isdigit():
                ply += 1
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
                    f"{game.moves[self.ply - 1]}"
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
                self.say(f'[{name} "{value}"]')
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
