# The two set-up commands (README): `make demo` and `make test`. Both create .venv if it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: demo test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-dev: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

demo: $(VENV)/.installed
	$(BIN)/kifu demo

test: $(VENV)/.installed-dev
	$(BIN)/python -m pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/mypy

$(VENV)/.installed-bench: $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e '.[dev,bench]'
	touch $@

bench: $(VENV)/.installed-bench
	$(BIN)/python -m bench
	$(BIN)/python -m bench.playouts

clean:
	rm -rf $(VENV) kifu.db kifu.db-wal kifu.db-shm
