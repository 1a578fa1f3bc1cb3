"""The package as people install it: ``pip install forest-solver`` without extras.

Every command that does not serve works on the base install; ``forest hint``, ``forest serve``
and ``forest analyse`` without their extra print one line naming the extra (exit 2).

- The fast tests run the ``forest`` command in a subprocess of this environment where every
  module the base install lacks is made unimportable: the distributions installed here that are
  neither the package's declared dependencies nor theirs (computed from the metadata, so the
  block follows ``pyproject.toml``), e.g. pydantic, fastapi, matplotlib, dask, pytest.
- The slow test builds the wheel, installs it without extras into a fresh virtual environment
  (its dependencies from the package index) and runs the same commands with its ``forest``
  script.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import cache
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def _name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert match is not None, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


@cache
def base_distributions() -> frozenset[str]:
    """The package and every distribution its declared dependencies pull in (no extras)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    todo = [_name(r) for r in project["dependencies"]]
    seen = {_name(project["name"])}
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        todo.extend(_name(r) for r in requires if "extra ==" not in r.partition(";")[2])
    return frozenset(seen)


@cache
def blocked_modules() -> frozenset[str]:
    """The top-level modules installed here that the base install does not have."""
    base = base_distributions()
    blocked = set()
    for module, dists in metadata.packages_distributions().items():
        if module.startswith("_") or module in ("solver", "pip", "setuptools", "pkg_resources"):
            continue
        if not {_name(d) for d in dists} & base:
            blocked.add(module)
    return frozenset(blocked)


_RUNNER = textwrap.dedent(
    """
    import importlib.abc, sys
    BLOCKED = set(sys.argv[1].split(","))

    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Block())
    from solver.cli import main
    sys.exit(main(sys.argv[2:]))
    """
)


def forest_without_extras(*argv: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    """``forest ARGV`` in a fresh interpreter that cannot import what the base install lacks."""
    blocked = ",".join(sorted(blocked_modules()))
    return subprocess.run(
        [sys.executable, "-c", _RUNNER, blocked, *argv],
        capture_output=True, text=True, cwd=cwd, timeout=600, input=stdin,
    )  # fmt: skip


def _readme_output(command: str) -> list[str]:
    """The lines the README shows under ``$ .venv/bin/forest COMMAND``."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"$ .venv/bin/forest {command}") + 1
    out = []
    for line in lines[start:]:
        if line.startswith(("$ ", "```")):
            break
        out.append(line)
    return out


def _same(expected: list[str], actual: str) -> bool:
    got = actual.splitlines()
    patterns = (".*".join(re.escape(part) for part in want.split("...")) for want in expected)
    return len(got) == len(expected) and all(
        re.fullmatch(p, g) is not None for p, g in zip(patterns, got, strict=True)
    )


def _version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


# The commands of the issue, each with a check of its output made independently of the code: the
# README's text, the version in pyproject.toml, the games' rules.
COMMANDS: list[tuple[list[str], object]] = [
    (["--version"], lambda out: out == f"forest {_version()}\n"),
    (["games"], lambda out: _same(_readme_output("games"), out)),
    (
        ["dog", "show", "dog/tiny-example"],
        lambda out: _same(_readme_output("dog show dog/tiny-example"), out),
    ),
    (
        ["dog", "solve", "dog/another-dog", "--exact"],
        lambda out: _same(_readme_output("dog solve dog/another-dog --exact"), out),
    ),
    (
        ["guardians", "order", "guardians/order-trap"],
        lambda out: _same(_readme_output("guardians order guardians/order-trap"), out),
    ),
    (["trial", "show"], lambda out: "day 1" in out and "player 0" in out),
]


def test_the_block_covers_the_extras():
    blocked = blocked_modules()
    for module in ("pydantic", "fastapi", "uvicorn", "matplotlib", "dask", "joblib", "pytest"):
        if module in {m for m in metadata.packages_distributions()}:
            assert module in blocked, module
    assert not {"numpy", "networkx", "ortools"} & blocked


@pytest.mark.parametrize(("argv", "check"), COMMANDS, ids=[" ".join(a) for a, _ in COMMANDS])
def test_every_non_serving_command_works_without_the_extras(argv, check, tmp_path):
    run = forest_without_extras(*argv, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert check(run.stdout), run.stdout
    assert run.stderr == ""


SERVING = [
    (["hint", "--stdio"], "serve", "pydantic"),
    (["serve"], "serve", "pydantic"),
    (
        ["analyse", "--count", "2", "--size", "5x5", "-o", "r.csv", "--report", "rep"],
        "analysis",
        None,
    ),
]


@pytest.mark.parametrize(("argv", "extra", "module"), SERVING, ids=[a[0] for a, _, _ in SERVING])
def test_serving_commands_name_their_extra_in_one_line(argv, extra, module, tmp_path):
    run = forest_without_extras(*argv, cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("forest: error: ")
    assert f"pip install 'forest-solver[{extra}]'" in run.stderr
    if module is not None:
        assert f"({module} is not installed)" in run.stderr
    assert not (tmp_path / "r.csv").exists()


def test_the_extra_message_names_the_command_not_its_options(tmp_path):
    run = forest_without_extras("serve", "--port", "0", cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.startswith("forest: error: forest serve needs the serve extra"), run.stderr


def test_review_without_the_serve_extra_names_it_in_one_line(tmp_path):
    """``forest GAME review`` runs the hint engine: a record played on the base install is
    refused in one line naming the serve extra (exit 2), nothing written."""
    played = forest_without_extras("dog", "play", "dog/tiny-example", "--record", "r.json",
                                   cwd=tmp_path)  # fmt: skip
    assert played.returncode == 0, played.stderr
    run = forest_without_extras("dog", "review", "r.json", "--plot", "r.png", cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("forest: error: forest dog review")
    assert "(pydantic is not installed): pip install 'forest-solver[serve]'" in run.stderr
    assert not (tmp_path / "r.png").exists()


_API = textwrap.dedent(
    """
    import importlib, json, sys
    exec(compile(sys.argv[2], "block", "exec"))  # the Block finder, as _RUNNER installs it
    from solver.errors import SolverError
    out = {}
    for module in sys.argv[3:]:
        try:
            importlib.import_module(module)
            out[module] = None
        except ImportError as exc:
            out[module] = [type(exc).__name__, isinstance(exc, SolverError), str(exc), exc.name]
    print(json.dumps(out))
    """
)


def test_the_api_without_the_serve_extra_raises_a_solver_error_naming_it(tmp_path):
    """Importing the hint engine (the API of docs/hint-engine.md) or the HTTP service on the
    base install raised Python's bare ``ModuleNotFoundError: No module named 'pydantic'``; it
    is a :class:`solver.errors.MissingExtraError` naming the extra (still an ImportError, with
    ``name`` the missing module). Modules that need no extra import."""
    block = _RUNNER.split("from solver.cli import main")[0].replace("sys.argv[1]", "sys.argv[1]")
    modules = ["solver.hint.engine", "solver.hint.server", "solver.hint.stdio", "solver.review",
               "solver.hint.errors", "solver.games.trial"]  # fmt: skip
    run = subprocess.run(
        [sys.executable, "-c", _API, ",".join(sorted(blocked_modules())), block, *modules],
        capture_output=True, text=True, cwd=tmp_path, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    for module in ("solver.hint.engine", "solver.hint.server", "solver.hint.stdio"):
        kind, is_ours, message, name = got[module]
        assert (kind, is_ours) == ("MissingExtraError", True), got[module]
        assert name in ("pydantic", "fastapi") and f"({name} is not installed)" in message
        assert message.endswith("pip install 'forest-solver[serve]'"), message
    assert got["solver.review"] is None and got["solver.hint.errors"] is None
    assert got["solver.games.trial"] is None


def test_analyse_at_its_defaults_runs_on_the_base_install(tmp_path):
    """Without ``--jobs`` the batch ran one worker a CPU, which needs joblib: on a base install
    ``forest analyse --count 2 ... -o r.csv`` said "--jobs above 1 needs ... joblib" though no
    --jobs was given. The default is one worker there; ``--report`` (matplotlib) is refused
    before the batch, not after it."""
    run = forest_without_extras("analyse", "--count", "2", "--size", "5x5", "--seed", "0", "-o",
                                "r.csv", "--no-progress", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("analysed 2 forests -> r.csv") and (tmp_path / "r.csv").exists()
    asked = forest_without_extras("analyse", "--count", "2", "--size", "5x5", "--jobs", "2", "-o",
                                  "s.csv", cwd=tmp_path)  # fmt: skip
    assert asked.returncode == 2 and "forest-solver[analysis]" in asked.stderr
    assert not (tmp_path / "s.csv").exists()


@pytest.mark.parametrize(
    ("options", "needs"),
    [(["--dask-local", "2"], "a Dask run (--scheduler, --dask-local) needs the optional package "
                             "'distributed': pip install 'forest-solver[dask]'"),
     (["--scheduler", "tcp://127.0.0.1:1"], "a Dask run (--scheduler, --dask-local) needs"),
     (["--jobs", "2"], "--jobs above 1 needs the optional package 'joblib'"),
     (["-o", "r.parquet"], "a Parquet results file needs the optional package 'pyarrow'")],
    ids=["dask-local", "scheduler", "jobs", "parquet"],
)  # fmt: skip
def test_analyse_names_the_extra_an_option_needs_in_one_line(options, needs, tmp_path):
    # ("Dask runs (...) needs the optional package" was the message for both Dask options)
    run = forest_without_extras("analyse", "--count", "2", "--size", "5x5", "--seed", "0", "-o",
                                "r.csv", *options, cwd=tmp_path)  # fmt: skip
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith(f"forest: error: {needs}") and run.stderr.count("\n") == 1
    assert not list(tmp_path.iterdir())


def test_the_web_table_ships_as_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-data"]["solver.hint.static"] == ["*.html", "*.css", "*.js", "*.svg"]
    shipped = {p.name for p in (ROOT / "solver" / "hint" / "static").iterdir()}
    assert shipped == {"index.html", "style.css", "app.js", "favicon.svg"}


def test_every_shipped_file_is_packaged_without_a_setuptools_warning(tmp_path):
    """``setup.py build_py`` (what a wheel's build copies) into a scratch folder: no "Package
    would be ignored" warning (``ext/trial_kernel``'s headers were a folder setuptools saw but
    the configuration did not name), and every header and ``.pxd`` ``solver.get_include()``
    promises is in the build. Seconds: nothing is compiled. (``pip wheel`` hides the build's
    output, so the slow wheel test cannot see this warning.)"""
    built, eggs = tmp_path / "lib", tmp_path / "eggs"
    eggs.mkdir()
    run = subprocess.run(
        [sys.executable, "setup.py", "egg_info", "--egg-base", str(eggs), "build_py", "-d",
         str(built)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "Package would be ignored" not in output and "absent from the `packages`" not in output
    ext = ROOT / "ext"
    wanted = [p.relative_to(ext) for p in ext.rglob("*") if p.suffix in (".pxd", ".pxi", ".h")]
    assert any(p.parts[0] == "trial_kernel" for p in wanted)
    missing = [str(p) for p in wanted if not (built / "solver" / "include" / p).is_file()]
    assert missing == []
    assert not list((built / "solver" / "include").rglob("*.pyx"))


def _tree_with_one_kernel(tmp_path: Path) -> Path:
    """A scratch checkout: this ``setup.py`` and ``pyproject.toml``, and one tiny kernel
    ``ext/tiny.pyx`` in place of the eight (its C is a second to compile)."""
    tree = tmp_path / "tree"
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_bytes((ROOT / name).read_bytes())
    for folder in ("ext", "puzzles", "solver/_ext", "solver/hint/static"):
        (tree / folder).mkdir(parents=True, exist_ok=True)
    (tree / "solver" / "__init__.py").write_text("")
    (tree / "solver" / "_ext" / "__init__.py").write_text("")
    (tree / "ext" / "tiny.pyx").write_text("def answer():\n    return 42\n")
    return tree


def test_setup_py_runs_cython_only_when_it_builds_the_kernels(tmp_path):
    """Loading ``setup.py`` for what builds nothing (``egg_info``: a wheel build's requirements
    and metadata) translates no ``.pyx`` (it ran Cython on every kernel at each load: about 10
    s for a clean clone's wheel build); ``build_ext --inplace`` still translates and compiles
    (the tiny kernel imports and answers)."""
    tree = _tree_with_one_kernel(tmp_path)
    eggs = tmp_path / "eggs"
    eggs.mkdir()

    def setup_py(*argv: str) -> str:
        run = subprocess.run([sys.executable, "setup.py", *argv], cwd=tree,
                             capture_output=True, text=True, timeout=600)  # fmt: skip
        assert run.returncode == 0, run.stdout + run.stderr
        return run.stdout + run.stderr

    setup_py("egg_info", "--egg-base", str(eggs))
    assert not list(tree.rglob("*.c")), "setup.py ran Cython for egg_info"
    setup_py("build_ext", "--inplace")
    assert (tree / "ext" / "tiny.c").is_file()
    check = "import solver._ext.tiny as t; print(t.answer())"
    ran = subprocess.run([sys.executable, "-c", check], cwd=tree, capture_output=True,
                         text=True, timeout=300)  # fmt: skip
    assert ran.stdout.strip() == "42", ran.stderr


# -- the real thing: the wheel in a fresh virtual environment -----------------------------------
@pytest.fixture(scope="module")
def base_venv(
    tmp_path_factory: pytest.TempPathFactory,
    in_tree_build: Callable[[], AbstractContextManager[None]],
) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    with in_tree_build():  # conftest: one build in the checkout's build/ at a time
        build = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
             "-w", str(work)],
            capture_output=True, text=True, timeout=1800,
        )  # fmt: skip
    assert build.returncode == 0, build.stderr
    for warning in ("BuildBackendWarning", "Package would be ignored", "SetuptoolsDeprecation"):
        assert warning not in build.stdout + build.stderr, warning
    (wheel,) = work.glob("forest_solver-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    install = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
        capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr
    return venv


@pytest.mark.slow
@pytest.mark.timeout(3600)  # a wheel built (every kernel compiled), a venv, the wheel installed
def test_the_wheel_installed_without_extras(base_venv, tmp_path):
    listed = subprocess.run(
        [str(base_venv / "bin" / "python"), "-m", "pip", "list", "--format=json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    installed = {_name(row["name"]) for row in json.loads(listed.stdout)}
    assert not {"pydantic", "fastapi", "matplotlib", "dask", "pytest", "open-spiel"} & installed
    forest = str(base_venv / "bin" / "forest")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    for argv, check in COMMANDS:
        run = subprocess.run(
            [forest, *argv], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600
        )
        assert run.returncode == 0, (argv, run.stderr)
        assert check(run.stdout), (argv, run.stdout)
    for argv, extra, _ in SERVING[:2]:
        run = subprocess.run(
            [forest, *argv], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert run.returncode == 2 and f"forest-solver[{extra}]" in run.stderr, run.stderr
