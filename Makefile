# Two commands do everything: `make run` serves every dashboard, `make test` runs the whole suite.
PYTHON ?= python3
VENV   ?= .venv
PORT   ?= 8866
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test

.PHONY: run test bench docs-media mutate install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(STAMP)

install: $(STAMP)

## Serve all dashboards with Voilà on 127.0.0.1 (idle kernels culled).
run: $(STAMP)
	$(BIN)/voila notebooks --no-browser --port=$(PORT) --Voila.ip=127.0.0.1 \
	  --MappingKernelManager.cull_interval=30 --MappingKernelManager.cull_idle_timeout=300

## Run the whole suite: core, workbook, notebooks and browser.
test: $(TSTAMP)
	@$(BIN)/python tools/ensure_chromium.py
	$(BIN)/python -m pytest

## Benchmarks; writes docs/benchmarks.md.
bench: $(TSTAMP)
	$(BIN)/python benchmarks/run.py --write docs/benchmarks.md

## Refresh the dashboard screenshots and browser timings in docs/ (a browser test run).
docs-media: $(TSTAMP)
	@$(BIN)/python tools/ensure_chromium.py
	WORKBOOK_UPDATE_DOCS=1 $(BIN)/python -m pytest tests/browser -q

## Mutation testing of dist.py and every system (tens of minutes); writes docs/mutation.md.
mutate: $(TSTAMP)
	rm -rf mutants
	$(BIN)/mutmut run
	$(BIN)/python tools/mutation_report.py --write docs/mutation.md

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis mutants
