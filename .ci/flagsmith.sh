#!/usr/bin/env bash
# Differential test of TweakKit's Flagsmith engine against Flagsmith's own (PyPI
# flagsmith-flag-engine and the flagsmith SDK's environment-document mapping): 1,000 hostile
# documents and contexts generated from a fixed seed, about 2,000 evaluations, must all agree.
# A few seconds once the venv exists; then, when a copy of Flagsmith's engine test data is at
# $FLAGSMITH_ENGINE_TEST_DATA (it is never in the repository), its cases too.
# Usage: .ci/flagsmith.sh [--seed N] [--cases N]
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/flagsmith-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -c "import flag_engine, flagsmith" 2>/dev/null ||
    "$venv/bin/pip" install --quiet "flagsmith-flag-engine==11.1.1" "flagsmith==6.3.0"

swift build --product tweak
"$venv/bin/python" Tests/Flagsmith/differential.py --tweak .build/debug/tweak --seed 20 --cases 1000 "$@"
"$venv/bin/python" Tests/Flagsmith/engine_test_data.py "${FLAGSMITH_ENGINE_TEST_DATA:-/nonexistent}" --tweak .build/debug/tweak
