"""The local web board: ``python3 -m protocol.web`` (``draughts-web``); docs/web.md.

A standard-library HTTP server and one offline page (HTML, CSS, JavaScript and SVG under
``static/``). The game itself is :class:`protocol.play.controller.GameController`'s;
engines run only through the reference clients.

* :mod:`.cli`: the command line, :func:`~.cli.build_server`;
* :mod:`.server`: HTTP (``Host`` check, bounded JSON bodies, JSON errors, event streams);
* :mod:`.connections`: a fixed pool of threads; idle connections wait without one, and time out;
* :mod:`.hosts`: which ``Host`` headers and listening addresses are safe;
* :mod:`.static_files`: the page's files, from the static folder only;
* :mod:`.api`: the JSON API; :mod:`.registry`: open boards, cap, heartbeat timeout;
* :mod:`.board`: one board: its controller, its engine thread, its state as JSON;
* :mod:`.tree`: a board's tree of variations; :mod:`.review`: its game review (an engine of
  its own marks each move); :mod:`.clocks`: its clocks and the timer of a falling flag;
* :mod:`.engines`: the engines named on the command line.
"""
from __future__ import annotations

__all__ = ["main"]


def main(argv=None) -> int:
    """Run the web board (see :mod:`.cli`)."""
    from .cli import main as cli_main
    return cli_main(argv)
