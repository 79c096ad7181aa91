#!/usr/bin/env bash
# Differential test of TweakKit's GrowthBook engine against GrowthBook's official Python SDK
# (PyPI `growthbook`): 1,000 generated payloads and contexts for a fixed seed, compared through
# `tweak eval --growthbook-features`. About 2 minutes on 2 cores (after `swift build`).
# Usage: .ci/growthbook.sh [--seed N] [--cases N]
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/growthbook-venv
if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -c "import growthbook" 2>/dev/null || "$venv/bin/pip" install --quiet "growthbook>=4.0,<5"
swift build --product tweak
"$venv/bin/python" Tests/GrowthBookDifferential/differential.py --tweak .build/debug/tweak --seed 1 --cases 1000 "$@"
