# forest-solver: `make demo` and `make test` do the whole set-up on a fresh machine.
# `make demo` installs what a user installs (the package with its runtime extras) and runs the demo;
# `make test` adds the development tools and runs the linters and the test suite.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: all install browser demo test test-all bench lint format clean

all: test

# What a user's install holds (the package, its compiled kernels and the extras its commands use)
# and what a developer adds (tests, linters, the browser driver, OpenSpiel for the comparisons).
RUNTIME_EXTRAS := analysis,dask,serve
DEV_EXTRAS     := dev,openspiel,$(RUNTIME_EXTRAS)
RUNTIME_STAMP  := $(VENV)/.installed-runtime
comma := ,
define EXTRA_REQUIREMENTS
import sys, tomllib
extras = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]
print(" ".join(r for name in sys.argv[1:] for r in extras[name]))
endef
export EXTRA_REQUIREMENTS

$(VENV)/bin/python:
	@echo "== make: creating the virtual environment $(VENV)"
	$(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --upgrade pip setuptools

# Re-install when the build description or the Cython sources change.
$(RUNTIME_STAMP): $(VENV)/bin/python pyproject.toml setup.py $(wildcard ext/*.pyx ext/*.pxd ext/*.pxi ext/*_kernel/*)
	@echo "== make: installing forest-solver with its runtime extras [$(RUNTIME_EXTRAS)]:"
	@echo "   compiling the Cython kernels (ext/*.pyx) takes about a minute on 2 cores"
	$(PY) -m pip install --quiet -e ".[$(RUNTIME_EXTRAS)]"
	@touch $(RUNTIME_STAMP)

# The development extras' requirements alone (the package is installed already: no second build).
$(STAMP): $(RUNTIME_STAMP)
	@echo "== make: adding the development tools [$(DEV_EXTRAS)] (pytest, ruff, mypy, OpenSpiel...)"
	$(PY) -m pip install --quiet $$($(PY) -c "$$EXTRA_REQUIREMENTS" $(subst $(comma), ,$(DEV_EXTRAS)))
	@touch $(STAMP)

install: $(STAMP)

# The web table's browser test drives Debian's Chromium through Playwright (the Python client is
# in the dev extra; `playwright install` cannot download browsers here). Installed only when
# missing; without it the browser test skips, except under CI=true, where it fails.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } || \
	  echo "make browser: could not install chromium (the browser test will skip; CI=true fails it)"

demo: $(RUNTIME_STAMP)
	@echo "== make: the demo (python -m solver.demo): a rolled forest, its value, a game of MCTS"
	$(PY) -m solver.demo
	@echo "== make: done; the forest command is $(VENV)/bin/forest (README: the command line)"

# The suite runs on every core (pytest-xdist; at most 4 workers, each holding a few hundred MB),
# handing tests out one by one as workers free up (the longest take about a minute alone).
# TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= auto
XDIST := -n $(TEST_WORKERS) --maxprocesses 4 --dist worksteal
# The suite starts a few hundred Python processes (the `forest` command as users meet it, the
# servers): each compiles the modules it imports again unless it may cache their bytecode, which
# PYTHONDONTWRITEBYTECODE=1 (set on CI's machine) forbids. Allowed for the test runs (the cache
# is __pycache__/, ignored by git): tests/test_cli_contracts.py 28 -> 20 s of CPU
# (bench/results/test-suite-time.md).
PYTEST := PYTHONDONTWRITEBYTECODE= $(PY) -m pytest

# CI runs `make test`: the linters first, then the tests (but tests/test_layers.py, which the
# linters have just run: every worker would parse the whole tree again to collect it).
test: lint browser
	@echo "== make: the test suite on $(TEST_WORKERS) workers (make test-all adds the slow exhaustive checks)"
	$(PYTEST) -q $(XDIST) --ignore=tests/test_layers.py

test-all: $(STAMP) browser
	$(PYTEST) -q $(XDIST) -m "slow or not slow"

# Benchmarks take what the machine's load makes them take: no per-test time limit (timeout=0).
bench: $(STAMP)
	$(PY) -m pytest bench -q -s --benchmark-enable -o addopts="--import-mode=importlib" -o timeout=0 --benchmark-columns=min,median,max,rounds

lint: $(STAMP)
	$(VENV)/bin/ruff check solver tests bench
	$(VENV)/bin/ruff format --check solver tests bench
	$(PY) -m mypy solver
	@echo "== make: the layers (docs/architecture.md): every import of solver/ and ext/*.pyx"
	$(PYTEST) -q -p no:cacheprovider -p no:randomly tests/test_layers.py

format: $(STAMP)
	$(VENV)/bin/ruff format solver tests bench
	$(VENV)/bin/ruff check --fix solver tests bench

clean:
	rm -rf build dist *.egg-info solver/_ext/*.so solver/_ext/*.c ext/*.c .pytest_cache
