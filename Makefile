# cachescope: build, serve and test.
#
#   make setup   install what is missing (fast when nothing is)
#   make build   release build of the browser app into dist/
#   make serve   build and serve it on http://127.0.0.1:8080/
#   make test    format and lint checks, native tests, wasm tests in headless Chromium, release build, e2e tests
#   make lint    rustfmt --check, and clippy with warnings as errors, natively and for wasm32
#   make bench   benchmark figures: the simulation (native), then the page in headless Chromium
#   make profile a CPU profile of the played run on a build that keeps its names, its script time by panel (PROFILE_ARGS="--run largest")
#   make fuzz    fuzz every parser, FUZZ_COUNT (1,000,000) inputs each
#   make screenshots  redraw docs/screenshots/, each preset at its telling frame
#   make clean   remove dist/ and cargo's target/

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
# The stages of `test` run in order, even under `make -j`.
.NOTPARALLEL:

# npm's wasm-opt 132 must come before Debian's /usr/bin/wasm-opt (108), which
# builds a page that dies in WebAssembly.Table.set(). Trunk finds tools on PATH.
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
# Trunk's update check calls crates.io's web API, which these machines cannot reach.
export TRUNK_SKIP_VERSION_CHECK := true

WASM_TARGET := wasm32-unknown-unknown

.PHONY: help setup build serve test lint test-native test-wasm trunk-build test-e2e bench bench-tools bench-pages profile fuzz screenshots clean

help:
	@sed -n 's/^#   //p' $(MAKEFILE_LIST)

setup:
	scripts/setup.sh

build: setup trunk-build

serve: setup
	trunk serve --release --no-autoreload --address 127.0.0.1 --port 8080

# Each stage stops the make on failure; .NOTPARALLEL keeps them in this order.
test: setup lint test-native test-wasm trunk-build test-e2e

# The house style, held by the tools: rustfmt.toml's format, and every clippy
# warning an error, for both targets (the page's code compiles only for
# wasm32; there, the tests that run in Chromium, WASM_TESTS below).
lint:
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --target $(WASM_TARGET) --lib --bins $(WASM_TESTS) -- -D warnings

# The simulation, the scenarios and the runner, natively.
test-native:
	cargo test

# Every integration test that uses wasm_bindgen_test (tests/web.rs: the UI
# components; tests/determinism.rs: the same trace hashes as native), run in
# headless Chromium by wasm-bindgen-test-runner (see .cargo/config.toml).
WASM_TESTS := $(patsubst tests/%.rs,--test %,$(shell grep -l wasm_bindgen_test tests/*.rs))
test-wasm:
	cargo test --target $(WASM_TARGET) --lib $(WASM_TESTS)

trunk-build:
	trunk build --release

# The built page, served from a deep sub-path and driven by playwright-core.
# Needs dist/ from `make build`.
test-e2e:
	node --test --test-reporter=spec tests/e2e/

# Figures, one `name: value unit` per line on stdout (build logs go to stderr):
# the simulation natively, then the release page in headless Chromium
# (tests/bench/page.mjs: gzipped size against a hello-world Leptos page,
# time to the first frame, frame times while playing).
bench: setup bench-tools
	cargo run --profile bench-native --bin cachescope -- bench
	$(MAKE) --no-print-directory bench-pages >&2
	node tests/bench/page.mjs

# What only `make bench` needs, installed the first time it runs (not for
# `make test`): twiggy, which reads the page's wasm for its breakdown by crate
# and function (tests/bench/wasm-breakdown.mjs).
TWIGGY_VERSION := 0.8.0
bench-tools:
	@[[ "$$(twiggy --version 2>/dev/null)" == "twiggy-opt $(TWIGGY_VERSION)" ]] || cargo install twiggy --version $(TWIGGY_VERSION) --locked

# Where a played frame's script time goes, by panel (tests/bench/profile.mjs):
# the page's wasm built again in a target directory of its own, without
# `erase_components` (an explicit RUSTFLAGS replaces .cargo/config.toml's) and
# with v0 symbol names, so the generic render code a panel's view runs
# carries the panel's name; put in place of dist/'s, and profiled playing.
# The profile is written to target/profile/<run>.cpuprofile. One panel alone,
# scrolled into view: PROFILE_ARGS="--panels spacetime".
PROFILE_TARGET := $(CURDIR)/target/profile
PROFILE_ARGS ?=
profile: setup trunk-build
	RUSTFLAGS="-C symbol-mangling-version=v0" CARGO_TARGET_DIR=$(PROFILE_TARGET) cargo build --release --target $(WASM_TARGET) --bin cachescope-web
	node tests/bench/profile.mjs $(PROFILE_ARGS)

# Fuzz every parser a link, a file or a host page reaches, and explore's own
# arguments (src/fuzz.rs): FUZZ_COUNT mutated inputs per harness from
# fuzz/corpus/, figures in `make bench` style; exit 1 on a panic, a hang or an
# accepted input over the work budget (the input is saved in target/fuzz-failures/).
# One harness: cargo run --profile bench-native --bin cachescope -- fuzz explore --count N
FUZZ_COUNT ?= 1000000
fuzz:
	cargo run --profile bench-native --bin cachescope -- fuzz --count $(FUZZ_COUNT)

# The pages tests/bench/page.mjs measures: the release page in dist/ (as
# `make build`), and bench/hello/, a hello-world Leptos page with the same
# release profile, built apart from the main build's artefacts.
# bench/floor/ is that hello world plus the simulation core and the scenario
# parser, no panel: the least this product's page can ship. Both build in one
# target directory of their own (they share Leptos).
HELLO_TARGET := $(CURDIR)/target/bench-hello
bench-pages: trunk-build
	cd bench/hello && CARGO_TARGET_DIR=$(HELLO_TARGET) trunk build --release --dist $(HELLO_TARGET)/dist
	cd bench/floor && CARGO_TARGET_DIR=$(HELLO_TARGET) trunk build --release --dist $(CURDIR)/target/bench-floor/dist

# Each preset at the frame its trace's caption makes the point (scripts/screenshots.mjs).
screenshots: setup trunk-build
	cargo build --bin cachescope
	node scripts/screenshots.mjs

clean:
	rm -rf dist test-results
	cargo clean
