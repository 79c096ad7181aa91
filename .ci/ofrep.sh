#!/usr/bin/env bash
# OFREP differential: OpenFeature's Python SDK with its OFREP provider against `tweak serve --flags`,
# each result compared with `tweak eval`, plus the bulk ETag/304 exchange over plain HTTP.
# Needs .build/debug/tweak (built by `swift test`) and, for the fleet check, PostgreSQL (.ci/postgres.sh). Runtime: about 20 s.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import openfeature.contrib.provider.ofrep" 2>/dev/null || pip install --quiet openfeature-sdk openfeature-provider-ofrep
timeout 300 python3 Tests/OFREP/ofrep_sdk_test.py .build/debug/tweak Tests/OFREP/flags.flagd.json
# Flags kept in a shared PostgreSQL store: two tweak serve, a change through one read through the
# other's OFREP (Python SDK) within 1 s, and a 30/70 split over 10,000 keys; needs Debian's postgresql (about 15 s).
timeout 120 python3 Tests/OFREP/ofrep_flags_fleet_test.py .build/debug/tweak
