#!/usr/bin/env bash
# Builds the server example (warnings in its own sources fail the check) and runs its tests,
# which start the service on a real socket and drive it over HTTP: the percentage rollout, the
# evaluation context from headers, a live change through an SQLite store, /metrics and /health.
#   check.sh               # build, then test
#   check.sh --build-only  # the build and its warning check only
#   check.sh --skip-build  # the tests only, on an earlier build
set -euo pipefail
cd "$(dirname "$0")"
mode="${1:-}"
# .ci/examples.sh builds every example into one scratch path; alone, SwiftPM's default.
scratch=(${EXAMPLES_SCRATCH_PATH:+--scratch-path "$EXAMPLES_SCRATCH_PATH"})

# SwiftPM names a package by its directory: a TweakKit checkout in a directory named ServerApp
# would be taken for this package itself ("product 'TweakKit' … not found").
if [ "$(basename "$(cd ../.. && pwd -P)" | tr '[:upper:]' '[:lower:]')" = serverapp ]; then
    echo "error: the TweakKit checkout's directory is named like this example (serverapp); SwiftPM cannot tell the two packages apart: check it out under another name" >&2
    exit 1
fi

if [ "$mode" != --skip-build ]; then
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    swift build "${scratch[@]}" --build-tests 2>&1 | tee "$log"
    # Only the example's own files: dependencies' warnings are not the example's to fix.
    here=$(pwd -P)
    if grep -E "^($here|$(pwd))/(Sources|Tests)/[^ ]+:[0-9]+:[0-9]+: warning:" "$log"; then
        echo "error: the server example builds with warnings" >&2
        exit 1
    fi
fi
if [ "$mode" != --build-only ]; then
    swift test "${scratch[@]}" --skip-build
    echo "server example passed"
fi
