# Two commands do everything: `make run` serves every dashboard, `make test` runs the whole suite.
PYTHON ?= python3
VENV   ?= .venv
PORT   ?= 8866
# Serving (see docs/deploy.md): preheated kernels per notebook (each ~140 MB, held while the
# server runs: POOL=1 is ~1.4 GB for the eleven notebooks), the most kernels in all (preheated
# ones included), the host names the server answers to, the address it listens on, and how long an idle
# open page keeps its kernel; TOKEN, if set, must be given once as ?token=... (docs/deploy.md).
POOL        ?= 1
# POOLS: the pools of given notebooks instead, e.g. POOLS=infinity-n4-dodge.ipynb=25 for a class.
POOLS       ?=
MAX_KERNELS ?= 40
# PER_ADDRESS: most dashboards one client address may have open at once (0: no limit).
PER_ADDRESS ?= 10
HOSTS       ?= 127.0.0.1,localhost
IP          ?= 127.0.0.1
IDLE        ?= 1800
TOKEN       ?=
# TRUST_PROXY=1: behind a reverse proxy that sets X-Real-IP, count each device by that address.
TRUST_PROXY ?=
# make site: designers' rule files, each published as its own page (RULES="my_rule.py house.py").
RULES       ?=
# make mutate: modules to check again (dotted names); ALL=1: every mutant again. By default a
# run checks only the functions changed since the verdicts kept in tools/mutation_results.json.
MODULES     ?=
ALL         ?=
# make load: sessions opened over RAMP seconds; FLOOD page requests of a stranger from one address.
SESSIONS    ?= 30
RAMP        ?= 30
FLOOD       ?= 0
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.d/dodge-workbook.json

.PHONY: run lab test test-site bench bench-browser bench-site load docs-media mutate install plotly-js site clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

## Bytecode checked by its source's hash, not by the source's modification time (pip's way): where
## the files' times change after the install (a tree copied or restored) and bytecode may not be
## written again (PYTHONDONTWRITEBYTECODE), every process would compile all it imports from source
## again (a kernel's start 0.8 s instead of 0.3 s). The project's own packages too, which an
## editable install leaves to be compiled on first import. A file that does not compile (as pip
## does) is left to be compiled, or refused, when it is imported.
COMPILE := $(BIN)/python -m compileall -qq -f -j 0 --invalidation-mode checked-hash $(VENV)/lib rules_core workbook \
	  || echo "Some files were not compiled to bytecode: they are compiled when imported."

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-compile -e .
	$(COMPILE)
	touch $@

$(TSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-compile -e '.[test]'
	$(COMPILE)
	touch $@ $(STAMP)

install: $(STAMP) $(LAB_OVERRIDES)

## JupyterLab's defaults for this project (docs/workbook.md, "Saved notebooks"): installed where
## JupyterLab reads a package's defaults, so `jupyter lab` does not save the dashboards' widget
## state into a notebook unless a user turns "Save Widget State Automatically" on.
$(LAB_OVERRIDES): server/jupyter/lab/overrides.d/dodge-workbook.json | $(BIN)/python
	mkdir -p $(dir $@) && cp $< $@

## The notebooks in JupyterLab, for designers who explore in code (README, "Exploring in code").
lab: $(STAMP) plotly-js $(LAB_OVERRIDES)
	$(BIN)/jupyter lab notebooks

## plotly's smaller cartesian bundle for the dashboards' charts, fetched once (docs/deploy.md).
plotly-js: $(STAMP)
	@$(BIN)/python tools/fetch_plotly.py

## Serve all dashboards on 127.0.0.1 (Voilà with preheated kernels, a kernel cap, a Host allowlist).
run: $(STAMP) plotly-js
	$(BIN)/python server/voila_app.py notebooks --port=$(PORT) --Voila.ip=$(IP) --pool=$(POOL) \
	  --pools=$(POOLS) --max-kernels=$(MAX_KERNELS) --max-per-address=$(PER_ADDRESS) --hosts=$(HOSTS) \
	  --idle-timeout=$(IDLE) $(if $(TOKEN),--token=$(TOKEN)) $(if $(TRUST_PROXY),--trust-xheaders=True)

## Run the whole suite: core, workbook, notebooks and browser. On a fresh machine what the tests
## need is made side by side, each in the background where it can be: Chromium's install from the
## first minute, beside the virtualenv's; once the project is installed (the site's build imports
## it), the static site's build (its downloads and build, at a lower priority; the site's tests
## wait for it) and the Brotli forms of the pages' files (kept on disk; a server that starts
## meanwhile serves gzip until each is made).
test: $(LAB_OVERRIDES)
	@$(PYTHON) tools/ensure_chromium.py --begin
	@$(MAKE) --no-print-directory $(TSTAMP)
	@mkdir -p .site-build && nohup nice -n 10 $(BIN)/python tools/site/build.py --if-stale \
	  >> .site-build/background.log 2>&1 < /dev/null &
	@$(MAKE) --no-print-directory plotly-js
	@nohup nice -n 10 $(BIN)/python server/voila_app.py notebooks --precompress=True \
	  >> .site-build/precompress.log 2>&1 < /dev/null &
	@$(BIN)/python tools/ensure_chromium.py --wait
	$(BIN)/python -m pytest

## Benchmarks; writes docs/benchmarks.md.
bench: $(TSTAMP)
	$(BIN)/python benchmarks/run.py --write docs/benchmarks.md

## Browser timings (open, update, transfer) with the load at measurement; writes docs/browser-timings.md.
bench-browser: $(TSTAMP) plotly-js
	@$(BIN)/python tools/ensure_chromium.py
	$(BIN)/python tools/bench_browser.py --write docs/browser-timings.md

## A class on one machine: SESSIONS dashboards over RAMP s in a headless browser, loopback only.
load: $(TSTAMP) plotly-js
	@$(BIN)/python tools/ensure_chromium.py
	$(BIN)/python tools/load.py --sessions=$(SESSIONS) --ramp=$(RAMP) --pool=$(POOL) \
	  --pools=$(POOLS) --max-kernels=$(MAX_KERNELS) --per-address=$(PER_ADDRESS) --flood=$(FLOOD) \
	  --write docs/load.md

## Refresh the screenshots in docs/img/: every dashboard at 390, 1366 and 1920 px and the Roll,
## Simulate and Compare panels opened (a browser test run; timings: make bench-browser).
docs-media: $(TSTAMP) plotly-js
	@$(BIN)/python tools/ensure_chromium.py
	WORKBOOK_UPDATE_DOCS=1 $(BIN)/python -m pytest tests/browser -q

## Mutation testing of dist.py and every system: checks the mutants of every function changed
## since the kept verdicts (tools/mutation_results.json), or MODULES="rules_core.systems.eldfall.dice
## ...", or ALL=1 (hours on 2 cores); saves the verdicts and writes docs/mutation.md.
mutate: $(TSTAMP)
	$(if $(ALL),rm -rf mutants,$(BIN)/python tools/mutation_report.py --restore)
	$(BIN)/mutmut run $(foreach m,$(MODULES),'$(m).*')
	$(BIN)/python tools/mutation_report.py --write docs/mutation.md

## The static site: every dashboard runs in the reader's browser (Pyodide); builds site/ from
## PyPI and npm only, every file pinned and hashed in tools/site/lock.json, downloads cached
## (~/.cache/dodge-workbook-site) so a rebuild needs no network. Serve: python -m http.server -d site
## RULES="my_rule.py ...": each designer's rule file (as --system-module takes it) its own page.
site: $(STAMP)
	$(BIN)/python tools/site/build.py --if-stale $(foreach rule,$(RULES),--rule $(rule))

## The static site's tests alone (make test runs them too): the build script's checks, then
## Chromium on site/ (built or reused) with no network but 127.0.0.1.
test-site: $(TSTAMP)
	@$(BIN)/python tools/ensure_chromium.py
	$(BIN)/python -m pytest tests/site -n 0

## The static site in Chromium: first headline and interactive (cold, warm), a control change, the
## transfer (gzip -6 and brotli), each against its target.
bench-site: $(TSTAMP) site
	@$(BIN)/python tools/ensure_chromium.py
	$(BIN)/python tools/site/bench.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis mutants
