"""Checks 22-27 and 38: behaviour during and after a search. ``stop`` latency, ``isready`` and other
commands while searching, exactly one ``bestmove`` per ``go``, the end of the game, determinism."""

from __future__ import annotations

from typing import List, Tuple

from .errors import CheckSkipped, fail
from .harness import Context, EngineHandle
from .search_run import SearchRun, validate_search
from .steps import bounded_search, check_latency, expect_silent, held_search, set_position
from .validators import compare_display, strip_volatile
from .wire import PositionCommand

__all__ = ["check_stop_latency", "check_isready_during_search", "check_busy", "check_one_bestmove",
           "check_game_end", "check_determinism", "check_commands_wait"]


def check_stop_latency(context: Context) -> str:
    """Worst-of-N time from stop to bestmove (go infinite and bare go, stopped after varied
    delays) is within the threshold."""
    handle = context.engine()
    config = context.config
    root = context.rules.start()
    set_position(handle)
    delays = (0.05, 0.25, 0.1, 0.4, 0.15)
    samples: List[int] = []
    for index in range(config.stop_samples):
        go_line = "go infinite" if index % 2 == 0 else "go"
        run = SearchRun(handle, go_line)
        run.hold(delays[index % len(delays)], allow_bestmove=go_line == "go")
        ended = run.best is not None
        latency = run.stop(config.timeout)
        validate_search(run, context.rules, root)
        run.settle(config.timeout)
        if not ended:
            samples.append(round(latency * 1000))
    if not samples:
        raise CheckSkipped("every search ended before stop was sent")
    worst = max(samples)
    text = (f"worst of {len(samples)}: {worst} ms (samples {' '.join(map(str, samples))} ms; "
            f"threshold {config.stop_threshold_ms} ms)")
    if worst > config.stop_threshold_ms:
        raise fail(text)
    return text


def check_isready_during_search(context: Context) -> str:
    """isready during go infinite is answered within the threshold; the search goes on."""
    handle = context.engine()
    config = context.config
    set_position(handle)
    run = SearchRun(handle, "go infinite")
    latencies = []
    for _ in range(3):
        run.hold(0.1)
        latencies.append(run.ready_latency(config.timeout))
    latency = run.stop(config.timeout)
    validate_search(run, context.rules, context.rules.start())
    run.settle(config.timeout)
    worst = max(latencies)
    check_latency("readyok during a search", worst, config)
    check_latency("stop", latency, config)
    return f"readyok within {round(worst * 1000)} ms (worst of 3)"


def check_busy(context: Context) -> str:
    """During a search: position/go/ucinewgame are refused as busy, a syntax error is the
    command's own error, an unknown command is unknown, uci is unchanged, d shows the root."""
    handle = context.engine()
    config = context.config
    rules = context.rules
    has_d = context.offers(handle, "d")
    set_position(handle)
    run = SearchRun(handle, "go infinite")
    run.hold(0.1)
    cases = [("position startpos", "busy: position during search"),
             ("go depth 1", "busy: go during search"),
             ("ucinewgame", "busy: ucinewgame during search"),
             ("go depth x", "go:"),
             ("foo", "unknown command: foo")]
    for line, prefix in cases:
        answer = run.exchange(line, config.timeout)
        if len(answer) != 1 or not answer[0].startswith(f"error {prefix}"):
            raise fail(f"{line!r} during a search was answered {answer}, expected "
                       f"['error {prefix}...']")
    reply = run.collect("uci", lambda text: text == "uciok", config.timeout)
    if tuple(reply) != context.handshake().lines:
        raise fail("uci during a search gave a different reply")
    note = ""
    if has_d:
        shown = context.display(handle, lambda: run.read_other(config.timeout, "the d block"))
        compare_display(shown, rules, rules.start(), 0, "state ongoing")
        note = ", d shows the root"
    run.stop(config.timeout)
    validate_search(run, rules, rules.start())
    run.settle(config.timeout)
    return f"{len(cases)} commands answered as the contract says, uci unchanged{note}"


IDLE_PROBES = 100
"""Searches ended by their own limit, each followed at once by ``position`` (check 25)."""


def check_one_bestmove(context: Context) -> str:
    """Exactly one bestmove per go: none follows within the grace period, also not after a
    stop sent once the search has ended or a second stop; and a search is over once its
    bestmove is written (position sent the moment it arrives is accepted, 100 times)."""
    handle = context.engine()
    config = context.config
    root = context.rules.start()
    set_position(handle)
    run = SearchRun(handle, "go depth 1")
    run.wait_bestmove(config.timeout)
    run.hold(config.grace)
    handle.send("stop")
    run.hold(config.grace)
    run.settle(config.timeout)
    validate_search(run, context.rules, root)
    held = SearchRun(handle, "go infinite")
    held.hold(0.1)
    held.stop(config.timeout)
    handle.send("stop")
    held.hold(config.grace)
    held.settle(config.timeout)
    probe_idle_after_bestmove(handle, config.timeout)
    return (f"one bestmove each for go depth 1 and go infinite (grace {config.grace:.1f} s); "
            f"position accepted right after the bestmove {IDLE_PROBES} times")


def probe_idle_after_bestmove(handle: EngineHandle, timeout: float) -> None:
    """``go depth 1``, then ``position startpos`` the moment its ``bestmove`` is read, with no
    ``isready`` between (which would hide an engine still busy for a moment after writing it),
    :data:`IDLE_PROBES` times: it must be accepted silently each time."""
    line = PositionCommand(None, ()).to_line()
    for attempt in range(1, IDLE_PROBES + 1):
        run = SearchRun(handle, "go depth 1")
        run.wait_bestmove(timeout)
        handle.send(line)
        answer = handle.sync(timeout)
        if answer:
            raise fail(f"{line!r} sent as the bestmove arrived was answered {answer[0]!r} "
                       f"(attempt {attempt} of {IDLE_PROBES}): a search is over once its "
                       "bestmove is written (PROTOCOL.md section 3)")


def check_game_end(context: Context) -> str:
    """A side to move without legal moves: go depth 1 -> bestmove (none); go infinite holds
    bestmove (none) until stop."""
    handle = context.engine()
    no_moves = context.rules.no_moves_fen()
    root = context.rules.from_fen(no_moves)
    set_position(handle, fen=no_moves)
    bounded_search(context, handle, "go depth 1", root)
    held_search(context, handle, "go infinite", root)
    return f"bestmove (none) for {no_moves}, held back in infinite mode until stop"


def _signature(run: SearchRun) -> Tuple[str, ...]:
    return tuple(strip_volatile(line) for line, _ in run.infos) + (run.best_line(),)


def check_determinism(context: Context) -> str:
    """go depth / go nodes after ucinewgame give the same bestmove and infos (apart from
    time, nps and hashfull)."""
    handle = context.engine()
    config = context.config
    done = []
    for go_line in ("go depth 3", "go nodes 1000"):
        signatures = []
        for _ in range(2):
            expect_silent(handle, "ucinewgame")
            set_position(handle)
            run = SearchRun(handle, go_line)
            run.wait_bestmove(config.timeout)
            validate_search(run, context.rules, context.rules.start())
            run.settle(config.timeout)
            signatures.append(_signature(run))
        if signatures[0] != signatures[1]:
            diff = next((a, b) for a, b in zip(*signatures) if a != b) if len(
                signatures[0]) == len(signatures[1]) else (f"{len(signatures[0])} lines",
                                                           f"{len(signatures[1])} lines")
            raise fail(f"{go_line!r} differs between two runs: {diff[0]!r} vs {diff[1]!r}")
        done.append(f"{go_line}: {signatures[0][-1]}")
    return "; ".join(done)


WAIT_SEARCH_MS = 1000
"""The move time of the bounded search that commands wait for (check 38)."""


def check_commands_wait(context: Context) -> str:
    """Commands sent during a search with a limit of its own wait for its bestmove and then
    run in order: ``go movetime``, then at once ``position ... moves <m>`` and ``go depth 1``;
    no error, the first bestmove legal at the root, the second in the new position."""
    handle = context.engine()
    config = context.config
    rules = context.rules
    root = rules.start()
    set_position(handle)
    first = SearchRun(handle, f"go movetime {WAIT_SEARCH_MS}")
    text = rules.sorted_moves(root)[0].pdn()
    after = rules.play(root, [text])
    handle.send(PositionCommand(None, (text,)).to_line())
    handle.send("go depth 1")
    first.wait_bestmove(WAIT_SEARCH_MS / 1000 + config.timeout)
    validate_search(first, rules, root)
    second = SearchRun(handle, "go depth 1", send=False)
    second.wait_bestmove(config.timeout)
    summary = validate_search(second, rules, after)
    second.settle(config.timeout)
    return (f"position and go sent during go movetime {WAIT_SEARCH_MS} waited for its "
            f"bestmove, then ran: {summary}")
