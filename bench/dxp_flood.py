#!/usr/bin/env python3
"""Memory of the DXP follower under a frame flood (issue 10's bar: under 100 MB).

    python3 bench/dxp_flood.py [--megabytes 10] [--frame move|chat|request] [--repo PATH]

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
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from typing import Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from protocol.dxp.codec import encode_game_request  # noqa: E402
from _cli import OneLineParser, positive_float  # noqa: E402

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


def start_follower(repo: str) -> "tuple[subprocess.Popen[bytes], int]":
    proc = subprocess.Popen([sys.executable, "-m", "protocol", "--dxp", "--port", "0", "--depth", "1"],
                            cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
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


def main(argv: Optional[List[str]] = None) -> int:
    parser = OneLineParser(prog="dxp_flood.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=positive_float, default=10.0)
    parser.add_argument("--frame", choices=sorted(FRAMES), default="move")
    parser.add_argument("--repo", default=os.path.dirname(HERE),
                        help="checkout whose follower to run (default: this one)")
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds to wait after the flood before the last measure")
    options = parser.parse_args(argv)
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
