"""The import graph: the package's stages in order, and no cycle among its modules.

The stages are the package's folders (and the few modules at its root), in the order a
page flows through them. A module imports only from its own stage and earlier ones.
Every import counts: those inside functions and under ``TYPE_CHECKING`` (a lazy import
is still a dependency), the ``import`` and ``cimport`` lines of the compiled modules
(``.pyx``, ``.pxd``), and each choice of a compiled module through
:func:`newsml.core.speedups.choose`, an import the seam makes on the caller's behalf.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import REPO

PACKAGE = REPO / "newsml"

#: The stages in import order; each holds packages or root modules of newsml.
STAGES: list[tuple[str, ...]] = [
    ("_version", "errors"),
    ("core",),
    ("input",),
    ("dom",),
    ("features",),
    ("estimators",),
    ("rules",),
    ("measure",),
    ("methods",),
    ("document",),
    ("article",),
    ("learning",),
    ("extract", "extractor"),
    ("run", "spark", "__main__"),
]
#: The package facade re-exports the public API of every stage.
FACADE = "newsml"
#: At most this many modules at the package's root besides its stage packages.
MAX_ROOT_MODULES = 12

_PYX_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import\b|c?import\s+([\w.]+))", re.M)
_CHOOSERS = {"choose"}


def module_name(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules_of(package: Path) -> dict[str, Path]:
    """Every module of ``package``: Python, compiled (``.pyx``) and Cython declarations (``.pxd``)."""
    found = {}
    for pattern in ("*.py", "*.pyx", "*.pxd"):
        for path in sorted(package.rglob(pattern)):
            if "__pycache__" not in path.parts:
                found.setdefault(module_name(path, package), path)
    return found


def _resolve(stem: str, names: list[str], modules: dict[str, Path]) -> set[str]:
    targets = {f"{stem}.{name}" if f"{stem}.{name}" in modules else stem for name in names}
    return {target for target in targets if target in modules}


def imports_of(name: str, modules: dict[str, Path], choices: bool = True) -> set[str]:
    """The modules of the package that module ``name`` imports (relative imports resolved,
    the compiled modules it chooses through the seam included)."""
    path = modules[name]
    root = next(iter(modules)).split(".")[0]
    source = path.read_text(encoding="utf-8")
    found: set[str] = set()
    if path.suffix in (".pyx", ".pxd"):
        for absolute, plain in _PYX_IMPORT.findall(source):
            target = absolute or plain
            found |= _resolve(target.rpartition(".")[0], [target.rpartition(".")[2]], modules) | (
                {target} if target in modules else set())
        return found - {name}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in modules}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            found |= _resolve(stem, [alias.name for alias in node.names], modules)
        elif choices and isinstance(node, ast.Call) and _chosen(node):
            found.add(f"{root}.{_chosen(node)}")   # the seam imports it for this module
    return found - {name}


def _chosen(call: ast.Call) -> str | None:
    """The compiled module a call of the seam's ``choose`` names (its first argument), or None."""
    function = getattr(call.func, "id", getattr(call.func, "attr", None))
    first = call.args[0] if call.args else None
    if function in _CHOOSERS and isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def import_graph(package: Path) -> dict[str, set[str]]:
    modules = modules_of(package)
    return {name: imports_of(name, modules) for name in modules}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as the path that closes it, or None."""
    state: dict[str, int] = {}   # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> list[str] | None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if state.get(target) is None:
                cycle = visit(target, path + [target])
                if cycle:
                    return cycle
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            cycle = visit(module, [module])
            if cycle:
                return cycle
    return None


def stage_of(module: str) -> int:
    top = module.split(".")[1]
    for number, members in enumerate(STAGES):
        if top in members:
            return number
    pytest.fail(f"{module} is in no stage: add its package or module to STAGES in {Path(__file__).name}")


MODULES = modules_of(PACKAGE)
GRAPH = import_graph(PACKAGE)


def test_every_module_has_a_stage():
    for module in GRAPH:
        if module != FACADE:
            stage_of(module)


def test_the_package_root_holds_few_modules_besides_its_stages():
    root = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(root) <= MAX_ROOT_MODULES, root


def test_no_module_imports_from_a_later_stage():
    late = [f"{module} (stage {stage_of(module)}) imports {target} (stage {stage_of(target)})"
            for module, targets in GRAPH.items() if module != FACADE
            for target in sorted(targets) if target != FACADE and stage_of(target) > stage_of(module)]
    assert not late, "\n".join(late)


def test_no_module_but_the_facade_imports_the_facade():
    assert not [module for module, targets in GRAPH.items() if FACADE in targets]


def test_the_import_graph_has_no_cycle():
    graph = {module: targets for module, targets in GRAPH.items() if module != FACADE}
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_checker_sees_lazy_imports_compiled_modules_and_the_seams_choices():
    assert "newsml.input.parsed" in GRAPH["newsml.dom.page"]
    assert "newsml.methods.base" in GRAPH["newsml.methods.fusion"]
    assert "newsml.dom.nodes" in GRAPH["newsml.dom._walk"]                 # a .pyx's import
    assert "newsml.core._libxml2" in GRAPH["newsml.dom._walk"]             # and its cimport
    assert "newsml.dom._walk" in GRAPH["newsml.dom.walk"]                  # a choice through the seam
    assert "newsml.estimators.dempster_shafer" in GRAPH["newsml.methods.cedst"]   # inside a function


def test_a_cycle_through_a_compiled_module_is_found(tmp_path):
    # a Python module that chooses a compiled module, which imports the Python module back:
    # the cycle the seam would hide at run time (the chosen module loads while its caller is
    # half made)
    package = tmp_path / "pkg"
    (package / "dom").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "dom" / "__init__.py").write_text("")
    (package / "dom" / "walk.py").write_text("from ..speed import choose\n\ndef python(x):\n    return x\n\n"
                                             "walk = choose('dom._fast', python, 'walk')\n")
    (package / "speed.py").write_text("def choose(name, python, compiled):\n    return python\n")
    (package / "dom" / "_fast.pyx").write_text("from pkg.dom.walk import python\n\n"
                                               "def walk(x):\n    return x\n")
    graph = import_graph(package)
    assert find_cycle(graph) == ["pkg.dom._fast", "pkg.dom.walk", "pkg.dom._fast"]
    # and without the compiled module's import back, none
    (package / "dom" / "_fast.pyx").write_text("cimport cython\n\ndef walk(x):\n    return x\n")
    assert find_cycle(import_graph(package)) is None


def test_the_seam_knows_every_compiled_module_and_each_is_chosen_where_its_twins_are():
    from newsml.core.speedups import SPEEDUPS

    compiled = {name for name, path in MODULES.items() if path.suffix == ".pyx"}
    assert compiled == {f"newsml.{name}" for name in SPEEDUPS}
    for name, speedup in SPEEDUPS.items():
        choosers = {module for module, targets in GRAPH.items() if f"newsml.{name}" in targets
                    and MODULES[module].suffix == ".py"}
        assert choosers == set(speedup.twins), name


def test_only_the_seam_imports_a_compiled_module():
    # a compiled module is reached through choose(), never imported on the side; and no
    # module but the seam asks whether one is in use
    for module, path in MODULES.items():
        if path.suffix != ".py" or module == "newsml.core.speedups":
            continue
        imported = imports_of(module, MODULES, choices=False)
        assert not [target for target in imported if MODULES[target].suffix == ".pyx"], module
        source = path.read_text(encoding="utf-8")
        assert "COMPILED" not in source and "loaded(" not in source, module
