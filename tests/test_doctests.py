"""Every docstring example in draughts_engine runs as a doctest, so examples cannot drift."""
from __future__ import annotations

import doctest
import importlib
import pkgutil
from typing import List

import pytest

import draughts_engine


def module_names() -> List[str]:
    names = [draughts_engine.__name__]
    for info in pkgutil.walk_packages(draughts_engine.__path__, draughts_engine.__name__ + "."):
        if not info.name.endswith("__main__"):
            names.append(info.name)
    return sorted(names)


def test_every_module_is_collected() -> None:
    names = module_names()
    for expected in ("draughts_engine.pdn", "draughts_engine.variants", "draughts_engine.games.tatedrez"):
        assert expected in names


@pytest.mark.parametrize("name", module_names())
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name, globs=vars(module).copy()):
        runner.run(test)
    failed, _ = runner.summarize(verbose=False)
    assert failed == 0, f"{failed} doctest example(s) of {name} failed (see the output above)"
