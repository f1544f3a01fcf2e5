"""One run of the text-protocol checks: :func:`run_suite`."""

from __future__ import annotations

import time
from typing import List, Optional, TextIO

from .catalog import select_checks
from .config import FAIL, MIN_CHECK_TIME, CheckResult, Config
from .harness import Harness
from .oracle import Rules
from .report import Reporter

__all__ = ["run_suite"]


def run_suite(config: Config, out: TextIO,
              reporter: Optional[Reporter] = None) -> List[CheckResult]:
    """Run the selected checks against ``config.command``, reporting to ``out``.

    Bounded by ``config.total_timeout``: checks that cannot start in time FAIL as not run.
    When the engine cannot be set up (it does not start, does not complete the ``uci``
    handshake, or refuses the variant) the check that found it FAILs and the run stops there,
    with one ``stopped: ...`` line for the checks left.
    """
    rules = Rules(config.variant)
    reporter = Reporter(out, config) if reporter is None else reporter
    harness = Harness(config, rules, reporter.line)
    deadline = time.monotonic() + config.total_timeout
    results: List[CheckResult] = []
    checks = select_checks(config.only)
    try:
        for index, check in enumerate(checks):
            remaining = deadline - time.monotonic()
            if remaining <= MIN_CHECK_TIME:
                result = CheckResult(check.number, check.name, FAIL,
                                     f"not run: the suite's budget of {config.total_timeout:g} s "
                                     "is exhausted", 0.0)
            else:
                result = harness.run(check, min(check.budget(config), remaining))
            results.append(result)
            reporter.result(result)
            if harness.setup_failure is not None:
                left = len(checks) - index - 1
                if left:
                    reporter.stopped(left)
                break
    finally:
        harness.close()
    return results
