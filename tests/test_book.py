"""The opening book: its file format, probing, the weighted choice, the options and the builder."""
from __future__ import annotations

import os
import random
import sys
import threading
from collections import Counter
from typing import List

import pytest

from draughts_engine.book import (BOOK_HEADER, BUILTIN, BookError, BookPlayer, OpeningBook,
                                  builtin_book, builtin_book_path)
from draughts_engine.notation import parse_move
from draughts_engine.position import Position
from draughts_engine.search.engine import Searcher
from draughts_engine.search.limits import SearchInfo, SearchLimits
from protocol.client import Engine
from protocol.options import OptionError, Options
from protocol.server import format_info
from protocol.session import Session

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import build_book  # noqa: E402

START = Position.start("english")
AFTER_11_15 = START.play("11-15")


def small_book() -> OpeningBook:
    book = OpeningBook("english", {})
    book.add(START, [(parse_move(START, "9-13"), 3), (parse_move(START, "9-14"), 1)])
    book.add(AFTER_11_15, [(parse_move(AFTER_11_15, "24-19"), 7)])
    return book


def write(tmp_path, lines: List[str]) -> str:
    path = str(tmp_path / "book.txt")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    return path


# ---- the file format ----------------------------------------------------------------
def test_round_trip_through_a_file(tmp_path) -> None:
    book = small_book()
    path = str(tmp_path / "book.txt")
    book.save(path)
    again = OpeningBook.load(path)
    assert again.records == book.records and again.variant.name == "english"
    assert again.lines() == book.lines()
    assert book.lines()[:2] == [BOOK_HEADER, "# variant english"]
    assert f"{START.zobrist:016x} 9-13:3 9-14:1" in book.lines()


def test_comments_and_blank_lines_are_skipped() -> None:
    lines = [BOOK_HEADER, "# built by hand", "# variant american", "",
             f"{START.zobrist:016x} 11-15:2", "# the end"]
    book = OpeningBook.parse(lines)
    assert book.variant.name == "english" and len(book) == 1


@pytest.mark.parametrize("lines, message", [
    ([], "empty file"),
    (["# draughts-engine opening book 2"], "not a book"),
    ([BOOK_HEADER], "no '# variant"),
    ([BOOK_HEADER, "# variant nosuch"], "unknown variant 'nosuch'"),
    ([BOOK_HEADER, "0000000000000001 11-15:1"], "before the '# variant"),
    ([BOOK_HEADER, "# variant english", "00000000000000zz 11-15:1"], "16 lower-case hex"),
    ([BOOK_HEADER, "# variant english", "0000000000000001"], "at least one move:weight"),
    ([BOOK_HEADER, "# variant english", "0000000000000001 11-15"], "<move>:<weight>"),
    ([BOOK_HEADER, "# variant english", "0000000000000001 11-15:0"], "<move>:<weight>"),
    ([BOOK_HEADER, "# variant english", "0000000000000001 c3-d4:1"], "PDN numbers"),
    ([BOOK_HEADER, "# variant english", "0000000000000001 11-15:1",
      "0000000000000001 9-13:1"], "given twice"),
])
def test_bad_files_raise_book_error_naming_the_line(tmp_path, lines, message) -> None:
    path = write(tmp_path, lines) if lines else str(tmp_path / "empty.txt")
    if not lines:
        open(path, "w").close()
    with pytest.raises(BookError, match=message) as info:
        OpeningBook.load(path)
    assert path in str(info.value) and "\n" not in str(info.value)


def test_unreadable_file_is_a_book_error(tmp_path) -> None:
    with pytest.raises(BookError, match="cannot read book"):
        OpeningBook.load(str(tmp_path / "missing.txt"))
    (tmp_path / "binary.txt").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(BookError, match="cannot read book"):
        OpeningBook.load(str(tmp_path / "binary.txt"))


# ---- probing --------------------------------------------------------------------------
def test_probe_answers_only_in_book_positions() -> None:
    book = small_book()
    assert [(m.pdn(), w) for m, w in book.moves(START)] == [("9-13", 3), ("9-14", 1)]
    assert book.moves(START.play("9-13")) is None
    assert book.moves(Position.start("russian")) is None  # another variant, same bitboards
    collision = OpeningBook.parse([BOOK_HEADER, "# variant english",
                                   f"{START.zobrist:016x} 11-15:1 22-18:1"])
    assert collision.moves(START) is None  # a move illegal here: not this position


def test_weighted_choice_is_reproducible_and_follows_the_weights() -> None:
    book = small_book()
    first = [book.choose(START, random.Random(7)).pdn() for _ in range(5)]
    rng_a, rng_b = random.Random(42), random.Random(42)
    run_a = [book.choose(START, rng_a).pdn() for _ in range(400)]
    run_b = [book.choose(START, rng_b).pdn() for _ in range(400)]
    assert run_a == run_b and len(set(first)) == 1
    counts = Counter(run_a)
    assert set(counts) == {"9-13", "9-14"} and 240 < counts["9-13"] < 360  # weights 3:1
    assert book.choose(START.play("9-13"), random.Random(1)) is None


def test_book_player_seed_depth_and_other_variants(tmp_path) -> None:
    book = small_book()
    player = BookPlayer("unused", max_ply=1, seed=5, book=book)
    assert {player.choose(START, 0).pdn() for _ in range(10)} == {player.choose(START, 0).pdn()}
    assert player.choose(AFTER_11_15, 1) is None  # past BookDepth
    path = str(tmp_path / "book.txt")
    book.save(path)
    assert BookPlayer(path).choose(Position.start("russian"), 0) is None
    assert BookPlayer(path, max_ply=4).choose(AFTER_11_15, 1).pdn() == "24-19"


def test_shipped_books_load_and_answer_the_start_position() -> None:
    for variant in ("english", "international"):
        assert os.path.exists(builtin_book_path(variant)), variant
        book = builtin_book(variant)
        assert book is not None and os.path.getsize(builtin_book_path(variant)) < 500_000
        assert book.moves(Position.start(variant))
    assert builtin_book("frisian") is None


def test_english_book_answers_every_opening_of_the_ballots() -> None:
    """An English match from the ACF ballots (what the runner and the SPRTs play) leaves the
    book only after its first move: the end of every opening has a record.  (Not so the
    International book: grown from its 1,466 balanced openings it measured no gain, see
    BENCHMARKS.md.)"""
    from protocol.match.openings import resolve_openings
    book = builtin_book("english")
    openings, _ = resolve_openings("ballots", "english")
    missing = [opening for opening in openings if not book.moves(opening.game("english").position)]
    assert len(openings) > 100 and not missing, missing[:3]


def test_searcher_plays_the_book_only_for_a_move_in_a_game() -> None:
    searcher = Searcher()
    assert searcher.book_move(START, SearchLimits(movetime_ms=100), 0) is None  # no book
    searcher.set_book(BookPlayer("unused", book=small_book()))
    timed = SearchLimits(wtime_ms=1000, btime_ms=1000)
    assert searcher.book_move(START, timed, 0).pdn() in ("9-13", "9-14")
    assert searcher.book_move(START, SearchLimits(movetime_ms=50), 0) is not None
    refused = [SearchLimits(depth=3), SearchLimits(nodes=100), SearchLimits(infinite=True),
               SearchLimits(movetime_ms=50, ponder=True), SearchLimits(mate=2),
               SearchLimits(movetime_ms=50, multipv=2),
               SearchLimits(movetime_ms=50, searchmoves=tuple(START.legal_moves()[:1]))]
    assert [searcher.book_move(START, limits, 0) for limits in refused] == [None] * len(refused)
    assert searcher.book_move(START.play("9-13"), timed, 1) is None  # not in the book


# ---- options and the wire ---------------------------------------------------------------
def test_book_options_are_declared_and_validated(tmp_path) -> None:
    lines = Options().lines()
    assert "option name OwnBook type check default true" in lines
    assert f"option name BookFile type string default {BUILTIN}" in lines
    assert "option name BookDepth type spin default 20 min 0 max 200" in lines
    session = Session("english")
    for raw in (None, "  "):
        with pytest.raises(OptionError, match="needs a value"):
            session.set_option("BookFile", raw)
    with pytest.raises(OptionError, match="BookFile cannot read book"):
        session.set_option("bookfile", str(tmp_path / "missing.txt"))
    assert session.options["BookFile"] == BUILTIN
    path = str(tmp_path / "my book.txt")
    small_book().save(path)
    assert session.set_option("BookFile", path) == ("BookFile", path)
    assert session.set_option("BookDepth", "3") == ("BookDepth", 3)
    assert session.set_option("OwnBook", "FALSE") == ("OwnBook", False)
    assert session.engine().book is None
    session.set_option("OwnBook", "true")
    player = session.engine().book
    assert player.path == path and player.max_ply == 3 and player.book_for(START.variant)


def test_a_book_move_is_reported_as_an_info_string(tmp_path) -> None:
    path = str(tmp_path / "b.txt")
    small_book().save(path)
    session = Session("english")
    session.set_option("OwnBook", "true")
    session.set_option("BookFile", path)
    session.set_option("Seed", "3")
    infos: List[SearchInfo] = []
    best, ponder = session.search(SearchLimits(movetime_ms=1000), infos.append, threading.Event())
    assert best.pdn() in ("9-13", "9-14") and ponder is None
    assert len(infos) == 1 and infos[0].book
    assert format_info(infos[0], ["9-13"]) == "info string book 9-13"
    infos.clear()
    session.search(SearchLimits(depth=1), infos.append, threading.Event())
    assert infos and not any(info.book for info in infos)  # a fixed depth searches


def test_server_answers_from_the_book(tmp_path) -> None:
    path = str(tmp_path / "b.txt")
    small_book().save(path)
    with Engine.popen([sys.executable, "-m", "protocol"], timeout=20, search_timeout=60) as eng:
        out = []
        for line in ("setoption name OwnBook value true", f"setoption name BookFile value {path}",
                     "position startpos", "go movetime 5000"):
            eng.send_raw(line)
        out += eng.read_until(lambda line: line.startswith("bestmove"), timeout=30)
        for line in ("setoption name OwnBook value false", "go depth 1"):
            eng.send_raw(line)
        out += eng.read_until(lambda line: line.startswith("bestmove"), timeout=30)
    assert len(out) == 4, out
    assert out[0] in ("info string book 9-13", "info string book 9-14")
    assert out[1] == "bestmove " + out[0].split()[-1]
    assert out[2].startswith("info depth 1 ") and out[3].startswith("bestmove ")


def test_the_default_plays_the_builtin_book_read_on_first_use(monkeypatch) -> None:
    """OwnBook is on by default; the built-in book is read at the first go it could answer
    (never when the engine starts); OwnBook false or BookDepth 0 make a go search."""
    loads: List[str] = []
    real_load = OpeningBook.load.__func__

    def counted_load(cls, path: str) -> OpeningBook:
        loads.append(path)
        return real_load(cls, path)
    monkeypatch.setattr(OpeningBook, "load", classmethod(counted_load))
    session = Session("english")
    assert session.options["OwnBook"] is True and session.engine().book is not None
    session.search(SearchLimits(depth=1), lambda info: None, threading.Event())
    assert loads == []  # started and searched a fixed depth: no book read yet
    infos: List[SearchInfo] = []
    best, _ = session.search(SearchLimits(movetime_ms=5000), infos.append, threading.Event())
    assert loads == [builtin_book_path("english")]
    assert [info.book for info in infos] == [True]
    assert best in [move for move, _ in builtin_book("english").moves(START)]
    for name, value in (("BookDepth", "0"), ("OwnBook", "false")):
        fresh = Session("english")
        fresh.set_option(name, value)
        infos.clear()
        fresh.search(SearchLimits(movetime_ms=30), infos.append, threading.Event())
        assert infos and not any(info.book for info in infos), name  # a real search


# ---- the builder ------------------------------------------------------------------------
def test_book_moves_keep_the_margin_and_weigh_the_loss() -> None:
    a, b, c = START.legal_moves()[:3]
    assert build_book.book_moves([(a, 20), (b, 12), (c, -30)], margin=15, halving=8) == \
        [(a, 100), (b, 50)]
    assert build_book.book_moves([], 15, 8) == []


def test_builder_grows_a_small_book(tmp_path) -> None:
    out = str(tmp_path / "built.txt")
    assert build_book.main(["--variant", "english", "--plies", "2", "--depth", "2",
                            "--lines", "2", "--out", out]) == 0
    book = OpeningBook.load(out)
    assert book.moves(START)
    children = [START.play(move) for move, _ in book.moves(START)]
    assert all(book.moves(child) for child in children) and len(book) == 1 + len(children)


def test_builder_usage_errors(capsys) -> None:
    assert build_book.main(["--variant", "nosuch"]) == 2
    assert build_book.main(["--depth", "0"]) == 2
    assert "error" in capsys.readouterr().err


def test_builder_shards_merge_into_the_book_of_one_run(tmp_path, capsys) -> None:
    common = ["--variant", "english", "--plies", "4", "--depth", "2", "--lines", "2",
              "--openings", "ballots"]
    paths = [str(tmp_path / name) for name in ("one.txt", "two.txt", "merged.txt", "whole.txt")]
    assert build_book.main(common + ["--shard", "1/2", "--out", paths[0]]) == 0
    assert build_book.main(common + ["--shard", "2/2", "--out", paths[1]]) == 0
    assert build_book.main(common + ["--from", paths[0], "--from", paths[1],
                                     "--positions", "0", "--out", paths[2]]) == 0
    assert build_book.main(common + ["--out", paths[3]]) == 0
    assert "not complete" not in capsys.readouterr().err
    assert build_book.main(common + ["--from", paths[0], "--positions", "0",
                                     "--out", str(tmp_path / "half.txt")]) == 0
    assert "not complete" in capsys.readouterr().err  # the second shard's positions are missing
    halves = [OpeningBook.load(path) for path in paths[:2]]
    assert halves[0].records and halves[1].records
    assert START.zobrist in halves[0].records and START.zobrist not in halves[1].records
    merged, whole = OpeningBook.load(paths[2]), OpeningBook.load(paths[3])
    assert merged.records == whole.records


def test_builder_keeps_the_records_of_a_from_book(tmp_path) -> None:
    older = OpeningBook(START.variant, {}, "test")
    first = START.legal_moves()[-1]
    older.add(START, [(first, 7)])  # not what a search would say: it must stay
    path = str(tmp_path / "older.txt")
    older.save(path)
    out = str(tmp_path / "grown.txt")
    assert build_book.main(["--variant", "english", "--plies", "2", "--depth", "2",
                            "--from", path, "--out", out]) == 0
    grown = OpeningBook.load(out)
    assert grown.moves(START) == [(first, 7)]
    assert grown.moves(START.play(first)) and len(grown) == 2


def test_builder_refuses_bad_shards_and_books(tmp_path, capsys) -> None:
    assert build_book.main(["--shard", "3/2"]) == 2
    assert build_book.main(["--shard", "x"]) == 2
    assert build_book.main(["--from", str(tmp_path / "missing.txt")]) == 2
    other = str(tmp_path / "intl.txt")
    OpeningBook("international", {}, "test").save(other)
    assert build_book.main(["--variant", "english", "--from", other]) == 2
    err = capsys.readouterr().err
    assert "--shard 3/2" in err and "missing.txt" in err and "international book" in err
