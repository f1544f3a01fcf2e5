"""The HTTP layer of the web board: ``http.server`` on a fixed pool of threads
(:mod:`.connections`: idle connections wait without a thread, and time out).

What this module guarantees, whatever the request:

* the ``Host`` header is checked first (:class:`~.hosts.HostPolicy`): DNS rebinding gets 403;
* a POST must be ``application/json`` with a ``Content-Length`` of at most ``max_body``
  bytes, and its ``Origin`` (when the browser sends one) must be this server; a longer
  body is refused before it is read (413);
* a request is framed one way only: ``Host`` and ``Content-Length`` at most once each (400),
  no ``Transfer-Encoding`` (411 for a POST, 400 otherwise), so no proxy in front can read it
  differently (request smuggling);
* a JSON body nested too deeply for the parser is a 400 like any other bad JSON;
* every error is a 4xx (or, for a bug, a 500) with a JSON body ``{"error": "..."}``: never
  an HTML page, never a traceback;
* files come only from :class:`~.static_files.StaticFiles`.

What a request means is up to the *app* (:class:`~.api.WebApi`), which answers a
:class:`Request` with a :class:`Reply` or an :class:`EventStream`.
"""
from __future__ import annotations

import json
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union
from urllib.parse import parse_qs, urlsplit

from .connections import Connection, ConnectionLimits, ConnectionPool
from .hosts import HostPolicy
from .page import render_index
from .static_files import StaticFiles

__all__ = ["HttpError", "Request", "Reply", "EventStream", "WebServer", "MAX_BODY"]

MAX_BODY = 1 << 20
"""Largest request body accepted, in bytes (a long PDN game is a few tens of KB)."""
LISTEN_BACKLOG = 128
"""Connections the system holds while the server is busy accepting (``listen()``'s backlog):
a page opening or a script's burst of requests queues instead of being reset."""
DRAIN_BYTES = 64 << 20
DRAIN_SECONDS = 5.0
"""After refusing a body, read and drop at most this much of it so the client sees the answer."""

SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    ("Content-Security-Policy",
     "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
     "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"),
)


class HttpError(Exception):
    """A request the server refuses: ``status`` (4xx) and a one-line ``message``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Request:
    """A checked request: ``parts`` is the path split on ``/`` (empty parts dropped)."""

    method: str
    path: str
    parts: List[str]
    query: Dict[str, str]
    body: Optional[Dict[str, Any]] = None


@dataclass
class Reply:
    """An answer: a JSON value, or raw ``body`` bytes with their ``content_type``."""

    status: int = 200
    data: Any = None
    body: Optional[bytes] = None
    content_type: str = "application/json"
    headers: List[Tuple[str, str]] = field(default_factory=list)


class EventStream:
    """A Server-Sent Events answer: ``events`` yields whole event chunks (bytes) until the
    stream should end; the server closes the iterator when the browser goes away."""

    def __init__(self, events: Iterator[bytes]) -> None:
        self.events = events


App = Callable[[Request], Union[Reply, EventStream]]


def _query(text: str) -> Dict[str, str]:
    try:
        pairs = parse_qs(text, keep_blank_values=True, strict_parsing=False, max_num_fields=50)
    except ValueError:
        raise HttpError(400, "too many query parameters") from None
    return {key: values[-1] for key, values in pairs.items()}


class WebServer(HTTPServer):
    """The listening server: ``app`` answers API requests, ``static`` serves the page.

    ``policy`` checks ``Host`` headers; ``max_body`` bounds request bodies; ``limits`` the
    threads and connections (:class:`~.connections.ConnectionLimits`). ``log`` receives
    one-line diagnostics (every request too with ``verbose``). The threads are daemons, so
    :meth:`stop` never waits for a browser.
    """

    allow_reuse_address = True
    request_queue_size = LISTEN_BACKLOG

    def __init__(self, address: Tuple[str, int], app: App, static: StaticFiles,
                 policy: Optional[HostPolicy] = None, max_body: int = MAX_BODY,
                 log: Optional[Callable[[str], None]] = None, verbose: bool = False,
                 limits: Optional[ConnectionLimits] = None) -> None:
        self.app = app
        self.verbose_log = verbose
        self.static = static
        self.max_body = max_body
        self.log = log
        self.stopping = threading.Event()
        self.limits = limits if limits is not None else ConnectionLimits()
        self.pool = ConnectionPool(self._serve_one, self.limits, log)
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, _Handler)
        self.policy = policy if policy is not None else HostPolicy()

    @property
    def port(self) -> int:
        return self.server_address[1]

    def url(self) -> str:
        """The page's address, e.g. ``http://127.0.0.1:8080/``."""
        host = self.server_address[0]
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    def start(self) -> threading.Thread:
        """Serve on a background thread (named ``draughts-web``) and return it."""
        self.pool.start()
        thread = threading.Thread(target=self.serve_forever, name="draughts-web", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        """Stop accepting requests, close the socket and the waiting connections (event
        streams end as their boards close)."""
        self.stopping.set()
        self.shutdown()
        self.server_close()
        self.pool.stop()

    def process_request(self, request: Any, client_address: Any) -> None:
        """An accepted connection waits in the pool for its request (no thread of its own)."""
        self.pool.add(request, client_address)

    def _serve_one(self, connection: Connection) -> bool:
        """Answer one request of ``connection``; whether it may carry another."""
        handler = _Handler(connection, connection.address, self)
        return not handler.close_connection

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection failed outside a request (e.g. reset): one line, no traceback."""
        error = sys.exc_info()[1]
        if self.log is not None and not isinstance(error, (ConnectionError, socket.timeout)):
            self.log(f"connection from {client_address[0]} failed: {type(error).__name__}: {error}")


class _SocketWriter:
    """The response side of a connection: every write goes out whole (``sendall``)."""

    closed = False

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def write(self, data: bytes) -> int:
        self.sock.sendall(data)
        return len(data)

    def flush(self) -> None:
        pass


class _Handler(BaseHTTPRequestHandler):
    """One connection; requests are checked here and handed to the app."""

    server: WebServer
    protocol_version = "HTTP/1.1"
    server_version = "draughts-web"
    sys_version = ""
    error_content_type = "application/json"
    _drain = False  # set when a request's body is refused unread

    # ------------------------------------------------------------------ one request

    def setup(self) -> None:
        """Read through the pool's :class:`~.connections.Connection` (its buffer holds the
        request head already), write straight to the socket."""
        connection: Connection = self.request
        self.connection = connection.sock
        self.rfile = connection
        self.wfile = _SocketWriter(connection.sock)

    def handle(self) -> None:
        """One request: the pool keeps the connection for the next one (or closes it)."""
        self.close_connection = True
        self.handle_one_request()

    def finish(self) -> None:
        """The connection stays open: the pool owns it."""

    # ------------------------------------------------------------------ methods

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_HEAD(self) -> None:
        self._dispatch("HEAD")

    def do_PUT(self) -> None:
        self._refuse_method()

    do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = do_PUT

    # ------------------------------------------------------------------ errors

    def send_error(self, code: int, message: Optional[str] = None,
                   explain: Optional[str] = None) -> None:
        """Errors found by ``http.server`` itself (bad request line, unknown method, headers
        too long) get a JSON body like ours; its 5xx for unknown methods/versions are the
        client's fault, so they become 405 and 400."""
        if code == 501:
            code, message = 405, f"method {self.command!r} not allowed"
        elif code >= 500:
            code = 400
        if not str(getattr(self, "request_version", "")).startswith("HTTP/1."):
            self.request_version = "HTTP/1.0"  # answer with a status line even to junk
        self.close_connection = True
        self._send_json(code, {"error": message or explain or "bad request"})

    def _refuse_method(self) -> None:
        self._send_error_json(HttpError(405, f"method {self.command} not allowed"))

    # ------------------------------------------------------------------ the request

    def _dispatch(self, method: str) -> None:
        try:
            request = self._checked_request(method)
            if request is None:
                return
            if request.parts[:1] == ["api"]:
                answer = self.server.app(request)
            else:
                answer = self._static(request)
            if isinstance(answer, EventStream):
                if not self.server.pool.open_stream():
                    close = getattr(answer.events, "close", None)
                    if close is not None:
                        close()  # not started: nothing to undo
                    raise HttpError(429, "too many event streams are open (close a page)")
                try:
                    self._stream(answer)
                finally:
                    self.server.pool.close_stream()
            else:
                self._send_reply(answer, head_only=method == "HEAD")
        except HttpError as error:
            self._send_error_json(error)
        except (ConnectionError, socket.timeout):
            self.close_connection = True
        except Exception as error:  # a bug: say so in one line, keep serving
            self._log(f"internal error on {method} {self.path[:200]}: "
                      f"{type(error).__name__}: {error}")
            self._send_error_json(HttpError(500, "internal error"))

    def _checked_request(self, method: str) -> Optional[Request]:
        for name in ("Host", "Content-Length"):
            if len(self.headers.get_all(name, [])) > 1:
                self._refuse_body()
                raise HttpError(400, f"more than one {name} header")
        host = self.headers.get("Host")
        if not self.server.policy.accepts(host):
            self._refuse_body()
            raise HttpError(403, "forbidden Host header (the board answers only to this "
                                 "machine's addresses)")
        split = urlsplit(self.path)
        if not split.path.startswith("/") or split.scheme or split.netloc:
            self._refuse_body()
            raise HttpError(400, "malformed request target")
        parts = [part for part in split.path.split("/") if part]
        query = _query(split.query)
        body: Optional[Dict[str, Any]] = None
        if method == "POST":
            if not self.server.policy.origin_matches(self.headers.get("Origin"), host):
                self._refuse_body()
                raise HttpError(403, "cross-origin request refused")
            body = self._json_body()
        elif self.headers.get("Content-Length", "0").strip() not in ("", "0") or \
                self.headers.get("Transfer-Encoding") is not None:
            self._refuse_body()
            raise HttpError(400, f"a {method} request has no body")
        return Request(method, split.path, parts, query, body)

    def _json_body(self) -> Dict[str, Any]:
        encoding = self.headers.get("Transfer-Encoding")
        if encoding is not None:
            self._refuse_body()
            raise HttpError(411, f"Transfer-Encoding {encoding.strip()[:40]!r} is not accepted: "
                                 "send the body with Content-Length")
        length_text = self.headers.get("Content-Length")
        if length_text is None:
            raise HttpError(411, "Content-Length required")
        length_text = length_text.strip()
        if not (length_text.isascii() and length_text.isdigit()):
            self.close_connection = True
            raise HttpError(400, "malformed Content-Length")
        length = int(length_text)
        if length > self.server.max_body:
            self._refuse_body()
            raise HttpError(413, f"request body too large ({length} bytes; at most "
                                 f"{self.server.max_body})")
        content_type = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if content_type != "application/json":
            self._refuse_body()
            raise HttpError(415, "Content-Type must be application/json")
        raw = self.rfile.read(length) if length else b""
        if len(raw) != length:
            self.close_connection = True
            raise HttpError(400, "request body shorter than Content-Length")
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise HttpError(400, "request body is not valid JSON") from None
        except RecursionError:
            raise HttpError(400, "request body is nested too deeply") from None
        if not isinstance(data, dict):
            raise HttpError(400, "request body must be a JSON object")
        return data

    def _refuse_body(self) -> None:
        """The body will not be read: drop it after answering, and close the connection."""
        self.close_connection = True
        self._drain = True

    # ------------------------------------------------------------------ answers

    def _static(self, request: Request) -> Reply:
        if request.method not in ("GET", "HEAD"):
            raise HttpError(405, f"method {request.method} not allowed here")
        if request.parts == []:
            name = "index.html"
        elif len(request.parts) == 2 and request.parts[0] == "static":
            name = request.parts[1]
        elif request.parts == ["favicon.ico"]:
            name = "favicon.svg"
        else:
            raise HttpError(404, "not found")
        found = self.server.static.get(name)
        if found is None:
            raise HttpError(404, "not found")
        body = found.body
        if name == "index.html":
            body = self._first_paint(body, request.query)
        return Reply(body=body, content_type=found.content_type,
                     headers=[("Cache-Control", "no-cache")])

    def _first_paint(self, template: bytes, query: Dict[str, str]) -> bytes:
        """The page with the link's board drawn in (:mod:`.page`); the bare page should that
        fail (a bug: one line in the log)."""
        try:
            return render_index(template, query)
        except Exception as error:
            self._log(f"internal error drawing the page's board: {type(error).__name__}: {error}")
            return template

    def _send_reply(self, reply: Reply, head_only: bool = False) -> None:
        if reply.body is not None:
            body = reply.body
        else:
            body = json.dumps(reply.data, separators=(",", ":")).encode("utf-8")
        headers = list(reply.headers)
        if reply.content_type == "application/json":
            headers.append(("Cache-Control", "no-store"))
        self._send(reply.status, body, reply.content_type, headers, head_only)

    def _send_error_json(self, error: HttpError) -> None:
        self._send_json(error.status, {"error": error.message})

    def _send_json(self, status: int, data: Any) -> None:
        body = json.dumps(data, separators=(",", ":")).encode("utf-8")
        self._send(status, body, "application/json", [("Cache-Control", "no-store")])

    def _send(self, status: int, body: bytes, content_type: str,
              headers: List[Tuple[str, str]], head_only: bool = False) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for name, value in SECURITY_HEADERS + tuple(headers):
                self.send_header(name, value)
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            if not head_only:
                self.wfile.write(body)
            self.wfile.flush()
        except (ConnectionError, socket.timeout, ValueError):
            self.close_connection = True
            return
        if self._drain:
            self._drop_input()

    def _drop_input(self) -> None:
        """Read and discard what the client is still sending (bounded), so that closing the
        socket does not reset the connection before the client has read our answer."""
        self._drain = False
        try:
            self.connection.shutdown(socket.SHUT_WR)
            deadline = time.monotonic() + DRAIN_SECONDS
            dropped = 0
            while dropped < DRAIN_BYTES:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.connection.settimeout(left)
                chunk = self.connection.recv(65536)
                if not chunk:
                    break
                dropped += len(chunk)
        except OSError:
            pass

    def _stream(self, stream: EventStream) -> None:
        events = stream.events
        self.close_connection = True
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            for name, value in SECURITY_HEADERS:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.flush()
            for chunk in events:
                self.wfile.write(chunk)
                self.wfile.flush()
        except (ConnectionError, socket.timeout, ValueError, OSError):
            pass
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()

    # ------------------------------------------------------------------ logging

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (http.server's name)
        if self.server.log is not None and self.server.verbose_log:
            self.server.log(f"{self.address_string()} {format % args}")

    def _log(self, text: str) -> None:
        if self.server.log is not None:
            self.server.log(text)
