#!/usr/bin/env bash
# Times `tweak` (release) on each hostile input of the engines' reliability round: every one must
# be answered, or refused with a clear error, within a second. Prints one line per input with its
# seconds and the first line of the answer; the inputs are generated into a temporary directory.
#
#   Benchmarks/hostile-inputs.sh            # builds release tweak first
#   TWEAK=.build/release/tweak Benchmarks/hostile-inputs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${TWEAK:-}" ]; then
    swift build -c release --product tweak > /dev/null
    TWEAK=.build/release/tweak
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 Benchmarks/Scripts/make_hostile_inputs.py "$dir"

run() {   # run NAME COMMAND...
    local name=$1 start end status=0 output
    shift
    start=$(date +%s.%N)
    output=$("$@" 2>&1) || status=$?
    end=$(date +%s.%N)
    printf '%-44s %6.3f s  exit %-3s %s\n' "$name" "$(echo "$end - $start" | bc)" "$status" "$(echo "$output" | head -c 150 | tr '\n' ' ')"
}
cd "$dir"
run "growthbook chain of 1,700 (validate)" "$TWEAK" validate chain.json
run "growthbook chain of 1,700 (eval)" "$TWEAK" eval --growthbook-features chain.json k
run "growthbook 20 levels, each parent twice" "$TWEAK" eval --growthbook-features diamond.json l0
run "growthbook \$regex (a+)+\$" "$TWEAK" eval --growthbook-features regex.json r --context "$(cat regex-context.json)"
run "unleash REGEX (a+)+\$" "$TWEAK" eval --unleash-features unleash-regex.json r --context "$(cat regex-context.json)"
run "growthbook \$in 10,000 x 10,000" "$TWEAK" eval --growthbook-features in.json in --context "$(cat in-context.json)"
run "growthbook \$nin 10,000 x 10,000" "$TWEAK" eval --growthbook-features in.json nin --context "$(cat in-context.json)"
run "growthbook 20,000 features (600 KB)" "$TWEAK" eval --growthbook-features features-20000.json f19999
run "growthbook 16.5 MB payload (452,000 features)" "$TWEAK" eval --growthbook-features features-16mb.json f0
