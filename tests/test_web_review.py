"""The analysis board in a real browser: game review (evaluation graph and bar, marks, the
review kept in the PDN), variations, MultiPV lines, clocks, the SVG export.

One Chromium and one server for the module (the fixtures of test_web_browser); English
checkers with a shallow review depth, so each test costs a few seconds. Skipped without
Chromium, as test_web_browser is.
"""
from __future__ import annotations

import dataclasses
import json
import os
import sys
import urllib.request

import pytest

from cdp import Browser, find_chromium
from helpers_web import web_server
from protocol.client import InfoReport

CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium not found: the browser tests need it "
    "(apt-get install -y chromium, or set CHROMIUM=/path/to/chromium)")

WAIT = 120.0
BLUNDER_LINE = ["11-15", "23-19", "12-16", "19x12", "8-11", "22-18"]
"""Black's 12-16 gives a man away (19x12, no capture back)."""


@pytest.fixture(scope="module")
def web():
    with web_server() as app:
        yield app


@pytest.fixture(scope="module")
def page(web):
    with Browser(CHROMIUM) as chromium:
        yield chromium.page


def open_board(page, web, query: str) -> None:
    page.navigate(web.url + query)
    page.wait_for("document.querySelector('#status').textContent.includes('to move')",
                  WAIT, "the board")


def play(page, moves) -> None:
    for move in moves:
        count = page.evaluate("document.querySelectorAll('#moves .ply').length")
        page.evaluate(f"act('move', {{move: {json.dumps(move)}}})")
        page.wait_for(f"document.querySelectorAll('#moves .ply').length === {count + 1}",
                      WAIT, f"move {move}")


def marks(page):
    return page.evaluate("[...document.querySelectorAll('#moves .ply[data-mark]')]"
                         ".map(e => [e.dataset.ply, e.dataset.mark])")


def test_review_marks_the_blunder_and_the_pdn_keeps_it(page, web):
    open_board(page, web, "?variant=english&white=human&black=human")
    play(page, BLUNDER_LINE)
    page.evaluate("document.querySelector('#review-depth').value = '3'")
    page.click("#analyse-game")
    page.wait_for("document.querySelector('#review-summary').textContent.includes('average')",
                  WAIT, "the review's summary")
    points = page.evaluate("[...document.querySelectorAll('#eval-graph [data-ply]')]"
                           ".map(e => Number(e.dataset.ply))")
    assert points == list(range(1, len(BLUNDER_LINE) + 1))
    assert page.evaluate("document.querySelector('#eval-bar').hasAttribute('data-score') || "
                         "document.querySelector('#eval-bar').hasAttribute('data-mate')")
    found = dict(marks(page))
    assert found.get("3") in ("mistake", "blunder"), found
    assert "better" in page.evaluate("document.querySelector('#moves').textContent")
    pdn = page.evaluate("page.state.pdn")
    flat = " ".join(pdn.split())
    assert "12-16 {[%eval" in flat and ("mistake; better" in flat or "blunder; better" in flat)
    # read back: the marks come again without a review
    open_board(page, web, "?variant=english&white=human&black=human")
    page.evaluate(f"act('pdn', {{pdn: {json.dumps(pdn)}}})")
    page.wait_for("document.querySelectorAll('#moves .ply[data-mark]').length > 0", WAIT,
                  "the marks read back")
    assert dict(marks(page)).get("3") == found["3"]


def test_a_move_after_going_back_makes_a_variation_kept_in_the_pdn(page, web):
    open_board(page, web, "?variant=english&white=human&black=human")
    play(page, BLUNDER_LINE[:4])
    page.evaluate("act('goto', {ply: 2})")
    page.wait_for("page.state.ply === 2", WAIT, "two plies back")
    play(page, ["9-14"])
    text = page.evaluate("document.querySelector('#moves').textContent")
    assert "9-14" in text and "12-16" in text
    assert page.evaluate("document.querySelectorAll('#moves .variation').length") == 1
    pdn = page.evaluate("fetch(`/api/boards/${page.id}/pdn`).then(r => r.text())")
    assert "(2. 9-14)" in " ".join(pdn.split()) or "(2. 12-16 19x12)" in " ".join(pdn.split())
    open_board(page, web, "?variant=english&white=human&black=human")
    page.evaluate(f"act('pdn', {{pdn: {json.dumps(pdn)}}})")
    page.wait_for("document.querySelectorAll('#moves .variation, #moves-ahead .variation')"
                  ".length === 1", WAIT, "the variation read back")
    # the side line's buttons, clicked as a person would: promote makes it the main line
    # (the old main line becomes the side line), delete removes it
    page.evaluate("document.querySelector('.variation .var-promote').click()")
    page.wait_for("document.querySelectorAll('.variation').length === 1 && "
                  "!!document.querySelector('.variation .var-delete')", WAIT, "promoted")
    page.evaluate("document.querySelector('.variation .var-delete').click()")
    page.wait_for("document.querySelectorAll('.variation').length === 0", WAIT, "deleted")


def test_the_svg_export_is_the_position_shown(page, web):
    open_board(page, web, "?variant=english&white=human&black=human")
    play(page, ["11-15"])
    href = page.evaluate("document.querySelector('#export-svg').href")
    with urllib.request.urlopen(href, timeout=30) as answer:
        assert answer.headers["Content-Type"].startswith("image/svg+xml")
        svg = answer.read().decode("utf-8")
    assert svg.startswith("<svg") and 'data-square="15" data-piece="b"' in svg
    assert 'data-square="11"' in svg and 'data-square="11" data-piece' not in svg


FAKES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_engines")


@pytest.fixture(scope="module")
def multipv_web():
    command = f"name=fake {sys.executable} {os.path.join(FAKES, 'multipv_engine.py')}"
    with web_server(engines=[command]) as app:
        yield app


@pytest.mark.skipif("multipv" not in {f.name for f in dataclasses.fields(InfoReport)},
                    reason="the reference client does not read multipv from info lines yet")
def test_three_lines_show_three_lines_and_three_arrows(page, multipv_web):
    open_board(page, multipv_web, "?variant=english&black=human&white=engine")
    page.evaluate("document.querySelector('#sel-lines').value = '3'; "
                  "document.querySelector('#sel-lines').dispatchEvent(new Event('change'))")
    page.wait_for("page.state.lines === 3", WAIT, "3 lines set")
    page.click("#btn-analyse")
    page.wait_for("document.querySelectorAll('#lines [data-line]').length === 3", WAIT,
                  "three analysis lines")
    assert page.evaluate("document.querySelectorAll('svg#board line.arrow').length") == 3
    assert page.evaluate("[...document.querySelectorAll('#lines [data-line]')]"
                         ".map(e => e.dataset.line)") == ["1", "2", "3"]
    page.click("#btn-stop")


def test_a_person_who_lets_the_clock_run_out_loses_on_time(page, web):
    open_board(page, web, "?variant=english&black=human&white=engine&level=1&clock=0.05%2B0")
    page.wait_for("!document.querySelector('#clock-black').hidden", WAIT, "the clocks")
    assert page.evaluate("document.querySelector('#txt-clock').value") == "0.05+0"
    page.wait_for("document.querySelector('#status').textContent.includes('ran out of time')",
                  WAIT, "the flag")
    assert page.evaluate("document.querySelector('#clock-black').dataset.ms") == "0"
    assert page.evaluate("page.state.result.score") == "1-0"
    assert '[Result "1-0"]' in page.evaluate("page.state.pdn")


def test_an_engine_on_a_clock_is_sent_the_clock(web):
    """The engine of a clock game searches under go wtime/btime/winc/binc."""
    from protocol.play.clock import GameClock, ClockSetting
    limits = GameClock(ClockSetting.parse("1+2")).limits("white")
    assert (limits.wtime_ms, limits.btime_ms, limits.winc_ms) == (60_000, 60_000, 2000)
    assert GameClock(ClockSetting.parse("move 10")).limits("black").movetime_ms == 9900


def key(page, name: str, code: int) -> None:
    for kind in ("keyDown", "keyUp"):
        page.send("Input.dispatchKeyEvent", {"type": kind, "key": name, "code": name,
                                             "windowsVirtualKeyCode": code})


def test_arrow_keys_walk_the_moves_and_the_share_link_opens_the_game_at_that_move(page, web):
    open_board(page, web, "?variant=english&white=human&black=human")
    play(page, BLUNDER_LINE[:3])
    page.evaluate("document.activeElement.blur()")
    key(page, "ArrowLeft", 37)
    page.wait_for("page.state.ply === 2", WAIT, "one move back")
    key(page, "Home", 36)
    page.wait_for("page.state.ply === 0", WAIT, "the start")
    key(page, "ArrowRight", 39)
    page.wait_for("page.state.ply === 1", WAIT, "one move on")
    link = page.evaluate("document.querySelector('#share-link').href")
    assert "moves=11-15+23-19+12-16" in link and link.endswith("ply=1")
    page.navigate(link)
    page.wait_for("page.state && page.state.ply === 1 && page.state.line.length === 3", WAIT,
                  "the shared game at its move")
