# The two commands the README opens with:
#   make run    set up the virtual environment and run the bot
#   make test   set up the virtual environment and run lint, type checks and the tests
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint format bench build locales clean repeat mutation

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# The Eggs and Empires engine and the AI loop run compiled with mypyc (about twice as fast) wherever the
# machine can compile: rebuilt whenever one of these sources changes (the list is games.build.COMPILED; a
# test keeps the two equal). Without a C compiler the same .py files run interpreted.
NATIVE_SOURCES := games/ai.py games/eggs_empires/rules.py games/eggs_empires/engine.py
NATIVE := build/native.stamp

$(NATIVE): $(STAMP) $(NATIVE_SOURCES) games/build.py
	$(PY) -m games.build --optional
	@mkdir -p build && touch $(NATIVE)

run: $(NATIVE)
	$(PY) -m bot

lint: $(STAMP)
	$(PY) -m ruff format --check .
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(VENV)/bin/lint-imports

test: lint $(NATIVE)
	$(PY) -m pytest -q -n 2 --dist loadgroup

bench: $(NATIVE)
	$(PY) -m bench

# Run one test N times, each in its own pytest process, keeping the logs, database rows and fake Discord
# record of every failing run (harness/repeat.py): make repeat TEST=tests/x.py::test_y N=100
N ?= 100
repeat: $(NATIVE)
	$(PY) -m harness.repeat "$(TEST)" --runs $(N) $(if $(KEEP),--keep $(KEEP))

# Mutation testing (mutmut 3, engine interpreted) of games/core.py and each game's scoring rules: do the
# tests notice small mistakes? An hour or more on 2 cores, so not in CI; the scores go to bench/REPORT.md.
mutation: $(STAMP)
	$(PY) -m pip install --quiet 'mutmut>=3.8,<4'
	$(PY) -m bench mutation
	$(PY) -m bench report

# Apply ruff's formatting (`make lint` checks it).
format: $(STAMP)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

# Compile now (an error if it cannot); `python -m games.build --clean` goes back to interpreted.
build: $(STAMP)
	$(PY) -m games.build
	@mkdir -p build && touch $(NATIVE)

# Re-extract the message template from the code and merge it into the Italian and French catalogs.
locales: $(STAMP)
	$(PY) -m bot.texts.locales

clean:
	$(PY) -m games.build --clean 2>/dev/null || true
	rm -rf build $(VENV) .pytest_cache .mypy_cache .ruff_cache
