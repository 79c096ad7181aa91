#!/usr/bin/env bash
# Every Swift code example of the README, the DocC articles and the doc comments compiles, and every
# library product has a DocC landing page (.ci/landing-pages.py).
# .ci/snippets.py writes them, one file each, into a package at .build/snippets (see its header for
# the conventions: preludes in .ci/snippets/, markers, exemptions); this builds that package into
# this checkout's own .build, on what the checkout's build left, so only the examples compile.
# A broken example fails with its own file:line.
#
#   .ci/snippets.sh          # extract, build, summary
#   .ci/snippets.sh --list   # the blocks found, and which are not compiled
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
if [ "${1:-}" = --list ]; then
    exec python3 .ci/snippets.py "$root" --list
fi
started=$SECONDS
# Every library product has a DocC landing page (its examples are among those compiled below).
python3 .ci/landing-pages.py "$root"
# SwiftPM orders a dependency's trait defines (Hummingbird's -DConfigurationSupport -DFullFoundation)
# as a Set does, differently in each process unless hashing is deterministic; a new order is a new
# command, and Hummingbird compiles again (about 40 s). Both builds below agree with this.
export SWIFT_DETERMINISTIC_HASHING=1
out=.build/snippets
log=.build/snippets.log

# The modules that are no product (the tool, the tests' support) are read from the checkout's own
# build, and `tweak generate` writes the accessors two examples use: it must be current (after
# `swift build` or `swift test`, nothing to do).
swift build > "$log" 2>&1 ||
    { cat "$log" >&2; echo "error: the package itself does not build" >&2; exit 1; }

python3 .ci/snippets.py "$root" "$out" | tee .build/snippets.summary

# SwiftPM keeps one build plan in the scratch path, for the package built last (as .ci/examples.sh).
rm -f .build/debug.yaml
status=0
swift build --package-path "$out" --scratch-path "$root/.build" > "$log" 2>&1 || status=$?
rm -f .build/debug.yaml
if [ "$status" -ne 0 ]; then
    # #sourceLocation in the generated files makes the compiler name the example's own file and line.
    python3 .ci/snippets.py "$root" --errors "$out" "$log" >&2 || tail -n 40 "$log" >&2
    exit 1
fi
echo "snippets: every example compiles ($((SECONDS - started)) s)"
