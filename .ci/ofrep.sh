#!/usr/bin/env bash
# OFREP differential: OpenFeature's Python SDK with its OFREP provider against `tweak serve --flags`,
# each result compared with `tweak eval`, plus the bulk ETag/304 exchange over plain HTTP.
# Needs .build/debug/tweak (built by `swift test`). Runtime: about 2 s (bounded at 5 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import openfeature.contrib.provider.ofrep" 2>/dev/null || pip install --quiet openfeature-sdk openfeature-provider-ofrep
timeout 300 python3 Tests/OFREP/ofrep_sdk_test.py .build/debug/tweak Tests/OFREP/flags.flagd.json
