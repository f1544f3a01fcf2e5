"""The PDN reader on bad input (each case named after what it is), huge numbers, and streaming:
games one at a time from text, paths and files, with the line where each starts, in memory
that does not grow with the file."""
from __future__ import annotations

import io
import itertools
from pathlib import Path
from typing import Iterator

import pytest

from draughts_engine import Game, Position
from draughts_engine.errors import InvalidFenError, InvalidMoveError, InvalidPdnError
from draughts_engine.pdn import iter_games, read_games, stream_games
from draughts_engine.pdn_reader import tokens

HUGE = "1" * 5000          # more digits than Python's int-string limit (4,300)


def pdn_error(text: str, source: str = "games.pdn") -> str:
    with pytest.raises(InvalidPdnError) as info:
        read_games(text, source=source)
    return str(info.value)


# ---- stray and unclosed brackets --------------------------------------------------------

@pytest.mark.parametrize("text, line, fragment", [
    pytest.param("1. 11-15 } 23-19 *", 1, "'}' without '{'", id="stray-closing-brace"),
    pytest.param('[Event "x"]\n1. 11-15 23-19\n2. 8-11 } 22-17 *\n', 3, "'}' without '{'",
                 id="stray-closing-brace-on-a-later-line"),
    pytest.param("1. 11-15 ] 23-19 *", 1, "']' without '['", id="stray-closing-bracket"),
    pytest.param("\n1. 11-15 ) 23-19 *", 2, "')' without '('", id="stray-closing-parenthesis"),
    pytest.param("1. 11-15 (23-19 } 8-11) 22-18 *", 1, "'}' without '{'",
                 id="stray-closing-brace-inside-a-variation"),
    pytest.param("1. 11-15 *\n}\n1. 9-13 *\n", 2, "'}' without '{'",
                 id="stray-brace-between-games"),
    pytest.param("1. 11-15 {never closed\n23-19 *\n", 1, "unterminated comment",
                 id="unclosed-brace-in-the-movetext"),
    pytest.param("\n\n1. 11-15 (23-19 \n 8-11\n", 3, "unterminated variation",
                 id="unclosed-variation-named-where-it-opens"),
    pytest.param('[Event "x]\n1. 11-15 *', 1, "unterminated tag", id="unclosed-tag"),
])
def test_a_stray_or_unclosed_bracket_is_refused_naming_source_and_line(text, line,
                                                                        fragment) -> None:
    message = pdn_error(text)
    assert message.startswith(f"games.pdn:{line}:") and fragment in message


def test_unclosed_brace_inside_a_variation_is_an_unterminated_comment() -> None:
    message = pdn_error("1. 11-15 23-19\n2. 8-11 (2. 9-14 {open\n22-17 *\n")
    assert message.startswith("games.pdn:2:") and "unterminated comment" in message
    assert "illegal" not in message and "move" not in message


def test_comments_and_variations_spanning_lines_are_skipped() -> None:
    text = ("1. 11-15 {a comment\nover (two) lines} 23-19 (23-18 {in ( a } variation\n"
            "; a line comment ) still in it\n 8-11) ; after\n2. 8-11 *\n")
    (game,) = read_games(text)
    assert [m.pdn() for m in game.moves] == ["11-15", "23-19", "8-11"]


# ---- numbers of any length ---------------------------------------------------------------

def test_huge_move_number_is_read_as_a_move_number() -> None:
    (game,) = read_games(f"{HUGE}. 11-15 {HUGE}... 23-19 *")
    assert [m.pdn() for m in game.moves] == ["11-15", "23-19"]


@pytest.mark.parametrize("text, line, fragment", [
    pytest.param(f"1. {HUGE}-15 *", 1, "off the board", id="square-in-a-move"),
    pytest.param(f"1. 11x{HUGE}x15 *", 1, "off the board", id="square-in-a-capture-path"),
    pytest.param(f'[SetUp "1"]\n[FEN "W:W{HUGE}:B1"]\n1. 11-15 *', 2, "off the board",
                 id="square-in-a-fen-tag"),
    pytest.param(f'[FEN "W:W1-{HUGE}:B30"]\n1. 1-5 *', 1, "off the board",
                 id="range-in-a-fen-tag"),
    pytest.param(f'[GameType "{HUGE}"]\n1. 11-15 *', 1, "unsupported GameType", id="game-type"),
])
def test_huge_number_in_pdn_is_refused_in_a_short_message(text, line, fragment) -> None:
    message = pdn_error(text)
    assert message.startswith(f"games.pdn:{line}:") and fragment in message
    assert len(message) < 300


def test_huge_round_tag_is_kept_as_text() -> None:
    (game,) = read_games(f'[Round "{HUGE}"]\n1. 11-15 *')
    assert game.tags["Round"] == HUGE


def test_huge_numbers_in_fen_text_are_out_of_range() -> None:
    for fen in (f"W:W{HUGE}:B1", f"W:W21:B1-{HUGE}", f"W:WK{HUGE}:B1", f"B:W21,{HUGE}0:B1"):
        with pytest.raises(InvalidFenError) as info:
            Position.from_fen(fen, "english")
        assert "off the board" in str(info.value) and len(str(info.value)) < 300


def test_huge_move_counter_field_in_fen_is_ignored() -> None:
    assert Position.from_fen(f"W:W21:B1:H{HUGE}:F{HUGE}", "english") == Position.from_fen("W:W21:B1")


def test_huge_numbers_in_move_text_are_out_of_range() -> None:
    start = Position.start("english")
    for text in (f"{HUGE}-15", f"11-{HUGE}", f"11x{HUGE}x15", f"0{HUGE}-1"):
        with pytest.raises(InvalidMoveError) as info:
            start.play(text)
        assert "off the board" in str(info.value) and len(str(info.value)) < 300


def test_leading_zeros_still_name_a_square() -> None:
    assert Position.start("english").play("0011-015") == Position.start("english").play("11-15")


def test_non_ascii_digits_are_not_squares() -> None:
    with pytest.raises(InvalidMoveError):
        Position.start("english").play("\u00b9\u00b9-15")   # superscript ones
    with pytest.raises(InvalidPdnError):
        read_games('[GameType "\u00b2\u00b9"]\n1. 11-15 *')


# ---- move numbers and numbers where a move is due ------------------------------------------

def test_digits_alone_where_a_move_is_due_raise_naming_the_token() -> None:
    message = pdn_error("1. 11-15 23-19 2. 0815 1-0")
    assert message.startswith("games.pdn:1:") and "'0815' where a move is due" in message
    assert "move number ends with '.'" in message
    assert "'12' where a move is due" in pdn_error("1. 11-15 23-19\n12 8-11 *")  # no '.'
    assert "'2.0815' where a move is due" in pdn_error("1. 11-15 23-19 2.0815 *")  # glued


def test_move_numbers_with_their_dots_stay_legal() -> None:
    for text in ("1. 11-15 23-19 2. 8-11 *", "1.11-15 23-19 2.8-11 *",
                 "1. 11-15 1... 23-19 2. 8-11 *", "1. 11-15 {c} 1...23-19 2... 8-11 *"):
        (game,) = read_games(text)
        assert [m.pdn() for m in game.moves] == ["11-15", "23-19", "8-11"], text


def test_not_strict_a_number_where_a_move_is_due_stops_its_game_only() -> None:
    text = '[Event "bad"]\n1. 11-15 23-19 2. 0815 22-17 1-0\n' + collection(1)
    bad, good = stream_games(text, strict=False)
    assert "'0815' where a move is due" in str(bad.error) and bad.result == "1-0"
    assert bad.move_texts == ("11-15", "23-19") and bad.game.ply == 2  # the moves before it
    assert good.tags["Event"] == "g1" and good.error is None and good.game.ply == 4
    with pytest.raises(InvalidPdnError, match="'0815' where a move is due"):
        list(stream_games("1. 11-15 2. 0815 *", replay=False))  # the move-number syntax is read


# ---- the lexer ----------------------------------------------------------------------------------

def test_lexer_reports_problems_as_tokens_and_goes_on() -> None:
    kinds = [(t.kind, t.text, t.line) for t in tokens(["1. 11-15 } 23-19 *"])]
    assert kinds == [("word", "1.", 1), ("word", "11-15", 1), ("error", "'}' without '{'", 1),
                     ("word", "23-19", 1), ("result", "*", 1)]


# ---- streaming ---------------------------------------------------------------------------------

GAME = '[Event "g{n}"]\n[Round "{n}"]\n\n1. 11-15 23-19 2. 8-11 {{note}} 22-17 *\n\n'


def collection(count: int) -> str:
    return "".join(GAME.format(n=n) for n in range(1, count + 1))


def endless_lines() -> Iterator[str]:
    for n in itertools.count(1):
        yield from GAME.format(n=n).splitlines(keepends=True)


def test_stream_yields_games_with_tags_result_and_lines() -> None:
    records = list(stream_games(collection(3), source="three.pdn"))
    assert [r.tags["Event"] for r in records] == ["g1", "g2", "g3"]
    assert [r.line for r in records] == [1, 6, 11]
    assert [r.end_line for r in records] == [4, 9, 14]
    assert all(r.result == "*" and r.source == "three.pdn" and r.error is None for r in records)
    assert records[1].text == GAME.format(n=2).rstrip("\n") + "\n"
    assert [m.pdn() for m in records[2].game.moves] == ["11-15", "23-19", "8-11", "22-17"]


def test_stream_reads_an_endless_source_one_game_at_a_time() -> None:
    first = list(itertools.islice(stream_games(endless_lines()), 5))
    assert [r.tags["Round"] for r in first] == ["1", "2", "3", "4", "5"]


def test_stream_reads_paths_text_files_and_binary_files(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    path.write_text(collection(4), encoding="utf-8")
    from_path = [r.tags["Event"] for r in stream_games(path)]
    with open(path, encoding="utf-8") as handle:
        from_text_file = [r.tags["Event"] for r in stream_games(handle)]
    with open(path, "rb") as handle:
        from_binary_file = [r.tags["Event"] for r in stream_games(handle)]
    from_bytes = [r.tags["Event"] for r in stream_games(path.read_bytes())]
    assert from_path == from_text_file == from_binary_file == from_bytes == ["g1", "g2", "g3", "g4"]
    assert [g.tags["Event"] for g in read_games(path)] == from_path
    assert Game.from_pdn(path).tags["Event"] == "g1"


def test_errors_from_a_path_name_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.pdn"
    path.write_text(collection(2) + "1. 11-15 } 23-19 *\n", encoding="utf-8")
    with pytest.raises(InvalidPdnError) as info:
        list(stream_games(path))
    assert str(info.value).startswith(f"{path}:11:")


def test_file_that_is_not_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin.pdn"
    path.write_bytes(b'[Event "x"]\n[Site "K\xf8benhavn"]\n1. 11-15 *\n')
    with pytest.raises(InvalidPdnError) as info:
        read_games(path)
    assert str(info.value).startswith(f"{path}:2:") and "utf-8" in str(info.value)
    (game,) = list(iter_games(io.BytesIO(path.read_bytes()).read().decode("latin-1")))
    assert game.tags["Site"] == "K\u00f8benhavn"
    (record,) = stream_games(path, encoding="latin-1")
    assert record.tags["Site"] == "K\u00f8benhavn"


def test_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "bom.pdn"
    path.write_bytes("\ufeff".encode() + collection(1).encode())
    assert read_games(path)[0].tags["Event"] == "g1"


def test_not_strict_reports_a_bad_game_and_reads_on() -> None:
    text = collection(1) + '[Event "bad"]\n1. 11-15 } 23-19 *\n\n' + '[Event "illegal"]\n1. 11-19 *\n' \
        + collection(2)
    records = list(stream_games(text, source="mixed.pdn", strict=False))
    assert [r.tags.get("Event") for r in records] == ["g1", "bad", "illegal", "g1", "g2"]
    bad, illegal = records[1], records[2]
    assert str(bad.error).startswith("mixed.pdn:7:") and "'}' without '{'" in str(bad.error)
    assert [m.pdn() for m in bad.game.moves] == ["11-15"]         # the moves before the problem
    assert str(illegal.error).startswith("mixed.pdn:10:") and "illegal" in str(illegal.error)
    assert all(r.error is None for r in records[:1] + records[3:])


def test_not_strict_keeps_a_game_whose_header_is_bad() -> None:
    records = list(stream_games('[FEN "W:W99:B1"]\n1. 11-15 *\n' + collection(1), strict=False))
    assert records[0].game is None and "off the board" in str(records[0].error)
    assert records[1].tags["Event"] == "g1" and records[1].error is None


def test_a_game_cut_off_without_result_has_no_result_token() -> None:
    with pytest.raises(InvalidPdnError):          # cut inside a move: that move is malformed
        list(stream_games(collection(1) + '[Event "cut"]\n1. 11-15 23-'))
    cut = list(stream_games(collection(1) + '[Event "cut"]\n1. 11-15 23-19\n'))[1]
    assert cut.result is None and cut.end_line == 7 and cut.game.ply == 2


def test_tags_only_game_at_the_end_is_a_game_without_moves() -> None:
    records = list(stream_games(collection(1) + '[Event "only tags"]\n'))
    assert records[-1].tags["Event"] == "only tags" and records[-1].game.ply == 0
    assert records[-1].result is None


def test_memory_does_not_grow_with_the_number_of_games() -> None:
    tracemalloc = pytest.importorskip("tracemalloc", reason="tracemalloc is CPython's (not in PyPy)")

    def peak(count: int) -> int:
        tracemalloc.start()
        try:
            for record in stream_games(itertools.islice(endless_lines(), 5 * count)):
                assert record.error is None
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    peak(5)                                   # caches filled on first use are not the reader's
    small, large = peak(20), peak(400)        # about 11 KB each; a list of 400 games takes 1.2 MB
    assert large < 2 * small + 50_000, (small, large)


def test_move_texts_are_the_moves_as_written() -> None:
    (record,) = stream_games('[GameType "25"]\n1. c3-d4! {good} f6-g5 $2 2.d4-e5 *')
    assert record.move_texts == ("c3-d4", "f6-g5", "d4-e5")
    assert [m.pdn() for m in record.game.moves] == ["22-18", "11-16", "18-15"]


def test_without_replay_no_game_is_built_and_moves_are_not_checked() -> None:
    text = collection(2) + '[Event "nonsense"]\n1. 11-19 99-100 *\n'
    records = list(stream_games(text, replay=False))
    assert [r.game for r in records] == [None, None, None]
    assert records[2].move_texts == ("11-19", "99-100") and records[2].result == "*"
    with pytest.raises(InvalidPdnError):          # the bracket syntax is still read
        list(stream_games("1. 11-15 } *", replay=False))


def test_a_file_name_given_as_text_gets_a_hint() -> None:
    with pytest.raises(InvalidPdnError, match="pathlib.Path"):
        read_games("games/club.pdn")


# ---- undecodable bytes, escape lines, escaped tag values --------------------------------


def test_not_strict_records_undecodable_bytes_on_their_game(tmp_path: Path) -> None:
    path = tmp_path / "latin.pdn"
    path.write_bytes(b'[Event "x"]\n[Site "K\xf8benhavn"]\n\n1. 11-15 *\n\n' + collection(1).encode())
    for source in (path, path.read_bytes(), io.BytesIO(path.read_bytes())):
        records = list(stream_games(source, strict=False))
        assert [r.tags.get("Event") for r in records] == ["x", "g1"]
        assert ":2: not utf-8 text" in str(records[0].error)
        assert records[0].tags["Site"] == "K\ufffdbenhavn" and records[1].error is None
    with pytest.raises(InvalidPdnError, match=":2: not utf-8 text"):
        list(stream_games(path))


def test_undecodable_bytes_on_a_game_s_first_line_belong_to_that_game() -> None:
    data = collection(1).encode() + b'[Event "\xe9"]\n\n1. 11-15 *\n'
    records = list(stream_games(data, strict=False))
    assert [r.tags.get("Result") for r in records] == ["*", "*"]
    assert records[0].error is None and "not utf-8 text" in str(records[1].error)


def test_undecodable_bytes_between_games_belong_to_the_next_game_not_a_record_of_their_own(
        ) -> None:
    data = collection(1).encode() + b'{caf\xe9}\n[Event "next"]\n\n1. 11-15 *\n'
    records = list(stream_games(data, strict=False))
    assert len(records) == 2 and records[0].error is None
    assert records[1].tags.get("Event") == "next" and "not utf-8 text" in str(records[1].error)


def test_a_text_file_that_cannot_decode_its_lines_is_an_invalid_pdn_error(tmp_path: Path) -> None:
    path = tmp_path / "latin.pdn"
    path.write_bytes(b'[Event "K\xf8benhavn"]\n1. 11-15 *\n')
    with open(path, encoding="utf-8") as handle:
        with pytest.raises(InvalidPdnError, match="not text in the file's encoding"):
            list(stream_games(handle, strict=False))


def test_escape_lines_are_ignored() -> None:
    text = ('% exported by foo\n[Event "x"]\n%[Round "9"]\n[White "A"]\n\n'
            '1. 11-15 23-19\n% 2. 9-14 22-17 {\n2. 8-11 *\n')
    (record,) = stream_games(text)
    assert record.tags == {"Event": "x", "White": "A", "Result": "*"}
    assert [m.pdn() for m in record.game.moves] == ["11-15", "23-19", "8-11"]
    assert [t.text for t in tokens(["% 1-0", " % is a word here"])] == ["%", "is", "a", "word",
                                                                       "here"]
    # inside a comment a line starting with % is comment text: its '}' closes the comment
    (inside,) = read_games('[Event "y"]\n1. 11-15 {a\n% b}\n23-19 *\n')
    assert [m.pdn() for m in inside.moves] == ["11-15", "23-19"]


def test_escaped_quotes_and_backslashes_in_tag_values() -> None:
    for value in ("x\\", "\\", 'a\\"b', 'say "hi"\\', "]", "a\\nb"):
        text = Game("english").to_pdn({"Event": value})
        (record,) = stream_games(text)
        assert record.tags["Event"] == value, (value, text.splitlines()[0])


def test_a_tag_name_with_a_control_character_is_malformed() -> None:
    assert "malformed tag" in pdn_error('[Ev\x0bent "x"]\n1. 11-15 *\n')
