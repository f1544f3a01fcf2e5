"""The shape of draughts_engine: imports run one way (no cycles, counting imports inside
functions too), and per-variant facts live in variants.py only."""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict, List, Set

PACKAGE = Path(__file__).resolve().parent.parent / "draughts_engine"
VARIANT_NAMES = ("english", "russian", "brazilian", "international")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
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


def test_no_import_cycles_in_draughts_engine() -> None:
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
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


def test_no_variant_name_compared_outside_variants() -> None:
    names = "|".join(VARIANT_NAMES)
    compare = re.compile(rf"""(==|!=|\bin)\s*\(?\s*["']({names})["']|["']({names})["']\s*:""")
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "variants.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if compare.search(line) and ">>>" not in line:
                offenders.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
