"""Running a match: :class:`MatchRunner` reads (or starts) the PDN file, checks that every
engine starts, plays the games on worker threads, writes each finished game at once, keeps the
progress line and the SPRT, and prints the table.

Output: stderr gets a header, a progress line per game (one updated line on a terminal) and
what went wrong (a crashed engine's last stderr lines); ``quiet`` keeps only what ends the
match (errors, an interruption). stdout gets the table (:func:`~.report.format_report`).
"""

from __future__ import annotations

import collections
import datetime
import dataclasses
import math
import os
import queue
import sys
import threading
from typing import IO, Any, Deque, Dict, List, Optional, Sequence, Tuple

from draughts_engine.game import GameResult
from draughts_engine.pdn_writer import tag_value
from protocol.client.children import close_quietly
from protocol.match.adjudication import describe
from protocol.match.config import MatchConfig
from protocol.match.elo import elo_interval, format_elo
from protocol.match.engines import EngineSlot, EngineSpec, launch_engine, stop_engine
from protocol.match.errors import EngineStartError, MatchError, quoted
from protocol.match.game import play_game
from protocol.match.jsonl import JsonlWriter, game_object, sprt_object
from protocol.match.openings import Opening
from protocol.match.plan import PlannedGame, build_pairings, build_plan, shard_of
from protocol.match.records import FinishedGame, game_text, opening_key, read_records
from protocol.match.report import PairStats, format_report, percent, sprt_state

__all__ = ["MatchRunner", "describe_bug"]


def _opening_text(key: Tuple[str, ...]) -> str:
    """An :func:`~.records.opening_key` for a message: ``FEN ... moves 11-15 23-19``."""
    fen, moves = key[0], " ".join(key[1:])
    if not fen:
        return moves or "the start position"
    return f"FEN {fen}" + (f" moves {moves}" if moves else "")


def describe_bug(exc: BaseException) -> str:
    """One line for an unexpected exception: its type, message and where it was raised."""
    frame = exc.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    where = ""
    if frame is not None:
        where = (f" (at {os.path.basename(frame.tb_frame.f_code.co_filename)}:"
                 f"{frame.tb_lineno})")
    return f"{type(exc).__name__}: {exc}{where}"


class MatchRunner:
    """Runs a :class:`MatchConfig`: plan, resume, worker threads, PDN, progress, SPRT, table.

    :meth:`run` returns the exit status: 0 finished (also after an SPRT decision), 1 an
    internal error, 2 the PDN file could not be written, 130 interrupted. A failure is one
    line on ``err`` (``draughts-match: error: ...``); the table then holds the games saved.
    """

    def __init__(self, config: MatchConfig, out: Optional[IO[str]] = None,
                 err: Optional[IO[str]] = None) -> None:
        if not config.date:
            config = dataclasses.replace(config, date=datetime.date.today().strftime("%Y.%m.%d"))
        self.config = config
        self.out = out if out is not None else sys.stdout
        self.err = err if err is not None else sys.stderr
        names = [spec.name for spec in config.engines]
        if len(set(names)) != len(names):
            raise MatchError(f"engine names must differ: {', '.join(names)}")
        for what, text in [("--event", config.event)] + [("engine name", n) for n in names]:
            if tag_value(text) != text:
                raise MatchError(f"{what} {quoted(text)} has a control character (a line break, "
                                 f"a tab, ...), which a PDN tag cannot hold")
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:  # bytes of the command line that were not UTF-8
                raise MatchError(f"{what} {quoted(text)} is not valid UTF-8 text, which the "
                                 f"PDN file is written in") from None
        if config.resume and not config.pdn:
            raise MatchError("--resume needs --pdn FILE")
        k, n = config.shard
        if not 1 <= k <= n:
            raise MatchError(f"--shard K/N needs 1 <= K <= N, got {k}/{n}")
        self.plan = build_plan(len(config.engines), config.tournament, config.games)
        self.pairings = build_pairings(len(config.engines), config.tournament)
        if config.sprt is not None and len(self.pairings) != 1:
            raise MatchError("--sprt needs exactly one pairing (two engines)")
        if not config.openings:
            raise MatchError("no openings")
        for spec in config.engines:
            if spec.listening and config.concurrency > 1:
                raise MatchError(f"engine {spec.name}: a DXP engine that listens (host=, port= "
                                 f"without cmd=) plays one game at a time: give "
                                 f"--concurrency 1")
        self.abort = threading.Event()
        self.live_slots: List[EngineSlot] = []  # every worker's engines (guarded by lock)
        self.records: List[FinishedGame] = []
        self.todo: Deque[PlannedGame] = collections.deque()
        self.lock = threading.Lock()
        self.results: "queue.Queue[Tuple[str, Any, Any]]" = queue.Queue()
        self.running = 0
        # Games handed to the main thread and not yet counted (guarded by lock): a worker
        # starts its next game only once its last one is counted, so that a verdict (SPRT)
        # or a failure reached on that game stops the match before another one begins.
        self.uncounted = 0
        self.counted = threading.Condition(self.lock)
        self.verdict: Optional[str] = None
        self.interrupted = False
        self.failure: Optional[str] = None
        self.failure_status = 1
        self._pdn_handle: Optional[IO[str]] = None
        self._jsonl: Optional[JsonlWriter] = None
        self._stoppers: List[threading.Thread] = []  # threads stopping engines (interruption)
        self.head = PairStats(config.engines[0].name, "the field")
        self._progress_open = False

    # ---------------------------------------------------------------- setup

    def _my_games(self) -> List[PlannedGame]:
        return shard_of(self.plan, self.config.shard)

    def _load_existing(self) -> None:
        """Read the PDN file for --resume (checking it belongs to this plan), or refuse to
        append a new match to a file that has games."""
        path = self.config.pdn
        if not path:
            return
        if os.path.isdir(path):
            raise MatchError(f"--pdn {path} is a folder, not a file")
        if not self.config.resume:
            if os.path.exists(path) and os.path.getsize(path) > 0 and not self.config.overwrite:
                raise MatchError(f"{path} is not empty: use --resume to continue the match in it "
                                 f"or --overwrite to replace it")
            self._pdn_handle = self._open_pdn("w")
            return
        contents = read_records(path, self.config.variant, check_moves=False, keep_text=False)
        problems = list(contents.problems)
        count = contents.problem_count
        if contents.tail_unfinished:
            count -= 1  # the game cut off at the end: an interrupted writer left it
            if len(problems) == contents.problem_count:
                problems.pop()
        if count:
            more = (f" (and {count - 1} more problem(s): 'draughts-match merge {path}' lists "
                    f"them)" if count > 1 else "")
            raise MatchError(f"cannot resume from {path}: {problems[0]}{more}; "
                             f"the file is left as it is")
        self.records = self._plan_records(path, contents.records)  # before changing the file
        if contents.tail_unfinished:
            self._say(f"resume: dropping an unfinished game cut off at the end of {path} "
                      f"({contents.size - contents.good_end} bytes)")
            try:
                with open(path, "r+b") as handle:
                    handle.truncate(contents.good_end)
            except OSError as exc:
                raise MatchError(f"cannot write {path}: {exc.strerror or exc}") from None
        self._pdn_handle = self._open_pdn("a")

    def _opening_key(self, opening: Opening, cache: Dict[Opening, Tuple[str, ...]]
                     ) -> Tuple[str, ...]:
        """:func:`~.records.opening_key` of the game text this match writes for ``opening``
        (its FEN tag and its moves as written)."""
        if opening not in cache:
            game = opening.game(self.config.variant)
            cache[opening] = opening_key(game_text(game, {"Result": "*"}, "", game.ply))
        return cache[opening]

    def _check_match(self, path: str, record: FinishedGame, planned: PlannedGame,
                     cache: Dict[Opening, Tuple[str, ...]]) -> None:
        """Refuse a game of the file that another match played: another ``--event``, other
        limits, another opening (another ``--openings`` or ``--seed``). Tags the game does not
        have are not checked."""
        config = self.config
        where = f"cannot resume from {path}: game Round {planned.index + 1} has"
        if record.event and record.event != config.event:
            raise MatchError(f"{where} Event {quoted(record.event)}, this match writes "
                             f"{quoted(config.event)} (--event)")
        for tag, number, text in (("WhiteLimits", planned.white, record.white_limits),
                                  ("BlackLimits", planned.black, record.black_limits)):
            spec = config.engines[number]
            if text is not None and text != spec.limits_text():
                raise MatchError(f"{where} {tag} {quoted(text)}, this match gives {spec.name} "
                                 f"{quoted(spec.limits_text())}")
        opening = config.openings[planned.opening % len(config.openings)]
        label = tag_value(opening.label)
        hint = "another --openings or --seed?"
        if record.opening is not None and label and record.opening != label:
            raise MatchError(f"{where} Opening {quoted(record.opening)}, this match plays "
                             f"{quoted(label)} there ({hint})")
        expected = self._opening_key(opening, cache)
        if record.opening_key is not None and record.opening_key != expected:
            raise MatchError(f"{where} the opening {_opening_text(record.opening_key)}, this "
                             f"match plays {_opening_text(expected)} there ({hint})")

    def _plan_records(self, path: str, records: Sequence[FinishedGame]) -> List[FinishedGame]:
        """The records of a resumed file, each checked to be a game of this plan, played by
        this match (:meth:`_check_match`); a game written twice counts once."""
        names = [spec.name for spec in self.config.engines]
        game_type = str(self.config.variant.game_type)
        mine = {g.index: g for g in self._my_games()}
        seen: Dict[int, FinishedGame] = {}
        cache: Dict[Opening, Tuple[str, ...]] = {}
        for record in records:
            planned = mine.get(record.index) if record.index is not None else None
            if planned is None:
                k, n = self.config.shard
                round_text = "no usable Round" if record.index is None \
                    else f"Round {record.index + 1}"
                raise MatchError(f"cannot resume from {path}: its game with {round_text} is not "
                                 f"in this match plan (shard {k}/{n} of {len(self.plan)} games)")
            expected = (names[planned.white], names[planned.black])
            if (record.white, record.black) != expected:
                raise MatchError(f"cannot resume from {path}: game Round {record.index + 1} is "
                                 f"{record.white} vs {record.black}, the plan has "
                                 f"{expected[0]} vs {expected[1]}")
            if record.game_type and record.game_type != game_type:
                raise MatchError(f"cannot resume from {path}: game Round {record.index + 1} has "
                                 f"GameType {record.game_type}, this match plays "
                                 f"{self.config.variant.name} ({game_type})")
            self._check_match(path, record, planned, cache)
            if record.index not in seen:
                seen[record.index] = record
        return list(seen.values())

    def _open_pdn(self, mode: str) -> IO[str]:
        path = self.config.pdn
        assert path is not None
        try:
            return open(path, mode, encoding="utf-8", newline="\n")
        except OSError as exc:
            raise MatchError(f"cannot write {path}: {exc.strerror or exc}") from None

    def _preflight(self, specs: Sequence[EngineSpec]) -> None:
        """Start each engine once so a bad command or option fails the match at once."""
        for spec in specs:
            try:
                engine, _ = launch_engine(spec, self.config.variant.name,
                                          self.config.start_timeout)
            except EngineStartError as exc:
                raise MatchError(f"engine {spec.name}: {exc}") from None
            stop_engine(engine)

    # ---------------------------------------------------------------- output

    def _say(self, text: str, always: bool = False) -> None:
        if self.config.quiet and not always:
            return
        if self._progress_open:
            self.err.write("\n")
            self._progress_open = False
        self.err.write(text + "\n")
        self.err.flush()

    def _progress(self, text: str) -> None:
        if self.config.quiet:
            return
        if getattr(self.err, "isatty", lambda: False)():
            self.err.write("\r\x1b[K" + text)
            self._progress_open = True
        else:
            self.err.write(text + "\n")
        self.err.flush()

    def _write_pdn(self, record: FinishedGame) -> bool:
        """Append a game to the PDN file (if any); False when it could not be written (the
        match is then stopped with exit status 2)."""
        if self._pdn_handle is None:
            return True
        try:
            self._pdn_handle.write(record.text)
            self._pdn_handle.flush()
        except OSError as exc:
            self.failure = (f"draughts-match: error: cannot write {self.config.pdn}: "
                            f"{exc.strerror or exc} (game {(record.index or 0) + 1} is not "
                            f"saved; the file holds the games before it)")
            self.failure_status = 2
            self.abort.set()
            return False
        try:
            os.fsync(self._pdn_handle.fileno())
        except OSError:
            pass
        return True

    def _count(self, record: FinishedGame) -> None:
        """Add a game to the running tally of the head line (the pairing, or the first engine
        against the field when there are several pairings)."""
        head = self.head
        if head.first in (record.white, record.black):
            head.add_game(record)

    @property
    def paired(self) -> bool:
        """Whether the games come in pairs (one opening, both colours): the SPRT's model."""
        return self.config.games >= 2

    def _sprt_check(self) -> Optional[str]:
        if self.config.sprt is None:
            return None
        return sprt_state(self.head, self.config.sprt, self.paired).verdict

    def _progress_text(self, record: FinishedGame, total: int) -> str:
        head = self.head
        est = elo_interval(head.wins, head.draws, head.losses)
        result = GameResult(record.outcome, "").pdn(self.config.variant)  # as the PDN writes it
        error = "inf" if math.isinf(est.error) or math.isnan(est.error) else f"{est.error:.0f}"
        text = (f"[{len(self.records)}/{total}] #{(record.index or 0) + 1} {record.white} - "
                f"{record.black} {result} ({record.termination}) | {head.first} ")
        if head.wins + head.draws + head.losses == 0:  # (no score, no Elo: not "nan")
            text += "has not played yet"
        else:
            text += (f"+{head.wins} ={head.draws} -{head.losses} {percent(est.score)} "
                     f"Elo {format_elo(est.elo, 0)} +/- {error}")
        if self.config.sprt is not None:
            text += f" LLR {sprt_state(head, self.config.sprt, self.paired).llr:.2f}"
        return text + f" | {self.running} running"

    # ---------------------------------------------------------------- running

    def _worker(self, number: int) -> None:
        slots: Dict[int, EngineSlot] = {}
        config = self.config
        try:
            while not self.abort.is_set():
                with self.lock:
                    while self.uncounted and not self.abort.is_set():
                        self.counted.wait(0.25)
                    if not self.todo or self.abort.is_set():
                        break
                    planned = self.todo.popleft()
                    self.running += 1
                for engine_number in (planned.white, planned.black):
                    if engine_number not in slots:
                        slots[engine_number] = EngineSlot(config.engines[engine_number],
                                                          config.variant.name,
                                                          config.start_timeout)
                        with self.lock:
                            self.live_slots.append(slots[engine_number])
                try:
                    record = play_game(planned, config, slots, self.abort)
                except Exception as exc:  # noqa: BLE001 - a bug: stop the match and say where
                    self.results.put(("error", planned, describe_bug(exc)))
                    self.abort.set()
                    break
                finally:
                    with self.lock:
                        self.running -= 1
                with self.lock:
                    self.uncounted += 1
                self.results.put(("game", planned, record))
        finally:
            for slot in slots.values():
                slot.close()
            self.results.put(("done", number, None))

    def run(self) -> int:
        """Play the match (or what is left of it) and print the table; the exit status."""
        try:
            return self._run()
        finally:
            close_quietly(self._pdn_handle)
            self._pdn_handle = None
            if self._jsonl is not None:
                self._jsonl.close()
            self._await_stoppers()

    def _await_stoppers(self) -> None:
        """Wait for the threads that stop engines after an interruption (each is done within
        about a second: quit, terminate, kill). A Ctrl-C meanwhile is let go: no engine may
        outlive the runner, and nothing must be left for the interpreter to wait for at exit,
        where a Ctrl-C prints a traceback."""
        for thread in self._stoppers:
            while thread.is_alive():
                try:
                    thread.join()
                except KeyboardInterrupt:
                    pass

    def _run(self) -> int:
        config = self.config
        self._load_existing()  # opens the PDN file: an unusable path fails before any output
        if config.jsonl:
            self._jsonl = JsonlWriter(config.jsonl, config.resume, config.overwrite)
        mine = self._my_games()
        done = {r.index for r in self.records}
        self.todo.extend(g for g in mine if g.index not in done)
        total = len(mine)
        names = [spec.name for spec in config.engines]
        self.head = PairStats(names[0], names[1] if len(self.pairings) == 1 else "the field")
        for record in self.records:
            self._count(record)
        self.verdict = self._sprt_check()
        playing = bool(self.todo) and self.verdict is None
        if playing:  # before any output: an engine that cannot start is one error line
            needed = sorted({g.white for g in self.todo} | {g.black for g in self.todo})
            self._preflight([config.engines[i] for i in needed])
        shard = "" if config.shard == (1, 1) else f", shard {config.shard[0]}/{config.shard[1]}"
        if config.shard_source:
            shard = f", shard {config.shard[0]}/{config.shard[1]} (from the {config.shard_source})"
        self._say(f"Match: {config.variant.name}, {' vs '.join(names)} "
                  f"({config.tournament}), {len(self.plan)} games{shard}: {len(self.records)} "
                  f"done, {len(self.todo) if self.verdict is None else 0} to play, concurrency "
                  f"{config.concurrency}; openings: {config.opening_text}")
        rules = describe(config.resign, config.draw, config.adjudicate_tables)
        if rules:
            self._say(f"Adjudication: {'; '.join(rules)}")
        for spec in config.engines:
            self._say(f"  {spec.name}: {spec.where()} ({spec.limits_text()}"
                      + "".join(f" option.{n}={v}" for n, v in spec.options)
                      + (f" proto={spec.proto}" if spec.proto != "uci" else "") + ")")
        if playing:
            self._play(total)
        if self._progress_open:
            self.err.write("\n")
            self._progress_open = False
        if self.failure:
            self._say(self.failure, always=True)
        if self.verdict is not None:
            self._say(f"SPRT: {self.verdict} accepted after {len(self.records)} games; "
                      f"match stopped")
        if self.interrupted:
            self._say(f"Interrupted after {len(self.records)} of {total} games; continue with "
                      f"--resume" if config.pdn else "Interrupted.", always=True)
        for line in format_report(self.records, names, config.sprt, self.paired):
            self.out.write(line + "\n")
        self.out.flush()
        if self.failure:
            return self.failure_status
        return 130 if self.interrupted else 0

    def _play(self, total: int) -> None:
        workers = max(1, min(self.config.concurrency, len(self.todo)))
        threads = [threading.Thread(target=self._worker, args=(i,), name=f"match-worker-{i}",
                                    daemon=True) for i in range(workers)]
        for thread in threads:
            thread.start()
        finished = 0
        while finished < workers:
            try:
                try:
                    kind, item, payload = self.results.get(timeout=0.25)
                except queue.Empty:
                    continue
                if kind == "done":
                    finished += 1
                elif kind == "error":
                    self.failure = (f"draughts-match: internal error in game {item.index + 1}: "
                                    f"{payload}")
                else:
                    try:
                        if payload is not None:
                            self._finished(payload, total)
                    finally:
                        with self.lock:
                            self.uncounted -= 1
                            self.counted.notify_all()
            except KeyboardInterrupt:
                if self.interrupted:
                    self._stop_engines()
                    raise
                self.interrupted = True
                self.abort.set()
                self._say("Interrupted: stopping the running games (Ctrl-C again to quit at once)",
                          always=True)
                self._stop_engines()  # a hung engine would hold its game until --move-timeout
        for thread in threads:
            thread.join()

    def _stop_engines(self) -> None:
        """Stop every worker's engines (quit, then terminate, then kill): the running games
        are abandoned, and an engine that hangs must not keep the match (or outlive it)."""
        with self.lock:
            slots = list(self.live_slots)

        def discard(slot: EngineSlot) -> None:
            try:
                slot.discard()
            except Exception:  # noqa: BLE001 - best effort while the match is being stopped
                pass

        # One thread per engine, all at once: a second Ctrl-C stops waiting for the games,
        # and run() still waits for these (not daemons either) before it returns.
        for slot in slots:
            thread = threading.Thread(target=discard, args=(slot,), name="match-stop-engine")
            thread.start()
            self._stoppers.append(thread)

    def _finished(self, record: FinishedGame, total: int) -> None:
        """A game came back from a worker: count it, write it, show it, check the SPRT."""
        if self.failure is not None:
            return  # the match is being stopped: keep the file as it was
        if not self._write_pdn(record):
            return  # not saved: not counted either
        self.records.append(record)
        self._count(record)
        for note in record.notes:
            self._say(f"game {(record.index or 0) + 1}: {note}" if not note.startswith("  ")
                      else note)
        self._progress(self._progress_text(record, total))
        if self.verdict is None:
            self.verdict = self._sprt_check()
            if self.verdict is not None:
                self.abort.set()
        self._write_jsonl(record)

    def _write_jsonl(self, record: FinishedGame) -> None:
        """The ``--jsonl`` lines of a counted game (and of the SPRT after it)."""
        if self._jsonl is None:
            return
        config = self.config
        planned = self.plan[record.index] if record.index is not None \
            and 0 <= record.index < len(self.plan) else None
        opening = (config.openings[planned.opening % len(config.openings)]
                   if planned is not None else None)
        items = [game_object(record, config.variant, opening,
                             f"{config.shard[0]}/{config.shard[1]}")]
        if config.sprt is not None:
            items.append(sprt_object(sprt_state(self.head, config.sprt, self.paired),
                                     config.sprt, self.head))
        for item in items:
            problem = self._jsonl.write(item)
            if problem is not None:
                self._say(f"draughts-match: warning: {problem}; no more lines go there",
                          always=True)
                self._jsonl.close()
                return
