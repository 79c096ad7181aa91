#!/usr/bin/env bash
# Measures how much hostile OFREP requests slow down a plain one on a release `tweak serve`.
#
# Starts `tweak serve` on 127.0.0.1 (a free port) with a GrowthBook and an Unleash payload holding
# three pathological rules, then:
#   1. times a plain request (an OFREP evaluation of an ordinary flag, and GET /health) alone;
#   2. fires hostile OFREP requests in parallel (GrowthBook `$regex` "(a+)+$" against thirty a's
#      and a "!", Unleash's REGEX constraint the same, GrowthBook `$in` of a 10,000-element
#      attribute array against a 10,000-element list) and times the same plain request meanwhile.
# Prints the plain request's median and p95 latency in ms for both, their ratio, and what the
# hostile requests were answered (200, or 503 when over the evaluation budget).
#
# Usage: Benchmarks/hostile-latency.sh [seconds of hostile load, default 10] [hostile client processes, default 3]
# Client i sends the hostile request of kind i mod 3, one after another: 9 clients keep three
# requests of each kind running at once.
# TWEAK=path/to/tweak uses that binary instead of building the release one.
# TWEAK_SERVE_ARGS="--evaluation-budget 1" passes more options to tweak serve.
set -euo pipefail

package_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
duration="${1:-10}"
clients="${2:-3}"

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
gb = {"status": 200, "features": {
    "plain": {"defaultValue": True},
    "hostile-regex": {"defaultValue": False, "rules": [{"id": "r1", "condition": {"name": {"$regex": "(a+)+$"}}, "force": True}]},
    "hostile-in": {"defaultValue": False, "rules": [{"id": "r2", "condition": {"tags": {"$in": list(range(10000))}}, "force": True}]},
}, "savedGroups": {}}
unleash = {"version": 2, "features": [
    {"name": "hostile-unleash-regex", "enabled": True, "strategies": [{"name": "default", "parameters": {},
        "constraints": [{"contextName": "name", "operator": "REGEX", "value": "(a+)+$"}]}]},
]}
json.dump(gb, open(f"{work}/growthbook.json", "w"))
json.dump(unleash, open(f"{work}/unleash.json", "w"))
PY

"$TWEAK" serve --port 0 --token hostile-latency-token --overrides "$work/overrides.json" \
    --growthbook-features "$work/growthbook.json" --unleash-features "$work/unleash.json" ${TWEAK_SERVE_ARGS:-} \
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
echo "tweak serve on 127.0.0.1:$port ($TWEAK)"

python3 - "$port" "$duration" "$clients" <<'PY'
import http.client, json, multiprocessing, statistics, sys, time
port, duration, clients = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])

def request(method, path, body=None, timeout=60):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, body=json.dumps(body, separators=(",", ":")) if body is not None else None, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()

def plain_round():
    """One plain OFREP evaluation and one /health, each on a new connection: ms for the pair."""
    start = time.perf_counter()
    assert request("POST", "/ofrep/v1/evaluate/flags/plain.value", {"context": {"targetingKey": "u1"}}) == 200
    assert request("GET", "/health") == 200
    return (time.perf_counter() - start) * 1000

def measure(seconds):
    samples, end = [], time.time() + seconds
    while time.time() < end or len(samples) < 20:
        samples.append(plain_round())
        time.sleep(0.02)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.95) - 1], len(samples), samples[-1]

hostile = [
    ("/ofrep/v1/evaluate/flags/hostile-regex.value", {"context": {"targetingKey": "u1", "name": "a" * 30 + "!"}}),
    ("/ofrep/v1/evaluate/flags/hostile-unleash-regex.enabled", {"context": {"targetingKey": "u1", "name": "a" * 30 + "!"}}),
    ("/ofrep/v1/evaluate/flags/hostile-in.value", {"context": {"targetingKey": "u1", "tags": list(range(10000, 20000))}}),
]

for _ in range(20):   # warm up
    plain_round()
quiet = measure(max(2.0, duration / 3))

# The hostile clients are processes of their own, so they do not share this one's interpreter lock.
def attacker(index, stop, results):
    path, body = hostile[index % len(hostile)]
    payload = json.dumps(body, separators=(",", ":"))
    statuses, latencies = {}, []
    while not stop.is_set():
        start = time.perf_counter()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            connection.request("POST", path, body=payload, headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            connection.close()
            status = response.status
        except Exception as error:
            status = type(error).__name__
        key = f"{path.rsplit('/', 1)[1]} -> {status}"
        statuses[key] = statuses.get(key, 0) + 1
        latencies.append((time.perf_counter() - start) * 1000)
    results.put((statuses, latencies))

stop, results = multiprocessing.Event(), multiprocessing.Queue()
processes = [multiprocessing.Process(target=attacker, args=(i, stop, results), daemon=True) for i in range(clients)]
for process in processes:
    process.start()
time.sleep(0.5)
loaded = measure(duration)
stop.set()
statuses, latencies = {}, []
for _ in processes:
    their_statuses, their_latencies = results.get(timeout=120)
    for key, count in their_statuses.items():
        statuses[key] = statuses.get(key, 0) + count
    latencies += their_latencies
for process in processes:
    process.join(timeout=10)

print(f"plain request (OFREP evaluation + /health), alone:            median {quiet[0]:.2f} ms, p95 {quiet[1]:.2f} ms, max {quiet[3]:.2f} ms ({quiet[2]} rounds)")
print(f"plain request beside {clients} hostile clients:               median {loaded[0]:.2f} ms, p95 {loaded[1]:.2f} ms, max {loaded[3]:.2f} ms ({loaded[2]} rounds)")
print(f"ratio loaded/alone: median {loaded[0] / quiet[0]:.2f}x, p95 {loaded[1] / quiet[1]:.2f}x")
print("hostile requests answered: " + ", ".join(f"{key} x{count}" for key, count in sorted(statuses.items())))
if latencies:
    latencies.sort()
    print(f"hostile request latency: median {statistics.median(latencies):.1f} ms, max {latencies[-1]:.1f} ms")
PY
