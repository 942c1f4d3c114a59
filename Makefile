# sleuth: `make demo` and `make test` work on a fresh machine; everything they need is installed here.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
MODELS_STAMP := $(VENV)/.models

# Tests, benchmarks and the demo never reach a model hub.
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export HF_DATASETS_OFFLINE := 1

.PHONY: install models test lint typecheck unit demo bench lock clean

install: $(STAMP)

$(STAMP): pyproject.toml requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@touch $@

models: $(STAMP)
	$(BIN)/python -m retrieval.provision

lint: $(STAMP)
	$(BIN)/ruff check ingest retrieval agent tests benchmarks
	$(BIN)/ruff format --check ingest retrieval agent tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) models
	$(BIN)/pytest

test: lint typecheck unit

demo: $(STAMP) models
	$(BIN)/python -m agent.demo

bench: $(STAMP) models
	$(BIN)/python -m benchmarks.chunking
	$(BIN)/python -m benchmarks.conversion
	$(BIN)/python -m benchmarks.retrieval
	$(BIN)/python -m benchmarks.stores

lock:
	rm -rf /tmp/sleuth-lock && $(PYTHON) -m venv /tmp/sleuth-lock
	/tmp/sleuth-lock/bin/pip install --quiet -e '.[dev]'
	{ echo '# Exact versions installed by `make` (regenerate: make lock). Ranges live in pyproject.toml.'; \
	  /tmp/sleuth-lock/bin/pip freeze --exclude-editable; } > requirements.lock

clean:
	rm -rf $(VENV) .sleuth .pytest_cache .mypy_cache .ruff_cache
