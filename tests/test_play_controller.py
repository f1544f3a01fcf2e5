"""The play controller and the game records behind it, driven directly (no terminal).

Engines are real processes (our engine through the reference clients, and the fake engines of
tests/fake_engines/); searches are shallow, and nothing here measures time.
"""
from __future__ import annotations

import os
import shlex
import sys
import threading
import time
from pathlib import Path

import pytest

from draughts_engine.game import Game
from draughts_engine.pdn import read_games
from draughts_engine.search.limits import SearchLimits
from protocol.play import players as players_module
from protocol.play import (
    EngineFailure,
    GameController,
    GameFinishedError,
    LoadError,
    NotYourTurnError,
    PlayerSpec,
    PlayerSpecError,
    UndoRedoError,
    VARIANTS,
    new_record,
    records_from_text,
)

sys.path.insert(0, os.path.dirname(__file__))
from test_play_support import rejection  # noqa: E402

FAKE_ENGINES = Path(__file__).resolve().parent / "fake_engines"
HUMAN = PlayerSpec.human()
ENGINE = PlayerSpec.own_engine()
SHALLOW = SearchLimits(depth=2)


def fake(name: str) -> PlayerSpec:
    return PlayerSpec.parse([f"cmd:{sys.executable} {FAKE_ENGINES / name}"])


# ---------------------------------------------------------------------------- records


TITLES = {"english": "English draughts", "international": "International draughts",
          "antidraughts": "Antidraughts", "frysk": "Frysk!", "pool": "Pool checkers",
          "killer": "Killer draughts", "tictactoe": "Tic-tac-toe", "tatedrez": "Tatedrez"}


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_game_has_a_title_a_person_would_write(variant: str) -> None:
    title = new_record(variant).title
    assert title == TITLES.get(variant, f"{variant.capitalize()} draughts")
    assert "draughts draughts" not in title.lower()


def test_the_status_and_result_lines_use_the_title() -> None:
    import io
    from protocol.play.cli import main
    out, err = io.StringIO(), io.StringIO()
    status = main(["--variant", "antidraughts", "--white", "human", "--black", "human",
                   "--fen", "W:W28:B23"], stdin=io.StringIO("28x19\nquit\n"), stdout=out,
                  stderr=err)
    assert status == 0, err.getvalue()
    assert "Antidraughts: White Human, Black Human." in out.getvalue()
    assert "Antidraughts, move 1: White to move (Human)" in out.getvalue()
    assert "Game over: Black wins (0-2): black has no legal move and wins." in out.getvalue()
    assert "Antidraughts draughts" not in out.getvalue()


def test_a_wrong_move_gets_a_one_line_reason_and_the_legal_moves() -> None:
    record = new_record("english")
    cases = {
        "11-17": "the man on 11 cannot go to 17",
        "22-18": "the piece on 22 is white's, and black is to move",
        "15-19": "square 15 is empty",
        "hello": "malformed move",
        "11-99": "off the board",
    }
    for text, reason in cases.items():
        refusal = rejection(record, text)
        assert reason in refusal.reason and "\n" not in refusal.reason
        assert refusal.legal == ("9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16")
    assert record.ply == 0


def test_moves_are_read_in_pdn_algebraic_and_short_forms() -> None:
    record = new_record("russian")
    assert record.play_text("c3-d4") == "22-18"       # algebraic on 8x8
    assert record.play_text("11-15") == "11-15"
    assert record.play_text("18x11") == "18x11"       # origin and destination of a capture
    assert record.move_texts == ["22-18", "11-15", "18x11"]


def test_a_compulsory_capture_is_named_as_the_reason() -> None:
    record = new_record("english", "B:W18:B14,1")
    refusal = rejection(record, "1-5")
    assert "a capture is compulsory" in refusal.reason
    assert refusal.legal == ("14x23",)


def test_two_captures_between_the_same_squares_need_the_path() -> None:
    record = new_record("international", "W:WK47:B14,19,29,31,42")
    legal = record.legal_moves()
    assert "47x38x24x13x36" in legal and "47x38x20x9x36" in legal  # full paths only where needed
    refusal = rejection(record, "47x36")
    assert "ambiguous" in refusal.reason and "path" in refusal.reason
    assert record.play_text("47x24x36") == "47x38x24x13x36"


def test_the_end_of_a_game_by_the_rules_and_its_reason() -> None:
    record = new_record("english", "W:W18:B14")
    record.play_text("18x9")
    outcome = record.result()
    assert (outcome.winner, outcome.score) == ("white", "1-0")
    assert outcome.reason == "black has no legal move"
    with pytest.raises(GameFinishedError):
        record.play_text("9-5")
    repeat = new_record("english", "W:WK29:BK4")
    for text in ["29-25", "4-8", "25-29", "8-4"] * 2:
        repeat.play_text(text)
    assert repeat.result().winner == "draw" and "repetition" in repeat.result().reason


def test_the_board_view_marks_the_last_move_and_the_captured_square() -> None:
    record = new_record("english", "B:W18:B14,1")
    record.play_text("14x23")
    view = record.board_view()
    cells = {cell.number: cell for row in view.rows for cell in row if cell.playable}
    assert len(cells) == 32 and view.has_coordinates and view.has_numbers
    assert cells[14].in_last_move and cells[23].in_last_move and cells[23].piece == "b"
    assert cells[18].captured and cells[18].piece is None
    assert cells[1].name == "b8" and cells[1].owner == "black"
    assert not new_record("international").board_view().has_coordinates


def test_small_games_share_the_interface() -> None:
    ttt = new_record("tictactoe")
    assert ttt.side_names == {"white": "X", "black": "O"}
    for text in ["a1", "b1", "a2", "b2", "a3"]:
        ttt.play_text(text)
    assert ttt.result().winner == "white" and ttt.result().reason == "x completed a line"
    refusal = rejection(new_record("tictactoe"), "d4")
    assert "not a tic-tac-toe square" in refusal.reason and len(refusal.legal) == 9
    tatedrez = new_record("tatedrez")
    tatedrez.play_text("R@a1")
    assert tatedrez.side_to_move == "black" and "R@a1" not in tatedrez.legal_moves()
    assert "R@b2" in tatedrez.legal_moves()
    view = tatedrez.board_view()
    assert view.rows[2][0].piece == "R" and view.rows[2][0].in_last_move


def test_small_game_files_round_trip(tmp_path: Path) -> None:
    record = new_record("tatedrez")
    for text in ["R@a1", "r@b1", "B@c1", "b@a2"]:
        record.play_text(text)
    text = record.pdn({"White": "me"})
    assert '[Variant "tatedrez"]' in text and "1. R@a1 R@b1 2. B@c1 B@a2 *" in text
    (back,) = records_from_text(text, "english")
    assert back.variant == "tatedrez" and back.move_texts == record.move_texts
    assert back.tags()["White"] == "me"


def test_undo_and_redo_on_the_record() -> None:
    record = new_record("english")
    record.play_text("11-15")
    record.play_text("23-19")
    assert record.undo(2) == ["11-15", "23-19"] and record.ply == 0
    assert record.redo(1) == ["11-15"] and record.redo_count == 1
    record.play_text("22-18")  # a new move forgets what could be redone
    assert record.redo_count == 0
    with pytest.raises(UndoRedoError):
        record.redo()
    with pytest.raises(UndoRedoError):
        record.undo(3)
    assert record.move_texts == ["11-15", "22-18"]


def test_loading_rejects_bad_text_with_the_reason() -> None:
    with pytest.raises(LoadError, match="unknown variant"):
        new_record("chess")
    with pytest.raises(LoadError, match="bad FEN"):
        new_record("english", "W:W99:B1")
    with pytest.raises(LoadError, match="f.pdn:3"):
        records_from_text('[GameType "21"]\n\n1. 11-15 11-15 *\n', "english", "f.pdn")
    with pytest.raises(LoadError, match="empty"):
        records_from_text("  \n", "english", "e.pdn")


# ---------------------------------------------------------------------------- players


def test_player_specs_are_parsed_from_words() -> None:
    assert PlayerSpec.parse(["human"]).is_human
    own = PlayerSpec.parse(["engine", "level=4"])
    assert own.builtin and own.limits == SearchLimits(depth=4) and own.protocol == "uci"
    other = PlayerSpec.parse(['cmd:"/opt/scan" hub', "proto=hub", "name=Scan", "movetime=500"])
    assert other.command == ("/opt/scan", "hub") and other.protocol == "hub"
    assert other.name == "Scan" and other.limits == SearchLimits(movetime_ms=500)
    assert PlayerSpec.parse(["engine level=3"]).limits == SearchLimits(depth=3)
    assert PlayerSpec.parse(shlex.split(other.describe())) == other
    for words, reason in [(["robot"], "unknown player"), (["engine", "level=13"], "1..12"),
                          (["engine", "proto=dxp"], "uci or hub"), (["cmd:"], "needs a command"),
                          (["human", "level=2"], "applies to engines"),
                          (["engine", "depth"], "key=value"), (["engine", "colour=red"], "unknown key")]:
        with pytest.raises(PlayerSpecError, match=reason):
            PlayerSpec.parse(words)


# ---------------------------------------------------------------------------- controller


def test_human_against_engine_undo_goes_back_to_the_human_turn() -> None:
    with GameController("english", white=ENGINE, black=HUMAN, limits=SHALLOW) as game:
        played = game.play("11-15")
        assert (played.side, played.label, played.by) == ("black", "1.", "Human")
        infos = []
        reply = game.engine_move(on_info=infos.append)
        assert reply.side == "white" and reply.label == "1..." and reply.info is not None
        assert infos and infos[-1].pv and reply.by.startswith("draughts-engine")
        assert game.human_to_move()
        after = game.fen()
        assert game.undo() == ["11-15", reply.text]
        assert game.fen() == Game("english").position.fen() and game.history == []
        assert [m.text for m in game.redo()] == ["11-15", reply.text]
        assert game.fen() == after and len(game.history) == 2
        with pytest.raises(NotYourTurnError):
            game.engine_move()
        game.undo()
        with pytest.raises(UndoRedoError, match="no move to take back"):
            game.undo()


def test_undo_with_the_engine_moving_first_stops_at_the_first_human_turn() -> None:
    with GameController("international", white=ENGINE, black=HUMAN, limits=SHALLOW) as game:
        with pytest.raises(NotYourTurnError):
            game.play("32-28")
        game.engine_move()
        with pytest.raises(UndoRedoError, match="no earlier turn"):
            game.undo()


def test_between_humans_undo_takes_back_one_move_and_a_hint_comes_from_our_engine() -> None:
    with GameController("english", white=HUMAN, black=HUMAN, limits=SHALLOW) as game:
        game.play("11-15")
        game.play("23-19")
        assert game.undo() == ["23-19"]
        hint = game.hint()
        assert hint.move in Game("english", fen=game.fen()).position.legal_moves() or \
            hint.move in [m.pdn() for m in Game("english", fen=game.fen()).legal_moves()]
        assert game.ply == 1  # a hint plays nothing


def test_move_now_stops_a_deep_search_and_plays_its_best_move() -> None:
    with GameController("international", white=PlayerSpec.own_engine(SearchLimits(depth=40)),
                        black=HUMAN) as game:
        game.start()
        first_info = threading.Event()
        result = []

        def think() -> None:
            result.append(game.engine_move(on_info=lambda info: first_info.set()))

        thread = threading.Thread(target=think)
        thread.start()
        assert first_info.wait(120)
        game.move_now()
        thread.join(120)
        assert not thread.is_alive()
        assert result[0].text in [m.pdn() for m in Game("international").legal_moves()]


def test_save_and_load_round_trip_through_pdn_and_fen(tmp_path: Path) -> None:
    path = tmp_path / "game.pdn"
    with GameController("english", white=HUMAN, black=HUMAN) as game:
        for text in ["11-15", "23-19", "8-11"]:
            game.play(text)
        game.save(str(path))
        (read,) = read_games(path.read_text())
        assert [m.pdn() for m in read.moves] == ["11-15", "23-19", "8-11"]
        assert read.tags["White"] == "Human" and read.tags["Event"] == "draughts-play"
        game.new_game()
        assert game.ply == 0
        game.load(str(path))
        assert game.ply == 3 and game.side_to_move == "white"
        assert [m.label for m in game.history] == ["1.", "1...", "2."]
        fen_file = tmp_path / "position.fen"
        fen_file.write_text("W:W18:B14\n")
        game.load(str(fen_file))
        assert game.fen() == "W:W18:B14" and game.ply == 0
        game.save(str(path), append=True)
        assert len(read_games(path.read_text())) == 2
        with pytest.raises(LoadError, match="cannot read"):
            game.load(str(tmp_path / "missing.pdn"))
        with pytest.raises(LoadError, match="game 5"):
            game.load(str(path), game_number=5)
        assert game.fen() == "W:W18:B14"  # a failed load changes nothing


def test_loading_a_game_of_another_variant_switches_the_engines(tmp_path: Path) -> None:
    game_file = tmp_path / "intl.pdn"
    intl = Game("international")
    intl.push_all(["32-28", "19-23"])
    game_file.write_text(intl.to_pdn())
    with GameController("english", white=ENGINE, black=HUMAN, limits=SHALLOW) as game:
        game.load(str(game_file))
        assert game.variant == "international" and game.side_to_move == "white"
        move = game.engine_move()
        assert move.text in [m.pdn() for m in intl.legal_moves()]


def test_engine_against_engine_plays_tictactoe_to_the_end() -> None:
    with GameController("tictactoe", white=ENGINE, black=ENGINE,
                        limits=SearchLimits(depth=9)) as game:
        while not game.result().is_over:
            game.engine_move()
        assert game.result().winner == "draw" and game.result().reason == "the board is full"
        with pytest.raises(GameFinishedError):
            game.engine_move()


def test_a_hub_engine_plays_through_the_hub_client() -> None:
    hub = PlayerSpec.parse(["engine", "proto=hub"])
    with GameController("international", white=hub, black=HUMAN, limits=SHALLOW) as game:
        move = game.engine_move()
        assert move.text in [m.pdn() for m in Game("international").legal_moves()]
        game.play("19-23")
        assert game.ply == 2


@pytest.mark.parametrize("engine, message", [
    ("broken_illegal_bestmove.py", "illegal move 21-17"),
    ("die_mid_search.py", "failed while searching"),
])
def test_a_misbehaving_engine_is_an_engine_failure(engine: str, message: str) -> None:
    with GameController("english", white=HUMAN, black=fake(engine), limits=SHALLOW) as game:
        with pytest.raises(EngineFailure, match=message) as caught:
            game.engine_move()
        assert caught.value.side == "black" and caught.value.transcript
        assert game.ply == 0


def test_failures_call_the_engine_by_its_configured_name() -> None:
    named = PlayerSpec.parse([f"cmd:{sys.executable} {FAKE_ENGINES / 'die_mid_search.py'}",
                              "name=dies"])
    with GameController("english", white=HUMAN, black=named, limits=SHALLOW) as game:
        with pytest.raises(EngineFailure, match=r"^dies failed while searching"):
            game.engine_move()


def _process_gone(pid: int, timeout: float) -> bool:
    """Whether process ``pid`` is gone (reaped) within ``timeout`` seconds (a hang guard)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.02)
    return False


def test_an_engine_that_ignores_move_now_is_killed_after_the_grace(monkeypatch) -> None:
    """A search without a time limit (a level) that ignores stop: "move now" alone ends the
    wait (the engine is killed once the grace is over), with a plain message."""
    monkeypatch.setattr(players_module, "STOP_GRACE_SECONDS", 0.2)
    stuck = PlayerSpec.parse([f"cmd:{sys.executable} {FAKE_ENGINES / 'hang_on_go.py'}",
                              "name=stuck", "level=3"])
    with GameController("english", white=HUMAN, black=stuck) as game:
        game.start()
        (engine,) = game.engine_players()
        pid = engine.pid
        box: dict = {}

        def think() -> None:
            try:
                game.engine_move()
            except BaseException as exc:  # handed to the test
                box["error"] = exc

        thread = threading.Thread(target=think, daemon=True)
        thread.start()
        deadline = time.monotonic() + 120
        while thread.is_alive() and time.monotonic() < deadline:
            game.move_now()  # only once a search runs does it count; repeats are harmless
            thread.join(0.05)
        assert not thread.is_alive(), "move now did not end the wait for a hung engine"
        error = box["error"]
        assert isinstance(error, EngineFailure) and error.side == "black"
        assert str(error) == "stuck ignored stop for 0.2 s and was killed"
        assert not engine.started and engine.pid is None and game.ply == 0
        assert _process_gone(pid, 120)  # the process was killed (and reaped)


def test_an_engine_that_cannot_start_is_an_engine_failure() -> None:
    missing = PlayerSpec.parse([f"cmd:{os.devnull}/no-such-engine"])
    with GameController("english", white=HUMAN, black=missing) as game:
        with pytest.raises(EngineFailure, match="cannot run"):
            game.start()


def test_swap_sides_exchanges_players_and_their_engines() -> None:
    deep = PlayerSpec.own_engine(SearchLimits(depth=3), name="deep")
    with GameController("english", white=deep, black=HUMAN) as game:
        game.start()
        game.swap_sides()
        assert game.player("black").name == "deep" and game.player("white").is_human
        assert game.player_name("black") == "deep"


def test_a_read_result_holds_for_the_moves_read_only() -> None:
    """A PDN result (a resignation) is kept while the game is as read; played on, the saved
    result follows the moves (it said 2-0 after the game went on)."""
    from draughts_engine.game import Game
    from protocol.play.records import DraughtsRecord
    game = Game.from_pdn('[GameType "20"]\n[Result "2-0"]\n\n1. 32-28 19-23 2-0\n')
    record = DraughtsRecord(game=game)
    assert '[Result "2-0"]' in record.pdn() and record.pdn().rstrip().endswith("2-0")
    game.push("28x19")
    assert '[Result "*"]' in record.pdn() and record.pdn().rstrip().endswith("*")


@pytest.mark.parametrize("columns", [8, 15, 40])
def test_the_live_thinking_line_fits_a_narrow_terminal(monkeypatch, columns: int) -> None:
    """Each update of the live line (after ``\\r\\x1b[K``) is shorter than the terminal is
    wide, however narrow: a longer one wraps and leaves stale lines behind."""
    import io
    from protocol.play.render import Style
    from protocol.play.terminal import TerminalSession
    monkeypatch.setenv("COLUMNS", str(columns))
    out = io.StringIO()
    with GameController("english", white=HUMAN, black=ENGINE, limits=SHALLOW) as game:
        session = TerminalSession(game, out, input, Style(False), interactive=False, live=True)
        session.engine_turn()
    # a live update is followed by the next "\r\x1b[K"; a cleared line is followed by a line
    updates = [part for part in out.getvalue().split("\r\x1b[K")[1:] if "\n" not in part]
    assert any(updates), "no live line was drawn"
    assert all(len(update) < columns for update in updates), updates


def test_engine_options_in_player_words() -> None:
    spec = PlayerSpec.parse(["engine", "option.OwnBook=false", "movetime=100"])
    assert spec.options == (("OwnBook", "false"),)
    assert PlayerSpec.parse(shlex.split(spec.describe())) == spec
    for bad in (["engine", "option.X="], ["human", "option.X=1"],
                ["engine", "proto=hub", "option.X=1"]):
        with pytest.raises(PlayerSpecError):
            PlayerSpec.parse(bad)
