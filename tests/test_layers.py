"""The layers of ``docs/architecture.md`` as contracts, checked over every import in ``solver/``.

Every ``import`` and ``from ... import`` counts, at module level and inside functions (a lazy
import is still a dependency); only those under ``if TYPE_CHECKING:`` are left out (they never
run). The Python-level imports of ``ext/*.pyx`` (and the ``.pxi`` they include) count as well: a
game's kernel (``ext/<game>.pyx``) belongs to its game, the searchers' loops and the shared
kernel face (``ext/kernel_face.pxi``) to the search layer.

The layers, lowest first (a module may import its own layer and the ones below):

1. **base**: the protocol and the declaration (``game``, ``spec``), ``errors``, ``files``,
   ``json_objects``, ``rng``,
   ``stats``, ``kernels``, ``puzzle_data`` (a game's own puzzles), ``render/``, ``exact/``, the
   compiled extensions' names, ``cmdkit`` (the argument types, progress lines and safe output
   a command is built from) and ``command_clock`` (when the command started);
2. **search**: ``search/`` (the searchers, and the shared agents as functions of them);
3. **games**: ``games/<name>/`` (and ``ext/<name>.pyx``), each knowing nothing of the others;
4. **above**: everything else (the registry, the CLI plumbing, agents by name, play, analysis, the
   hint engine, review, interop, testing, the demo, ``solver/__init__``).

``make lint`` runs this file (and so ``make test``, whose suite then leaves it out); it is also
part of a plain ``pytest`` run (well under a second).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BASE = (
    "solver._ext",
    "solver._version",
    "solver.cmdkit",
    "solver.command_clock",
    "solver.errors",
    "solver.exact",
    "solver.fields",
    "solver.files",
    "solver.game",
    "solver.json_objects",
    "solver.kernels",
    "solver.puzzle_data",
    "solver.render",
    "solver.rng",
    "solver.spec",
    "solver.stats",
)
SEARCH = ("solver.search",)
GAMES = "solver.games."
LAYER_NAMES = ("base", "search", "games", "above")


_PYX_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\s+([\w, ()]+)|import\s+([\w.]+))")


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in node.body:
                lines.update(range(sub.lineno, (sub.end_lineno or sub.lineno) + 1))
    return lines


class ImportGraph:
    """Every import of one source tree (``root``: a checkout, or an old commit's export, which
    ``bench/structure_counts.py`` counts the same way): ``graph`` maps each module of
    ``solver/`` and each ``ext.<stem>`` (a ``.pyx`` or ``.pxi``) to ``(target module, line)``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.solver = root / "solver"
        self.modules = self._modules()
        self.unresolved: list[str] = []
        """Imports of ``solver...`` names that no module of the tree holds (a renamed module)."""
        self.graph = {m: self._imports_of_py(m, path) for m, path in self.modules.items()}
        ext = root / "ext"
        for pyx in sorted([*ext.glob("*.pyx"), *ext.glob("*.pxi")]):
            self.graph[f"ext.{pyx.stem}"] = self._imports_of_pyx(pyx)

    def _modules(self) -> dict[str, Path]:
        found: dict[str, Path] = {}
        for path in sorted(self.solver.rglob("*.py")):
            parts = list(path.relative_to(self.root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
        return found

    def _resolve(self, name: str) -> str | None:
        """The module of ``solver`` that ``name`` (a module or a name inside one) lives in."""
        asked = name
        while name and name not in self.modules and not name.startswith("solver._ext."):
            name = name.rpartition(".")[0]
        if name in ("", "solver") and asked != "solver":
            self.unresolved.append(asked)
        return name or None

    def _imports_of_py(self, module: str, path: Path) -> list[tuple[str, int]]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _type_checking_lines(tree)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        out: list[tuple[str, int]] = []
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or node.lineno in skipped:
                continue
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                names = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in self.modules else base
                    for a in node.names
                ]
            for name in names:
                if name == "solver" or name.startswith("solver."):
                    target = self._resolve(name)
                    if target and target != module:
                        out.append((target, node.lineno))
        return out

    def _imports_of_pyx(self, path: Path) -> list[tuple[str, int]]:
        out: list[tuple[str, int]] = []
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = _PYX_IMPORT.match(line)
            if not match or "cimport" in line:
                continue
            base = match.group(1) or match.group(3)
            if not (base == "solver" or base.startswith("solver.")):
                continue
            names = [base]
            if match.group(1):
                names = [f"{base}.{n.strip()}" for n in match.group(2).strip("() ").split(",")]
            for name in names:
                target = self._resolve(name)
                if target:
                    out.append((target, number))
        return out

    def game(self, module: str) -> str | None:
        """The game a module belongs to (``solver.games.<name>...`` or ``ext.<name>``)."""
        if module.startswith(GAMES):
            return module[len(GAMES) :].partition(".")[0]
        if module.startswith("ext."):
            stem = module[4:]
            return stem if (self.solver / "games" / stem).is_dir() else None
        return None

    def layer(self, module: str) -> int:
        if self.game(module) is not None:
            return 2
        if module.startswith("ext."):
            return 1  # the searchers' compiled loops (mcts, expectimax, ismcts, ...)
        if module.startswith(SEARCH):
            return 1
        if module == "solver._ext" or module.startswith(BASE):
            return 0
        return 3

    def where(self, module: str, line: int) -> str:
        path = self.modules.get(module)
        shown = path.relative_to(self.root) if path else f"ext/{module[4:]}.pyx"
        return f"{shown}:{line}"

    def upward(self) -> list[str]:
        """Every import of a layer above the importer's (a game's own modules excepted)."""
        return [
            f"{self.where(m, line)}: {LAYER_NAMES[self.layer(m)]} module {m} imports {t} "
            f"({LAYER_NAMES[self.layer(t)]})"
            for m, targets in self.graph.items()
            for t, line in targets
            if self.layer(t) > self.layer(m)
            and not (self.game(m) is not None and self.game(t) == self.game(m))
        ]

    def module_graph(self) -> dict[str, set[str]]:
        graph: dict[str, set[str]] = defaultdict(set)
        for module, targets in self.graph.items():
            # an extension module is one node whichever name reaches it
            source = f"solver._ext.{module[4:]}" if module.startswith("ext.") else module
            graph[source].update(t for t, _ in targets if t != source)
        return graph


TREE = ImportGraph(ROOT)
GRAPH = TREE.graph
_game = TREE.game
_layer = TREE.layer
_where = TREE.where


def test_the_graph_sees_function_level_and_ext_imports():
    # the checker is only as good as what it parses: a lazy import, a relative one and a .pyx's
    lazy = [t for t, line in GRAPH["solver.registry"] if t == "solver.games"]
    assert lazy, "the registry's function-level import of solver.games was not seen"
    assert any(t == "solver.errors" for t, _ in GRAPH["ext.expectimax"])
    assert any(t.startswith("solver.games.dog") for t, _ in GRAPH["ext.dog"])
    assert _layer("solver.games.dog.cli") == 2 and _layer("ext.dog") == 2
    assert _layer("solver.search.mcts") == 1 and _layer("ext.mcts") == 1
    assert _layer("solver.cmdkit") == 0 and _layer("solver.registry") == 3
    assert _layer("solver") == 3 and _layer("solver.cli_game") == 3


def test_every_import_names_a_module_of_the_tree():
    assert TREE.unresolved == []


def test_no_module_imports_a_layer_above_its_own():
    assert TREE.upward() == []


def test_a_game_imports_no_other_game():
    crossing = [
        f"{_where(m, line)}: {m} imports {t}"
        for m, targets in GRAPH.items()
        for t, line in targets
        if _game(m) is not None and _game(t) is not None and _game(m) != _game(t)
    ]
    assert crossing == []


def test_shared_code_imports_no_game():
    naming = [
        f"{_where(m, line)}: {m} imports {t}"
        for m, targets in GRAPH.items()
        for t, line in targets
        if _game(m) is None and _game(t) is not None
    ]
    assert naming == []


def _circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_circles_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_at_module_or_function_level():
    assert [sorted(circle) for circle in _circles(TREE.module_graph())] == []


def test_the_architecture_page_names_every_module_and_package():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    solver = ROOT / "solver"
    named = [
        f"{p.name}/" if p.is_dir() else p.name
        for p in sorted(solver.iterdir())
        if (p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py"
    ]
    ext = [
        p.name
        for p in sorted((ROOT / "ext").iterdir())
        if p.suffix in (".pyx", ".pxd", ".pxi") and TREE.game(f"ext.{p.stem}") is None
    ]
    missing = [name for name in named + ext if name not in page and name != "__init__.py"]
    assert missing == []
    assert "ext/<game>.pyx" in page  # the games' kernels, by their rule
