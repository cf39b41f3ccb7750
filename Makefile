# Two entry points for a fresh machine: `make demo` and `make test` (see README).
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
PROVER := $(VENV)/bin/prover

.PHONY: setup demo test lint bench

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e ".[dev]"
	touch $@

setup: $(VENV)/.installed

demo: setup
	$(PROVER) prove "theorem nesbitt (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2 := by sorry" --out runs/demo

test: setup
	$(PY) -m pytest -q

lint: setup
	$(VENV)/bin/ruff check prover tests
