"""A random mover that misbehaves now and then: crashes, hangs and illegal moves.

Equivalent to ``random_mover.py --crash 0.02 --hang 0.01 --illegal 0.02 [more flags]``; the
flags of random_mover.py given here override those defaults. Handy for trying the match
runner's forfeits by hand::

    draughts-match --engine name=flaky cmd="python3 tests/fake_engines/flaky_mover.py" depth=1 \\
                   --engine name=steady cmd="python3 tests/fake_engines/random_mover.py" depth=1 \\
                   --games 10 --move-timeout 2
"""

from __future__ import annotations

import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

if __name__ == "__main__":
    sys.argv = [os.path.join(HERE, "random_mover.py"), "--crash", "0.02", "--hang", "0.01",
                "--illegal", "0.02"] + sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")
