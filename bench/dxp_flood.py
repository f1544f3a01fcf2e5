#!/usr/bin/env python3
"""Memory of the DXP follower under a frame flood (issue 10's bar: under 100 MB), and how long
silent connections delay a real initiator (bar: 3 of them, under 2 s).

    python3 bench/dxp_flood.py [--megabytes 10] [--frame move|chat|request] [--repo PATH]
    python3 bench/dxp_flood.py --silent 3 [--idle-timeout S] [--wait 60] [--repo PATH]

Starts the follower (``python3 -m protocol --dxp --port 0 --depth 1``) from ``--repo`` (default:
this checkout; point it at an older checkout to compare), opens one connection, asks for a
game, then sends ``--megabytes`` of frames without ever reading the answers, as fast as the
follower takes them.  Then it waits for the follower to settle and prints:

* the follower's resident memory before the flood and its peak (``VmHWM`` of
  ``/proc/PID/status``, so Linux only), in MB;
* how many bytes the initiator could write before the follower closed the connection (or all
  of them; the kernel's socket buffers hold a few MB of it), and how long that took;
* whether the follower still answers a new game request afterwards;
* the follower's stderr (its one-line notice of why it closed the connection).

With ``--silent N`` there is no flood: N connections are opened and say nothing, then one more
sends a game request, and the script prints how long the answer took (at most ``--wait``
seconds) and its code, whether the silent connections were still open then, and the follower's
stderr.  ``--idle-timeout`` is passed to the follower (an older follower served the silent
connections one after the other, each until its idle timeout).
"""
from __future__ import annotations

import os
import select
import socket
import subprocess
import sys
import time
from typing import Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from protocol.dxp.codec import encode_game_request  # noqa: E402
from _cli import OneLineParser, int_in, positive_float  # noqa: E402

FRAMES = {
    "move": "M0000325000",          # out of turn / no game: every one is answered with a chat
    "chat": "C" + "flood " * 20,    # answered with nothing
    "request": encode_game_request("Z", 5, 0),  # every one starts a game and is answered
}


def memory_mb(pid: int) -> Dict[str, float]:
    """VmRSS and VmHWM (peak) of ``pid`` in MB, from /proc."""
    values: Dict[str, float] = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0]) / 1024
    return values


def start_follower(repo: str, extra: "tuple[str, ...]" = ()) -> "tuple[subprocess.Popen[bytes], int]":
    proc = subprocess.Popen([sys.executable, "-m", "protocol", "--dxp", "--port", "0", "--depth", "1",
                             *extra], cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    if not line.startswith("dxp: listening on"):
        proc.kill()
        raise SystemExit(f"the follower did not start: {line!r}")
    return proc, int(line.rsplit(":", 1)[1])


def flood(port: int, frame: str, total: int) -> "tuple[int, float, Optional[str]]":
    """Send ``total`` bytes of ``frame`` after a game request; never read. Returns the bytes
    the follower took, the seconds it took and how the sending ended."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    sock.sendall(encode_game_request("Z", 5, 0).encode() + b"\0")
    block = (frame.encode() + b"\0") * max(1, 65536 // (len(frame) + 1))
    sent = 0
    started = time.monotonic()
    ended: Optional[str] = None
    try:
        while sent < total:
            piece = block[:total - sent]
            sock.sendall(piece)
            sent += len(piece)
    except OSError as exc:
        ended = f"{type(exc).__name__}: {exc}"
    seconds = time.monotonic() - started
    time.sleep(0.5)
    sock.close()
    return sent, seconds, ended


def still_serves(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(encode_game_request("Z", 5, 0).encode() + b"\0")
            data = b""
            while b"\0" not in data:
                chunk = sock.recv(4096)
                if not chunk:
                    return False
                data += chunk
            return data.startswith(b"A") and data[33:34] == b"0"
    except OSError:
        return False


def answer_after_silence(port: int, silent: int, wait: float) -> "tuple[Optional[float], str, int]":
    """Open ``silent`` connections that say nothing, then time a game request on one more.

    Returns the seconds until the answer's first byte (None: none within ``wait``), the answer
    (or why there is none) and how many silent connections were still open then."""
    quiet = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(silent)]
    try:
        time.sleep(0.2)  # let the follower take them all before the initiator comes
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            started = time.monotonic()
            sock.sendall(encode_game_request("Z", 5, 0).encode() + b"\0")
            readable, _, _ = select.select([sock], [], [], wait)
            seconds: Optional[float] = time.monotonic() - started if readable else None
            answer = "no answer"
            if readable:
                data = b""
                while b"\0" not in data:
                    chunk = sock.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                answer = data.split(b"\0")[0].decode("ascii", "replace") or "connection closed"
            still_open = sum(1 for q in quiet if _open_and_silent(q))
        return seconds, answer, still_open
    finally:
        for q in quiet:
            q.close()


def _open_and_silent(sock: socket.socket) -> bool:
    readable, _, _ = select.select([sock], [], [], 0)
    return not readable  # an answer or the end of the stream would make it readable


def silent_main(options) -> int:
    extra = () if options.idle_timeout is None else ("--idle-timeout", f"{options.idle_timeout:g}")
    proc, port = start_follower(os.path.abspath(options.repo), extra)
    try:
        seconds, answer, still_open = answer_after_silence(port, options.silent, options.wait)
    finally:
        proc.kill()
        _, err = proc.communicate(timeout=30)
    idle = "default" if options.idle_timeout is None else f"{options.idle_timeout:g} s"
    print(f"repo           {os.path.abspath(options.repo)}")
    print(f"silent         {options.silent} connections that say nothing (idle timeout {idle})")
    if seconds is None:
        print(f"game request   not answered within {options.wait:g} s")
    else:
        code = answer[33:34] if answer.startswith("A") and len(answer) == 34 else "?"
        print(f"game request   answered after {seconds:.3f} s: {answer!r} (code {code})")
    print(f"still open     {still_open} of {options.silent} silent connections")
    for line in err.decode(errors="replace").splitlines()[:5]:
        print(f"stderr         {line[:200]}")
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    parser = OneLineParser(prog="dxp_flood.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=positive_float, default=10.0)
    parser.add_argument("--frame", choices=sorted(FRAMES), default="move")
    parser.add_argument("--repo", default=os.path.dirname(HERE),
                        help="checkout whose follower to run (default: this one)")
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds to wait after the flood before the last measure")
    parser.add_argument("--silent", type=int_in(0, 1000), default=None, metavar="N",
                        help="measure instead how long N silent connections delay a game request")
    parser.add_argument("--idle-timeout", type=positive_float, default=None, metavar="S",
                        help="the follower's --idle-timeout (with --silent; default: its own)")
    parser.add_argument("--wait", type=positive_float, default=60.0, metavar="S",
                        help="seconds to wait for the answer to the game request (with --silent)")
    options = parser.parse_args(argv)
    if options.silent is not None:
        return silent_main(options)
    if not os.path.exists("/proc/self/status"):
        print("dxp_flood: needs /proc (Linux) to read the follower's memory", file=sys.stderr)
        return 2
    proc, port = start_follower(os.path.abspath(options.repo))
    try:
        time.sleep(0.5)
        before = memory_mb(proc.pid)
        total = int(options.megabytes * 1024 * 1024)
        sent, seconds, ended = flood(port, FRAMES[options.frame], total)
        peak = memory_mb(proc.pid)["VmHWM"]
        deadline = time.monotonic() + options.settle
        while time.monotonic() < deadline:
            peak = max(peak, memory_mb(proc.pid)["VmHWM"])
            time.sleep(0.2)
        serving = still_serves(port)
        after = memory_mb(proc.pid)
    finally:
        proc.kill()
        _, err = proc.communicate(timeout=30)
    print(f"repo           {os.path.abspath(options.repo)}")
    print(f"flood          {total / 1048576:.1f} MB of {options.frame!r} frames, never read")
    print(f"written        {sent / 1048576:.2f} MB in {seconds:.2f} s"
          + (f" (then the connection broke: {ended})" if ended else " (all of it)"))
    print(f"rss before     {before['VmRSS']:.1f} MB")
    print(f"rss peak       {max(peak, after['VmHWM']):.1f} MB")
    print(f"rss after      {after['VmRSS']:.1f} MB")
    print(f"still serves   {'yes' if serving else 'no'}")
    for line in err.decode(errors="replace").splitlines()[:5]:
        print(f"stderr         {line[:200]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
