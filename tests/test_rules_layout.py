"""The shape of the code: imports run one way in draughts_engine and protocol (no cycles,
counting imports inside functions too), and per-variant facts live in variants.py only."""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict, List, Set

import pytest

from draughts_engine.variants import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "draughts_engine"
PACKAGES = (PACKAGE, ROOT / "protocol")
VARIANT_NAMES = tuple(VARIANTS)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, known: Set[str]) -> Set[str]:
    """Modules of the package that ``path`` imports, anywhere in the file."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: Set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: List[str] = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        found.update(t for t in targets if t in known and t != name)
    return found


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_no_import_cycles(package: Path) -> None:
    paths = {module_name(p): p for p in package.rglob("*.py")}
    graph: Dict[str, Set[str]] = {name: imports_of(path, set(paths)) for name, path in paths.items()}
    for name in graph:  # a package's __init__ importing its children is not a cycle
        graph[name] = {d for d in graph[name] if not name.startswith(d + ".")}
    state: Dict[str, int] = {}

    def visit(node: str, trail: List[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            assert state.get(nxt) != 1, "import cycle: " + " -> ".join(trail + [node, nxt])
            if nxt not in state:
                visit(nxt, trail + [node])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [])


def test_game_and_pdn_do_not_import_each_other() -> None:
    known = {"draughts_engine.pdn", "draughts_engine.game"}
    assert "draughts_engine.pdn" not in imports_of(PACKAGE / "game.py", known)


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_no_variant_name_compared_outside_variants(package: Path) -> None:
    names = "|".join(VARIANT_NAMES)
    compare = re.compile(rf"""(==|!=|\bin)\s*\(?\s*["']({names})["']|["']({names})["']\s*:""")
    offenders = []
    for path in package.rglob("*.py"):
        if path.name == "variants.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if compare.search(line) and ">>>" not in line:
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
