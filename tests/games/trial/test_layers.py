"""The Trial's modules are layered: nothing imports in a loop (counting imports inside functions
and type-only ones), and the rule sections talk to each other only by pushing step kinds."""

from __future__ import annotations

import ast
from pathlib import Path

import solver.games.trial as package

HERE = Path(package.__file__).parent
PREFIX = "solver.games.trial."
LAYERS = [
    {"schema", "content", "board", "actions"},  # static data
    {"core", "history", "belongings", "decks"},  # the state, the stack, bookkeeping
    {"payments", "conditions", "choices", "discards"},  # costs, conditions, shared decisions
    {"setup", "turns", "cards", "fights", "locations", "store", "expeditions", "camping"},
]
"""The layers below the game itself, bottom first; every other module sits above them."""
SECTIONS = LAYERS[-1]


def imports() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports, anywhere."""
    graph: dict[str, set[str]] = {}
    for path in HERE.glob("*.py"):
        name = path.stem
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith(PREFIX):
                    found.add(node.module[len(PREFIX) :].split(".")[0])
                elif node.module == "solver.games.trial":
                    found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.Import):
                found |= {a.name[len(PREFIX) :].split(".")[0] for a in node.names
                          if a.name.startswith(PREFIX)}  # fmt: skip
        graph[name] = found - {name}
    return graph


def layer_of(name: str) -> int:
    return next((i for i, layer in enumerate(LAYERS) if name in layer), len(LAYERS))


def test_every_module_is_in_a_known_place():
    known = set().union(*LAYERS)
    assert known <= set(imports()), known - set(imports())


def test_no_module_imports_in_a_loop():
    graph = imports()
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for dep in sorted(graph.get(name, ())):
            assert state.get(dep) != 1, " -> ".join([*trail, name, dep])
            if dep not in state:
                visit(dep, [*trail, name])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])


def test_each_layer_imports_only_from_below_and_sections_not_each_other():
    for name, deps in imports().items():
        mine = layer_of(name)
        for dep in deps:
            if name in SECTIONS:
                assert layer_of(dep) < mine, f"{name} imports the section {dep}"
            else:
                assert layer_of(dep) <= mine, f"{name} (layer {mine}) imports {dep} from above"
