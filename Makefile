# The two set-up commands (README): `make demo` and `make test`. Both create .venv if it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: demo test lint bench soak clean browser postgres

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-dev: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e '.[dev,ai]'
	touch $@

demo: $(VENV)/.installed
	$(BIN)/kifu demo

# The store tests start a throwaway PostgreSQL server (tests/pgserver.py); install it when it is missing.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
postgres:
	@ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || command -v pg_ctl >/dev/null 2>&1 || { \
	  echo "installing PostgreSQL from the system's packages"; \
	  $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; }

# The suite over up to four processes (pytest-xdist; a test file stays on one worker, so its module fixtures are
# built once). Plain `pytest` runs it in one process.
test: $(VENV)/.installed-dev postgres browser
	$(BIN)/python -m pytest -n logical --maxprocesses 4 --dist loadfile

# The HTML timeline is tested in headless Chromium from Debian's packages, driven by Playwright (the dev
# extra). That test fails rather than skips without a browser, so Chromium is installed here when missing.
# Playwright's own browser download is never used: the test launches /usr/bin/chromium.
browser: $(VENV)/.installed-dev
	@[ -x /usr/bin/chromium ] || { \
	  echo "installing Chromium from the system's packages"; \
	  $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; }
	@# Card names are Japanese: without a CJK font the page draws them as empty boxes (a test checks the glyphs).
	@[ -n "$$(fc-list :lang=ja 2>/dev/null)" ] || { \
	  echo "installing a CJK font (fonts-noto-cjk) from the system's packages"; \
	  $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q fonts-noto-cjk; }
	@$(BIN)/python -c "import playwright.sync_api" 2>/dev/null || \
	  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $(BIN)/pip install -q playwright

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/mypy

$(VENV)/.installed-bench: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e '.[dev,ai,bench]'
	touch $@

bench: $(VENV)/.installed-bench
	$(BIN)/python -m bench
	$(BIN)/python -m bench.playouts
	$(BIN)/python -m bench.search
	$(BIN)/python -m bench.concurrent
	$(BIN)/python -m bench.commands
	$(BIN)/python -m bench.debug

# Every property test (tests/properties.py) with many examples and fresh randomness: SOAK_GAMES random games
# across the four games (the playout properties share them), every other property SOAK_SCALE times its own
# count. Each failure is printed with the @example that pins it; the summary counts the games played per game.
# SOAK_TESTS narrows it (the playout properties alone: tests/test_conformance.py).
SOAK_GAMES ?= 10000
SOAK_SCALE ?= 20
SOAK_TESTS ?= tests
soak: $(VENV)/.installed-dev postgres
	KIFU_SOAK_GAMES=$(SOAK_GAMES) KIFU_SOAK_SCALE=$(SOAK_SCALE) $(BIN)/python -m pytest -p no:cacheprovider -q $(SOAK_TESTS)

clean:
	rm -rf $(VENV) kifu.db kifu.db-wal kifu.db-shm
