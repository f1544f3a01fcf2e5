"""The web board in a real browser: Chromium headless, driven over the DevTools protocol by
the small client in tests/cdp.py (no browser-automation package).

The tests click squares like a person, wait for what the page shows (``#moves``,
``#analysis``, ``#status``, ``data-square``/``data-piece`` on the board), and save
screenshots as artifacts: under ``$DRAUGHTS_WEB_ARTIFACTS`` if set, else a temporary folder
(the path is printed). With ``DRAUGHTS_WEB_DOCS_PNG=docs/web-board.png`` the picture for the
documentation is written too.

Skipped, with the reason, when no Chromium is installed (``apt-get install -y chromium``, or
``CHROMIUM=/path/to/chrome``).
"""
from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from typing import List, Tuple

import pytest

from cdp import Browser, CdpError, Page, find_chromium
from helpers_web import web_server
from protocol.web.registry import UnknownBoardError

CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium not found: the browser tests need it "
    "(apt-get install -y chromium, or set CHROMIUM=/path/to/chromium)")

WAIT = 120.0  # seconds; generous, for busy hosts: the tests wait for events, not for speed


@pytest.fixture(scope="module")
def web():
    with web_server() as app:
        yield app


@pytest.fixture(scope="module")
def browser():
    with Browser(CHROMIUM) as chromium:
        yield chromium


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    folder = os.environ.get("DRAUGHTS_WEB_ARTIFACTS") or str(tmp_path_factory.mktemp("web-artifacts"))
    os.makedirs(folder, exist_ok=True)
    print(f"\nweb board screenshots: {folder}")
    return folder


@pytest.fixture
def page(browser, web) -> Page:
    tab = browser.page
    tab.console.clear()
    yield tab
    errors = [line for line in tab.console if line.startswith("exception")]
    assert not errors, errors


def open_page(page: Page, web, query: str = "") -> None:
    assert len(web.registry) <= 1, "a page left a board open"  # the one of the page shown now
    page.navigate(web.url + query)
    page.wait_for("document.querySelectorAll('svg#board [data-square]').length > 0 "
                  "&& document.querySelector('#status').textContent.includes('to move')",
                  WAIT, "the board")
    # the live board has taken the place of the one drawn into the page: one board, no other
    assert page.evaluate("document.querySelectorAll('svg#board').length") == 1


def set_fen(page: Page, fen: str, square: int, piece_code: str) -> None:
    """Type ``fen`` into the FEN box, set it, and wait until ``square`` shows ``piece_code``."""
    type_into(page, "#txt-fen", fen)
    page.click("#btn-setfen")
    page.wait_for(f"document.querySelector('[data-square=\"{square}\"]')"
                  f".getAttribute('data-piece') === '{piece_code}'", WAIT, "the FEN position")


def played(page: Page) -> List[str]:
    return page.evaluate("[...document.querySelectorAll('#moves .ply')].map(e => e.textContent)")


def wait_played(page: Page, count: int) -> List[str]:
    page.wait_for(f"document.querySelectorAll('#moves .ply').length >= {count} && "
                  "!document.querySelector('#status').textContent.includes('thinking')",
                  WAIT, f"{count} moves in #moves")
    return played(page)


def piece(page: Page, square: int):
    return page.evaluate(f"document.querySelector('[data-square=\"{square}\"]').getAttribute('data-piece')")


def has_class(page: Page, square: int, name: str) -> bool:
    return page.evaluate(f"document.querySelector('[data-square=\"{square}\"]').classList.contains('{name}')")


def type_into(page: Page, selector: str, text: str) -> None:
    page.click(selector)
    page.evaluate(f"document.querySelector({json.dumps(selector)}).select()")
    page.send("Input.insertText", {"text": text})


def png_pixels(path: str) -> Tuple[int, int, List[bytes]]:
    """``(width, height, rows)`` of an 8-bit RGB or RGBA PNG (what Chromium writes), each row
    its unfiltered bytes."""
    with open(path, "rb") as handle:
        data = handle.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    offset, chunks, header = 8, [], b""
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        offset += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6) and header[12] == 0, "an unexpected PNG format"
    step = 3 if colour == 2 else 4
    raw, rows, previous = zlib.decompress(b"".join(chunks)), [], bytearray(width * step)
    for y in range(height):
        start = y * (width * step + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + width * step])
        for i in range(len(line)):
            left = line[i - step] if i >= step else 0
            up, corner = previous[i], previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line[j] for k in range(0, len(line), step) for j in (k, k + 1, k + 2)))
        previous = line
    return width, height, rows


DARK_SQUARE = bytes((0x8B, 0x5A, 0x2B))  # style.css --dark


def test_a_plain_headless_screenshot_shows_the_board(web, artifacts):
    """The issue's command, as a new user would run it: Chromium's own --screenshot, no
    DevTools, no waiting for the page's requests. The PNG must show the board's dark squares."""
    path = os.path.join(artifacts, "plain-screenshot.png")
    with tempfile.TemporaryDirectory(prefix="draughts-web-shot-") as profile:
        done = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             f"--user-data-dir={profile}", f"--screenshot={path}", "--window-size=1200,900",
             web.url], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, timeout=WAIT)
    assert done.returncode == 0 and os.path.exists(path)
    width, height, rows = png_pixels(path)
    dark = sum(row[i:i + 3] == DARK_SQUARE for row in rows for i in range(0, len(row), 3))
    assert dark > width * height // 50, f"{dark} dark-square pixels: no board in {path}"


def test_the_board_shows_before_any_answer_from_the_server(page, web, artifacts):
    """With every /api/ request blocked the page never gets a state, yet the board of its link
    is there: drawn into the page by the server, visible, and the size of the live one."""
    page.send("Network.enable")
    page.send("Network.setBlockedURLs", {"urls": ["*/api/*"]})
    try:
        page.navigate(web.url + "?variant=english")
        squares = page.evaluate("[...document.querySelectorAll('svg#board [data-square]')]"
                                ".map(e => e.getAttribute('data-piece') || '')")
        assert len(squares) == 32 and squares.count("b") == 12 and squares.count("w") == 12
        box = page.box("svg#board", scroll=False)
        assert box[2] > 200 and box[3] > 200, box
        status = page.evaluate("document.getElementById('status').textContent")
        assert status.startswith("Connecting") or "Cannot open a board" in status  # no state came
        page.screenshot(os.path.join(artifacts, "first-paint-english.png"))
    finally:
        page.send("Network.setBlockedURLs", {"urls": []})
        page.send("Network.disable")
        page.navigate("about:blank")


def test_play_32_28_engine_reply_pdn_export_and_undo(page, web, artifacts, tmp_path):
    open_page(page, web)
    squares = page.evaluate("[...document.querySelectorAll('svg#board [data-square]')]"
                            ".map(e => Number(e.getAttribute('data-square')))")
    assert sorted(squares) == list(range(1, 51))
    assert [piece(page, n) for n in (1, 20, 31, 50)] == ["b", "b", "w", "w"]
    assert piece(page, 25) is None
    visible_numbers = ("[...document.querySelectorAll('svg#board text.num')]"
                       ".filter(t => getComputedStyle(t).display !== 'none').map(t => t.textContent)")
    assert sorted(map(int, page.evaluate(visible_numbers))) == list(range(1, 51))
    page.click("#chk-numbers")
    assert page.evaluate(visible_numbers) == []
    page.click("#chk-numbers")
    assert len(page.evaluate(visible_numbers)) == 50

    page.wait_for("document.querySelector('[data-square=\"32\"]').classList.contains('movable')", WAIT)
    page.click('[data-square="32"]')
    assert has_class(page, 32, "selected")
    assert has_class(page, 28, "dest") and has_class(page, 27, "dest") and not has_class(page, 23, "dest")
    page.click('[data-square="28"]')
    moves = wait_played(page, 2)
    assert moves[0] == "32-28" and len(moves) == 2
    assert piece(page, 28) == "w" and piece(page, 32) is None
    analysis = page.evaluate("document.getElementById('analysis').textContent")
    assert "depth" in analysis and "score" in analysis
    assert "White to move" in page.evaluate("document.getElementById('status').textContent")
    page.screenshot(os.path.join(artifacts, "board-after-32-28.png"), "#board")

    downloads = str(tmp_path / "downloads")
    os.makedirs(downloads)
    try:
        page.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    except CdpError:
        page.send("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    page.click("#btn-savepdn")
    deadline = time.monotonic() + WAIT
    saved = []
    while not saved:
        saved = [name for name in os.listdir(downloads) if name.endswith(".pdn")]
        assert time.monotonic() < deadline, "no PDN file was downloaded"
        time.sleep(0.1)
    with open(os.path.join(downloads, saved[0]), encoding="utf-8") as handle:
        pdn = handle.read()
    assert '[GameType "20"]' in pdn and f"1. 32-28 {moves[1]}" in pdn
    assert page.evaluate("document.getElementById('txt-pdn').value") == pdn

    page.click("#btn-undo")
    page.wait_for("document.querySelectorAll('#moves .ply').length === 0", WAIT, "undo")
    assert piece(page, 32) == "w" and piece(page, 28) is None
    assert "32-28" not in page.evaluate("document.getElementById('moves').textContent")
    assert "32-28" in page.evaluate("document.getElementById('moves-ahead').textContent")
    page.click("#btn-redo")
    assert wait_played(page, 2)[0] == "32-28"


def test_live_analysis_with_arrow_stop_and_screenshot(page, web, artifacts):
    open_page(page, web, "?variant=international&level=3")
    for origin, target in ((32, 28), (37, 32)):
        count = len(played(page))
        page.wait_for(f"document.querySelector('[data-square=\"{origin}\"]').classList.contains('movable')", WAIT)
        page.click(f'[data-square="{origin}"]')
        page.click(f'[data-square="{target}"]')
        wait_played(page, count + 2)
    page.click("#btn-analyse")
    # depth 3 or more: a fast search passes depth 9 between two looks (depth 16 within 15 s
    # here), and "depth 1x" must count too
    page.wait_for("document.querySelector('svg#board .arrows line') && "
                  "document.getElementById('analysis').textContent.includes('analysing') && "
                  "/depth ([3-9]|[1-9][0-9]+) /.test(document.getElementById('analysis').textContent)",
                  WAIT, "live analysis with an arrow")
    text = page.evaluate("document.getElementById('analysis').textContent")
    assert "score" in text and "N/s" in text
    assert "analysing" in page.evaluate("document.getElementById('status').textContent")
    path = page.screenshot(os.path.join(artifacts, "page-analysing.png"))
    docs = os.environ.get("DRAUGHTS_WEB_DOCS_PNG")
    if docs:
        shutil.copyfile(path, docs)
        print(f"documentation screenshot: {docs}")
    page.click("#btn-stop")
    page.wait_for("!document.querySelector('svg#board .arrows line') && "
                  "document.getElementById('btn-stop').disabled", WAIT, "the analysis to stop")
    assert len(played(page)) == 4


FEN_BOX = "document.getElementById('txt-fen')"
FEN_ERROR = "document.getElementById('fen-error').textContent"


def press(page: Page, key: str, code: int) -> None:
    for kind in ("rawKeyDown", "keyUp"):
        page.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                                              "windowsVirtualKeyCode": code})


def test_a_refused_fen_stays_in_the_box_with_the_reason(page, web):
    """Set position with a bad FEN: the text stays in the box, marked, with the server's reason
    under it, while the page goes on changing (a hint arrives), so that it can be corrected."""
    open_page(page, web, "?black=human")
    bad = "W:W99:B1"
    type_into(page, "#txt-fen", bad)
    page.click("#btn-setfen")
    page.wait_for(FEN_ERROR, WAIT, "the reason the FEN was refused")
    assert "99" in page.evaluate(FEN_ERROR)
    assert page.evaluate(f"{FEN_BOX}.value") == bad
    assert page.evaluate(f"{FEN_BOX}.classList.contains('invalid')")
    page.click("#btn-hint")  # new states arrive while the box is not focused
    page.wait_for("document.getElementById('analysis').textContent.startsWith('Hint')", WAIT,
                  "a hint")
    assert page.evaluate(f"{FEN_BOX}.value") == bad and "99" in page.evaluate(FEN_ERROR)
    set_fen(page, "W:W28:B23", 28, "w")  # corrected: set, and the box follows the game again
    assert page.evaluate(FEN_ERROR) == "" and page.evaluate(f"{FEN_BOX}.value") == "W:W28:B23"
    assert not page.evaluate(f"{FEN_BOX}.classList.contains('invalid')")
    type_into(page, "#txt-fen", "W:W28:B23:junk")
    press(page, "Enter", 13)
    page.wait_for(FEN_ERROR, WAIT, "the reason, after Enter")
    assert page.evaluate(f"{FEN_BOX}.value") == "W:W28:B23:junk"
    press(page, "Escape", 27)  # Escape gives the draft up: the current position is back
    assert page.evaluate(f"{FEN_BOX}.value") == "W:W28:B23" and page.evaluate(FEN_ERROR) == ""


def test_a_link_with_a_refused_fen_opens_the_start_with_the_fen_in_the_box(page, web):
    open_page(page, web, "?variant=english&fen=W:W99:B1&level=1")
    assert page.evaluate("document.querySelectorAll('svg#board [data-square]').length") == 32
    assert piece(page, 1) == "b" and piece(page, 32) == "w"
    assert page.evaluate(f"{FEN_BOX}.value") == "W:W99:B1" and "99" in page.evaluate(FEN_ERROR)
    assert page.evaluate("document.getElementById('sel-black').value") == "human"


def test_fen_load_and_a_capture_chosen_square_by_square(page, web):
    open_page(page, web, "?black=human")
    set_fen(page, "W:WK47:B14,19,29,31,42", 47, "W")
    assert [piece(page, n) for n in (14, 19, 29, 31, 42)] == ["b"] * 5 and piece(page, 32) is None
    page.click('[data-square="47"]')
    assert has_class(page, 36, "dest")
    page.click('[data-square="36"]')
    assert played(page) == []  # two captures end on 36: the board asks for the path
    assert has_class(page, 24, "via") and has_class(page, 20, "via")
    assert "passes through" in page.evaluate("document.getElementById('message').textContent")
    page.click('[data-square="24"]')
    assert wait_played(page, 1)[0] == "47x38x24x13x36"
    assert piece(page, 36) == "W" and piece(page, 47) is None


def test_a_capture_back_to_its_own_square_and_a_shorter_path_inside_a_longer_one(page, web):
    """Two captures a player could not choose before: a king's capture that ends where it
    started (its square is a destination), and 2x11x4 whose squares all lie on 2x9x18x11x4
    (the end clicked again takes the path through just the squares chosen)."""
    open_page(page, web, "?variant=international&black=human")
    set_fen(page, "W:WK29:B8,10,14,19,24,31,33", 29, "W")
    page.click('[data-square="29"]')
    assert has_class(page, 29, "dest")
    page.click('[data-square="29"]')
    assert wait_played(page, 1)[0] == "29x20x3x26x42x29"
    open_page(page, web, "?variant=english&white=human&black=human")
    set_fen(page, "W:WK2:B6,7,8,14,15", 2, "W")
    for square in (2, 11, 4):
        page.click(f'[data-square="{square}"]')
    assert played(page) == []  # 2x11x4 and 2x9x18x11x4 both pass 11 and end on 4
    assert "again" in page.evaluate("document.getElementById('message').textContent")
    page.click('[data-square="4"]')
    assert wait_played(page, 1)[0] == "2x11x4"


def test_drag_and_drop_a_man(page, web):
    open_page(page, web, "?black=human")
    page.wait_for("document.querySelector('[data-square=\"33\"]').classList.contains('movable')", WAIT)
    x1, y1, w1, h1 = page.box('[data-square="33"]')
    x2, y2, w2, h2 = page.box('[data-square="29"]')
    page.drag((x1 + w1 / 2, y1 + h1 / 2), (x2 + w2 / 2, y2 + h2 / 2))
    assert wait_played(page, 1) == ["33-29"]
    assert piece(page, 29) == "w"


def test_link_opens_a_variant_position_and_level(page, web):
    fen = "B:W18,K30:B5,9"
    open_page(page, web, f"?variant=english&fen={fen}&level=2&black=human")
    assert page.evaluate("document.querySelectorAll('svg#board [data-square]').length") == 32
    assert page.evaluate("document.getElementById('txt-fen').value") == fen
    assert page.evaluate("document.getElementById('sel-variant').value") == "english"
    assert page.evaluate("document.getElementById('sel-level').value") == "2"
    assert piece(page, 30) == "W" and piece(page, 5) == "b"
    assert "Black to move" in page.evaluate("document.getElementById('status').textContent")


def pieces_that_move(page: Page) -> List[str]:
    return page.evaluate("[...document.querySelectorAll('svg#board rect.movable')]"
                         ".map(e => e.getAttribute('data-piece'))")


def test_english_opens_with_the_person_playing_black_who_moves_first(page, web):
    """English checkers starts with Black: the person plays Black against the engine (White),
    moves only Black's men, and a variant chosen from the menu keeps "the side that moves first"
    (White in International)."""
    open_page(page, web, "?variant=english&level=1")
    assert page.evaluate("document.getElementById('sel-black').value") == "human"
    assert page.evaluate("document.getElementById('sel-white').value") == "engine:draughts-engine"
    assert "Black to move" in page.evaluate("document.getElementById('status').textContent")
    assert set(pieces_that_move(page)) == {"b"}
    page.click('[data-square="11"]')
    page.click('[data-square="15"]')
    moves = wait_played(page, 2)
    assert moves[0] == "11-15"
    page.wait_for("document.querySelectorAll('svg#board rect.movable').length > 0", WAIT,
                  "Black's turn again")
    assert set(pieces_that_move(page)) == {"b"}
    white_man = page.evaluate("document.querySelector('svg#board rect[data-piece=\"w\"]')"
                              ".getAttribute('data-square')")
    page.click(f'[data-square="{white_man}"]')
    assert page.evaluate("document.querySelectorAll('svg#board rect.selected').length") == 0
    page.evaluate("(() => { const s = document.getElementById('sel-variant');"
                  " s.value = 'international'; s.dispatchEvent(new Event('change')); })()")
    page.wait_for("document.querySelectorAll('svg#board [data-square]').length === 50 && "
                  "document.getElementById('status').textContent.startsWith('White to move')",
                  WAIT, "International with the person as White")
    assert page.evaluate("document.getElementById('sel-white').value") == "human"
    assert page.evaluate("document.getElementById('sel-black').value") == "engine:draughts-engine"
    assert set(pieces_that_move(page)) == {"w"}


def test_game_end_shows_result_and_reason(page, web):
    open_page(page, web, "?fen=W:W28:B23&black=human")
    page.click('[data-square="28"]')
    page.click('[data-square="19"]')
    page.wait_for("document.getElementById('status').textContent.includes('Game over')", WAIT)
    status = page.evaluate("document.getElementById('status').textContent")
    assert "2-0" in status and "no legal move" in status
    assert "no legal move" in page.evaluate("document.getElementById('result').textContent")
    # The finished game's last position can still be analysed (its value is the result), and
    # Hint says there is no move.
    assert not page.evaluate("document.getElementById('btn-analyse').disabled")
    page.click("#btn-analyse")
    page.wait_for("document.getElementById('analysis').textContent.startsWith('Final position')",
                  WAIT, "the final position's evaluation")
    assert "2-0" in page.evaluate("document.getElementById('analysis').textContent")
    page.click("#btn-hint")
    page.wait_for("document.getElementById('analysis').textContent.includes('no move')", WAIT,
                  "the hint that there is no move")
    assert page.evaluate("document.getElementById('message').textContent") == ""


def test_engine_against_engine_with_speed_control_and_stop(page, web):
    open_page(page, web, "?level=1")
    page.evaluate("(() => { const r = document.getElementById('rng-delay'); r.value = '0';"
                  " r.dispatchEvent(new Event('change')); })()")
    page.evaluate("(() => { const s = document.getElementById('sel-white');"
                  " s.value = 'engine:draughts-engine'; s.dispatchEvent(new Event('change')); })()")
    page.wait_for("document.querySelectorAll('#moves .ply').length >= 6", WAIT, "six engine moves")
    page.click("#btn-stop")
    page.wait_for("document.getElementById('status').textContent.includes('paused')", WAIT, "a pause")
    page.click("#btn-go")
    count = len(played(page))
    page.wait_for(f"document.querySelectorAll('#moves .ply').length > {count}", WAIT, "play resumed")
    page.evaluate("(() => { const s = document.getElementById('sel-white');"
                  " s.value = 'human'; s.dispatchEvent(new Event('change')); })()")
    page.wait_for("document.getElementById('status').textContent.startsWith('White to move')",
                  WAIT, "White back to a person")


def test_move_now_plays_at_once_under_a_long_time_limit(page, web):
    # The engine must search, not answer from its opening book (on by default, and the page
    # cannot switch it off): the book has no move after 32-28.
    from draughts_engine.book import builtin_book
    from draughts_engine.position import Position
    book = builtin_book("international")
    assert book is not None and book.moves(Position.start("international").play("32-28")) is None
    open_page(page, web, "?movetime=600000")
    assert page.evaluate("document.getElementById('rad-movetime').checked")
    page.wait_for("document.querySelector('[data-square=\"32\"]').classList.contains('movable')", WAIT)
    page.click('[data-square="32"]')
    page.click('[data-square="28"]')
    page.wait_for("document.getElementById('status').textContent.includes('thinking') && "
                  "document.getElementById('analysis').textContent.includes('depth')",
                  WAIT, "the engine thinking")
    page.click("#btn-movenow")
    assert len(wait_played(page, 2)) == 2


def test_leaving_the_page_closes_its_board(page, web):
    open_page(page, web, "?white=engine&black=engine&level=1&delay_ms=0")
    assert len(web.registry) >= 1
    page.navigate("about:blank")
    deadline = time.monotonic() + WAIT
    while len(web.registry):
        assert time.monotonic() < deadline, "the board stayed open after the page went away"
        time.sleep(0.05)


def test_going_from_one_board_page_to_another_leaves_one_board(page, web):
    """The old page's event stream breaks as the next page loads: that must not make the old
    page open a board of its own on the way out (nobody would ever close it)."""
    open_page(page, web, "?black=human")
    first = page.evaluate("page.id")
    page.navigate(web.url + "?black=human")
    page.wait_for("document.querySelector('#status').textContent.includes('to move') && "
                  f"page.id && page.id !== {json.dumps(first)}", WAIT, "the second page's board")
    deadline = time.monotonic() + WAIT
    while True:
        try:
            web.registry.get(first)
        except UnknownBoardError:
            break
        assert time.monotonic() < deadline, "the first page's board stayed open"
        time.sleep(0.05)
    assert len(web.registry) == 1


def test_turkish_board_has_64_squares_and_takes_clicks(page, web, artifacts):
    open_page(page, web, "?variant=turkish&black=human")
    assert page.evaluate("document.querySelectorAll('svg#board [data-square]').length") == 64
    assert piece(page, 42) == "w" and piece(page, 18) == "b" and piece(page, 1) is None
    page.click('[data-square="42"]')
    assert has_class(page, 34, "dest") and has_class(page, 41, "dest") is False  # 41 is taken
    page.click('[data-square="34"]')
    moves = wait_played(page, 1)
    assert moves[0] in ("42-34", "b3-b4")
    assert piece(page, 34) == "w" and piece(page, 42) is None
    page.screenshot(os.path.join(artifacts, "board-turkish.png"), "#board")


def test_russian_board_has_coordinates_and_shows_moves_in_them(page, web, artifacts):
    """Russian writes c3-d4: files and ranks are drawn along the edges (following a flip),
    the move list and the capture-path hint name squares so; clicks still go by number."""
    coords = ("[...document.querySelectorAll('svg#board text.coord')]"
              ".map(e => e.textContent).join('')")
    open_page(page, web, "?variant=international&black=human")
    assert page.evaluate(coords) == ""  # numbered boards: no coordinates
    assert page.evaluate("document.getElementById('lbl-numbers').textContent") == "Numbers"
    open_page(page, web, "?variant=russian&black=human")
    assert sorted(page.evaluate(coords)) == sorted("abcdefgh12345678")
    labels = "[...document.querySelectorAll('svg#board text.num')].map(t => t.textContent)"
    assert page.evaluate(labels)[:5] == ["b8", "d8", "f8", "h8", "a7"]
    assert page.evaluate("document.getElementById('lbl-numbers').textContent") == "Square names"
    page.click('[data-square="22"]')
    page.click('[data-square="18"]')
    assert wait_played(page, 1) == ["c3-d4"]
    page.screenshot(os.path.join(artifacts, "board-russian.png"), "#board")
    set_fen(page, "W:WK6:B15,16,9,17", 6, "W")
    page.click('[data-square="6"]')
    page.click('[data-square="12"]')
    assert "captures end on h6" in page.evaluate("document.getElementById('message').textContent")
    page.click('[data-square="26"]')
    assert wait_played(page, 1) == ["c7xa5xd2xh6"]
    page.click("#btn-flip")
    files = page.evaluate("[...document.querySelectorAll('svg#board text.coord.file')]"
                          ".sort((a, b) => a.getAttribute('x') - b.getAttribute('x'))"
                          ".map(e => e.textContent).join('')")
    assert files == "hgfedcba"


def test_frisian_orthogonal_capture_by_clicks(page, web):
    open_page(page, web, "?variant=frisian&black=human")
    assert page.evaluate("document.querySelectorAll('svg#board [data-square]').length") == 50
    set_fen(page, "W:W28:B27,3", 27, "b")
    page.click('[data-square="28"]')
    assert has_class(page, 26, "dest")
    page.click('[data-square="26"]')
    assert wait_played(page, 1)[0] == "28x26"
    assert piece(page, 26) == "w" and piece(page, 27) is None


def test_turned_and_12x12_boards_are_drawn_as_their_players_see_them(page, web):
    open_page(page, web, "?variant=italian&black=human")
    square = "document.querySelector('[data-square=\"{}\"]').getAttribute('{}')"
    # Italian: a8 is square 1 (top left), h1 is 32 (bottom right); a1 is a light square
    assert (page.evaluate(square.format(1, "x")), page.evaluate(square.format(1, "y"))) == ("0", "0")
    assert (page.evaluate(square.format(32, "x")), page.evaluate(square.format(32, "y"))) == ("7", "7")
    open_page(page, web, "?variant=spanish&black=human")
    assert (page.evaluate(square.format(1, "x")), page.evaluate(square.format(1, "y"))) == ("7", "7")
    assert piece(page, 1) == "w" and piece(page, 32) == "b"
    open_page(page, web, "?variant=canadian&black=human")
    assert page.evaluate("document.querySelectorAll('svg#board [data-square]').length") == 72
    assert page.evaluate("document.querySelectorAll('svg#board rect.light').length") == 72


def test_a_bad_seconds_per_move_is_corrected_in_view(page, web):
    """An empty or out-of-range 'seconds per move' is not sent as 1 ms: the field shows the
    value used and a message says so."""
    open_page(page, web)
    page.click("#rad-movetime")
    type_into(page, "#num-movetime", "0.01")
    page.click("#btn-new")
    page.wait_for("document.getElementById('message').textContent.includes('Seconds per move')",
                  WAIT, "the message about the seconds per move")
    assert page.evaluate("document.getElementById('num-movetime').value") == "1"
    # The message outlives the action: once the server's answer is shown, it is still there
    # (it used to be cleared by the answer, so it flashed for a few milliseconds).
    page.evaluate("actQueue.then(() => { window.actionsDone = true; }), true")
    page.wait_for("window.actionsDone === true", WAIT, "the new board's answer")
    assert page.evaluate("page.state.limit.movetime_ms") == 1000
    assert "Seconds per move" in page.evaluate("document.getElementById('message').textContent")
    type_into(page, "#num-movetime", "2")  # editing the setting again ends the note
    page.wait_for("document.getElementById('message').textContent === ''", WAIT, "the note gone")


def _long_game_pdn(plies: int) -> Tuple[str, int]:
    """An International game of up to ``plies`` legal moves (a fixed random walk), as PDN,
    and its number of moves."""
    import random
    from draughts_engine.game import Game
    game, rng, words = Game("international"), random.Random(7), []
    for ply in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(move.pdn())
        game.push(move)
    return '[GameType "20"]\n\n' + " ".join(words) + " *\n", game.ply


CURRENT_SHOWN = ("(() => { const list = document.getElementById('moves');"
                 " const cur = list.querySelector('.current'); if (!cur) return false;"
                 " const l = list.getBoundingClientRect(), c = cur.getBoundingClientRect();"
                 " return c.top >= l.top - 1 && c.bottom <= l.bottom + 1; })()")


def test_a_long_game_scrolls_the_move_list_on_a_narrow_screen(page, web, artifacts):
    """At 360 px: every move is in a list that scrolls vertically (nothing spills sideways),
    the current move stays in view, and a long token in a message does not widen the page."""
    page.send("Emulation.setDeviceMetricsOverride",
              {"width": 360, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    try:
        open_page(page, web, "?black=human")
        pdn, count = _long_game_pdn(90)
        assert count >= 50
        type_into(page, "#txt-pdn", pdn)
        page.click("#btn-loadpdn")
        page.wait_for(f"document.querySelectorAll('#moves .ply').length === {count}", WAIT,
                      "the game")
        geometry = page.evaluate(
            "(() => { const l = document.getElementById('moves');"
            " return [l.scrollWidth, l.clientWidth, l.scrollHeight, l.clientHeight]; })()")
        assert geometry[0] <= geometry[1], f"moves spill sideways: {geometry}"
        assert geometry[2] > geometry[3], "a long game should scroll vertically"
        assert page.evaluate(CURRENT_SHOWN), "the last move is out of view"
        page.evaluate("document.querySelector('#moves .ply[data-ply=\"1\"]').click()")
        page.wait_for("document.querySelector('#moves .ply.current')"
                      ".getAttribute('data-ply') === '1'", WAIT, "the first move")
        assert page.evaluate(CURRENT_SHOWN), "the first move is out of view"
        page.evaluate(f"document.querySelector('#moves-ahead .ply[data-ply=\"{count - 1}\"]')"
                      ".click()")  # the moves after the current one are in the redo list
        page.wait_for("document.querySelector('#moves .ply.current')"
                      f".getAttribute('data-ply') === '{count - 1}'", WAIT, "a late move")
        assert page.evaluate(CURRENT_SHOWN), "a late move is out of view"
        type_into(page, "#txt-fen", "W:W" + "1" * 400)
        page.click("#btn-setfen")
        page.wait_for("document.getElementById('fen-error').textContent.length > 100", WAIT,
                      "the error about the long FEN")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.screenshot(os.path.join(artifacts, "narrow-long-game.png"))
    finally:
        page.send("Emulation.clearDeviceMetricsOverride")


def test_a_server_that_went_away_is_named_not_failed_to_fetch(page, web):
    """The page's own server stops (as after Ctrl-C) during an analysis: the page says it
    cannot reach the server, at once and when a button is pressed, never "Failed to fetch"."""
    with web_server() as other:
        page.navigate(other.url + "?black=human")
        page.wait_for("document.querySelector('#status').textContent.includes('to move')",
                      WAIT, "the board")
        page.click("#btn-analyse")
        page.wait_for("document.getElementById('analysis').textContent.includes('depth')",
                      WAIT, "the analysis")
    page.wait_for("document.getElementById('status').textContent === 'Disconnected'", WAIT,
                  "the page noticing (not a stale 'White to move')")
    message = page.evaluate("document.getElementById('message').textContent")
    assert "server" in message and "Failed to fetch" not in message, message
    page.evaluate("document.getElementById('message').textContent = ''")
    page.click("#btn-hint")
    page.wait_for("document.getElementById('message').textContent", WAIT, "the failed request")
    message = page.evaluate("document.getElementById('message').textContent")
    assert "server" in message and "Failed to fetch" not in message, message
    # a request that reaches no server at all (port 9 of this host: nothing listens there)
    failed = page.evaluate("api('GET', 'http://127.0.0.1:9/api/info')"
                           ".then(() => 'answered', (e) => [e.status, e.message])")
    assert failed == [0, "The server cannot be reached (is draughts-web still running?)"]
    page.navigate("about:blank")
