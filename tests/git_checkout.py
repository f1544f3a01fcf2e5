"""Whether the tests run inside a git checkout: ``tools/sprt.py`` exports commits with git, so
its tests need git and a repository (a copy of the files without ``.git`` has neither)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def in_a_git_checkout() -> bool:
    """True when ``git`` runs and the repository folder has a commit at HEAD."""
    try:
        done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet",
                               "HEAD^{commit}"], capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


needs_git_checkout = pytest.mark.skipif(
    not in_a_git_checkout(),
    reason="tools/sprt.py exports commits: needs git and a git checkout (this copy has no .git)")
