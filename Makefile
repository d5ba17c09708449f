# Two commands do everything on a fresh clone: `make run` serves, `make test` runs the whole suite.
# Each creates .venv, installs the pinned dependencies and runs `npm ci` when they are missing or stale.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
STAMP := $(VENV)/.installed
NPM_STAMP := frontend/node_modules/.installed
# The translations' .mo files, built from the committed .po catalogs (not committed themselves).
CATALOGS := $(wildcard */locale/*/LC_MESSAGES/*.po)
MO_STAMP := .messages-compiled
JSBIN := node_modules/.bin
# Python's compiled modules (and pytest's rewritten test modules) are written and reused, also where the
# environment says not to (PYTHONDONTWRITEBYTECODE): without them each of the suite's workers compiles every
# module it imports and rewrites every test module's assertions, and so does each server a test starts (a
# worker's collection: 15.7 s of CPU without, 5.5 s with; docs/benchmarks.md, "The suite's own cost").
unexport PYTHONDONTWRITEBYTECODE

.PHONY: screenshots run test test-suite checks lint lint-js test-js typecheck bench bench-engine bench-cpu bench-analysis bench-pairing bench-server bench-puzzles bench-bots bench-streams bench-arena bench-study bench-arcade-engine bench-analysis-load bench-arcade bench-arcade-frames deps messages compilemessages clean

deps: $(STAMP) $(NPM_STAMP) $(MO_STAMP)

# The packages go in with uv (pinned here, installed by the venv's own pip): it resolves and installs the
# pinned set in seconds where pip took 20 s on a quiet machine and 80-95 s on a busy one (docs/benchmarks.md,
# "The suite's own cost").
UV_VERSION := 0.13.9

$(STAMP): pyproject.toml requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/uv --version 2>/dev/null | grep -qF ' $(UV_VERSION)' || \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
	$(BIN)/uv pip install --quiet --python $(BIN)/python -c requirements.lock -e '.[dev]'
	@touch $@

$(NPM_STAMP): frontend/package.json frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

# The catalogs (docs/translating.md): `make messages` extracts the texts into every app's .po files (Django's
# makemessages, needs GNU gettext); `make compilemessages` builds the .mo files Django reads (Babel, pure
# Python), which `make deps` does whenever a catalog changed.
messages: $(STAMP)
	$(BIN)/python scripts/make_messages.py

compilemessages: $(STAMP)
	$(BIN)/python scripts/compile_messages.py
	@touch $(MO_STAMP)

$(MO_STAMP): $(STAMP) $(CATALOGS) scripts/compile_messages.py
	$(BIN)/python scripts/compile_messages.py
	@touch $@

run: deps
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python -m config.serve -b $(HOST) -p $(PORT) config.asgi:application

# ruff, the import contracts (pyproject.toml), and every module at most 400 lines (tests/test_sizes.py).
lint: $(STAMP) lint-js
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/pytest -q -p no:cacheprovider tests/test_sizes.py

# The pages' ES modules, as the browser loads them (no build step): biome lints them and checks their
# format (`cd frontend && npx biome check --write` fixes it), tsc checks their JSDoc types.
lint-js: $(NPM_STAMP)
	cd frontend && $(JSBIN)/biome check && $(JSBIN)/tsc -p jsconfig.json

# Unit tests of the pages' pure parts (frontend/tests, vitest in Node).
test-js: $(NPM_STAMP)
	cd frontend && $(JSBIN)/vitest run

# mypy --strict over every app, the harness, the bot client and the scripts (pyproject.toml's [tool.mypy]).
typecheck: $(STAMP)
	$(BIN)/mypy

# The whole suite, with lint (Python and JavaScript), typecheck and the JS unit tests beside it (their
# output printed whole as each ends). The suite runs on TEST_WORKERS processes (pytest-xdist; `auto`: one per
# core and one more, for the tests that wait: tests/conftest.py), each with a database, a Redis
# database and a browser of its own (tests/conftest.py), the tests sent one at a time, the longest first,
# but a module marked xdist_group sent whole to one worker (its tests share a server; --dist loadgroup, in
# the collection's order); TEST_WORKERS=0: one process.
TEST_WORKERS ?= auto
test:
	@$(MAKE) --no-print-directory -j2 deps
	@$(MAKE) --no-print-directory -j2 checks test-suite

checks: deps
	@$(MAKE) --no-print-directory -Otarget lint typecheck test-js

test-suite: deps
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder

# Quick figures (70 s on the 2-core CI machine, 2026-12-01); `make bench-cpu` adds the CPU ladder (about an hour on one core).
bench: bench-engine bench-analysis
	$(BIN)/python scripts/bench_cpu.py --speed

bench-engine: $(STAMP)
	$(BIN)/python scripts/bench_engine.py

# The arcade's engine: slides, moves and replays per second on each mode (about 30 s; docs/arcade.md).
bench-arcade-engine: $(STAMP)
	$(BIN)/python scripts/bench_arcade.py

# Arcade runs over the page's socket (1,000 runs; 200 moves/s embedded, 400 on PostgreSQL + Redis when DATABASE_URL
# and REDIS_URL are set) beside a bare echo at the same rate: done, p50/p99 and the server's CPU per move.
bench-arcade: $(STAMP)
	$(BIN)/python scripts/bench_arcade_server.py

# Post-game analysis of 40- and 64-ply games (part of `make bench`'s 70 s).
bench-analysis: $(STAMP)
	$(BIN)/python scripts/bench_analysis.py

# Puzzles mined per minute of CPU, the shipped pool by theme, the cost of judging an attempt (34 s on
# the 2-core CI machine); writes the figures into docs/benchmarks.md.
bench-puzzles: $(STAMP)
	$(BIN)/python scripts/bench_puzzles.py --write-docs docs/benchmarks.md

# The study tools: the opening explorer with 1,000,000 games loaded by the benchmark (a query's p99, the
# storage per game) and the analysis board's answers per CPU second; writes the figures into docs/benchmarks.md.
bench-study: $(STAMP)
	$(BIN)/python scripts/bench_study.py --write-docs docs/benchmarks.md

# 16 heavy analysis board requests in flight on one process: another client's GET /api/session p95 against
# the idle process's (issue 47); embedded, or PostgreSQL + Redis when DATABASE_URL and REDIS_URL are set.
bench-analysis-load: $(STAMP)
	$(BIN)/python scripts/bench_analysis_load.py --attackers 16 --requests 200

clean:
	rm -rf $(VENV) $(MO_STAMP) frontend/node_modules db.sqlite3 db.sqlite3-wal db.sqlite3-shm staticfiles .pytest_cache .mypy_cache .ruff_cache

bench-cpu: $(STAMP)
	$(BIN)/python scripts/bench_cpu.py

# Time to pair 200 seekers arriving at 20/s (two processes with DATABASE_URL + REDIS_URL, else one on SQLite).
bench-pairing: $(STAMP)
	$(BIN)/python scripts/bench_pairing.py
# The server under load, side by side with a bare Channels echo on the same channel layer: the embedded
# default, then (with DATABASE_URL and REDIS_URL set) PostgreSQL + Redis on one and two processes, idle
# sockets and a spectator storm. Writes the figures into docs/benchmarks.md. About fifteen minutes.
# One configuration by hand: scripts/bench_server.py --spawn --games 200 --rate 200 --seconds 30
bench-server: $(STAMP)
	$(BIN)/python scripts/bench_server.py --suite --write-docs docs/benchmarks.md

# A bot move's round trip (POST to its gameState on the bot's own stream), p50/p99 over 100 moves: embedded,
# and with DATABASE_URL + REDIS_URL also PostgreSQL + Redis on two processes. 18 s embedded.
bench-bots: $(STAMP)
	$(BIN)/python scripts/bench_bots.py --moves 100 --write-docs docs/benchmarks.md

# Other requests' latency and PostgreSQL connections with 0, 8 and 40 bot streams open (needs DATABASE_URL and
# REDIS_URL).
bench-streams: $(STAMP)
	$(BIN)/python scripts/bench_streams.py --requests 200 --write-docs docs/benchmarks.md

# 500 players in one arena on one process: a pairing wave's time (p50, p99) and standings frames per second.
bench-arena: $(STAMP)
	$(BIN)/python scripts/bench_arena.py

# Every page (harness/site_pages.py) x 4 viewports x light/dark x English/Japanese into screenshots/ (ignored
# by git): look at the pages you changed before calling them done. Japanese needs a CJK font
# (apt-get install -y fonts-noto-cjk).
screenshots: deps
	$(BIN)/python scripts/screenshots.py

# The 3D 2048 page's frames in Chromium with software WebGL: 27 tiles while the view turns, then keys pressed
# while it turns (the key handler's time, the board shown inside it); docs/benchmarks.md.
bench-arcade-frames: $(STAMP)
	$(BIN)/python scripts/bench_arcade_frames.py
