"""A small Chrome DevTools Protocol client for the browser tests, standard library only.

:class:`Browser` starts Chromium headless with a fresh profile, reads the DevTools port
from the profile's ``DevToolsActivePort`` file, and opens a WebSocket (RFC 6455, written
here over ``socket``) to the first page. :class:`Page` sends CDP commands, keeps the
events it reads, and offers the few things the tests need: navigate, evaluate, wait for a
condition, click at a point, screenshot.

Nothing here knows about draughts.
"""
from __future__ import annotations

import base64
import hashlib
import http.client
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

__all__ = ["find_chromium", "Browser", "Page", "CdpError", "WebSocket"]

_WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
                  "--window-size=1280,900", "--remote-debugging-port=0")


class CdpError(Exception):
    """The browser answered a command with an error, closed, or a wait ran out."""


def find_chromium() -> Optional[str]:
    """The Chromium (or Chrome) program to use: ``$CHROMIUM`` or the first one on PATH."""
    explicit = os.environ.get("CHROMIUM")
    if explicit:
        return explicit if shutil.which(explicit) else None
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


# ------------------------------------------------------------------------------ WebSocket


class WebSocket:
    """A client WebSocket for text messages: handshake, masked frames out, pings answered."""

    def __init__(self, host: str, port: int, path: str, timeout: float = 30.0) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode("ascii")
        request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode("ascii"))
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise CdpError("the browser closed the WebSocket during the handshake")
            head += chunk
        head, self._buffer = head.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0] + " ":
            raise CdpError(f"WebSocket handshake refused: {lines[0]}")
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        expected = base64.b64encode(hashlib.sha1((key + _WS_GUID).encode("ascii")).digest()).decode()
        if headers.get("sec-websocket-accept") != expected:
            raise CdpError("WebSocket handshake: wrong Sec-WebSocket-Accept")

    def _read_exact(self, n: int) -> bytes:
        while len(self._buffer) < n:
            chunk = self.sock.recv(max(65536, n - len(self._buffer)))
            if not chunk:
                raise CdpError("the browser closed the WebSocket")
            self._buffer += chunk
        data, self._buffer = self._buffer[:n], self._buffer[n:]
        return data

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send_text(self, text: str) -> None:
        self._send_frame(0x1, text.encode("utf-8"))

    def recv_text(self, timeout: Optional[float]) -> str:
        """The next whole text message; ``socket.timeout`` when none arrives in time."""
        self.sock.settimeout(timeout)
        parts: List[bytes] = []
        while True:
            first, second = self._read_exact(2)
            opcode, fin = first & 0x0F, first & 0x80
            n = second & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read_exact(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read_exact(8))[0]
            mask = self._read_exact(4) if second & 0x80 else None
            payload = self._read_exact(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            if opcode == 0x8:
                raise CdpError("the browser closed the WebSocket")
            parts.append(payload)
            if fin:
                return b"".join(parts).decode("utf-8")

    def close(self) -> None:
        try:
            self._send_frame(0x8, struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()


# ------------------------------------------------------------------------------ the page


class Page:
    """One page target: CDP commands and events over its WebSocket."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self._next_id = 0
        self.events: List[Dict[str, Any]] = []
        self.console: List[str] = []

    def send(self, method: str, params: Optional[Dict[str, Any]] = None,
             timeout: float = 60.0) -> Dict[str, Any]:
        """Run one command and return its ``result``; events read meanwhile are kept."""
        self._next_id += 1
        ident = self._next_id
        self.ws.send_text(json.dumps({"id": ident, "method": method, "params": params or {}}))
        deadline = time.monotonic() + timeout
        while True:
            message = self._read(deadline, f"the answer to {method}")
            if message.get("id") == ident:
                if "error" in message:
                    raise CdpError(f"{method}: {message['error']}")
                return message.get("result", {})

    def _read(self, deadline: float, what: str) -> Dict[str, Any]:
        left = deadline - time.monotonic()
        if left <= 0:
            raise CdpError(f"timed out waiting for {what}")
        try:
            message = json.loads(self.ws.recv_text(left))
        except socket.timeout:
            raise CdpError(f"timed out waiting for {what}") from None
        if "method" in message:
            self.events.append(message)
            if message["method"] == "Runtime.consoleAPICalled":
                args = message["params"].get("args", [])
                self.console.append(" ".join(str(a.get("value", a.get("description", ""))) for a in args))
            elif message["method"] == "Runtime.exceptionThrown":
                details = message["params"].get("exceptionDetails", {})
                self.console.append("exception: " + str(details.get("exception", {}).get("description")
                                                        or details.get("text")))
        return message

    def wait_event(self, method: str, timeout: float = 60.0,
                   predicate: Callable[[Dict[str, Any]], bool] = lambda params: True) -> Dict[str, Any]:
        """The params of the first event ``method`` (kept or new) that satisfies ``predicate``."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for event in self.events[seen:]:
                if event["method"] == method and predicate(event.get("params", {})):
                    self.events.remove(event)
                    return event.get("params", {})
            seen = len(self.events)
            self._read(deadline, f"event {method}")

    def navigate(self, url: str, timeout: float = 60.0) -> None:
        """Load ``url`` and wait for its load event."""
        self.events = [e for e in self.events if e["method"] != "Page.loadEventFired"]
        self.send("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired", timeout)

    def evaluate(self, expression: str, timeout: float = 60.0) -> Any:
        """The value of a JavaScript expression (promises awaited); JS errors raise CdpError."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise CdpError(f"JavaScript error: {text}")
        return result.get("result", {}).get("value")

    def wait_for(self, expression: str, timeout: float = 60.0, what: str = "") -> Any:
        """Evaluate ``expression`` until it is truthy and return that value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise CdpError(f"timed out waiting for {what or expression}")
            time.sleep(0.1)

    def box(self, selector: str, scroll: bool = True) -> Tuple[float, float, float, float]:
        """``(x, y, width, height)`` of the first element matching ``selector``, in CSS pixels
        of the viewport (scrolled into view first, unless ``scroll`` is false)."""
        rect = self.evaluate(
            f"(() => {{ const el = document.querySelector({json.dumps(selector)});"
            " if (!el) return null;"
            + (" el.scrollIntoView({block: 'nearest', inline: 'nearest'});" if scroll else "")
            + " const r = el.getBoundingClientRect();"
            " return [r.x, r.y, r.width, r.height]; })()")
        if rect is None:
            raise CdpError(f"no element matches {selector}")
        return tuple(rect)  # type: ignore[return-value]

    def click_at(self, x: float, y: float) -> None:
        """A left click (move, press, release) at a point of the viewport."""
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                   "buttons": 1 if kind == "mousePressed" else 0,
                                                   "clickCount": 1})

    def click(self, selector: str) -> None:
        """Click the centre of the first element matching ``selector``."""
        x, y, width, height = self.box(selector)
        self.click_at(x + width / 2, y + height / 2)

    def drag(self, start: Tuple[float, float], end: Tuple[float, float], steps: int = 5) -> None:
        """Press at ``start``, move to ``end`` in a few steps, release there."""
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": start[0], "y": start[1]})
        self.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": start[0], "y": start[1],
                                               "button": "left", "buttons": 1, "clickCount": 1})
        for i in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * i / steps
            y = start[1] + (end[1] - start[1]) * i / steps
            self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y,
                                                   "button": "left", "buttons": 1})
        self.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": end[0], "y": end[1],
                                               "button": "left", "buttons": 0, "clickCount": 1})

    def screenshot(self, path: str, selector: Optional[str] = None) -> str:
        """Save a PNG of the page (or of one element) to ``path``; returns ``path``."""
        params: Dict[str, Any] = {"format": "png"}
        if selector is not None:
            x, y, width, height = self.box(selector)
            x += self.evaluate("window.scrollX")
            y += self.evaluate("window.scrollY")
            params["clip"] = {"x": x, "y": y, "width": width, "height": height, "scale": 1}
        data = self.send("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(data))
        return path


# ------------------------------------------------------------------------------ the browser


class Browser:
    """Chromium headless with a throw-away profile; :attr:`page` is its first tab.

    Use as a context manager; leaving it closes the browser and deletes the profile.
    """

    def __init__(self, program: str, startup_timeout: float = 60.0) -> None:
        self.home = tempfile.mkdtemp(prefix="draughts-web-chromium-")
        self.profile = os.path.join(self.home, "profile")
        self._stderr = open(os.path.join(self.home, "stderr.log"), "wb")
        self.process = subprocess.Popen(
            [program, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._stderr)
        try:
            self.port = self._devtools_port(startup_timeout)
            self.page = Page(self._page_socket(startup_timeout))
            for domain in ("Page", "Runtime"):
                self.page.send(f"{domain}.enable")
        except BaseException:
            self.close()
            raise

    def _devtools_port(self, timeout: float) -> int:
        path = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                with open(self._stderr.name, "rb") as handle:
                    last = handle.read().decode("utf-8", "replace").strip().splitlines()[-1:]
                raise CdpError(f"Chromium exited with status {self.process.returncode}: "
                               f"{last[0] if last else 'no message'}")
            try:
                with open(path) as handle:
                    first = handle.readline().strip()
                if first.isdigit():
                    return int(first)
            except OSError:
                pass
            time.sleep(0.05)
        raise CdpError("Chromium did not write DevToolsActivePort")

    def _page_socket(self, timeout: float) -> WebSocket:
        deadline = time.monotonic() + timeout
        while True:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            try:
                conn.request("GET", "/json/list")
                targets = json.loads(conn.getresponse().read().decode("utf-8"))
            finally:
                conn.close()
            pages = [t for t in targets if t.get("type") == "page" and t.get("webSocketDebuggerUrl")]
            if pages:
                url = pages[0]["webSocketDebuggerUrl"]
                path = "/" + url.split("/", 3)[3]
                return WebSocket("127.0.0.1", self.port, path)
            if time.monotonic() > deadline:
                raise CdpError("Chromium shows no page target")
            time.sleep(0.1)

    def close(self) -> None:
        """Close the browser (politely, then by force) and delete its profile."""
        page = getattr(self, "page", None)
        if page is not None:
            try:
                page.send("Browser.close", timeout=5)
            except (CdpError, OSError):
                pass
            page.ws.close()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._stderr.close()
        shutil.rmtree(self.home, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
