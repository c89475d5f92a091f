# statecore: `make demo` and `make test` do all set-up on a fresh machine.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
export CARGO_TERM_COLOR := never

.PHONY: all setup build generate wasm python wheels docs package-docs test test-docs test-generated test-rust test-node test-browser test-python test-packaging demo bench lint clean

all: build

setup:
	bash scripts/setup.sh

build: setup wasm python package-docs

wasm:
	bash scripts/build-wasm.sh
	bash scripts/build-viewer.sh

python:
	bash scripts/build-python.sh

# The wheels for every platform into dist/wheels-all (scripts/build-wheels.sh): Linux x86_64
# and aarch64 (glibc 2.17+ and musl 1.2+, each tag confirmed by `auditwheel show`), macOS
# x86_64 and arm64, Windows x86_64 (each checked by scripts/check_wheel.py). Not part of
# `make test`: minutes per wheel (docs/architecture.md § Packages and wheels).
wheels: setup python
	bash scripts/build-wheels.sh

# One throwaway PostgreSQL server serves the Node and Python store tests (scripts/with-pg.sh).
test: build test-generated test-docs test-rust
	bash scripts/with-pg.sh $(MAKE) --no-print-directory test-node test-browser test-python
	$(MAKE) --no-print-directory test-packaging test-fuzz

# The Markdown pages and the built site into npm/docs and python/docs, shipped in the npm
# tarball and the sdist so the `docs/NAME.md § Section` references resolve offline.
package-docs: setup
	bash scripts/package-docs.sh

# The docs site (MkDocs, strict) into target/site: open target/site/index.html.
docs: setup
	$(VENV)/bin/mkdocs build --quiet
	@echo "docs: target/site/index.html"

# The site builds with every link and anchor found, and every `docs/NAME.md § Section`
# reference in code, docstrings and READMEs names a page and section that exist; the text users
# read (docs, READMEs, the shipped packages' files) carries no maintainers' notes.
test-docs: docs
	$(PY) scripts/check_doc_refs.py
	$(PY) scripts/check_user_text.py

# Every file generated from the core's operation table is up to date (a stale one fails), and
# the metadata files carry project-address.toml's addresses (none while it is empty).
test-generated:
	cargo run -q -p xtask -- codegen --check
	$(PY) scripts/project_address.py check

# Writes every file generated from the core's operation table (docs/architecture.md).
generate:
	cargo run -q -p xtask -- codegen
	$(PY) scripts/project_address.py sync

test-rust:
	cargo fmt --all -- --check
	cargo clippy -p statecore -p statecore-cli -p statecore-wasm -p statecore-python -p xtask --all-targets -- -D warnings
	bash scripts/check-core-purity.sh
	python3 scripts/check_import_cycles.py --self-test
	cargo test -p statecore -p statecore-cli -p statecore-wasm -p xtask

test-node:
	cd npm && node --test test/*.test.mjs
	cd npm && node_modules/.bin/tsc --noEmit -p tsconfig.json
	# Every entry's types resolve under node10, node16 (CJS and ESM) and bundler resolution
	# (npm/README.md § Package layout); ./web is ESM only by design, the wasm an asset.
	cd npm && node_modules/.bin/attw --pack . --format table-flipped --exclude-entrypoints statecore_bg.wasm --ignore-rules cjs-resolves-to-esm

test-browser:
	cd npm && node test/browser/run.mjs
	cd npm && node test/browser/viewer.mjs
	# A page bundled by esbuild, Vite and webpack from the packed tarball (npm/README.md § Bundlers).
	cd npm && node test/bundlers/run.mjs

test-python:
	$(VENV)/bin/ruff check python scripts
	$(VENV)/bin/ruff format --check python scripts
	cd python && ../$(VENV)/bin/python -m mypy.stubtest statecore._statecore --allowlist stubtest-allowlist.txt
	cd python && ../$(VENV)/bin/python -m mypy
	cd python && ../$(VENV)/bin/python -m mypy --strict tests/typing/usage.py
	cd python && ../$(VENV)/bin/python -m pytest -q tests

test-packaging:
	bash scripts/test-packaging.sh
	bash scripts/test-sdist.sh

demo: build
	bash examples/demo.sh

bench: build
	bash bench/run.sh

clean:
	rm -rf target npm/dist python/statecore/_statecore*.so

# Coverage-guided fuzzing of the core with libFuzzer on stable Rust (docs/fuzzing.md).
# make fuzz: FUZZ_SECONDS (600) per target, growing fuzz/corpus/; FUZZ_TARGETS="json ops" to
# choose. make test-fuzz: build, ~12 s per target, then replay fuzz/regressions/**.
.PHONY: fuzz test-fuzz
FUZZ_SECONDS ?= 600
fuzz:
	FUZZ_TARGETS="$(FUZZ_TARGETS)" bash scripts/fuzz.sh long $(FUZZ_SECONDS)

test-fuzz:
	FUZZ_TARGETS="$(FUZZ_TARGETS)" bash scripts/fuzz.sh short 12
