#!/usr/bin/env bash
# TweakKit's OFREP client (OFREPTweakProvider) against an OFREP server that is not TweakKit's:
# Tests/OFREP/ofrep_server.py, written in Python (standard library) from OpenFeature's OpenAPI
# document. The server runs here, outside `swift test` (the test process starts no children), on a
# free 127.0.0.1 port, and is always stopped on exit. The suite "OFREP client against an OFREP
# server that is not TweakKit's" reads its address from TWEAKKIT_OFREP_SERVER; `swift test` alone
# skips it. Needs the tests built (`swift build --build-tests`, or an earlier `swift test`).
# Runtime: about 10 s (bounded at 5 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=$(mktemp -d)
server_pid=
cleanup() {
    if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$scratch"
}
trap cleanup EXIT

# The server writes its port to a file; its output goes to a file too, so no pipe is left undrained.
python3 Tests/OFREP/ofrep_server.py Tests/OFREP/ofrep_server_flags.json "$scratch/port" >"$scratch/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
    [[ -s "$scratch/port" ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$scratch/server.log" >&2; echo "error: ofrep_server.py exited" >&2; exit 1; }
    sleep 0.1
done
[[ -s "$scratch/port" ]] || { echo "error: ofrep_server.py did not start within 10 s" >&2; exit 1; }
export TWEAKKIT_OFREP_SERVER="http://127.0.0.1:$(cat "$scratch/port")"
echo "Python OFREP server at $TWEAKKIT_OFREP_SERVER"

suite="OFREPForeignServerTests"
status=0
timeout 300 swift test --skip-build --filter "$suite" 2>&1 | tee "$scratch/test.log" || status=$?
# Passing is not enough: the suite must have run, not been skipped.
if ((status == 0)) && grep -Eq "(Test|Suite) .* skipped" "$scratch/test.log"; then
    echo "error: the suite was skipped; TWEAKKIT_OFREP_SERVER did not reach it" >&2
    status=1
fi
if ((status == 0)) && ! grep -Eq "Test run with [0-9]+ tests? .*passed" "$scratch/test.log"; then
    echo "error: no passing test run reported" >&2
    status=1
fi
if ((status != 0)); then
    echo "server log:" >&2
    cat "$scratch/server.log" >&2
fi
exit "$status"
