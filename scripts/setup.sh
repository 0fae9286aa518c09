#!/usr/bin/env bash
# Installs what building and testing cachescope needs, and only what is
# missing: a no-op run takes well under two seconds.
#
#   apt:    chromium, chromium-driver (headless browser for the wasm and e2e tests);
#           golang-go for gofmt alone (tests/export.rs holds every Go export to `gofmt -l`)
#   rustup: the wasm32-unknown-unknown target, rustfmt and clippy (`make test` runs both)
#   cargo:  trunk 0.21.14, wasm-bindgen-cli = Cargo.lock's wasm-bindgen
#   npm:    binaryen 132 (wasm-opt) and playwright-core, from package-lock.json
#
# Runs as root on CI (no sudo there); elsewhere it uses sudo for apt if needed.
# Why these exact versions: see the comments in Trunk.toml and the Makefile.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"

TRUNK_VERSION=0.21.14
TARGET=wasm32-unknown-unknown

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

# ---- Debian packages ---------------------------------------------------------
missing_apt=()
command -v chromium >/dev/null 2>&1 || missing_apt+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing_apt+=(chromium-driver)
command -v node >/dev/null 2>&1 || missing_apt+=(nodejs)
command -v npm >/dev/null 2>&1 || missing_apt+=(npm)
command -v gofmt >/dev/null 2>&1 || missing_apt+=(golang-go)
if ((${#missing_apt[@]})); then
    sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 || die "need root (or sudo) to apt-get install ${missing_apt[*]}"
        sudo=(sudo)
    fi
    say "apt-get install ${missing_apt[*]}"
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing_apt[@]}"
fi

# ---- Rust: the wasm target ---------------------------------------------------
command -v cargo >/dev/null 2>&1 || die "cargo not found: install Rust with rustup first"
if [[ ! -d "$(rustc --print sysroot)/lib/rustlib/$TARGET" ]]; then
    say "rustup target add $TARGET"
    rustup target add "$TARGET"
fi

for component in rustfmt clippy; do
    if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
        say "rustup component add $component"
        rustup component add "$component"
    fi
done

# ---- Trunk ---------------------------------------------------------------------
# 0.22 needs a newer rustc than this toolchain has.
if [[ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]]; then
    say "cargo install trunk $TRUNK_VERSION (takes several minutes)"
    cargo install trunk --version "$TRUNK_VERSION" --locked
fi

# ---- wasm-bindgen CLI: exactly the library version in Cargo.lock ----------------
if [[ ! -f Cargo.lock ]]; then
    say "no Cargo.lock: generating it"
    cargo generate-lockfile
fi
bindgen_version=$(awk '
    $0 == "name = \"wasm-bindgen\"" { found = 1; next }
    found && /^version = / { gsub(/"/, "", $3); print $3; exit }
' Cargo.lock)
[[ -n "$bindgen_version" ]] || die "no wasm-bindgen package in Cargo.lock"
if [[ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $bindgen_version" ]] ||
    ! command -v wasm-bindgen-test-runner >/dev/null 2>&1; then
    # Not --locked: the CLI's own lockfile wants a webpki-roots the registry lacks.
    say "cargo install wasm-bindgen-cli $bindgen_version (takes a few minutes)"
    cargo install wasm-bindgen-cli --version "$bindgen_version" --force
fi

# ---- npm: wasm-opt 132 and playwright-core ----------------------------------------
# npm writes node_modules/.package-lock.json on every install; older than the
# committed lock means the lock changed since.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    say "npm ci"
    npm ci --no-audit --no-fund
fi

say "ok (trunk $TRUNK_VERSION, wasm-bindgen $bindgen_version, $(node_modules/.bin/wasm-opt --version | cut -d' ' -f1-3), chromium $(chromium --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1))"
