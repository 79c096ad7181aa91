#!/usr/bin/env bash
# Differential tests against the vendors' official SDKs (PyPI): TweakKit's Optimizely decisions
# vs optimizely-sdk, its Firebase server-template evaluation vs firebase-admin (JavaScript's own
# RegExp answers come from node when it is installed). A fixed seed, 1,000 cases per vendor
# (and 1,000 regex cases against node), about a minute on the CI machine; any difference
# outside the classes documented in the runners fails. Run big: VENDORS_DIFF_CASES=20000 VENDORS_DIFF_SEEDS="1 2 3" .ci/vendors-diff.sh
set -euo pipefail
cd "$(dirname "$0")/.."

pip install --quiet "optimizely-sdk==5.7.0" "firebase-admin==7.7.0"
# `swift test` (earlier in .ci/run) has built tweak; build it only when run on its own.
tweak="$(swift build --show-bin-path)/tweak"
[ -x "$tweak" ] || swift build --product tweak

cases=${VENDORS_DIFF_CASES:-1000}
seeds=()
for seed in ${VENDORS_DIFF_SEEDS:-20261123}; do seeds+=(--seed "$seed"); done
python3 Tests/Differential/optimizely_diff.py --tweak "$tweak" --cases "$cases" "${seeds[@]}"
python3 Tests/Differential/firebase_diff.py --tweak "$tweak" --cases "$cases" --regex-patterns $((cases / 10)) "${seeds[@]}"
