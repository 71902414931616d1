# Developer commands. Each creates .venv (with a Python >= 3.12, which Django 6.1 needs) and
# installs the project into it when pyproject.toml is newer than the last install.

VENV := .venv
PYTHON := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
HOST_PORT := 127.0.0.1:8000

# Interpreters tried in order to create the venv; the first >= 3.12 that runs wins (pyenv's
# shims exist for versions that are not enabled and then fail, hence the direct paths too).
reverse = $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
PYENV_PYTHONS := $(call reverse,$(sort $(wildcard \
	$(HOME)/.pyenv/versions/3.1[234]*/bin/python3 /root/.pyenv/versions/3.1[234]*/bin/python3)))
PYTHON_CANDIDATES := python3.14 python3.13 python3.12 python3 $(PYENV_PYTHONS)

.PHONY: install compiled-engines run test fuzz lint lighthouse clean-venv

# The site's front-end libraries (Pico CSS, plotly.js's cartesian bundle) and Lighthouse come
# from the npm registry, pinned in package-lock.json; the libraries are served from static files
# (settings.STATICFILES_DIRS), never from a CDN.
NODE_INSTALLED := node_modules/.installed

install: $(INSTALLED) $(NODE_INSTALLED) compiled-engines

# The compiled build of the engines' verification path (mypyc, engines/compiled.py) in
# build/compiled: rebuilt when an engine source it is made from changed, else left as it is.
# Verification uses it while it is current, the pure engines otherwise (and says so);
# DEEPSEA_PURE_ENGINES=1 runs the pure engines anyway (and here keeps the build's own import
# of engines from warning that there is no build yet).
compiled-engines: $(INSTALLED)
	DEEPSEA_PURE_ENGINES=1 $(PYTHON) -c 'from engines.compiled import build; build()'

$(NODE_INSTALLED): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
		echo "error: npm is needed to fetch the site's CSS and charts (Debian: apt-get install npm)." >&2; \
		exit 1; }
	npm ci --no-audit --no-fund
	@touch $@

$(PYTHON):
	@for candidate in $(PYTHON_CANDIDATES); do \
		if $$candidate -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then \
			echo "Creating $(VENV) with $$($$candidate --version) ($$candidate)"; \
			exec $$candidate -m venv $(VENV); \
		fi; \
	done; \
	echo "error: no Python 3.12 or newer found (tried: $(PYTHON_CANDIDATES))." >&2; \
	echo "Install one (Django 6.1 needs it) and run make again." >&2; \
	exit 1

$(INSTALLED): $(PYTHON) pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 12))' || { \
		echo "error: $(VENV) uses Python $$($(PYTHON) -c 'import platform; print(platform.python_version())'); 3.12+ is needed. Remove $(VENV) (make clean-venv) and run make again." >&2; \
		exit 1; }
	$(PYTHON) -m pip install --quiet -e '.[test,compiled]'
	@touch $@

# `make run` serves the site and runs a Celery worker (with beat, for the sweep) beside it, on
# an embedded broker that needs no server unless CELERY_BROKER_URL names one; Ctrl-C stops both.
# The worker consumes every queue of CELERY_TASK_QUEUES (no -Q), single logs' first.
# Static files are collected first and served compressed by whitenoise (SERVE_COLLECTED_STATIC,
# runserver --nostatic), as in production; after editing CSS or JS, run make run again.
# Mail links point at HOST_PORT unless SITE_URL says otherwise.
# The embedded page cache (.broker/cache) starts empty each time: pages cached by the code
# before an edit would otherwise outlive it.
# The worker has no mingle, gossip or heartbeat (one worker, nothing to sync with), so Ctrl-C
# stops it in seconds (a task it was running is handed back: acks are late).
EMBEDDED_BROKER := filesystem://
RUN_BROKER := $(or $(CELERY_BROKER_URL),$(EMBEDDED_BROKER))
RUN_SITE_URL := $(or $(SITE_URL),http://$(HOST_PORT))

run: install
	$(PYTHON) manage.py migrate --noinput
	$(PYTHON) manage.py load_demo
	SERVE_COLLECTED_STATIC=1 $(PYTHON) manage.py collectstatic --noinput --verbosity 0
	@echo "Serving on http://$(HOST_PORT)/ (admin: http://$(HOST_PORT)/admin/, login above), worker on $(RUN_BROKER). Ctrl-C stops both."
	@export CELERY_BROKER_URL='$(RUN_BROKER)' SITE_URL='$(RUN_SITE_URL)' SERVE_COLLECTED_STATIC=1; \
	rm -rf .broker/cache; mkdir -p .broker; \
	$(VENV)/bin/celery -A deepsea worker --beat --schedule .broker/beat-schedule \
		--concurrency 2 --loglevel INFO --without-mingle --without-gossip --without-heartbeat & worker=$$!; \
	trap 'kill -TERM $$worker 2>/dev/null; wait $$worker' EXIT INT TERM; \
	$(PYTHON) manage.py runserver --nostatic $(HOST_PORT)

# Set DATABASE_URL / CELERY_BROKER_URL to run against PostgreSQL / Redis (see .ci/run).
# Three processes by default (pytest-xdist; three keep two cores busy while tests wait on
# browsers, servers and workers): browser tests first on each, the tests that use the
# configured Redis or stacks of servers of their own in the group "services", one at a time on
# one process (tests/conftest.py; its own test shows xdist honours it). Each process has its
# own test database (test_<name>_gw0, _gw1, _gw2); stacks that run the site's own queue names
# get a redis-server of their own, so no two tests share a queue. PYTEST_PARALLEL= (empty)
# runs everything on one process.
PYTEST_PARALLEL ?= -n 3 --dist loadgroup

test: install
	$(VENV)/bin/pytest $(PYTEST_PARALLEL) $(PYTEST_ARGS)

# `make fuzz` explores the property tests (hypothesis, schemathesis: `pytest -m hypothesis`) at
# random, where `make test` under CI=true draws the same examples every run (tests/conftest.py).
# Rounds follow each other for FUZZ_SECONDS, each with a new seed, printed first: a failure
# stops there, and `pytest --hypothesis-seed=SEED` with the same FUZZ_EXAMPLES replays it.
# Each test draws at least FUZZ_EXAMPLES examples a round; the last round is cut at the time.
FUZZ_SECONDS ?= 600
FUZZ_EXAMPLES ?= 200

fuzz: install
	@end=$$(( $$(date +%s) + $(FUZZ_SECONDS) )); round=1; \
	while [ "$$(date +%s)" -lt "$$end" ]; do \
		seed=$$(od -An -N4 -tu4 /dev/urandom | tr -d ' '); \
		echo "fuzz round $$round, $(FUZZ_EXAMPLES) examples a test: --hypothesis-seed=$$seed"; \
		status=0; \
		HYPOTHESIS_PROFILE=fuzz FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) timeout --signal=INT \
			$$(( end - $$(date +%s) )) $(VENV)/bin/pytest -m hypothesis -x -q \
			--hypothesis-seed=$$seed $(PYTEST_ARGS) || status=$$?; \
		if [ "$$status" -eq 124 ]; then echo "fuzz: $(FUZZ_SECONDS) s are up"; exit 0; fi; \
		if [ "$$status" -ne 0 ]; then echo "fuzz: failed with seed $$seed" >&2; exit "$$status"; fi; \
		round=$$((round + 1)); \
	done

# Lighthouse (npm, mobile profile) on every public page of a production-like stack (gunicorn,
# DEBUG off, compressed static files, the demo's data): fails below 90 in performance,
# accessibility or best practices. Needs Debian's Chromium (CHROME_PATH, default /usr/bin/chromium).
lighthouse: install
	$(PYTHON) benchmarks/lighthouse.py

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

clean-venv:
	rm -rf $(VENV)
