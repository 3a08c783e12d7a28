PYTHON ?= python3

.PHONY: install test test-all bench lint weights

install:
	$(PYTHON) -m pip install -e '.[test]'

# The default test run (CI runs exactly this): under 10 minutes on 2 cores.
test:
	$(PYTHON) -m pytest -q -m "not slow"

# Everything, including the long cross-checks.
test-all:
	$(PYTHON) -m pytest -q

bench:
	$(PYTHON) -m bench

# Style (ruff), the layers (import-linter: pyproject.toml [tool.importlinter]) and types (mypy).
lint:
	$(PYTHON) -m ruff check solver gyges_cli tests bench
	$(PYTHON) -c "from importlinter.cli import lint_imports_command; lint_imports_command()"
	$(PYTHON) -m mypy

# The engine's evaluation weights, trained by seeded self-play (solver/gyges/engine/training.py):
# rewrites solver/gyges/engine/weights.json, the same bytes on the same kind of machine.
weights:
	gyges engine-weights --jobs 2 --out solver/gyges/engine/weights.json
