#!/usr/bin/env bash
# flagd differential test: TweakKit's evaluator against OpenFeature's Python flagd provider.
#
# Installs the provider in its own virtual environment, pinned to openfeature-flagd-core 1.0.0: its
# fractional bucketing (MurmurHash3 of flag key + targeting key as UTF-8 text) is the one flagd's Go
# evaluator and the flagd-testbed "fractional-v2" rows use; core 2.0.0 hashes a CBOR encoding instead.
# Runs 1,000 generated cases for seed 1 (about 30 s once `tweak` is built). Big runs:
#   FLAGD_DIFF_SEEDS="1 2 3" FLAGD_DIFF_CASES=20000 bash .ci/flagd-diff.sh
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${FLAGD_DIFF_VENV:-.build/flagd-diff-venv}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import openfeature.contrib.provider.flagd" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "openfeature-provider-flagd==0.5.2" "openfeature-flagd-core==1.0.0"
fi

swift build --product tweak
seeds=()
for seed in ${FLAGD_DIFF_SEEDS:-1}; do seeds+=(--seed "$seed"); done
"$venv/bin/python" Tests/FlagdDifferential/flagd_diff.py --tweak .build/debug/tweak "${seeds[@]}" --cases "${FLAGD_DIFF_CASES:-1000}"
