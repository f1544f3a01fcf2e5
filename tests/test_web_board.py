"""The web board's game handling without HTTP: :class:`protocol.web.board.WebBoard`, the
registry's cap and heartbeat timeout (with a fake clock), and what the controller gained
for the web (cancel, abandon, analyse, go_to, upcoming).

Engines are real processes (our engine at low levels, and the fake engines of
tests/fake_engines for failures); waits are for events, with generous deadlines.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, Callable, Dict, List

import pytest

from draughts_engine.search.limits import SearchLimits
from protocol.play.controller import (
    GameController,
    LoadError,
    MoveRejected,
    NotYourTurnError,
    PlayerSpec,
    SearchCancelled,
    UndoRedoError,
)
from protocol.play import players as players_module
from protocol.play.players import EngineFailure
from protocol.web import board as board_module
from protocol.web import board as board_module
from protocol.web.board import BoardSettings, Players, WebBoard
from protocol.web.engines import (
    DEFAULT_ENGINE_NAME,
    EngineBook,
    EngineChoice,
    EngineSpecError,
    default_engine,
    parse_engine_spec,
)
from protocol.web.registry import BoardLimitError, BoardRegistry, UnknownBoardError

sys.path.insert(0, os.path.dirname(__file__))
from helpers_clock import FakeClock  # noqa: E402

FAKES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_engines")
OURS = DEFAULT_ENGINE_NAME
BOOK = EngineBook([
    default_engine(),
    EngineChoice("stubborn", (sys.executable, os.path.join(FAKES, "broken_ignores_stop.py"))),
    EngineChoice("crashing", (sys.executable, os.path.join(FAKES, "die_mid_search.py"))),
    EngineChoice("hung", (sys.executable, os.path.join(FAKES, "hang_on_go.py"))),
])


def make_board(variant: str = "international", white=None, black=OURS, level: int = 1,
               delay_ms: int = 0, fen=None, pdn=None) -> WebBoard:
    players = Players(white, black, SearchLimits(depth=level), delay_ms)
    return WebBoard("test-board", BoardSettings(variant, fen, pdn, players), BOOK)


def wait(board: WebBoard, predicate: Callable[[Dict[str, Any]], bool], what: str,
         timeout: float = 120.0) -> Dict[str, Any]:
    """The first state that satisfies ``predicate`` (waiting on the board's changes)."""
    deadline = time.monotonic() + timeout
    state = board.snapshot()
    while not predicate(state):
        left = deadline - time.monotonic()
        assert left > 0, f"timed out waiting for {what}; last status: {state['status']}"
        board.wait_change(state["version"], min(left, 1.0))
        state = board.snapshot()
    return state


def texts(state: Dict[str, Any]) -> List[str]:
    return [text for _, text in state["moves"][:state["ply"]]]


@pytest.fixture
def boards():
    made: List[WebBoard] = []

    def factory(**kwargs: Any) -> WebBoard:
        made.append(make_board(**kwargs))
        return made[-1]

    yield factory
    for b in made:
        b.close()


# ------------------------------------------------------------------------------ playing


def test_person_move_engine_reply_undo_redo_goto(boards):
    board = boards()
    state = board.snapshot()
    assert state["size"] == 10 and len(state["pieces"]) == 50 and state["turn"] == "white"
    assert {"pdn": "32-28", "text": "32-28", "paths": [[32, 28]]} in state["legal"]
    state = board.act("move", text="32-28")
    assert texts(state)[0] == "32-28" and state["legal"] == []
    state = wait(board, lambda s: s["ply"] == 2 and s["thinking"] is None, "the engine's reply")
    assert state["analysis"]["depth"] is not None and state["analysis"]["running"] is False
    assert state["last"]["path"][0] in range(1, 51) and state["pieces"][27] == "w"
    assert state["moves"][0] == ["1.", "32-28"] and state["moves"][1][0] == "1..."
    state = board.act("undo")
    assert state["ply"] == 0 and len(state["moves"]) == 2 and state["pieces"][31] == "w"
    state = board.act("redo")
    assert state["ply"] == 2 and texts(state)[0] == "32-28"
    state = board.act("goto", ply=1)
    assert state["ply"] == 1 and state["paused"] and "paused" in state["status"]
    assert state["thinking"] is None
    board.act("go")
    state = wait(board, lambda s: s["ply"] == 2 and s["thinking"] is None, "the engine after go")
    assert len(state["moves"]) == 2
    assert "[White \"Human\"]" in state["pdn"] and "1. 32-28" in state["pdn"]


def test_an_engine_is_named_the_same_before_and_after_it_plays():
    """The name of the book (what the page's menus show), with the level, from the start:
    not the command's program (``python3``) first and the engine's id name later."""
    book = EngineBook([
        EngineChoice("ours", default_engine().command),
        EngineChoice("mover", (sys.executable, os.path.join(FAKES, "random_mover.py"),
                               "--name", "Random Mover 2.0")),
    ])
    for engine, expected in (("ours", "ours (level 1)"), ("mover", "mover (level 1)")):
        # English: Black (the person) moves first, so the engine has not started yet
        players = Players(engine, None, SearchLimits(depth=1), 0)
        board = WebBoard("names", BoardSettings("english", None, None, players), book)
        try:
            state = board.snapshot()
            names = [state["players"]["white"]["name"]]
            assert f'[White "{expected}"]' in state["pdn"]
            board.act("move", text=state["legal"][0]["pdn"])
            state = wait(board, lambda s: s["ply"] == 2 and s["thinking"] is None, "a reply")
            names.append(state["players"]["white"]["name"])
            assert f'[White "{expected}"]' in state["pdn"]
            assert names == [expected, expected]
        finally:
            board.close()


def test_rejected_moves_leave_the_game_as_it_was(boards):
    board = boards(black=None)
    before = board.snapshot()
    with pytest.raises(MoveRejected):
        board.act("move", text="32-27x")
    with pytest.raises(MoveRejected):
        board.act("move", text="19-23")
    with pytest.raises(UndoRedoError):
        board.act("undo")
    with pytest.raises(LoadError):
        board.act("fen", fen="W:W99:B1")
    after = board.snapshot()
    assert after["fen"] == before["fen"] and after["moves"] == [] and after["message"] is None


def test_two_captures_with_the_same_ends_are_two_choices(boards):
    board = boards(black=None, fen="W:WK47:B14,19,29,31,42")
    legal = board.snapshot()["legal"]
    to_36 = sorted(m["pdn"] for m in legal if m["paths"][0][0] == 47 and m["paths"][0][-1] == 36)
    assert to_36 == ["47x38x20x9x36", "47x38x24x13x36"]
    state = board.act("move", text="47x38x24x13x36")
    assert texts(state) == ["47x38x24x13x36"]
    assert state["last"]["path"] == [47, 38, 24, 13, 36] and len(state["last"]["captured"]) == 4


# ------------------------------------------------------------------------------ notation


def test_a_russian_board_shows_moves_in_coordinates_and_plays_both_forms(boards):
    board = boards(variant="russian", black=None)
    state = board.snapshot()
    assert state["names"][21] == "c3" and state["names"][0] == "b8" and len(state["names"]) == 32
    assert {"pdn": "22-18", "text": "c3-d4", "paths": [[22, 18]]} in state["legal"]
    state = board.act("move", text="22-18")                # numbers typed
    state = board.act("move", text="f6-e5")                # coordinates typed
    assert texts(state) == ["c3-d4", "f6-e5"] and state["moves"][1] == ["1...", "f6-e5"]
    assert state["legal"] == [{"pdn": "18x11", "text": "d4xf6", "paths": [[18, 11]]}]
    assert state["last"]["path"] == [11, 15]               # squares stay numbers for the board
    assert "1. c3-d4 f6-e5" in state["pdn"]                # saved PDN as before
    with pytest.raises(MoveRejected) as caught:
        board.act("move", text="c3-b4")
    assert str(caught.value) == "c3-b4: square c3 is empty"
    assert board.controller.record.engine_position() == (None, ["22-18", "11-15"])


def test_a_russian_hint_and_analysis_are_shown_in_coordinates(boards):
    board = boards(variant="russian", black=None)
    board.act("hint")
    state = wait(board, lambda s: s["hint"] is not None and not s["hinting"], "a hint")
    legal = {m["pdn"]: m["text"] for m in state["legal"]}
    assert state["hint"]["pdn"] in legal and state["hint"]["move"] == legal[state["hint"]["pdn"]]
    assert len(state["hint"]["arrow"]) == 2
    assert state["analysis"]["pv"] and all(
        move[0] in "abcdefgh" for move in state["analysis"]["pv"]), state["analysis"]["pv"]


def test_numbered_boards_send_no_square_names(boards):
    board = boards(variant="english", black=None)
    state = board.act("move", text="11-15")
    assert state["names"] is None and texts(state) == ["11-15"]
    assert {"pdn": "22-18", "text": "22-18", "paths": [[22, 18]]} in state["legal"]
    assert board.act("new", variant="international")["names"] is None


def test_game_end_has_result_and_reason(boards):
    board = boards(black=None, fen="W:W28:B23")
    state = board.act("move", text="28x19")
    assert state["result"] == {"winner": "white", "reason": state["result"]["reason"], "score": "2-0"}
    assert "no legal move" in state["result"]["reason"] and state["status"].startswith("Game over")
    assert state["legal"] == []


def test_hint_and_analysis_of_a_finished_game_without_moves(boards):
    """No move remains: Hint says so, and the analysis is the result (no engine needed)."""
    board = boards(black=None, fen="W:W28:B23")
    board.act("move", text="28x19")
    state = board.act("hint")
    assert state["hint"]["move"] is None and "game is over" in state["hint"]["none"]
    assert not state["hinting"]
    state = board.act("analyse", on=True)
    assert state["analysis"]["kind"] == "final" and state["analysis"]["result"] == "2-0"
    assert "no legal move" in state["analysis"]["reason"] and not state["analysing"]
    draw = boards(white=None, black=None, variant="english", fen="W:WK32:BK1")
    for move in ["32-27", "1-5", "27-32", "5-1"] * 2:
        state = draw.act("move", text=move)
    assert state["result"]["winner"] == "draw"
    state = draw.act("hint")
    assert state["hint"]["move"] is None and "repetition" in state["hint"]["none"]


def test_analysis_of_a_finished_game_whose_position_has_moves(boards):
    """A draw by repetition leaves moves on the board: an engine analyses that position (in a
    game of its own), until stopped, and plays nothing; its engine is reaped afterwards."""
    board = boards(white=None, black=None, variant="english", fen="W:WK32:BK1")
    for move in ["32-27", "1-5", "27-32", "5-1"] * 2:
        state = board.act("move", text=move)
    assert state["result"]["winner"] == "draw" and state["ply"] == 8
    board.act("analyse", on=True)
    state = wait(board, lambda s: s["analysis"] and s["analysis"]["depth"]
                 and s["analysis"]["pv"], "an analysis of the final position")
    assert state["analysing"] and state["analysis"]["kind"] == "analyse"
    assert state["analysis"]["pv"][0] in ("32-27", "32-28")
    state = board.act("stop")
    assert not state["analysing"] and state["ply"] == 8 and state["result"]["winner"] == "draw"
    if os.path.isdir("/proc/self"):  # two people play: the analysis's engine was the only one
        assert children() == []


def children() -> List[int]:
    """The live engine processes this process started (Linux /proc; the client's guard
    process, which outlives engines, is not one)."""
    found = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                command = handle.read()
        except (OSError, IndexError):
            continue
        if (name.isdigit() and int(fields[1]) == os.getpid() and fields[0] != "Z"
                and b"guard.py" not in command):
            found.append(int(name))
    return found


def test_new_game_variant_fen_and_pdn(boards):
    board = boards(black=None)
    state = board.act("new", variant="english")
    assert state["variant"] == "english" and state["size"] == 8 and state["turn"] == "black"
    state = board.act("move", text="11-15")
    with pytest.raises(LoadError):
        board.act("new", fen="B:W99:B1", players=Players(OURS, OURS, SearchLimits(depth=1), 0))
    state = board.snapshot()
    assert state["players"]["white"]["type"] == "human" and texts(state) == ["11-15"]
    state = board.act("fen", fen="B:W18,K30:B5,9")
    assert state["fen"] == "B:W18,K30:B5,9" and state["moves"] == []
    pdn = '[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n'
    state = board.act("pdn", text=pdn)
    assert state["variant"] == "international" and texts(state) == ["32-28", "19-23", "28x19", "14x23"]
    with pytest.raises(LoadError):
        board.act("pdn", text="[GameType \"20\"]\n\n1. 32-28 32-28 *")
    assert texts(board.snapshot()) == ["32-28", "19-23", "28x19", "14x23"]


def test_engine_plays_first_when_it_has_white(boards):
    board = boards(white=OURS, black=None)
    state = wait(board, lambda s: s["ply"] == 1 and s["thinking"] is None, "White's engine move")
    assert state["legal"] and state["turn"] == "black"


def test_engine_against_engine_and_stop(boards):
    board = boards(white=OURS, black=OURS, delay_ms=0)
    wait(board, lambda s: s["ply"] >= 4, "four engine moves")
    state = board.act("stop")
    assert state["paused"] and state["thinking"] is None and "paused" in state["status"]
    ply = state["ply"]
    state = board.act("players", players=Players(None, OURS, SearchLimits(depth=1), 0))
    if state["turn"] == "black":
        state = wait(board, lambda s: s["turn"] == "white" and s["thinking"] is None, "black's move")
    assert state["ply"] >= ply and state["legal"]


def test_engines_playing_on_stay_stoppable_between_moves(boards):
    # a long delay between moves: nobody thinks, yet the page must still offer Stop
    board = boards(white=OURS, black=OURS, level=1, delay_ms=60000)
    state = wait(board, lambda s: s["ply"] == 1 and s["thinking"] is None, "the first move")
    assert state["playing"] and not state["analysing"]
    state = board.act("stop")
    assert state["paused"] and not state["playing"] and state["ply"] == 1


def test_analysis_runs_until_stopped_and_plays_nothing(boards):
    board = boards(black=None)
    board.act("analyse", on=True)
    state = wait(board, lambda s: s["analysis"] and s["analysis"]["depth"] is not None
                 and s["analysis"]["depth"] >= 2 and s["analysis"]["arrow"], "analysis with an arrow")
    assert state["analysing"] and "analysing" in state["status"] and state["legal"]
    assert state["analysis"]["running"] and state["analysis"]["score_cp"] is not None
    assert state["analysis"]["nodes"] and state["analysis"]["pv"]
    assert len(state["analysis"]["arrow"]) == 2
    state = board.act("stop")
    assert not state["analysing"] and state["ply"] == 0 and not state["paused"]


def test_move_now_during_analysis_plays_its_best_move(boards):
    board = boards(black=OURS)
    legal = [m["pdn"] for m in board.snapshot()["legal"]]
    board.act("analyse", on=True)
    wait(board, lambda s: s["analysis"] and s["analysis"]["depth"], "analysis")
    board.move_now()
    state = wait(board, lambda s: s["ply"] == 2 and s["thinking"] is None, "the move and the reply")
    assert texts(state)[0] in legal and not state["analysing"]


def test_hint_and_engine_move_for_the_person(boards):
    board = boards(black=None)
    board.act("hint")
    state = wait(board, lambda s: s["hint"] is not None and not s["hinting"], "a hint")
    assert state["hint"]["move"] in [m["pdn"] for m in state["legal"]]
    assert len(state["hint"]["arrow"]) == 2
    board.act("go")
    state = wait(board, lambda s: s["ply"] == 1 and s["thinking"] is None, "the move played for White")
    assert state["turn"] == "black"


def test_a_person_cannot_move_for_the_engine(boards):
    board = boards(white=OURS, black=None, level=1)
    wait(board, lambda s: s["ply"] == 1, "White's engine move")
    board.act("goto", ply=0)
    with pytest.raises(NotYourTurnError):
        board.act("move", text="32-28")


def test_crashing_engine_pauses_the_game_with_a_message(boards):
    board = boards(variant="english", white=None, black="crashing")
    state = wait(board, lambda s: s["message"] and s["thinking"] is None, "the engine failure")
    assert "engine failure" in state["message"] and state["paused"] and state["ply"] == 0
    state = board.act("players", players=Players(None, OURS, SearchLimits(depth=1), 0))
    wait(board, lambda s: s["ply"] == 1, "our engine instead")


def test_engine_that_ignores_stop_is_reaped(boards, monkeypatch):
    monkeypatch.setattr(board_module, "ABANDON_AFTER", 0.5)
    board = boards(variant="english", white=None, black="stubborn")
    wait(board, lambda s: s["ply"] == 1 and s["thinking"] is None, "the canned move 11-15")
    board.act("analyse", on=True)
    wait(board, lambda s: s["analysis"] and s["analysis"]["depth"], "the canned info line")
    state = board.act("stop")
    assert state["analysing"] is False and state["ply"] == 1
    assert "engine failure: stubborn did not answer stop within 0.5 s and was killed" in (
        state["message"] or "")


def test_move_now_on_a_hung_engine_kills_it_after_the_grace(boards, monkeypatch):
    """A level search has no time-out of its own: after "move now" an engine that ignores
    stop is killed once the grace is over, the game pauses and the page says why."""
    monkeypatch.setattr(players_module, "STOP_GRACE_SECONDS", 0.2)
    board = boards(variant="english", white=None, black="hung")
    wait(board, lambda s: s["thinking"] == "black", "the hung engine's search")
    deadline = time.monotonic() + 120
    while board.snapshot()["thinking"] is not None and time.monotonic() < deadline:
        board.move_now()  # counts once the search runs; repeats are harmless
        time.sleep(0.05)
    state = wait(board, lambda s: s["message"] and s["thinking"] is None, "the kill")
    assert state["message"] == "engine failure: hung ignored stop for 0.2 s and was killed"
    assert state["paused"] and state["ply"] == 0


def test_close_reaps_engines_and_refuses_actions(boards):
    board = boards(white=OURS, black=OURS, delay_ms=0)
    wait(board, lambda s: s["ply"] >= 1, "an engine move")
    engines = board.controller.engine_players()
    assert engines and any(e.started for e in engines)
    board.close()
    assert board.closed and board.wait_change(0, 0.1) is None
    assert not any(e.started for e in engines)  # each engine's process is reaped
    with pytest.raises(board_module.BoardClosedError):
        board.act("undo")


def test_only_draughts_boards(boards):
    with pytest.raises(Exception) as caught:
        boards(variant="tictactoe")
    assert "draughts" in str(caught.value)
    board = boards(black=None)
    with pytest.raises(Exception):
        board.act("pdn", text='[Variant "tictactoe"]\n\n1. b2 *\n')
    assert board.snapshot()["variant"] == "international"


# ------------------------------------------------------------------------------ registry


def test_registry_cap_heartbeat_timeout_and_close_all():
    clock = FakeClock(1000.0)
    closed: List[str] = []
    registry = BoardRegistry(BOOK, max_boards=2, idle_timeout=30, clock=clock, log=closed.append)
    players = Players(None, None, SearchLimits(depth=1), 0)
    first = registry.open(BoardSettings("international", None, None, players))
    second = registry.open(BoardSettings("english", None, None, players))
    with pytest.raises(BoardLimitError):
        registry.open(BoardSettings("international", None, None, players))
    clock.now += 20
    first.touch()
    second.stream_opened()
    clock.now += 20
    assert registry.reap() == []
    clock.now += 11
    assert registry.reap() == [first.id] and first.closed and len(closed) == 1
    with pytest.raises(UnknownBoardError):
        registry.get(first.id)
    second.stream_closed()
    clock.now += 31
    assert registry.reap() == [second.id] and second.closed
    third = registry.open(BoardSettings("international", None, None, players))
    registry.close_all()
    assert third.closed and len(registry) == 0
    with pytest.raises(BoardLimitError):
        registry.open(BoardSettings("international", None, None, players))


def test_registry_ids_are_unguessable():
    registry = BoardRegistry(BOOK, max_boards=3)
    players = Players(None, None, SearchLimits(depth=1), 0)
    ids = {registry.open(BoardSettings("english", None, None, players)).id for _ in range(3)}
    registry.close_all()
    assert len(ids) == 3 and all(len(i) >= 20 for i in ids)


# ------------------------------------------------------------------------------ engines


def test_engine_specs():
    ours = parse_engine_spec(f"{sys.executable} -m protocol")
    assert ours.name == OURS and ours.proto == "uci"
    hub = parse_engine_spec(f"name=scan proto=hub {sys.executable} -m protocol")
    assert (hub.name, hub.proto, hub.command) == ("scan", "hub", (sys.executable, "-m", "protocol"))
    quoted = parse_engine_spec(f'name=deep cmd="{sys.executable} -m protocol"')
    assert quoted.command == (sys.executable, "-m", "protocol")
    for bad in ("", "proto=xyz python3", "no-such-program-abc", "name= python3",
                f'cmd="{sys.executable}" extra', "cmd='open"):
        with pytest.raises(EngineSpecError):
            parse_engine_spec(bad)
    tuned = parse_engine_spec(f"name=two option.Threads=2 option.OwnBook=false "
                              f"{sys.executable} -m protocol")
    assert tuned.options == (("Threads", "2"), ("OwnBook", "false"))
    assert "option.Threads=2" in tuned.describe()
    assert board_module._spec(tuned).options == tuned.options  # the engine is told at start
    for bad in (f"option.Threads= {sys.executable}", f"proto=hub option.X=1 {sys.executable}"):
        with pytest.raises(EngineSpecError):
            parse_engine_spec(bad)
    book = EngineBook([ours, ours, hub, tuned])
    assert book.get("two").options == tuned.options
    book = EngineBook([ours, ours, hub])
    assert book.names == [OURS, OURS + "-2", "scan"] and book.default.name == OURS
    assert book.get("nope") is None and book.get(None) is None
    assert EngineBook([]).names == [OURS]


# ------------------------------------------------------------------------------ the controller's additions


def test_controller_go_to_and_upcoming():
    with GameController("english", white=PlayerSpec.human(), black=PlayerSpec.human()) as game:
        for text in ("11-15", "23-19", "8-11"):
            game.play(text)
        game.go_to(1)
        assert game.ply == 1 and [m.text for m in game.upcoming] == ["23-19", "8-11"]
        assert [m.text for m in game.history] == ["11-15"]
        game.go_to(3)
        assert game.ply == 3 and game.upcoming == []
        game.go_to(0)
        assert game.ply == 0 and len(game.upcoming) == 3
        for bad in (4, -1, "1", True):
            with pytest.raises(UndoRedoError):
                game.go_to(bad)
        game.go_to(2)
        game.play("9-14")
        assert game.upcoming == [] and game.ply == 3


def _run(call: Callable[[], Any]) -> Dict[str, Any]:
    box: Dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = call()
        except BaseException as error:  # handed to the test
            box["error"] = error

    box["thread"] = threading.Thread(target=target, daemon=True)
    box["thread"].start()
    return box


def test_controller_cancel_plays_nothing_and_the_engine_goes_on():
    infos: List[Any] = []
    seen = threading.Event()

    def on_info(report: Any) -> None:
        infos.append(report)
        seen.set()

    with GameController("international", white=PlayerSpec.human(),
                        black=PlayerSpec.own_engine(), limits=SearchLimits(depth=1)) as game:
        box = _run(lambda: game.analyse(on_info))
        assert seen.wait(120), "no info from the analysis"
        while box["thread"].is_alive():
            game.cancel()
            box["thread"].join(0.05)
        assert isinstance(box.get("error"), SearchCancelled) and game.ply == 0
        game.play("32-28")
        reply = game.engine_move()
        assert game.ply == 2 and reply.side == "black"
        game.cancel()  # nothing is thinking: no effect on the next search
        assert game.hint().move


def test_controller_abandon_reaps_a_stubborn_engine():
    stubborn = PlayerSpec("engine", (sys.executable, os.path.join(FAKES, "broken_ignores_stop.py")))
    with GameController("english", white=PlayerSpec.human(), black=stubborn,
                        limits=SearchLimits(depth=1)) as game:
        game.engine_move()
        box = _run(game.analyse)
        while box["thread"].is_alive():
            game.abandon_search()
            box["thread"].join(0.05)
        assert isinstance(box.get("error"), EngineFailure) and game.ply == 1


def test_a_hub_engine_plays_and_analyses():
    book = EngineBook([parse_engine_spec(f"name=hub proto=hub {sys.executable} -m protocol")])
    players = Players(None, "hub", SearchLimits(depth=2), 0)
    board = WebBoard("hub-board", BoardSettings("international", None, None, players), book)
    try:
        board.act("move", text="32-28")
        state = wait(board, lambda s: s["ply"] == 2 and s["thinking"] is None, "the Hub engine's reply")
        assert state["analysis"]["engine"] == "hub"
        board.act("analyse", on=True)
        state = wait(board, lambda s: s["analysis"] and s["analysis"]["depth"] and s["analysis"]["arrow"],
                     "a Hub analysis")
        assert state["analysis"]["pv"]
        state = board.act("stop")
        assert state["ply"] == 2 and not state["analysing"]
    finally:
        board.close()


def test_undo_is_offered_only_when_there_is_a_turn_of_yours_to_go_back_to(boards):
    board = boards(white=OURS, black=None)  # the engine moves first
    state = wait(board, lambda s: s["ply"] == 1 and s["thinking"] is None, "White's first move")
    assert state["can_undo"] is False
    with pytest.raises(UndoRedoError):
        board.act("undo")
    board.act("move", text=state["legal"][0]["pdn"])
    state = wait(board, lambda s: s["ply"] == 3 and s["thinking"] is None, "White's reply")
    assert state["can_undo"] is True
    assert board.act("undo")["ply"] == 1
