# Two entry points for a fresh machine: `make demo` and `make test` (see README).
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
PROVER := $(VENV)/bin/prover

.PHONY: setup demo test test-slow lint bench screenshots

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e ".[dev]"
	# CPU torch first (a local wheel on our machines), then the LLM extra; without that
	# wheel the LLM tests skip rather than pull a multi-GB CUDA build.
	($(PIP) install -q torch==2.13.0 && $(PIP) install -q -e ".[dev,llm]") || \
	  echo "note: torch==2.13.0 not installable here; LLM tests will be skipped"
	touch $@

setup: $(VENV)/.installed

demo: setup
	$(PROVER) prove "theorem nesbitt (a b c : ℝ) (ha : 0 < a) (hb : 0 < b) (hc : 0 < c) : a / (b + c) + b / (c + a) + c / (a + b) ≥ 3 / 2 := by sorry" --out runs/demo

# CI's command: everything but the tests marked `slow` (long fuzzing, the slowest saved-proof
# renders, proof searches of whole suites); those are `make test-slow`.
test: setup
	$(PY) -m pytest -q -m "not slow"

test-slow: setup
	$(PY) -m pytest -q -m slow

lint: setup
	$(VENV)/bin/ruff check prover tests

# Full benchmark run (resumable: rerun to continue); see README "Evaluating on benchmarks".
bench: setup
	$(PROVER) eval benchmarks/mo-int-20.jsonl benchmarks/chenneq.jsonl benchmarks/567neq-dev.jsonl \
	  --time-limit 60 --workers 2 --out runs/full-60s

# Screenshots of a multi-step proof page (IMO 2001/2) into docs/; needs Debian's chromium.
screenshots: setup
	$(PY) -m prover.search.screenshot tests/data/imo2001_p2.proof.json docs/proof-page.png --width 1400 --height 2150
