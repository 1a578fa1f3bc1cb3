"""The structure figures of issues 17 and 23, counted the same way on any tree or commit.

    python bench/structure_counts.py                 # the working tree
    python bench/structure_counts.py e3a8ca9 HEAD    # commits (each exported with git archive)
    python bench/structure_counts.py --no-duplicates --json ...
    python bench/structure_counts.py --list HEAD     # also name the long and complex functions

What each column counts (``tests/test_layers.py``'s ``ImportGraph`` reads the imports, so the
layers are the ones ``make lint`` enforces, applied to the tree counted):

- **upward imports from games**: imports (module or function level; not under
  ``if TYPE_CHECKING:``; the Python imports of ``ext/<game>.pyx`` too) by a module of a game
  (``solver/games/<name>/``, ``ext/<name>.pyx``) of a module in a layer above the games' (the
  registry, the CLI plumbing, analysis, hint, agents by name, play...), one per import
  statement and module imported;
- **import circles**: strongly connected groups of more than one module in the graph of those
  imports (module and function level together);
- **function-level imports**: ``import``/``from ... import`` statements inside a ``def`` (any
  depth) in ``solver/**/*.py``, ``TYPE_CHECKING`` blocks aside;
- **forwarding functions**: ``def``\\ s in ``solver/`` whose body, docstring aside, is one or
  more imports and then one statement that returns or evaluates a call of a name those imports
  bound (``from x import f; return f(...)``): a function that only imports and forwards;
- **duplicates pairs**: the first line of ``duplicates --seconds 300`` over the tree (pairs of
  places sharing six or more identical or same-shape lines), as the team's tool counts them;
- **functions over 80 lines**: ``def``\\ s in ``solver/**/*.py`` (methods and nested ones each on
  their own, a nested one inside its parent's lines too) longer than 80 lines, from the ``def``
  line to the last (decorators aside, the docstring, comments and blank lines in);
- **functions over complexity 15** (and **10**, ruff's default): what ``ruff check --isolated
  --select C901`` reports over ``solver/`` with ``lint.mccabe.max-complexity`` 15 (10), the same
  ruff (this Python's) for every tree counted;
- **fmt: skip markers**: lines holding ``# fmt: skip`` in ``solver/**/*.py``, and in
  ``tests/`` and ``bench/`` together;
- **Any parameters in search/, hint/, analysis/**: parameters (``*args`` and ``**kwargs``
  included) of the ``def``\\ s in ``solver/search``, ``solver/hint`` and ``solver/analysis``
  annotated ``Any`` itself (not a type holding it, such as ``dict[str, Any]``).
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _layers_module():
    spec = importlib.util.spec_from_file_location("_layers", ROOT / "tests" / "test_layers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LAYERS = _layers_module()


def _inside_type_checking(tree: ast.Module) -> set[int]:
    return LAYERS._type_checking_lines(tree)


def _function_imports(tree: ast.Module) -> int:
    skipped = _inside_type_checking(tree)
    count = 0
    for func in ast.walk(tree):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for stmt in func.body:  # direct statements; nested defs are walked on their own
                count += sum(
                    isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno not in skipped
                    for node in _walk_no_defs(stmt)
                )
    return count


def _walk_no_defs(node: ast.AST):
    """``node`` and what it holds, not entering a nested ``def`` or ``class``."""
    yield node
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield from _walk_no_defs(child)


def _is_forwarding(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = list(func.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    imports = [s for s in body[:-1] if isinstance(s, (ast.Import, ast.ImportFrom))]
    if not body or not imports or len(imports) != len(body) - 1:
        return False
    bound = {(a.asname or a.name).split(".")[0] for s in imports for a in s.names}
    last = body[-1]
    if not isinstance(last, (ast.Return, ast.Expr)) or not isinstance(last.value, ast.Call):
        return False
    callee = last.value.func
    while isinstance(callee, ast.Attribute):
        callee = callee.value
    return isinstance(callee, ast.Name) and callee.id in bound


def _python_counts(root: Path) -> tuple[int, int]:
    function_imports = forwarding = 0
    for path in sorted((root / "solver").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        function_imports += _function_imports(tree)
        forwarding += sum(
            _is_forwarding(node)
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        )
    return function_imports, forwarding


LONG_FUNCTION = 80
"""A function longer than this many lines is counted (issue 23's aim: one a reader can hold)."""


def long_functions(root: Path) -> list[str]:
    """``path:line name (N lines)`` of every function of ``solver/`` over :data:`LONG_FUNCTION`."""
    found = []
    for path in sorted((root / "solver").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > LONG_FUNCTION:
                    where = path.relative_to(root)
                    found.append(f"{where}:{node.lineno} {node.name} ({lines} lines)")
    return found


def complex_functions(root: Path, limit: int) -> list[str]:
    """ruff's C901 findings over ``solver/`` at ``max-complexity = limit``, one line each."""
    ruff = [sys.executable, "-m", "ruff", "check", "--isolated", "--no-cache", "--select", "C901"]
    options = ["--config", f"lint.mccabe.max-complexity={limit}", "--output-format", "concise"]
    run = subprocess.run(
        [*ruff, *options, "solver"], cwd=root, capture_output=True, text=True, check=False
    )
    return [line for line in run.stdout.splitlines() if " C901 " in line]


def _fmt_skips(root: Path, folders: tuple[str, ...]) -> int:
    return sum(
        "# fmt: skip" in line
        for folder in folders
        for path in sorted((root / folder).rglob("*.py"))
        for line in path.read_text(encoding="utf-8").splitlines()
    )


def _any_parameters(root: Path) -> int:
    total = 0
    for folder in ("search", "hint", "analysis"):
        for path in sorted((root / "solver" / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    a = node.args
                    params = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
                    total += sum(_is_any(p.annotation) for p in params if p is not None)
    return total


def _is_any(annotation: ast.expr | None) -> bool:
    if isinstance(annotation, ast.Name | ast.Attribute):
        return (annotation.id if isinstance(annotation, ast.Name) else annotation.attr) == "Any"
    return isinstance(annotation, ast.Constant) and annotation.value == "Any"


def _duplicate_pairs(root: Path) -> int | None:
    try:
        run = subprocess.run(
            ["duplicates", "--repo", str(root), "--seconds", "300"],
            capture_output=True,
            text=True,
            check=False,
        )
    except FileNotFoundError:
        return None
    first = run.stdout.splitlines()[0] if run.stdout else ""
    match = re.match(r"(\d+) pairs? of places", first)
    return int(match.group(1)) if match else (0 if first.startswith("no duplicates") else None)


def counts(root: Path, duplicates: bool = True) -> dict[str, int | None]:
    """The figures of the tree at ``root``."""
    tree = LAYERS.ImportGraph(root)
    upward = {line for line in tree.upward() if " games module " in line}  # one per statement
    function_imports, forwarding = _python_counts(root)
    return {
        "upward imports from games": len(upward),
        "import circles": len(LAYERS._circles(tree.module_graph())),
        "function-level imports": function_imports,
        "forwarding functions": forwarding,
        "duplicates pairs": _duplicate_pairs(root) if duplicates else None,
        "functions over 80 lines": len(long_functions(root)),
        "functions over complexity 15": len(complex_functions(root, 15)),
        "functions over complexity 10": len(complex_functions(root, 10)),
        "fmt: skip markers in solver/": _fmt_skips(root, ("solver",)),
        "fmt: skip markers in tests/, bench/": _fmt_skips(root, ("tests", "bench")),
        "Any parameters in search/, hint/, analysis/": _any_parameters(root),
    }


def _export(rev: str, into: Path) -> Path:
    """The tracked files of commit ``rev`` in a fresh folder under ``into``."""
    folder = into / rev.replace("/", "_")
    folder.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("revs", nargs="*", help="commits to count (default: the working tree)")
    parser.add_argument("--no-duplicates", action="store_true", help="skip the duplicates tool")
    parser.add_argument("--json", action="store_true", help="one JSON object per tree")
    parser.add_argument(
        "--list", action="store_true", help="also list the long and complex functions of each tree"
    )
    args = parser.parse_args(argv)
    rows: dict[str, dict[str, int | None]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for rev in args.revs or ["working tree"]:
            root = ROOT if not args.revs else _export(rev, Path(tmp))
            rows[rev] = counts(root, duplicates=not args.no_duplicates)
            if args.list:
                print(f"## {rev}: over {LONG_FUNCTION} lines, then over complexity 15")
                print("\n".join(long_functions(root) + complex_functions(root, 15)) + "\n")
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    names = list(next(iter(rows.values())))
    print("| measure | " + " | ".join(rows) + " |")
    print("|---|" + "---|" * len(rows))
    for name in names:
        print(f"| {name} | " + " | ".join(str(row[name]) for row in rows.values()) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
