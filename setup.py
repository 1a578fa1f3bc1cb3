"""Build the compiled kernels: cythonize ``ext/*.pyx`` into ``solver/_ext/``.

Everything else (metadata, dependencies, the console script) lives in ``pyproject.toml``.

Cython runs only when the extensions are built (``build_ext``: ``pip install``, a wheel's build,
``setup.py build_ext --inplace``), not whenever this file is loaded: a clean clone's wheel build
loads it for its requirements and its metadata first, and each load regenerated the C of every
kernel for commands that build nothing (the figures: README.md, under `make demo`).
"""

import os
from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
EXT_DIR = "ext"


COMPILE_ARGS = ["-O3", "-g0"]
"""Optimised, without debug information: Python's own compiler flags add ``-g``, and the debug
tables cost gcc about a third of the kernels' compile time (bench/results/test-suite-time.md),
for nothing read at run time (``-g`` does not change the code gcc generates). A debugging build
edits this list (``-g0`` comes after, so overrides, any ``-g`` in ``CFLAGS``)."""


def _extensions() -> list[Extension]:
    modules = []
    for pyx in sorted((HERE / EXT_DIR).glob("*.pyx")):
        # a kernel written in C keeps its headers in ext/<name>_kernel/ (the Trial's)
        parts = sorted(str(p.relative_to(HERE)) for p in (HERE / EXT_DIR).glob(f"{pyx.stem}_kernel/*"))
        modules.append(
            Extension(
                f"solver._ext.{pyx.stem}",
                [f"{EXT_DIR}/{pyx.name}"],
                depends=parts,
                extra_compile_args=COMPILE_ARGS,
                define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            )
        )
    return modules


CORES = os.cpu_count() or 1


CYTHON_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}


def cythonized(extensions: list[Extension]) -> list[Extension]:
    """``extensions`` with their ``.pyx`` sources translated to C (only what changed since the
    last translation: Cython compares the files' times), one kernel per core."""
    from Cython.Build import cythonize  # a build requirement; imported only to build

    return cythonize(extensions, nthreads=CORES, include_path=[EXT_DIR],
                     compiler_directives=CYTHON_DIRECTIVES)  # fmt: skip


class ParallelBuildExt(build_ext):
    """``build_ext`` compiling the kernels side by side, one per core (they share no object
    files); ``-j N`` on the command line still decides. Cython translates the ``.pyx``
    sources here, when the extensions are built, never when ``setup.py`` is merely loaded."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = CORES

    def run(self) -> None:
        # the same Extension objects, their sources now C (and their dependencies the .pxd and
        # .pxi files Cython found): finalize_options gave them the attributes the build reads
        # (file names, stubs), which the new objects cythonize returns lack
        translated = {ext.name: ext for ext in cythonized(self.extensions)}
        for extension in self.extensions:
            extension.sources = translated[extension.name].sources
            extension.depends = translated[extension.name].depends
        super().run()


def _packages() -> list[str]:
    """The library's packages plus the shipped data.

    ``puzzles/`` ships as ``solver._puzzles``; the kernel interface's ``.pxd`` files in ``ext/``
    ship as ``solver/include`` (``solver.get_include()``), so other Cython code can cimport it;
    the web table's files are the data package ``solver.hint.static`` (no ``__init__.py``).
    Every folder under those roots is its own data package (``ext/trial_kernel``'s headers ship
    as ``solver.include.trial_kernel``): setuptools warns about a folder left out.
    """
    data = ["solver.hint.static"]
    for package, folder in (
        ("solver._puzzles", HERE / "puzzles"),
        ("solver.include", HERE / EXT_DIR),
    ):
        data.append(package)
        data += [
            package + "." + ".".join(d.relative_to(folder).parts)
            for d in sorted(folder.rglob("*"))
            if d.is_dir() and not d.name.startswith((".", "__"))
        ]
    return find_packages(include=["solver", "solver.*"]) + data


setup(
    packages=_packages(),
    cmdclass={"build_ext": ParallelBuildExt},
    ext_modules=_extensions(),  # .pyx sources: ParallelBuildExt.run translates them
)
