# The two commands the README opens with:
#   make run    set up the virtual environment and run the bot
#   make test   set up the virtual environment and run lint, type checks and the tests
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench build locales clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m bot

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m mypy

test: lint
	$(PY) -m pytest -q -n 2 --dist loadgroup

bench: $(STAMP)
	$(PY) -m bench

# Optional: compile the Eggs and Empires engine with mypyc (about 2x faster simulations); the .py files
# stay the fallback and `python -m games.build --clean` removes the compiled modules again.
build: $(STAMP)
	$(PY) -m games.build

# Re-extract the message template from the code and merge it into the Italian and French catalogs.
locales: $(STAMP)
	$(PY) -m bot.locales

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
