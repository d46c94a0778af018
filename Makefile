# Quick start: `make demo` and `make test` on a fresh machine (they install what is missing).
# FG_BACKEND=auto|cpu|cuda picks the build (auto: CUDA when nvcc and a GPU are present).
FG_BACKEND ?= auto
JOBS ?= $(shell nproc)
BUILD := build/$(FG_BACKEND)
DEMO_GRAPH := data/wiki-Vote.txt.gz

.PHONY: all deps configure build demo test test-asan fuzz python build-cuda clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake --preset $(FG_BACKEND) >/dev/null

build: configure
	@cmake --build --preset $(FG_BACKEND) -j $(JOBS)

# The main job on the embedded graph: stream it into DCSR in batches, defragment, PageRank, top 10.
demo: build
	@$(BUILD)/fluxgraph stream $(DEMO_GRAPH) --batch 10000 --top 10

test: build
	@ctest --preset $(FG_BACKEND) -j $(JOBS)

# The suites under AddressSanitizer + UBSan (CPU build; UB stops a test, except Thrust's null
# reference idiom: tests/sanitizers/ubsan.supp). CI runs it. Left out: the Python suite (an
# instrumented extension needs the sanitizer runtime preloaded into an uninstrumented python3), the
# installed-package example (a program built without the sanitizers cannot link the instrumented
# library), and the backend suite's heaviest cases (tests/CMakeLists.txt: FG_SANITIZE).
test-asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)
	@UBSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitizers/ubsan.supp:print_stacktrace=1 ctest --preset asan -j $(JOBS) -E "python|example_installed"

# libFuzzer on every loader (fuzz/, docs/fuzzing.md): FUZZ_SECONDS each, JOBS at a time, from a
# seed corpus out of tests/data; a table of runs and crashes at the end. CI runs it for 45 s each.
FUZZ_SECONDS ?= 600
fuzz: deps
	@scripts/fuzz.sh $(FUZZ_SECONDS) $(JOBS)

# The Python module for the python3 the build found (FG_PYTHON): `import fluxgraph` from anywhere.
python: build
	@scripts/install-python.sh $(BUILD)

# CUDA build without running it (CI has nvcc but no GPU).
build-cuda: deps
	@cmake --preset cuda >/dev/null
	@cmake --build --preset cuda -j $(JOBS)

clean:
	rm -rf build
