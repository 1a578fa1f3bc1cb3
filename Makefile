# forest-solver: `make demo` and `make test` do the whole set-up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: all install browser demo test test-all bench lint format clean

all: test

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip setuptools

# Re-install when the build description or the Cython sources change.
$(STAMP): $(VENV)/bin/python pyproject.toml setup.py $(wildcard ext/*.pyx ext/*.pxd)
	$(PY) -m pip install --quiet -e ".[dev,openspiel,analysis,dask,serve]"
	touch $(STAMP)

install: $(STAMP)

# The web table's browser test drives Debian's Chromium through Playwright (the Python client is
# in the dev extra; `playwright install` cannot download browsers here). Installed only when
# missing; without it the browser test skips, except under CI=true, where it fails.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } || \
	  echo "make browser: could not install chromium (the browser test will skip; CI=true fails it)"

demo: $(STAMP)
	$(PY) -m solver.demo

# CI runs `make test`: the linters first, then the tests.
test: lint browser
	$(PY) -m pytest -q

test-all: $(STAMP)
	$(PY) -m pytest -q -m "slow or not slow"

bench: $(STAMP)
	$(PY) -m pytest bench -q -s --benchmark-enable -o addopts="--import-mode=importlib" --benchmark-columns=min,median,max,rounds

lint: $(STAMP)
	$(VENV)/bin/ruff check solver tests bench
	$(VENV)/bin/ruff format --check solver tests bench
	$(PY) -m mypy solver

format: $(STAMP)
	$(VENV)/bin/ruff format solver tests bench
	$(VENV)/bin/ruff check --fix solver tests bench

clean:
	rm -rf build dist *.egg-info solver/_ext/*.so solver/_ext/*.c ext/*.c .pytest_cache
