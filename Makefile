# SPDX-License-Identifier: GPL-2.0-or-later
# The front door: short names for what the README promises.  The build itself is meson.
.PHONY: all deps build demo check test format bench bench-smoke fuzz valgrind install clean abi-check abi-update deb

all: build

deps:
	@scripts/install-deps.sh build

build: deps
	@[ -f build/build.ninja ] || meson setup build >/dev/null
	@ninja -C build

# The README's main command: the article, replayed with nsctl.
demo: build
	@scripts/demo.sh

# The README's test command: the whole suite, as CI runs it.
check:
	@scripts/check.sh

# The suite against build/ alone, without the other builds.
test: deps
	@scripts/install-deps.sh check
	@[ -f build/build.ninja ] || meson setup build >/dev/null
	@meson configure build -Dtests=enabled
	@ninja -C build
	@tests/run build

# Benchmarks against util-linux and the bare system calls (docs/PERFORMANCE.md).
bench: build
	@scripts/install-deps.sh bench
	@bench/run.sh build

# A few seconds: every benchmark, few rounds; results in build/bench-smoke.
bench-smoke: build
	@scripts/install-deps.sh bench
	@BENCH_QUICK=1 BENCH_RESULTS=build/bench-smoke bench/run.sh build

format:
	@scripts/format.sh

# Valgrind memcheck over the unit tests and a set of nsctl invocations.
valgrind: build
	@scripts/install-deps.sh check
	@scripts/valgrind.sh build

# Every libFuzzer target: replay fuzz/corpus/, then fuzz each for FUZZ_SECONDS.
FUZZ_SECONDS ?= 60
fuzz:
	@scripts/install-deps.sh fuzz
	@scripts/fuzz.sh $(FUZZ_SECONDS)

# libnsctl's ABI against the committed baseline abi/libnsctl.abi (tests/cli/abi.bats runs it too).
abi-check: build
	@scripts/install-deps.sh check
	@scripts/abi.sh check build

# Only for a deliberate change: additions (a new version node), or a break with a new soname.
abi-update: build
	@scripts/install-deps.sh check
	@scripts/abi.sh update build

# The Debian packages, built from a copy of the tree: build-deb/*.deb.
deb:
	@scripts/install-deps.sh deb
	@scripts/deb.sh build-deb

install: build
	@meson install -C build

clean:
	rm -rf build build-clang build-asan build-fuzz build-deb
