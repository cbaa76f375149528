"""The import graph: no cycle among newsml's modules, and no module importing a later stage.

The stages are the numbered list in the package docstring (``newsml/__init__.py``).
Every ``import`` statement counts, including those inside functions and under
``TYPE_CHECKING``: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "newsml"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def stages() -> dict[str, int]:
    """Top-level name (module or subpackage of newsml) -> its stage number."""
    doc = ast.get_docstring(ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))) or ""
    doc = re.sub(r",\n +", ", ", doc)       # (a stage's list may go on, indented, on the next line)
    found = {}
    for number, names in re.findall(r"^(\d+)\. [\w ]+: (.+)$", doc, flags=re.M):
        for name in names.split(","):
            found[name.strip()] = int(number)
    return found


def imports_of(name: str) -> set[str]:
    """The newsml modules that module ``name`` imports (resolved, relative imports included)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            targets = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in MODULES else stem
                       for alias in node.names]
        else:
            continue
        found.update(target for target in targets if target in MODULES and target != name)
    return found


def stage_of(module: str, table: dict[str, int]) -> int:
    top = module.split(".")[1]
    if top not in table:
        pytest.fail(f"{module} is in no stage of the package docstring: add it to the list")
    return table[top]


def test_every_module_has_a_stage():
    table = stages()
    assert table, "the package docstring lists no stages"
    for module in MODULES:
        if module != "newsml":
            stage_of(module, table)


def test_no_module_imports_from_a_later_stage():
    table = stages()
    late = []
    for module in MODULES:
        if module == "newsml":  # the package facade re-exports the public API
            continue
        for target in imports_of(module):
            if target != "newsml" and stage_of(target, table) > stage_of(module, table):
                late.append(f"{module} (stage {stage_of(module, table)}) imports {target} "
                            f"(stage {stage_of(target, table)})")
    assert not late, "\n".join(late)


def test_the_import_graph_has_no_cycle():
    graph = {module: imports_of(module) for module in MODULES if module != "newsml"}
    state: dict[str, int] = {}   # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                cycle = path[path.index(target):] + [target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if state.get(target) is None:
                visit(target, path + [target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])


def test_the_checker_sees_a_cycle_and_a_late_import():
    # the graph walk itself: relative imports resolve to modules, lazy imports count
    assert "newsml.parse" in imports_of("newsml.page")
    assert "newsml.methods.base" in imports_of("newsml.methods.fusion")
    assert "newsml.features.base" in imports_of("newsml.methods.cedst")
