# `make run` and `make test` set everything up on a fresh machine with Python 3.11.
# The interpreter the venv is built on: the first Python 3.11 that can make a venv,
# Debian's own first. Debian's python3.11 has libpython linked in and is built
# optimised; pyenv's default build (a shared libpython, no profile-guided
# optimisation) runs the server with 12% more instructions and about 18% more
# CPU a move (bench/bench_server_instructions.py, bench/bench_http.py;
# docs/benchmarks.md). Any Python 3.11 works: `make setup PYTHON=python3.11`.
PYTHON ?= $(shell for p in /usr/bin/python3.11 python3.11 python3; do \
  $$p -c 'import sys, venv, ensurepip; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null && { echo $$p; exit; }; \
  done; echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup lock run worker test test-fast test-latest lint docs format bench ladder fuzz clean

# `make setup` installs exactly the versions in requirements.lock, each checked
# against its hash, so a fresh machine runs what CI tested; the project itself
# goes on top without touching them.
$(STAMP): requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --require-hashes -r requirements.lock
	$(BIN)/python -m pip install -q --no-deps -e .
	touch $(STAMP)

# Then the rules compiled with mypyc (compile_rules.py, domain/compiled_rules.py) where the machine
# has a C compiler and Python's headers, and one line saying which run. Without them nothing changes:
# the Python source runs, as it always does with MENAGERIE_PURE=1. Compiling takes about 80 s of CPU,
# and only when a source changed (the script compares their hashes with the build's); a source edited
# since runs as Python until the next `make setup`.
setup: $(STAMP)
	@$(BIN)/python compile_rules.py

# requirements.lock: every package `.[dev]` needs, pinned with its hashes, by pip-tools
# (in a venv of its own, so the tool is not part of what it locks). It keeps the
# pins it has and resolves only what pyproject.toml changed; `make lock
# LOCK_FLAGS=--upgrade` moves everything to the newest versions the ranges admit.
LOCK_VENV := .venv-lock
LOCK_FLAGS ?=
lock:  ## (re)write requirements.lock from pyproject.toml's ranges
	test -x $(LOCK_VENV)/bin/pip-compile || { $(PYTHON) -m venv $(LOCK_VENV) && \
	  $(LOCK_VENV)/bin/python -m pip install -q pip-tools==7.6.2; }
	$(LOCK_VENV)/bin/pip-compile -q --generate-hashes --extra dev --strip-extras --allow-unsafe \
	  --no-emit-index-url --no-emit-find-links $(LOCK_FLAGS) -o requirements.lock pyproject.toml

PORT ?= 8000
run: setup  ## the API on 127.0.0.1:$(PORT) (embedded fakeredis and jobs unless REDIS_URL is set)
	$(BIN)/menagerie serve --port $(PORT)

worker: setup  ## an RQ worker (needs REDIS_URL)
	$(BIN)/menagerie worker

# Its last lines give the line coverage of domain, projections, service and workers
# (pyproject.toml's [tool.coverage]); under COVERAGE_FLOOR the run fails. The floor is a
# little under what the suite measures: 92.5% on a subset of 1,211 of its tests (the whole
# suite covers at least that), with room for a merge's untested lines.
COVERAGE_FLOOR ?= 90
#
# The whole suite runs the Python source, the reference (coverage measures only it: a compiled
# module runs no Python lines); where the rules are compiled the fast tests run again against them,
# and MENAGERIE_RULES makes each run fail if the other kind is loaded (tests/test_compiled_rules.py).
RULES_BUILT = $$(test -f .compiled/manifest.json && echo compiled || echo pure)
test: setup  ## the whole suite and its coverage (real-Redis tests need REDIS_URL; they are skipped loudly without it), then the fast tests compiled
	MENAGERIE_PURE=1 MENAGERIE_RULES=pure $(BIN)/python -m pytest -n 2 --durations=15 --cov --cov-report= --cov-fail-under=$(COVERAGE_FLOOR)
	@if [ $(RULES_BUILT) = compiled ]; then echo "== the fast tests and the bad-input tests against the compiled rules"; \
	  MENAGERIE_RULES=compiled $(BIN)/python -m pytest -n 2 -q $(FAST_TESTS) $(COMPILED_BAD_INPUT) tests/test_compiled_rules.py; \
	elif [ -n "$$CI" ]; then echo "CI: the rules are not compiled (make setup said why)"; exit 1; fi

# Client input against the compiled rules too: mypyc checks types at run time, so a value of the
# wrong type reaching a typed name would be a 500 there where the source coped (about 20 s).
COMPILED_BAD_INPUT := tests/service/test_bad_input.py tests/service/test_json_bodies.py \
  tests/service/test_action_body.py tests/service/test_request_fuzz.py

# The pure layers: the rules, the views and redaction, every game's invariants and the
# import layers; no Redis, no Flask app, no server. 40-50 s of CPU, about 25 s in two processes.
FAST_TESTS := tests/domain tests/test_every_game.py tests/test_layers.py
# Against the compiled rules where built (MENAGERIE_PURE=1 make test-fast: the source).
test-fast: setup  ## the domain and projections tests only (no Redis, no server), in seconds
	$(BIN)/python -m pytest -n 2 $(FAST_TESTS) tests/test_compiled_rules.py

# The newest versions pyproject.toml's ranges admit, in a venv of their own, so a
# breaking release of a dependency fails here the day it appears instead of on the
# next `make lock`. The real-Redis tests are the ones a new client library breaks.
LATEST_VENV := .venv-latest
test-latest:  ## the real-Redis tests on the newest versions the ranges admit (needs REDIS_URL)
	test -x $(LATEST_VENV)/bin/python || $(PYTHON) -m venv $(LATEST_VENV)
	$(LATEST_VENV)/bin/python -m pip install -q --upgrade --upgrade-strategy eager -e ".[dev]"
	$(LATEST_VENV)/bin/python -m pip list --format=freeze | grep -i -E '^(redis|rq|flask|fakeredis|marshmallow|granian)=='
	$(LATEST_VENV)/bin/python -m pytest -n 2 -m redis

lint: setup  ## ruff (lint and format check) and mypy on production code
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

docs: setup  ## the docs site (docs/, mkdocs.yml) into site/; --strict: a broken link or a missing page fails
	$(BIN)/mkdocs build --strict

format: setup  ## apply ruff's formatting and safe fixes
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: setup  ## every benchmark script but the bot ladder (needs REDIS_URL for the store and HTTP figures)
	@for script in bench/bench_*.py; do name=$$(basename $$script .py); [ $$name = bench_bots ] && continue; \
	  echo "== $$name"; $(BIN)/python -m bench.$$name || exit 1; done

ladder: setup  ## the bots' strength ladder: 400 games a table, CPU-hours on one core
	$(BIN)/python -m bench.bench_bots

# Schemathesis with every check against a running service (`make run` in another shell):
# no 5xx, every status and body as openapi.yaml says, what the spec allows never a 400.
# The hooks (tests/support/fuzz_targets.py) aim most cases at real games and tournaments
# with their tokens. Streams are left out here: the stateful phase's links would open one on
# a game in play, which stays open; the suite's schemathesis run fuzzes them, aimed at a
# finished game or tournament (tests/service/test_schemathesis.py). FUZZ_SECONDS=600 for the 10-minute run; the summary is schemathesis's own, the
# failures (if any) are also in .schemathesis/. The fair-use limits (429) throttle the
# creates a fuzzer makes: serve with MENAGERIE_RATE_LIMITS=off to reach further.
FUZZ_URL ?= http://127.0.0.1:8000
FUZZ_SECONDS ?= 60
fuzz: setup  ## schemathesis (all checks, seeded) against the service at FUZZ_URL for FUZZ_SECONDS
	SCHEMATHESIS_HOOKS=tests.support.fuzz_targets $(BIN)/schemathesis run openapi.yaml --url $(FUZZ_URL) \
	  --checks all --max-time $(FUZZ_SECONDS) --continue-on-failure --exclude-path-regex '.*/stream$$' \
	  --seed 1 --workers 1 --report junit --report-dir .schemathesis

clean:
	rm -rf $(VENV) $(LOCK_VENV) $(LATEST_VENV) .compiled .pytest_cache .hypothesis .mypy_cache .ruff_cache .schemathesis site
