#!/usr/bin/env bash
# ThreadSanitizer run of the concurrency tests: the manager's readers and writers, mutable and
# persistent providers, change delivery, task-scoped overrides, remote updates (polling and
# server-sent events over a real HTTP server) and the editor. A separate scratch path keeps the
# instrumented build apart from the normal one. Fails on any data race TSan reports.
#
#   .ci/tsan.sh                  # the concurrency suites
#   TSAN_FILTER=. .ci/tsan.sh    # the whole suite
#   .ci/tsan.sh build            # only the instrumented build (.ci/run starts it in the background)
#
# For the concurrency suites, the instrumented build is of their five test targets and what they
# need (TWEAKKIT_TSAN_SUITES, read by Package.swift): not the engines, the tool or the other tests.
# The manifest is then not cached, so the package's usual builds never see that smaller manifest.
set -euo pipefail
cd "$(dirname "$0")/.."

scope=()
if [ -z "${TSAN_FILTER:-}" ]; then
    export TWEAKKIT_TSAN_SUITES=TweakKitTests,TweakKitRemoteTests,TweakKitFlagdTests,TweakKitServerTests,JustTweakCompatibilityTests
    scope=(--manifest-cache none)
fi

if [ "${1:-}" = build ]; then
    # What `swift test --sanitize=thread` below builds, so that it finds everything built.
    exec swift build --build-tests --sanitize=thread --scratch-path .build-tsan "${scope[@]}"
fi

# Not SnapshotPatchTests: its thread storing as fast as it can while another
# looks up contends every Mutex, and Synchronization.Mutex on Linux takes a contended lock in its
# uninstrumented slow path (a priority-inheriting futex), so ThreadSanitizer sees no ordering and
# reports accesses inside withLock as races (with the manager's state behind an NSLock instead,
# the report moved to the next Mutex, EphemeralTweakProvider's).
filter="${TSAN_FILTER:-TweakManagerTests|ChangeDeliveryTests|ReadPathTests|MutableProviderTests|ChangeObservationTests|PersistentTweakProviderTests|DocumentTweakProviderTests|TestingModuleTests|PropertyWrapperTests|RemoteTweakProviderTests|TestServerStopTests|FlagdProviderTests|TweakEditorTests}"
log=$(mktemp)
status=0
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
    swift test --sanitize=thread --scratch-path .build-tsan "${scope[@]}" --filter "$filter" 2>&1 | tee "$log" || status=$?
if grep -q "WARNING: ThreadSanitizer" "$log"; then
    echo "error: ThreadSanitizer reported a race" >&2
    exit 1
fi
rm -f "$log"
exit "$status"
