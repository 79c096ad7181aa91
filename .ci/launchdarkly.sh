#!/usr/bin/env bash
# TweakKit's LaunchDarkly engine: LaunchDarkly's SDK test-harness evaluation data (728 evaluations,
# read from LAUNCHDARKLY_SPECS, by default ../shared/specs/launchdarkly/server-side-eval, next to
# the checkout) and a
# differential test against the official Python SDK (launchdarkly-server-sdk, offline: its own
# model and evaluator), 1,000 decisions generated from a seed. Each runs one `tweak eval-batch`
# process; together well under a minute after the build.
# Usage: .ci/launchdarkly.sh [--seed N] [--cases N]
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -c "import ldclient, yaml" 2>/dev/null || python3 -m pip install --quiet "launchdarkly-server-sdk==9.20.0" pyyaml

swift build --product tweak
specs="${LAUNCHDARKLY_SPECS:-../shared/specs/launchdarkly/server-side-eval}"
python3 Tests/LaunchDarkly/spec_suite.py --tweak .build/debug/tweak --specs "$specs"
python3 Tests/LaunchDarkly/differential.py --tweak .build/debug/tweak --seed 7 --cases 1000 "$@"
