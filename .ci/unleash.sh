#!/usr/bin/env bash
# Differential test of TweakKit's Unleash engine against the official Python SDK (PyPI
# UnleashClient, run offline): 1,200 decisions generated from a fixed seed must all agree.
# Under two minutes: a first run creates the venv and installs the SDK; the 1,200 decisions take
# 15–40 s depending on load (the SDK bootstraps each payload; tweak runs once per toggle).
# Usage: .ci/unleash.sh [--seed N] [--cases N]
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/unleash-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet "UnleashClient==6.9.1"

swift build --product tweak
"$venv/bin/python" Tests/Unleash/differential.py --tweak .build/debug/tweak --seed 20 --cases 1200 "$@"
