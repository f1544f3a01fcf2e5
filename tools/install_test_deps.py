"""Install the programs the test suite drives, where this machine allows it.

The suite tests the terminal front end in a real terminal (tmux), the web board in a real
browser (Chromium), the engine on PyPy (pypy3) and the match runner's shards under GNU parallel
(parallel) and a one-node Slurm (slurm-wlm, with munge for its authentication).  These are
Debian packages; run as root
on Debian or Ubuntu, this script installs the missing ones with apt-get.  Anywhere else it
only says what is missing and how to get it, and the tests that need a missing program are
skipped with that reason.  It never fails the test run: its exit status is always 0.

Usage: ``python3 tools/install_test_deps.py [--dry-run]`` (tox runs it first, as its
``system`` environment; ``tools/run_tests.py`` uses :func:`apt_install` for python3-venv).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from typing import Dict, List

#: The program each test group needs -> the Debian package that provides it.
PROGRAMS: Dict[str, str] = {"tmux": "tmux", "chromium": "chromium", "pypy3": "pypy3",
                            "parallel": "parallel", "slurmctld": "slurm-wlm",
                            "slurmd": "slurm-wlm", "munged": "munge"}


def missing_programs() -> List[str]:
    """The programs of :data:`PROGRAMS` not found on PATH."""
    return [program for program in PROGRAMS if shutil.which(program) is None]


def can_apt() -> bool:
    """Whether packages can be installed here: root, with apt-get."""
    return hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get") is not None


def apt_install(packages: List[str]) -> bool:
    """``apt-get install`` the packages (updating the package lists if the first try fails);
    whether it succeeded.  Only for root with apt-get (:func:`can_apt`)."""
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "-o", "DPkg::Lock::Timeout=600", "install", "-y", "-q",
               "--no-install-recommends"] + packages
    try:
        if subprocess.run(install, env=env, stdout=subprocess.DEVNULL).returncode == 0:
            return True
        # the package lists may be missing (a fresh container) or stale
        subprocess.run(["apt-get", "-o", "DPkg::Lock::Timeout=600", "update", "-q"], env=env,
                       stdout=subprocess.DEVNULL)
        return subprocess.run(install, env=env, stdout=subprocess.DEVNULL).returncode == 0
    except OSError:
        return False


def main(argv: List[str]) -> int:
    missing = missing_programs()
    if not missing:
        print(f"test programs: {', '.join(PROGRAMS)} are installed")
        return 0
    packages = sorted({PROGRAMS[program] for program in missing})
    if "--dry-run" in argv or not can_apt():
        print(f"test programs missing: {', '.join(missing)}; the tests that need them are "
              f"skipped. Install them with: sudo apt-get install {' '.join(packages)}")
        return 0
    print(f"installing {' '.join(packages)} with apt-get ...", flush=True)
    apt_install(packages)
    still = missing_programs()
    if still:
        print(f"could not install {', '.join(still)}; the tests that need them are skipped")
    else:
        print(f"installed {' '.join(packages)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
