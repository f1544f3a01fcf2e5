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


# ---------------------------------------------------------------------------
# The capture-precedence rule (the majority rule and its relatives) lives in one
# function, draughts_engine.movegen.precedence.make_precedence: no other code of
# the move generator compares captures by the pieces or kings they take.

MOVEGEN = PACKAGE / "movegen"
PRECEDENCE_HOME = ("precedence.py", "make_precedence")


def _move_field(node: ast.AST, fields: Set[int]) -> bool:
    """Whether ``node`` reads one of the ``fields`` of a move (``m[2]``, ``move[0]`` ...)."""
    return any(isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant)
               and n.slice.value in fields for n in ast.walk(node))


def precedence_offences(tree: ast.AST, filename: str) -> List[str]:
    """The places of ``tree`` (a movegen module) that compare captures themselves:

    * a call of ``max``, ``min``, ``sorted`` or ``.sort`` (picking the best);
    * ``popcount`` of a move's captured mask (``popcount(m[2])``, ``popcount(m[2] & kings)``);
    * a comprehension that filters moves on their origin or captured mask together
      with ``kings`` (``[m for m in out if kings & m[0]]``: a king's capture first).

    The body of :func:`make_precedence` in ``precedence.py`` is the one exception.
    """
    found: List[str] = []

    def visit(node: ast.AST, exempt: bool) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                (filename, node.name) == PRECEDENCE_HOME:
            exempt = True
        if not exempt:
            where = f"{filename}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Name) and func.id in ("max", "min", "sorted"):
                    found.append(f"{where}: {func.id}()")
                elif isinstance(func, ast.Attribute) and func.attr == "sort":
                    found.append(f"{where}: .sort()")
                elif isinstance(func, ast.Name) and func.id == "popcount" and \
                        any(_move_field(arg, {2}) for arg in node.args):
                    found.append(f"{where}: popcount of a move's captured pieces")
            elif isinstance(node, ast.comprehension):
                for test in node.ifs:
                    names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
                    if "kings" in names and _move_field(test, {0, 2}):
                        found.append(f"{filename}:{test.lineno}: moves filtered by kings")
        for child in ast.iter_child_nodes(node):
            visit(child, exempt)

    visit(tree, False)
    return found


def test_precedence_rule_is_applied_in_one_function_only() -> None:
    offences: List[str] = []
    for path in sorted(MOVEGEN.glob("*.py")):
        offences += precedence_offences(ast.parse(path.read_text(encoding="utf-8")), path.name)
    assert not offences, "compare captures in precedence.make_precedence only:\n" + \
        "\n".join(offences)


def test_every_capture_search_calls_the_precedence_rule() -> None:
    """Each function that collects captures (``all_captures``) is built inside a
    factory that calls ``make_precedence``: every generator uses the one rule."""
    searches = []
    for path in sorted(MOVEGEN.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for factory in ast.walk(tree):
            if not isinstance(factory, ast.FunctionDef):
                continue
            inner = [n.name for n in ast.walk(factory)
                     if isinstance(n, ast.FunctionDef) and n is not factory]
            if "all_captures" in inner:
                calls = {n.func.id for n in ast.walk(factory)
                         if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
                searches.append((f"{path.name}:{factory.name}", "make_precedence" in calls))
    assert searches, "no capture search found in movegen"
    assert all(ok for _, ok in searches), [name for name, ok in searches if not ok]


@pytest.mark.parametrize("local_filter", [
    "best = max(popcount(m[2]) for m in out)",
    "out = [m for m in out if popcount(m[2]) == 3]",
    "out = [m for m in out if kings & m[0]]",
    "out.sort(key=len)",
    "n = popcount(move[2] & kings)",
])
def test_the_precedence_check_finds_a_local_filter(local_filter: str) -> None:
    """The check above fails for a capture search that filters its captures itself."""
    source = (MOVEGEN / "captures.py").read_text(encoding="utf-8")
    marker = "        return out\n"
    assert marker in source
    patched = source.replace(marker, f"        {local_filter}\n" + marker, 1)
    assert precedence_offences(ast.parse(patched), "captures.py")
    assert not precedence_offences(ast.parse(source), "captures.py")


def test_every_generator_and_board_has_the_protocols_members() -> None:
    from draughts_engine.bitboard import GeometryProtocol
    from draughts_engine.movegen import MoveGeneratorProtocol, generator_for
    for name, variant in VARIANTS.items():
        gen = generator_for(name)
        assert isinstance(gen, MoveGeneratorProtocol), name
        assert isinstance(gen.geometry, GeometryProtocol), name
        assert isinstance(variant.geometry, GeometryProtocol), name


# --------------------------------------------------------------------------- one of each

def _sources(*folders: str) -> List[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py")
                  if "__pycache__" not in path.parts)


def test_the_library_never_ends_the_process() -> None:
    """``draughts_engine`` is a library: it never calls ``os._exit`` or ``sys.exit``, and only
    its ``__main__`` (a command line) raises ``SystemExit``."""
    calls = []
    for path in _sources("draughts_engine"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    isinstance(node.func.value, ast.Name) and \
                    (node.func.value.id, node.func.attr) in {("os", "_exit"), ("sys", "exit")}:
                calls.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, ast.Raise) and isinstance(node.exc, (ast.Call, ast.Name)):
                target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if isinstance(target, ast.Name) and target.id == "SystemExit" and \
                        path.name != "__main__.py":
                    calls.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not calls, calls


def test_no_public_class_name_is_defined_twice() -> None:
    """One public class per name over the project's code (CHANGELOG.md lists the renames)."""
    where: Dict[str, List[str]] = {}
    for path in _sources("draughts_engine", "protocol", "tools", "bench"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                where.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    twice = {name: paths for name, paths in where.items() if len(paths) > 1}
    assert not twice, twice


def test_no_deprecated_alias_is_left() -> None:
    """Before 1.0 a name is renamed or removed outright (CHANGELOG.md), not kept as an alias."""
    found = [f"{path.relative_to(ROOT)}" for path in _sources("draughts_engine", "protocol")
             if "DeprecationWarning" in path.read_text(encoding="utf-8")]
    assert not found, found


MAX_LINES = 900
"""ARCHITECTURE.md: no file over 900 lines (split a longer one by concern)."""


def test_no_file_is_over_the_line_limit() -> None:
    too_long = {}
    for path in _sources("draughts_engine", "protocol", "tools", "bench"):
        with path.open(encoding="utf-8") as text:
            count = sum(1 for _ in text)
        if count > MAX_LINES:
            too_long[str(path.relative_to(ROOT))] = count
    assert not too_long, f"over {MAX_LINES} lines: {too_long}"
