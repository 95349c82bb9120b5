# animspec: every task a developer or CI needs, from a fresh clone.
#   make demo      install into .venv and run info, validate, compare and dump on the shipped samples
#   make test      install into .venv (and the pinned compiler into node_modules) and run the tests
#   make generate  recompile ksy/*.ksy into generated/ (needs node)
#   make mutation  mutation testing of the numeric and byte-level core (not part of make test)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SAMPLE := examples/swing.animbin

.PHONY: demo test generate examples web bench fuzz mutation clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Debug mode: every parsed object records where each field starts, which is how a parse
# error names its byte offset and field (python/animspec/kaitai_read.py).
generate: node_modules/.installed
	rm -f generated/*.py
	node tools/ksc.js --debug --lint -d generated ksy/*.ksy

demo: $(VENV)/.installed
	$(BIN)/animspec info $(SAMPLE)
	$(BIN)/animspec validate $(SAMPLE) examples/sparse.animbin
	$(BIN)/animspec compare examples/sparse.animbin
	$(BIN)/animspec dump --json $(SAMPLE) | head -24

test: $(VENV)/.installed node_modules/.installed
	$(BIN)/python -m pytest

# Rebuild the samples under examples/ with the project's own writers.
examples: $(VENV)/.installed
	for script in examples/make_*.py; do $(BIN)/python $$script || exit 1; done

# Browser viewer: web/build/ gets the parsers compiled from ksy/, the kaitai-struct runtime
# and three.js as classic scripts, so web/index.html also works from file://.
web: node_modules/.installed
	node tools/build_web.js

# Long fuzz run: each target FUZZ_SECONDS s; crashes go to tests/fuzz/regressions/ (fix the
# code, keep the input, commit both). The test suite runs a short, fixed-seed version.
FUZZ_SECONDS ?= 600
fuzz: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[fuzz]'
	$(BIN)/python tools/fuzz.py run --seconds $(FUZZ_SECONDS)

# Mutation testing of the numeric and byte-level core (tools/mutation.py; figures and the
# equivalent mutants in docs/mutation.md). Not part of `make test`: it runs each module's
# mutants against the tests mapped to it, niced, 2 at a time. One module:
# make mutation MUTATION_ARGS=fixed_point.py
MUTATION_ARGS ?=
mutation: $(VENV)/.installed
	nice -n 10 $(BIN)/python tools/mutation.py --jobs 2 $(MUTATION_ARGS)

bench: $(VENV)/.installed
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) node_modules build web/build test-output *.egg-info python/*.egg-info
