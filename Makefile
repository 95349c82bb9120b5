# animspec: every task a developer or CI needs, from a fresh clone.
#   make demo      install animspec alone into .venv (no test tools) and run info, validate,
#                  compare, convert and dump on the shipped samples (outputs in build/demo/)
#   make test      the full run CI does (.ci/run): install into .venv (the pinned compiler into
#                  node_modules, Blender's bpy into .venv-blender, Debian's third-party glTF
#                  samples where it can: tools/test_assets.sh) and run every test
#   make test-quick  the tests without Blender and without Debian's glTF samples: day-to-day work
#   make lint      ruff (lint) and mypy (types) on python/ and blender/, as CI runs them
#   make generate  recompile ksy/*.ksy into generated/ (needs node)
#   make docs      redraw docs/diagrams/*.svg from ksy/*.ksy (needs node and graphviz)
#   make figures   retake the viewer's figures in docs/web/ from the examples (headless chromium)
#   make webide-check IDE=DIR  open every spec with every example in the real Kaitai Web IDE
#   make luna-check LUNA=DIR   export and import clips with Luna Engine IO Tools headless in bpy and
#                  compare with tests/fixtures/luna (LUNA_ARGS="--write tests/fixtures/luna" remakes them;
#                  LUNA_ARGS=--bvh: real motion capture, Luna's files against animspec's, in object space)
#   make acl-check ACL=DIR     the codec benchmark (bench/codec.py) with ACL's compressor beside it,
#                  built from local checkouts (DIR/acl, DIR/rtm, DIR/sjson-cpp); CI never runs it
#   make blender-extension  the Blender add-on as an installable extension zip, wheels bundled
#   make mutation  mutation testing of the numeric and byte-level core (not part of make test)
#   make mutant-effect RUN=F.json  what each survivor of a mutation run of the encoder does to the
#                  files it writes, on real motion capture (tools/mutant_effect.py)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SAMPLE := examples/swing.animbin

.PHONY: demo test test-quick lint generate docs examples figures web bench fuzz mutation mutant-effect clean webide-check luna-check acl-check blender-extension

# animspec itself (what `make demo` needs: its runtime dependencies only), then the test tools.
$(VENV)/.installed-base: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed: $(VENV)/.installed-base
	$(BIN)/python -m pip install --quiet -e '.[test,lint]'
	touch $@

# Blender's bpy module (800 MB, Python 3.11 only, numpy < 2) gets a venv of its own: the
# Blender tests run their scene script there in a subprocess. A failed install does not stop
# `make test`; those tests then fail and name what is missing.
BLENDER_VENV := .venv-blender
$(BLENDER_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(BLENDER_VENV)
	$(BLENDER_VENV)/bin/python -m pip install --quiet -e '.[blender]' && touch $@ \
	  || echo "make: bpy was not installed into $(BLENDER_VENV); the blender tests will fail" >&2

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Debug mode: every parsed object records where each field starts, which is how a parse
# error names its byte offset and field (python/animspec/kaitai_read.py).
generate: node_modules/.installed
	rm -f generated/*.py
	node tools/ksc.js --debug --lint -d generated ksy/*.ksy

# Structure diagrams: the compiler's graphviz target, laid out by Debian's graphviz as SVG
# (committed; a test fails when stale).
docs: node_modules/.installed
	node tools/build_diagrams.js

# The real Kaitai Web IDE in headless chromium, used as a person uses it: upload each spec with
# each example, expand every node, read the error panel and the console (tools/webide_check.js).
# IDE: a clone (or git directory) of github.com/kaitai-io/ide-kaitai-io.github.io, its static
# deploy; nothing is fetched. Trees and screenshots go to build/webide-check/.
IDE ?= $(IDE_REPO)
webide-check: node_modules/.installed
	node tools/webide_check.js --ide "$(IDE)"

# Luna Engine IO Tools (github.com/Pcniado/luna_engine_io_tools, GPL-3.0), the outside .animclip
# writer and reader, driven headless in Blender's bpy through its operators (tools/luna_check.py).
# LUNA: a git directory of it (HEAD is used) or an unpacked snapshot; nothing is fetched, CI never
# runs this. It re-exports the synthetic clips, re-imports them and compares with
# tests/fixtures/luna (made by the same command with LUNA_ARGS="--write tests/fixtures/luna").
# LUNA_ARGS="--bvh [--tolerance DEG[,UNITS]]": Debian's CMU clips (assimp-testmodels) instead, both
# encoders read back by Luna's importer, object-space error (docs/performance.md).
LUNA ?=
LUNA_ARGS ?=
luna-check: $(BLENDER_VENV)/.installed
	$(BLENDER_VENV)/bin/python tools/luna_check.py --luna "$(LUNA)" $(LUNA_ARGS)

# ACL (github.com/nfrechette/acl, MIT), the reference animation codec, side by side with
# animspec's encoder on bench/codec.py's motion capture (tools/acl_check.py): ACL's
# tools/acl_compressor and our tools/acl_codec.cpp are built with g++ into build/acl-check/.
# ACL: a folder holding checkouts of nfrechette/acl, nfrechette/rtm and nfrechette/sjson-cpp as
# acl/, rtm/, sjson-cpp/; nothing is fetched, CI never runs this (it needs g++ and Debian's
# assimp-testmodels BVH files).
ACL ?=
acl-check: $(VENV)/.installed
	$(BIN)/python tools/acl_check.py --acl "$(ACL)"

DEMO_OUT := build/demo
demo: $(VENV)/.installed-base
	$(BIN)/animspec info $(SAMPLE)
	$(BIN)/animspec validate $(SAMPLE) examples/sparse.animbin
	$(BIN)/animspec compare examples/sparse.animbin
	mkdir -p $(DEMO_OUT)
	$(BIN)/animspec convert $(SAMPLE) -o $(DEMO_OUT)/swing.glb --force
	$(BIN)/animspec dump $(SAMPLE) -o $(DEMO_OUT)/swing.json --force

# The full run, as CI does it (.ci/run calls this): about 15 minutes on 2 cores.
test: $(VENV)/.installed node_modules/.installed $(BLENDER_VENV)/.installed
	tools/test_assets.sh
	$(BIN)/python -m pytest

# Day to day: no Blender (its 800 MB venv is not made) and no Debian glTF samples (nothing
# installed as root); everything else, the browser tests included when chromium is there.
test-quick: $(VENV)/.installed node_modules/.installed
	$(BIN)/python -m pytest -m "not blender and not debian_assets"

# Lint and types, configured in pyproject.toml ([tool.ruff], [tool.mypy]): both must pass
# (.ci/run runs this before the tests). `ruff check --fix` repairs import order and the like.
lint: $(VENV)/.installed
	$(BIN)/ruff check python blender
	$(BIN)/mypy

# The Blender add-on (blender/animspec_blender) as build/blender/animspec_blender-<version>.zip:
# the library and its dependencies as wheels (pip, for Blender's Python 3.11; numpy is
# Blender's own), built and validated by Blender's extension tool from the bpy module.
# Needs the network for the wheels; PLATFORMS="linux-x64 windows-x64 macos-arm64 macos-x64"
# (the default) chooses the binary wheels bundled.
PLATFORMS ?=
blender-extension: $(VENV)/.installed $(BLENDER_VENV)/.installed
	$(BIN)/python tools/build_blender_extension.py $(foreach p,$(PLATFORMS),--platform $(p))

# Rebuild the samples under examples/ with the project's own writers.
examples: $(VENV)/.installed
	for script in examples/make_*.py; do $(BIN)/python $$script || exit 1; done

# Browser viewer: web/build/ gets the parsers compiled from ksy/, the kaitai-struct runtime
# and three.js as classic scripts, so web/index.html also works from file://.
web: node_modules/.installed
	node tools/build_web.js

# The viewer's figures in docs/web/ (chromium, headless), from the examples (tools/web_figure.js).
figures: web
	node tools/web_figure.js "file://$(CURDIR)/web/index.html" 8 100 docs/web/walk_on_biped_rig.png \
		examples/walk.animclip examples/biped_rig.glb

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

# The encoder's survivors measured (docs/mutation.md, "within its contract"): RUN is a
# `tools/mutation.py --json` run of animclip/frames/encode.py; needs assimp-testmodels' BVH files.
RUN ?=
mutant-effect: $(VENV)/.installed
	@test -n "$(RUN)" || { echo "make mutant-effect RUN=F.json: F is a tools/mutation.py --json run"; exit 2; }
	nice -n 10 $(BIN)/python tools/mutant_effect.py $(RUN)

bench: $(VENV)/.installed
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) $(BLENDER_VENV) node_modules build web/build test-output *.egg-info python/*.egg-info .mypy_cache .ruff_cache
