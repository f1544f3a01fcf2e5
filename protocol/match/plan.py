"""The match plan: pairings, the games in index order, and shards.

Pairings are round robin (every pair of engines) or gauntlet (the first engine against each
other one). ``games`` games per pairing, in pairs: game pair ``p`` plays opening ``p`` twice,
colours swapped. The plan is a list with a deterministic index per game, interleaved by
opening: indexes ``2 (p Q + q)`` and ``+ 1`` are opening ``p`` of pairing ``q`` (``Q``
pairings); the first engine of the pairing has White in the even one. Shard ``K/N`` is the
games whose index % N == K - 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Mapping, Optional, Sequence, Tuple

from protocol.match.errors import MatchError, bounded_int, quoted

__all__ = ["PlannedGame", "TOURNAMENTS", "MAX_GAMES", "build_pairings", "build_plan",
           "parse_shard", "shard_of", "shard_from_environment", "SCHEDULER_VARIABLES"]

TOURNAMENTS = ("round-robin", "gauntlet")
MAX_GAMES = 1_000_000
"""Most games per pairing (the plan is held in memory)."""


@dataclass(frozen=True)
class PlannedGame:
    """One game of the plan: ``white``/``black`` are engine numbers (0-based)."""

    index: int
    pairing: int
    opening: int
    white: int
    black: int


def build_pairings(n_engines: int, tournament: str) -> List[Tuple[int, int]]:
    """The pairings (first, second) in plan order."""
    if n_engines < 2:
        raise MatchError("a match needs at least two engines")
    if tournament == "gauntlet":
        return [(0, j) for j in range(1, n_engines)]
    if tournament == "round-robin":
        return [(i, j) for i in range(n_engines) for j in range(i + 1, n_engines)]
    raise MatchError(f"unknown tournament {quoted(tournament)} (round-robin or gauntlet)")


def build_plan(n_engines: int, tournament: str, games: int) -> List[PlannedGame]:
    """The whole match, in index order (see the module docstring).

    >>> [(g.index, g.white, g.black, g.opening) for g in build_plan(2, "round-robin", 3)]
    [(0, 0, 1, 0), (1, 1, 0, 0), (2, 0, 1, 1)]
    """
    if not 1 <= games <= MAX_GAMES:
        raise MatchError(f"--games must be in 1..{MAX_GAMES}, got {games}")
    pairings = build_pairings(n_engines, tournament)
    plan: List[PlannedGame] = []
    for opening in range((games + 1) // 2):
        for number, (first, second) in enumerate(pairings):
            plan.append(PlannedGame(len(plan), number, opening, first, second))
            if 2 * opening + 1 < games:
                plan.append(PlannedGame(len(plan), number, opening, second, first))
    return plan


def parse_shard(text: str) -> Tuple[int, int]:
    """``"K/N"`` with ``1 <= K <= N``.

    >>> parse_shard("2/3")
    (2, 3)
    """
    k, sep, n = text.partition("/")
    try:
        if not sep:
            raise MatchError(text)
        shard = bounded_int(k, "K", 1, MAX_GAMES), bounded_int(n, "N", 1, MAX_GAMES)
    except MatchError:
        raise MatchError(f"--shard must be K/N with 1 <= K <= N, got {quoted(text, 20)}") from None
    if shard[0] > shard[1]:
        raise MatchError(f"--shard must be K/N with 1 <= K <= N, got {quoted(text, 20)}")
    return shard


def shard_of(plan: Sequence[PlannedGame], shard: Tuple[int, int]) -> List[PlannedGame]:
    """The games of ``plan`` that shard ``K/N`` plays."""
    k, n = shard
    return [g for g in plan if g.index % n == k - 1]


SCHEDULER_VARIABLES = (
    ("Slurm job array", "SLURM_ARRAY_TASK_ID"),
    ("Kubernetes indexed Job", "JOB_COMPLETION_INDEX"),
    ("AWS Batch array job", "AWS_BATCH_JOB_ARRAY_INDEX"),
    ("GitLab CI parallel job", "CI_NODE_INDEX"),
    ("GNU parallel", "PARALLEL_SEQ"),
)
"""The schedulers ``--shard auto`` knows, in the order it looks for them, with the variable
that gives the index of the task."""


def _env_int(env: Mapping[str, str], name: str, low: int = 0) -> int:
    text = env.get(name, "")
    try:
        return bounded_int(text, name, low, 10 ** 9)
    except MatchError:
        raise MatchError(f"--shard auto: {name}={quoted(text, 20)} is not a whole number "
                         f">= {low}") from None


def _slurm(env: Mapping[str, str]) -> Tuple[int, Optional[int], List[str]]:
    task = _env_int(env, "SLURM_ARRAY_TASK_ID")
    names = ["SLURM_ARRAY_TASK_ID"]
    low = _env_int(env, "SLURM_ARRAY_TASK_MIN") if "SLURM_ARRAY_TASK_MIN" in env else None
    step = _env_int(env, "SLURM_ARRAY_TASK_STEP", 1) if "SLURM_ARRAY_TASK_STEP" in env else 1
    if low is None:
        raise MatchError("--shard auto: SLURM_ARRAY_TASK_ID is set but not "
                         "SLURM_ARRAY_TASK_MIN: give --shard K/N")
    names.append("SLURM_ARRAY_TASK_MIN")
    if step != 1:
        names.append("SLURM_ARRAY_TASK_STEP")
    count: Optional[int] = None
    if "SLURM_ARRAY_TASK_MAX" in env:
        high = _env_int(env, "SLURM_ARRAY_TASK_MAX")
        names.append("SLURM_ARRAY_TASK_MAX")
        if high < low:
            raise MatchError(f"--shard auto: SLURM_ARRAY_TASK_MAX {high} < "
                             f"SLURM_ARRAY_TASK_MIN {low}")
        count = (high - low) // step + 1
    if "SLURM_ARRAY_TASK_COUNT" in env:
        given = _env_int(env, "SLURM_ARRAY_TASK_COUNT", 1)
        names.append("SLURM_ARRAY_TASK_COUNT")
        if count is not None and given != count:
            raise MatchError(f"--shard auto: the Slurm array is not a range of {count} tasks "
                             f"(SLURM_ARRAY_TASK_COUNT={given}): give --shard K/N")
        count = given
    if (task - low) % step or task < low:
        raise MatchError(f"--shard auto: SLURM_ARRAY_TASK_ID {task} is not in the array "
                         f"{low}..., step {step}: give --shard K/N")
    return (task - low) // step + 1, count, names


def shard_from_environment(text: str, env: Mapping[str, str]
                           ) -> Tuple[Tuple[int, int], str]:
    """``--shard auto`` or ``auto/N``: the shard ``(K, N)`` of this task of a job array, from
    the scheduler's environment, and a line saying where it came from.

    Slurm (``SLURM_ARRAY_TASK_ID``, ``_MIN``, ``_MAX`` or ``_COUNT``, ``_STEP``: any range of
    task ids), Kubernetes indexed Jobs (``JOB_COMPLETION_INDEX``, 0-based; N must be given),
    AWS Batch (``AWS_BATCH_JOB_ARRAY_INDEX``, 0-based; ``AWS_BATCH_JOB_ARRAY_SIZE`` or N
    given), GitLab ``parallel:`` (``CI_NODE_INDEX`` 1-based, ``CI_NODE_TOTAL``), GNU parallel
    (``PARALLEL_SEQ``, 1-based; N given). The first of these whose index variable is set is
    used. An N given that differs from the scheduler's is an error.

    >>> shard_from_environment("auto", {"SLURM_ARRAY_TASK_ID": "3",
    ...     "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4"})[0]
    (3, 4)
    >>> shard_from_environment("auto/8", {"JOB_COMPLETION_INDEX": "0"})[0]
    (1, 8)
    """
    word, sep, rest = text.partition("/")
    if word != "auto":
        raise MatchError(f"--shard must be K/N, auto or auto/N, got {quoted(text, 20)}")
    given: Optional[int] = None
    if sep:
        try:
            given = bounded_int(rest, "N", 1, MAX_GAMES)
        except MatchError:
            raise MatchError(f"--shard auto/N needs a whole number N in 1..{MAX_GAMES}, got "
                             f"{quoted(text, 20)}") from None
    for scheduler, variable in SCHEDULER_VARIABLES:
        if variable in env:
            break
    else:
        raise MatchError("--shard auto: none of " + ", ".join(v for _, v in SCHEDULER_VARIABLES)
                         + " is set (not a task of a job array?): give --shard K/N")
    count: Optional[int] = None
    if variable == "SLURM_ARRAY_TASK_ID":
        k, count, names = _slurm(env)
    elif variable in ("JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"):
        k, names = _env_int(env, variable) + 1, [variable]
        if variable.startswith("AWS") and "AWS_BATCH_JOB_ARRAY_SIZE" in env:
            count = _env_int(env, "AWS_BATCH_JOB_ARRAY_SIZE", 1)
            names.append("AWS_BATCH_JOB_ARRAY_SIZE")
    elif variable == "CI_NODE_INDEX":
        k, names = _env_int(env, variable, 1), [variable]
        if "CI_NODE_TOTAL" in env:
            count = _env_int(env, "CI_NODE_TOTAL", 1)
            names.append("CI_NODE_TOTAL")
    else:
        k, names = _env_int(env, variable, 1), [variable]
    if count is not None and given is not None and count != given:
        raise MatchError(f"--shard {text}: the {scheduler} has {count} tasks, not {given}")
    n = count if count is not None else given
    if n is None:
        raise MatchError(f"--shard auto: the {scheduler} ({variable}) does not say how many "
                         f"tasks there are: give --shard auto/N")
    if not 1 <= k <= n:
        raise MatchError(f"--shard {text}: task {k} of the {scheduler} is not in 1..{n}")
    source = f"{scheduler}: " + ", ".join(f"{name}={env[name]}" for name in names)
    return (min(k, MAX_GAMES), n), source
