"""The web board's HTTP safety rules, without a browser.

The server runs in this process (``build_server`` on a free port); requests are made with
``http.client`` or, for malformed ones, a raw socket. Every refusal must be a 4xx with a
JSON ``error`` and no traceback, and the server must keep serving afterwards.
"""
from __future__ import annotations

import http.client
import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

import pytest

from protocol.web.cli import build_server, main
from protocol.web.connections import ConnectionLimits
from protocol.web.hosts import HostPolicy, is_loopback, split_host_header

sys.path.insert(0, os.path.dirname(__file__))
from helpers_processes import running  # noqa: E402
from helpers_web import web_server  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def app():
    with web_server() as web:
        yield web


def request(app, method: str, path: str, body: Any = None, headers: Optional[Dict[str, str]] = None,
            raw_body: Optional[bytes] = None) -> Tuple[int, Dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", app.server.port, timeout=60)
    try:
        sent = dict(headers or {})
        data = raw_body
        if body is not None:
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def raw(app, data: bytes, send_more: Optional[bytes] = None) -> bytes:
    """Send bytes on a new connection (``send_more`` from another thread) and read the
    whole answer until the server closes."""
    sock = socket.create_connection(("127.0.0.1", app.server.port), timeout=60)
    try:
        sock.sendall(data)
        sender = None
        if send_more:
            def push() -> None:
                try:
                    sock.sendall(send_more)
                except OSError:
                    pass  # the server may close before it has read everything
            sender = threading.Thread(target=push, daemon=True)
            sender.start()
        chunks: List[bytes] = []
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
            if b"\r\n\r\n" in b"".join(chunks):
                head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
                length = [line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
                if length and len(body) >= int(length[0].split(b":")[1]):
                    break
        if sender is not None:
            sender.join(30)
        return b"".join(chunks)
    finally:
        sock.close()


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def json_error(body: bytes) -> str:
    data = json.loads(body.decode())
    assert set(data) == {"error"} and isinstance(data["error"], str) and data["error"]
    assert "Traceback" not in data["error"]
    return data["error"]


def body_of(answer: bytes) -> bytes:
    return answer.partition(b"\r\n\r\n")[2]


def still_serving(app) -> None:
    status, _, body = request(app, "GET", "/api/info")
    assert status == 200 and json.loads(body)["engines"] == ["draughts-engine"]


def open_board(app, **settings: Any) -> Dict[str, Any]:
    status, _, body = request(app, "POST", "/api/boards", settings)
    assert status == 201, body
    return json.loads(body)


# ------------------------------------------------------------------------------ the page


def test_page_and_static_files_are_served(app):
    status, headers, body = request(app, "GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b'id="moves"' in body and b'id="analysis"' in body and b'id="status"' in body
    assert "default-src 'self'" in headers["content-security-policy"]
    for name, kind in (("app.js", "text/javascript"), ("board.js", "text/javascript"),
                       ("style.css", "text/css"), ("favicon.svg", "image/svg+xml")):
        status, headers, body = request(app, "GET", f"/static/{name}")
        assert status == 200 and headers["content-type"].startswith(kind) and body
    assert b"http://" not in request(app, "GET", "/")[2].replace(b"http://www.w3.org", b"")


def first_paint(app, query: str = "") -> Tuple[str, Dict[str, str]]:
    """The board drawn into the page at ``/?query``: the SVG, and its squares' pieces."""
    status, _, body = request(app, "GET", "/" + query)
    assert status == 200
    page = body.decode("utf-8")
    holder = page.split('<div id="board-holder">', 1)[1].split("</div>", 1)[0]
    assert holder.startswith('<svg id="board"') and holder.endswith("</svg>"), holder[:200]
    squares = {}
    for rect in holder.split("<rect ")[1:]:
        if "data-square=" in rect:
            number = rect.split('data-square="', 1)[1].split('"', 1)[0]
            squares[number] = rect.split('data-piece="', 1)[1][0] if "data-piece=" in rect else ""
    return holder, squares


def test_the_page_comes_with_its_board_drawn(app):
    """The first paint has the board (a screenshot taken before any script runs shows it): the
    position of the link, else International's start; a bad FEN or variant falls back."""
    svg, squares = first_paint(app)
    assert len(squares) == 50 and list(squares.values()).count("b") == 20
    assert [squares[n] for n in ("1", "20", "21", "30", "31", "50")] == ["b", "b", "", "", "w", "w"]
    assert svg.count('class="piece white"') == 20 and 'class="num"' in svg
    svg, squares = first_paint(app, "?variant=english")
    assert len(squares) == 32 and squares["1"] == "b" and squares["32"] == "w"
    svg, squares = first_paint(app, "?variant=russian&fen=W:WKa1,c3:Bh8")
    assert {n: p for n, p in squares.items() if p} == {"29": "W", "22": "w", "4": "b"}
    assert 'class="coord file">a</text>' in svg and 'class="crown"' in svg
    svg, squares = first_paint(app, "?variant=turkish")
    assert len(squares) == 64 and "all-squares" in svg
    _, squares = first_paint(app, "?variant=italian")
    assert len(squares) == 32
    _, squares = first_paint(app, "?variant=english&fen=W:W99:B1")  # bad FEN: the start
    assert list(squares.values()).count("w") == 12
    svg, squares = first_paint(app, "?variant=%3Cscript%3Ealert(1)%3C/script%3E&fen=%3Cb%3E")
    assert len(squares) == 50 and "<script" not in svg and "<b>" not in svg
    status, headers, body = request(app, "HEAD", "/?variant=english")
    assert status == 200 and body == b""


@pytest.mark.parametrize("path", ["/../../etc/passwd", "/static/../../../../etc/passwd",
                                  "/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                                  "/static/..%2f..%2fcli.py", "/static/../cli.py", "/cli.py",
                                  "/static/", "/static//etc/passwd", "/etc/passwd",
                                  "/static/app.js/..", "/protocol/web/cli.py"])
def test_no_file_outside_the_static_folder(app, path):
    answer = raw(app, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    assert status_of(answer) == 404
    json_error(body_of(answer))
    assert b"root:" not in answer and b"import" not in answer
    still_serving(app)


# ------------------------------------------------------------------------------ Host, Origin


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "localhost.evil.example",
                                  "127.0.0.1.nip.io", "", "a b", "[::1", "127.0.0.1:99999"])
def test_foreign_host_header_is_refused(app, host):
    status, headers, body = request(app, "GET", "/api/info", headers={"Host": host})
    assert status in (400, 403)
    assert headers["content-type"] == "application/json"
    json_error(body)
    still_serving(app)


def test_foreign_host_cannot_open_a_board(app):
    status, _, body = request(app, "POST", "/api/boards", {}, headers={"Host": "evil.example"})
    assert status == 403
    assert len(app.registry) == 0


def test_missing_host_header_is_refused(app):
    answer = raw(app, b"GET /api/info HTTP/1.0\r\n\r\n")
    assert status_of(answer) == 403
    json_error(body_of(answer))


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST", "board.localhost"])
def test_local_names_are_accepted(app, host):
    status, _, _ = request(app, "GET", "/api/info", headers={"Host": f"{host}:{app.server.port}"})
    assert status == 200


def test_host_rules():
    for host in ("127.0.0.1", "127.5.5.5", "::1", "[::1]", "localhost", "LocalHost"):
        assert is_loopback(host), host
    for host in ("0.0.0.0", "192.168.1.10", "::", "example.com", "localhost.example.com"):
        assert not is_loopback(host), host
    assert split_host_header("[::1]:8080") == ("::1", 8080)
    assert split_host_header("Board.LAN") == ("board.lan", None)
    for bad in ("", "a:b", "[::1", "[zz]:1", "host:0", "x/y", "user@host", ":80"):
        assert split_host_header(bad) is None, bad
    policy = HostPolicy(["board.lan"])
    for good in ("board.lan:8080", "BOARD.LAN", "127.0.0.1:9000", "[::1]:8080", "10.0.0.2",
                 "localhost", "x.localhost:1"):
        assert policy.accepts(good), good
    for bad in (None, "evil.lan", "board.lan.evil.example", "localhost.evil.example"):
        assert not policy.accepts(bad), bad


def test_allowed_host_name():
    with web_server(allow_hosts=["board.lan"]) as web:
        assert request(web, "GET", "/api/info", headers={"Host": "board.lan:80"})[0] == 200
        assert request(web, "GET", "/api/info", headers={"Host": "other.lan"})[0] == 403


def test_cross_origin_post_is_refused(app):
    status, _, body = request(app, "POST", "/api/boards", {},
                              headers={"Origin": "http://evil.example"})
    assert status == 403 and "cross-origin" in json_error(body)
    same = f"http://127.0.0.1:{app.server.port}"
    status, _, _ = request(app, "POST", "/api/boards", {}, headers={"Origin": same})
    assert status == 201


# ------------------------------------------------------------------------------ bodies


def test_ten_megabyte_body_is_refused_and_the_server_keeps_serving(app):
    size = 10 * 1024 * 1024
    head = (f"POST /api/boards HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {size}\r\n\r\n").encode()
    answer = raw(app, head, send_more=b"x" * size)
    assert status_of(answer) == 413
    assert "too large" in json_error(body_of(answer))
    assert len(app.registry) == 0
    still_serving(app)


def test_oversized_pdn_field_is_refused(app):
    board = open_board(app)
    status, _, body = request(app, "POST", f"/api/boards/{board['id']}/pdn", {"pdn": "1. " * 200000})
    assert status == 400 and "too long" in json_error(body)


@pytest.mark.parametrize("headers,data,status", [
    ({"Content-Type": "application/json"}, b"{not json", 400),
    ({"Content-Type": "application/json"}, b"[1, 2]", 400),
    ({"Content-Type": "application/json"}, b"\xff\xfe", 400),
    ({"Content-Type": "text/plain"}, b"{}", 415),
    ({"Content-Type": "application/x-www-form-urlencoded"}, b"a=b", 415),
])
def test_malformed_bodies_are_4xx_json(app, headers, data, status):
    got, _, body = request(app, "POST", "/api/boards", raw_body=data, headers=headers)
    assert got == status
    json_error(body)


@pytest.mark.parametrize("data,status", [
    (b"POST /api/boards HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\r\n", 411),
    (b"POST /api/boards HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n", 400),
    (b"PUT /api/boards HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n", 405),
    (b"DELETE / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 405),
    (b"BREW /pot HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 405),
    (b"GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n", 400),
    (b"garbage\r\n\r\n", 400),
    (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 414),
    (b"GET http://evil.example/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
    (b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello", 400),
])
def test_malformed_requests_are_4xx_json(app, data, status):
    answer = raw(app, data)
    assert status_of(answer) == status, answer[:300]
    json_error(body_of(answer))
    still_serving(app)


def test_a_body_nested_too_deeply_for_the_json_parser_is_400(app):
    data = b"[" * 100000 + b"]" * 100000
    got, _, body = request(app, "POST", "/api/boards", raw_body=data,
                           headers={"Content-Type": "application/json"})
    assert got == 400 and "nested too deeply" in json_error(body)
    got, _, body = request(app, "POST", "/api/boards", raw_body=b'{"pdn": ' + data + b"}",
                           headers={"Content-Type": "application/json"})
    assert got == 400 and "nested too deeply" in json_error(body)
    assert len(app.registry) == 0
    still_serving(app)


POST_HEAD = b"POST /api/boards HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"


@pytest.mark.parametrize("data,status,words", [
    (POST_HEAD + b"Content-Length: 2\r\nContent-Length: 5\r\n\r\n{}abc", 400,
     "more than one Content-Length header"),
    (POST_HEAD + b"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", 400,
     "more than one Content-Length header"),
    (b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n"
     b"Content-Length: 40\r\n\r\n", 400, "more than one Content-Length header"),
    (POST_HEAD.replace(b"Host: 127.0.0.1", b"Host: 127.0.0.1\r\nHost: evil.example")
     + b"Content-Length: 2\r\n\r\n{}", 400, "more than one Host header"),
    (POST_HEAD + b"Transfer-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}", 411,
     "Transfer-Encoding 'gzip' is not accepted"),
    (POST_HEAD + b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", 411,
     "send the body with Content-Length"),
    (b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
     b"0\r\n\r\n", 400, "a GET request has no body"),
])
def test_a_request_is_framed_one_way_only(app, data, status, words):
    """Request smuggling hygiene: what a proxy could read differently is refused, the
    connection closed, and nothing after it is read as another request."""
    smuggled = b"POST /api/boards HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " \
               b"application/json\r\nContent-Length: 2\r\n\r\n{}"
    answer = raw(app, data + smuggled)
    assert status_of(answer) == status, answer[:300]
    assert words in json_error(body_of(answer))
    assert answer.count(b"HTTP/1.1 ") == 1 and b"Connection: close" in answer
    assert len(app.registry) == 0
    still_serving(app)


def test_a_burst_of_connections_waits_in_the_listen_queue():
    """Connections made while the server is not accepting are held by the system (a backlog
    of 128, not socketserver's 5) and all answered once it accepts again."""
    server = build_server(port=0)  # bound and listening, not yet accepting
    sockets = []
    started = False
    try:
        for _ in range(120):
            sock = socket.socket()
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", server.server.port))
            sockets.append(sock)
        deadline = time.monotonic() + 120  # a hang guard; connecting takes milliseconds
        pending = list(sockets)
        while pending and time.monotonic() < deadline:
            _, writable, _ = select.select([], pending, [], 1.0)
            for sock in writable:
                assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
                pending.remove(sock)
        assert not pending, f"{len(pending)} of {len(sockets)} connections left waiting"
        server.start()
        started = True
        for sock in sockets:
            sock.setblocking(True)
            sock.settimeout(60)
            sock.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Connection: close\r\n\r\n")
        for sock in sockets:
            answer = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
            assert status_of(answer) == 200
    finally:
        for sock in sockets:
            sock.close()
        if started:
            server.stop()
        else:
            server.server.server_close()


# ------------------------------------------------------------------------------ threads


def wait_until(condition, what: str, timeout: float = 120.0) -> None:
    """A hang guard, not a speed test: loopback connections are accepted in milliseconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def connect(web) -> socket.socket:
    return socket.create_connection(("127.0.0.1", web.server.port), timeout=60)


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed ``sock`` (waits for it, up to the socket's timeout)."""
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


INFO = b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def test_idle_connections_take_no_thread_and_a_request_is_still_served():
    """200 connections that send nothing: the server's threads stay the fixed pool (one thread
    a connection made 1,003 threads for 1,000), and a real request is answered among them."""
    web = build_server(port=0).start()
    sockets: List[socket.socket] = []
    try:
        pool = web.server.pool
        bound = web.server.limits.workers + 1
        assert len(pool.threads) == bound
        before = threading.active_count()
        for _ in range(200):
            sockets.append(connect(web))
        wait_until(lambda: pool.open_connections == 200, "200 connections accepted")
        status, _, body = request(web, "GET", "/api/info")
        assert status == 200 and json.loads(body)["engines"] == ["draughts-engine"]
        assert threading.active_count() <= before
        assert len([t for t in threading.enumerate() if t.name.startswith("draughts-web-")]) == bound
        sockets[0].sendall(INFO)  # the oldest idle connection is still served too
        assert b" 200 " in sockets[0].recv(65536).split(b"\r\n", 1)[0]
    finally:
        for sock in sockets:
            sock.close()
        web.stop()


def test_a_connection_that_sends_no_request_is_closed_and_holds_no_worker():
    """A connection that sends nothing, or half a request head, is closed after the request
    time-out; while as many half-sent heads as there are workers wait, requests are served."""
    limits = ConnectionLimits(workers=4, max_streams=2, max_connections=64, request_timeout=1.0)
    web = build_server(port=0, limits=limits).start()
    sockets: List[socket.socket] = []
    try:
        silent = connect(web)
        sockets.append(silent)
        for _ in range(limits.workers):
            sock = connect(web)
            sock.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line
            sockets.append(sock)
        still_serving(web)
        for sock in sockets:
            assert closed_by_server(sock)
        wait_until(lambda: web.server.pool.open_connections == 0, "the connections closed")
        still_serving(web)
    finally:
        for sock in sockets:
            sock.close()
        web.stop()


def test_a_body_sent_a_byte_at_a_time_cannot_hold_a_worker():
    """Each byte comes within the read time-out, but the whole body not within the body's:
    the worker gives the connection up."""
    limits = ConnectionLimits(workers=4, max_streams=2, max_connections=64, body_timeout=1.0)
    web = build_server(port=0, limits=limits).start()
    sock = connect(web)
    stop = threading.Event()

    def drip() -> None:
        try:
            while not stop.wait(0.2):
                sock.sendall(b" ")
        except OSError:
            pass  # closed by the server: the point

    try:
        sock.sendall(b"POST /api/boards HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
        dripping = threading.Thread(target=drip, daemon=True)
        dripping.start()
        assert closed_by_server(sock)
        still_serving(web)
        assert len(web.registry) == 0
    finally:
        stop.set()
        sock.close()
        web.stop()


def test_too_many_connections_close_the_ones_waiting_longest():
    limits = ConnectionLimits(workers=4, max_streams=2, max_connections=20, request_timeout=60)
    web = build_server(port=0, limits=limits).start()
    sockets: List[socket.socket] = []
    try:
        for _ in range(40):
            sockets.append(connect(web))
        wait_until(lambda: web.server.pool.open_connections == 20, "the oldest closed")
        assert all(closed_by_server(sock) for sock in sockets[:20])
        sockets[-1].sendall(INFO)
        assert b" 200 " in sockets[-1].recv(65536).split(b"\r\n", 1)[0]
        still_serving(web)
    finally:
        for sock in sockets:
            sock.close()
        web.stop()


def test_event_streams_cannot_take_every_worker():
    limits = ConnectionLimits(workers=4, max_streams=2, max_connections=64)
    web = build_server(port=0, limits=limits).start()
    streams: List[socket.socket] = []
    try:
        board = open_board(web, black=None)
        ask = (f"GET /api/boards/{board['id']}/events HTTP/1.1\r\n"
               "Host: 127.0.0.1\r\n\r\n").encode()
        for _ in range(limits.max_streams):
            sock = connect(web)
            sock.sendall(ask)
            assert b"text/event-stream" in sock.recv(65536)
            streams.append(sock)
        answer = raw(web, ask)
        assert status_of(answer) == 429 and "event streams" in json_error(body_of(answer))
        still_serving(web)
    finally:
        for sock in streams:
            sock.close()
        web.stop()


# ------------------------------------------------------------------------------ the API


@pytest.mark.parametrize("settings,words", [
    ({"black": "engine:rm -rf /"}, "unknown engine"),
    ({"white": "cmd:python3 -m protocol"}, "unknown engine"),
    ({"white": "/bin/sh"}, "unknown engine"),
    ({"black": "engine:draughts-engine --evil"}, "unknown engine"),
    ({"white": 3}, "must be text"),
    ({"variant": "chess"}, "unknown variant"),
    ({"level": 13}, "level must be"),
    ({"level": True}, "level must be"),
    ({"level": 2, "movetime": 100}, "not both"),
    ({"movetime": 0}, "movetime must be"),
    ({"fen": "W:W99:B1"}, "FEN"),
    ({"pdn": "1. 99-98 *"}, "99"),
])
def test_bad_board_settings_are_400_and_start_nothing(app, settings, words):
    status, _, body = request(app, "POST", "/api/boards", settings)
    assert status == 400
    assert words in json_error(body)
    assert len(app.registry) == 0
    still_serving(app)


def test_pdn_without_tags_is_pdn_even_with_a_colon_in_a_comment(app):
    board = open_board(app, pdn="1. 32-28 {note: good} 19-23 *", black="human")
    assert board["state"]["moves"] == [["1.", "32-28"], ["1...", "19-23"]]
    board = open_board(app, variant="russian", black="human")
    status, _, body = request(app, "POST", f"/api/boards/{board['id']}/pdn",
                              {"pdn": "1. c3-d4 {see: note} f6-e5 *"})
    assert status == 200, body
    state = json.loads(body)["state"]
    assert len(state["moves"]) == 2 and "1. c3-d4 {see: note} 1... f6-e5" in state["pdn"]  # kept
    assert state["moves"] == [["1.", "c3-d4"], ["1...", "f6-e5"]]  # shown as the PDN writes them
    status, _, body = request(app, "POST", f"/api/boards/{board['id']}/move", {"move": "18x11"})
    assert status == 200, body
    assert json.loads(body)["state"]["moves"][2] == ["2.", "d4xf6"]
    status, _, body = request(app, "POST", f"/api/boards/{board['id']}/move", {"move": "h6-g5"})
    assert status == 400 and json_error(body) == "h6-g5: a capture is compulsory"


def test_unknown_engine_in_players_is_refused(app):
    board = open_board(app, black=None)
    status, _, body = request(app, "POST", f"/api/boards/{board['id']}/players",
                              {"white": "engine:python3 -c 'import os'"})
    assert status == 400 and "unknown engine" in json_error(body)


@pytest.mark.parametrize("variant,person,engine", [("international", "white", "black"),
                                                    ("english", "black", "white"),
                                                    ("pool", "black", "white")])
def test_by_default_the_person_plays_the_side_that_moves_first(app, variant, person, engine):
    """English checkers, pool and Thai draughts start with Black: a new board without players
    gives the person that side (its men are the ones that move) and the engine the other."""
    status, _, body = request(app, "GET", "/api/info")
    assert json.loads(body)["first_to_move"][variant] == person
    state = open_board(app, variant=variant, level=1)["state"]
    assert state["turn"] == person and state["thinking"] is None
    assert state["players"][person]["type"] == "human"
    assert state["players"][engine] == dict(state["players"][engine], type="engine",
                                             engine="draughts-engine")
    own = "b" if person == "black" else "w"
    assert state["legal"] and {state["pieces"][m["paths"][0][0] - 1] for m in state["legal"]} == {own}
    move = state["legal"][0]["pdn"]
    status, _, body = request(app, "POST", f"/api/boards/{state['id']}/move", {"move": move})
    assert status == 200, body
    state = json.loads(body)["state"]
    assert state["turn"] == engine and state["legal"] == []  # the engine's men are not the person's
    reply = wait_state(app, state["id"], lambda s: s["ply"] == 2 and s["thinking"] is None,
                       "the engine's reply")
    assert reply["turn"] == person and reply["legal"]


@pytest.mark.parametrize("settings,white,black", [
    ({"variant": "english", "white": "human", "black": "engine"}, "human", "engine"),
    ({"variant": "english", "white": "human"}, "human", "human"),        # black keeps its default
    ({"variant": "english", "black": "human", "white": "human"}, "human", "human"),
    ({"variant": "english", "white": "engine", "black": "engine"}, "engine", "engine"),
    ({"variant": "international", "black": "human"}, "human", "human"),
    ({"variant": "international", "white": "engine"}, "engine", "engine"),
])
def test_a_link_that_names_the_players_is_obeyed(app, settings, white, black):
    state = open_board(app, level=1, delay_ms=60000, **settings)["state"]
    assert (state["players"]["white"]["type"], state["players"]["black"]["type"]) == (white, black)


def test_analyse_and_hint_answer_on_a_finished_game(app):
    board = open_board(app, fen="W:W28:B23", black="human")
    status, _, body = request(app, "POST", f"/api/boards/{board['id']}/move", {"move": "28x19"})
    assert status == 200 and json.loads(body)["state"]["result"]["score"] == "2-0"
    status, _, body = request(app, "POST", f"/api/boards/{board['id']}/analyse", {"on": True})
    assert status == 200, body
    analysis = json.loads(body)["state"]["analysis"]
    assert analysis["kind"] == "final" and analysis["result"] == "2-0"
    status, _, body = request(app, "POST", f"/api/boards/{board['id']}/hint", {})
    assert status == 200, body
    hint = json.loads(body)["state"]["hint"]
    assert hint["move"] is None and "over" in hint["none"]
    status, _, body = request(app, "POST", f"/api/boards/{board['id']}/go", {})
    assert status == 409 and "over" in json_error(body)  # nothing to play, though


def test_board_routes_refuse_what_does_not_exist(app):
    board = open_board(app)
    cases = [("GET", "/api/boards/nope", None, 404), ("POST", "/api/boards/nope/move", {}, 404),
             ("POST", f"/api/boards/{board['id']}/explode", {}, 404),
             ("GET", f"/api/boards/{board['id']}/move", None, 405),
             ("GET", "/api/boards", None, 405), ("POST", "/api/info", {}, 405),
             ("GET", "/api/nothing", None, 404),
             ("POST", f"/api/boards/{board['id']}/move", {}, 400),
             ("POST", f"/api/boards/{board['id']}/move", {"move": "32-99"}, 400),
             ("POST", f"/api/boards/{board['id']}/move", {"move": "31-27"}, 200),
             ("POST", f"/api/boards/{board['id']}/move", {"move": "19-23"}, 409),
             ("POST", f"/api/boards/{board['id']}/goto", {"ply": 99}, 409),
             ("POST", f"/api/boards/{board['id']}/goto", {"ply": "1"}, 400),
             ("POST", f"/api/boards/{board['id']}/analyse", {"on": "yes"}, 400)]
    for method, path, payload, expected in cases:
        status, _, body = request(app, method, path, payload)
        assert status == expected, (method, path, payload, body)
        if status >= 400:
            json_error(body)


def test_board_cap(tmp_path):
    with web_server(max_boards=2) as web:
        first, second = open_board(web, black=None), open_board(web, black=None)
        status, _, body = request(web, "POST", "/api/boards", {})
        assert status == 429 and "boards are open" in json_error(body)
        status, _, _ = request(web, "POST", f"/api/boards/{first['id']}/close", {})
        assert status == 200
        open_board(web, black=None)
        assert second["id"] in [b for b in web.registry._boards]


# ------------------------------------------------------------------------------ processes


def children_of(pid: int) -> List[int]:
    """Live child processes of ``pid`` (Linux /proc), but the client's guard process (which
    ends engines if their program dies, and outlives them)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                command = handle.read()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z" and b"guard.py" not in command:
            found.append(int(name))
    return found


def wait_state(app_or_port, board_id: str, predicate, what: str, timeout: float = 120.0):
    """Poll the board's state until ``predicate(state)``."""
    port = app_or_port if isinstance(app_or_port, int) else app_or_port.server.port
    deadline = time.monotonic() + timeout
    while True:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", f"/api/boards/{board_id}")
        state = json.loads(conn.getresponse().read())
        conn.close()
        if predicate(state):
            return state
        assert time.monotonic() < deadline, f"timed out waiting for {what}: {state['status']}"
        time.sleep(0.05)


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc")


@needs_proc
def test_no_engine_process_left_after_stop():
    with web_server() as web:
        board = open_board(web, white="engine", black="engine", level=1, delay_ms=0)
        wait_state(web, board["id"], lambda s: len(s["moves"]) >= 2, "two engine moves")
        engines = children_of(os.getpid())
        assert engines, "engine processes should be running"
    assert not [pid for pid in engines if running(pid)]
    status = None
    try:
        request(web, "GET", "/api/info")
    except OSError:
        status = "closed"
    assert status == "closed"


@needs_proc
def test_cli_serves_until_sigterm_and_leaves_no_engine(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT)
    server = subprocess.Popen([sys.executable, "-m", "protocol.web", "--port", "0"], cwd=str(tmp_path),
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()
        assert first.startswith("draughts-web: serving http://127.0.0.1:"), first
        port = int(first.split("http://127.0.0.1:")[1].split("/")[0])

        class Port:
            class server:
                pass
        Port.server.port = port
        board = open_board(Port, white="engine", black="engine", level=1, delay_ms=0)
        wait_state(port, board["id"], lambda s: len(s["moves"]) >= 2, "two engine moves")
        engines = children_of(server.pid)
        assert engines
        status, _, body = request(Port, "GET", "/api/info", headers={"Host": "evil.example"})
        assert status == 403
        server.terminate()
        out, err = server.communicate(timeout=60)
        assert server.returncode == 0, err
        assert "stopped" in out and "Traceback" not in err
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert not [pid for pid in engines if running(pid)]


# ------------------------------------------------------------------------------ the command line


@pytest.mark.parametrize("args,words", [
    (["--port", "70000"], "port"),
    (["--port", "x"], "port"),
    (["--max-boards", "0"], "--max-boards"),
    (["--idle-timeout", "nan"], "--idle-timeout must be a positive number, got 'nan'"),
    (["--idle-timeout", "inf"], "--idle-timeout must be a positive number, got 'inf'"),
    (["--idle-timeout", "-1"], "--idle-timeout must be a positive number, got '-1'"),
    (["--idle-timeout", "0"], "--idle-timeout must be a positive number, got '0'"),
    (["--engine", "no-such-program-xyz --flag"], "not found"),
    (["--engine", "proto=dxp python3 -m protocol"], "proto"),
    (["--engine", "cmd='unterminated"], "bad --engine"),
    (["--engine", ""], "no command"),
    (["--frobnicate"], "unrecognized"),
    (["--host", "256.1.1.1", "--port", "0"], "cannot listen"),
])
def test_cli_errors_are_one_line_and_exit_2(capsys, args, words):
    assert main(args) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("draughts-web: error:") and words in lines[0]
    assert captured.out == ""


def test_cli_port_in_use_is_exit_2(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["--port", str(port)]) == 2
    line = capsys.readouterr().err.strip()
    assert "\n" not in line and "cannot listen" in line


def test_cli_warns_for_a_non_loopback_host():
    env = dict(os.environ, PYTHONPATH=ROOT)
    server = subprocess.Popen([sys.executable, "-m", "protocol.web", "--host", "0.0.0.0", "--port", "0"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        warning = server.stderr.readline()
        assert "warning" in warning and "0.0.0.0" in warning and "not a loopback" in warning
    finally:
        server.terminate()
        server.communicate(timeout=60)
    assert server.returncode == 0


def test_help_and_version():
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-m", "protocol.web", "--help"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "--engine" in out.stdout and "--max-boards" in out.stdout
    out = subprocess.run([sys.executable, "-m", "protocol.web", "--version"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("draughts-web ")
