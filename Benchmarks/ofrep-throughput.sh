#!/usr/bin/env bash
# OFREP throughput against the same server's trivial route, on a release `tweak serve`.
#
# Starts `tweak serve` on 127.0.0.1 (a free port) with 20 flagd flags of one rule and a fractional
# split each, then loads it with wrk (Debian's package), one route at a time:
#   GET /health                                   the trivial route: the HTTP stack's ceiling here
#   POST /ofrep/v1/evaluate/flags/flag-7          single-flag evaluation
#   POST /ofrep/v1/evaluate/flags                 bulk evaluation of the 20 flags
# Prints each route's requests per second and the two OFREP routes' share of /health's, per round
# (goals: single-flag ≥ 85 %, bulk ≥ 60 %). Within a round the routes take turns, a few seconds
# each, until each has had its seconds.
#
# Usage: Benchmarks/ofrep-throughput.sh [seconds per route, default 15] [rounds, default 2] [connections, default 64]
# TWEAK=path/to/tweak uses that binary instead of building the release one.
set -euo pipefail

package_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
duration="${1:-15}"
rounds="${2:-2}"
connections="${3:-64}"
command -v wrk >/dev/null || { echo "needs wrk (apt-get install wrk)" >&2; exit 2; }

if [[ -z "${TWEAK:-}" ]]; then
    echo "building tweak (release)..." >&2
    swift build -c release --package-path "$package_root" --product tweak >&2
    TWEAK="$package_root/.build/release/tweak"
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
flags = {}
for index in range(20):
    flags[f"flag-{index}"] = {
        "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off",
        "targeting": {"if": [
            {"==": [{"var": "country"}, "NL"]}, "on",
            {"fractional": [{"cat": [{"var": "$flagd.flagKey"}, {"var": "targetingKey"}]}, ["on", 30], ["off", 70]]},
        ]},
    }
json.dump({"flags": flags}, open(f"{work}/flags.json", "w"))
body = '{"context":{"targetingKey":"user-42","country":"DE"}}'
for name in ("single", "bulk"):
    with open(f"{work}/{name}.lua", "w") as script:
        script.write('wrk.method = "POST"\n')
        script.write(f"wrk.body = '{body}'\n")
        script.write('wrk.headers["Content-Type"] = "application/json"\n')
PY

"$TWEAK" serve --port 0 --token ofrep-throughput-token --overrides "$work/overrides.json" --flags "$work/flags.json" \
    >"$work/serve.out" 2>"$work/serve.err" &
server_pid=$!
port=""
for _ in $(seq 1 200); do
    port="$(sed -n 's|^TweakKit editor: http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$work/serve.out" | head -n 1)"
    [[ -n "$port" ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
    sleep 0.05
done
[[ -n "$port" ]] || { echo "tweak serve did not start" >&2; cat "$work/serve.err" >&2; exit 1; }
base="http://127.0.0.1:$port"
echo "tweak serve on 127.0.0.1:$port ($TWEAK); wrk -t2 -c$connections -d${duration}s per route"

# Answers must be right before they are counted.
curl -fsS -X POST -H 'Content-Type: application/json' -d '{"context":{"targetingKey":"user-42"}}' "$base/ofrep/v1/evaluate/flags/flag-7" >/dev/null
curl -fsS -X POST -H 'Content-Type: application/json' -d '{"context":{"targetingKey":"user-42"}}' "$base/ofrep/v1/evaluate/flags" |
    python3 -c 'import json, sys; flags = json.load(sys.stdin)["flags"]; assert len(flags) == 20, len(flags)'

# The routes take turns in slices of a few seconds, so that a change in the machine's speed during
# a round (other work on a shared host) weighs on all three alike rather than on whichever route
# ran then.
slice="$(( duration < 3 ? duration : 3 ))"
slices="$(( (duration + slice - 1) / slice ))"

# requests <wrk arguments…>: how many requests one slice completed; fails on any non-2xx answer or socket error.
requests() {
    local output
    output="$(wrk -t2 -c"$connections" -d"${slice}s" "$@")"
    if grep -qE "Non-2xx|Socket errors" <<<"$output"; then
        echo "$output" >&2
        echo "error: wrk saw failed requests" >&2
        exit 1
    fi
    sed -n 's/^ *\([0-9]*\) requests in .*/\1/p' <<<"$output"
}

for round in $(seq 1 "$rounds"); do
    health=0 single=0 bulk=0
    for _ in $(seq 1 "$slices"); do
        health=$(( health + $(requests "$base/health") ))
        single=$(( single + $(requests -s "$work/single.lua" "$base/ofrep/v1/evaluate/flags/flag-7") ))
        bulk=$(( bulk + $(requests -s "$work/bulk.lua" "$base/ofrep/v1/evaluate/flags") ))
    done
    python3 - "$round" "$(( slice * slices ))" "$health" "$single" "$bulk" <<'PY'
import sys
round_, seconds, health, single, bulk = sys.argv[1], *map(float, sys.argv[2:])
health, single, bulk = health / seconds, single / seconds, bulk / seconds
print(f"round {round_}: /health {health:,.0f}/s; single-flag {single:,.0f}/s = {single / health:.0%} (goal >= 85%); "
      f"bulk of 20 {bulk:,.0f}/s = {bulk / health:.0%} (goal >= 60%)")
PY
done
