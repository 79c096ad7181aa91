#!/usr/bin/env python3
"""Differential test: TweakKit's Unleash engine (`tweak eval --unleash-features`) against the
official Python SDK (PyPI `UnleashClient`), on payloads and contexts generated from a seed.

The SDK runs fully offline: each payload is bootstrapped into a file cache, the client is
initialised without fetching, registering or sending metrics, and nothing touches the network.
Every decision must agree: isEnabled, and the variant's name, enabled, feature_enabled and payload.

    python3 Tests/Unleash/differential.py --tweak .build/debug/tweak --seed 20 --cases 1200

Generation avoids what the SDK decides at random (a rollout or variant with no stickiness value,
gradualRolloutRandom between 0 and 100) and what its engine cannot do: a total variant weight of 0
(the engine panics) and applicationHostname (the Python engine is built without host names and never
matches; the host names generated are not this machine's, so both sides say no).
"""

import argparse
import json
import logging
import os
import random
import subprocess
import sys
import tempfile
import time
import warnings

from UnleashClient import UnleashClient
from UnleashClient.cache import FileCache

USERS = [f"user-{n}" for n in range(40)]
SESSIONS = [f"s-{n}" for n in range(20)]
APPS = ["web", "ios", "android", "shop-web", "Shop-Admin"]
ENVIRONMENTS = ["production", "staging", "default"]
ADDRESSES = ["10.0.0.5", "10.1.2.3", "192.168.1.20", "192.168.2.1", "127.0.0.1", "2001:db8::1", "2001:db9::5", "::1", "not-an-ip"]
PLANS = ["free", "pro", "enterprise", "Pro"]
COUNTRIES = ["NL", "US", "DE", "nl", "Ünited"]
VERSIONS = ["1.0.0", "1.2.3", "2.0.0-beta.1", "2.0.0-beta.11", "2.0.0", "10.1.0", "1.2.3-rc.1", "invalid", "01.2.3"]
AGES = ["17", "18", "42", "3.5", "abc", "-1", "1e2", "18.0"]
EMAILS = ["a@example.com", "Bob@Example.org", "x@test.io", "carol@EXAMPLE.COM"]
TENANTS = ["acme", "globex", "initech"]
TIMES = ["2024-01-01T00:00:00Z", "2024-06-15T12:30:00.250Z", "2025-03-01T08:00:00+02:00", "2023-12-31T23:59:59Z", "2026-11-23T10:00:00Z"]
DATE_VALUES = ["2024-01-01T00:00:00.000Z", "2024-06-15T12:30:00Z", "2025-01-01T00:00:00+01:00", "2023-06-01T00:00:00.000Z"]
SEMVER_VALUES = ["1.2.3", "2.0.0-beta.1", "2.0.0", "1.0.0-alpha", "10.0.0", "v1.2.3"]
NUM_VALUES = ["18", "3.5", "42", "0", "-1", "1e1"]
REGEXES = ["^user-1\\d$", "example\\.(com|org)$", "^[a-z]+@", "(?i)^BOB", "^user-(1|2)", "^(?=a)", "[[:digit:]]{2}", "\\bexample\\b", "(unclosed"]
CIDRS = ["10.0.0.0/8", "192.168.1.0/24", "2001:db8::/32", "127.0.0.1", "bad", "::1/128", "192.168.0.0/16"]
HOSTNAMES = ["web-1", "web-2", "worker.internal"]

FIELD_POOLS = {
    "userId": USERS[:12], "sessionId": SESSIONS[:8], "appName": APPS, "environment": ENVIRONMENTS,
    "remoteAddress": ADDRESSES, "plan": PLANS, "country": COUNTRIES, "tenant": TENANTS,
}


def constraint(rng):
    op = rng.choice(["IN", "NOT_IN", "STR_STARTS_WITH", "STR_ENDS_WITH", "STR_CONTAINS", "NUM_EQ", "NUM_GT", "NUM_GTE",
                     "NUM_LT", "NUM_LTE", "DATE_AFTER", "DATE_BEFORE", "SEMVER_EQ", "SEMVER_GT", "SEMVER_LT", "REGEX", "IN_CIDR"])
    result = {"operator": op, "inverted": rng.random() < 0.25, "caseInsensitive": rng.random() < 0.4}
    if op in ("IN", "NOT_IN"):
        field = rng.choice(list(FIELD_POOLS))
        pool = FIELD_POOLS[field]
        result.update(contextName=field, values=rng.sample(pool, rng.randint(0 if rng.random() < 0.1 else 1, min(4, len(pool)))))
    elif op.startswith("STR_"):
        field = rng.choice(["email", "country", "userId", "appName"])
        result.update(contextName=field, values=rng.sample(["@example", "Example", "user-1", "N", "shop", ".org", "COM", "a"], rng.randint(1, 3)))
    elif op.startswith("NUM_"):
        result.update(contextName="age", value=rng.choice(NUM_VALUES))
    elif op.startswith("DATE_"):
        result.update(contextName=rng.choice(["currentTime", "currentTime", "signup"]), value=rng.choice(DATE_VALUES))
    elif op.startswith("SEMVER_"):
        result.update(contextName="version", value=rng.choice(SEMVER_VALUES))
    elif op == "REGEX":
        result.update(contextName=rng.choice(["userId", "email"]), value=rng.choice(REGEXES))
    else:
        result.update(contextName="remoteAddress", values=rng.sample(CIDRS, rng.randint(1, 3)))
    if rng.random() < 0.12:
        # Missing optional fields: no values or value at all, an empty or null one, no flags.
        for key in ("values", "value"):
            result.pop(key, None)
        if rng.random() < 0.5:
            result["operator"] = "REGEX"  # the operator where a missing pattern still decides
        choice = rng.randrange(5)
        if choice == 1:
            result["values"] = []
        elif choice == 2:
            result["value"] = None
        elif choice == 3:
            result["value"] = ""
        elif choice == 4:
            result["values"] = None
    if rng.random() < 0.1:
        result.pop(rng.choice(["inverted", "caseInsensitive"]))
    return result


def variants(rng, count, strategy=False):
    stickiness = rng.choice(["default", "sessionId", "tenant", "default"])
    result = []
    for index in range(count):
        variant = {"name": f"v{index}", "weight": rng.choice([0, 1, 50, 100, 333, 500]) if index else rng.choice([1, 100, 500, 1000])}
        if not strategy:
            variant["stickiness"] = stickiness
            variant["weightType"] = "variable"
        if rng.random() < 0.6:
            kind = rng.choice(["string", "json", "number", "csv"])
            value = {"string": f"text-{index}", "json": json.dumps({"n": index, "on": True}), "number": str(index * 7), "csv": "a,b,c"}[kind]
            variant["payload"] = {"type": kind, "value": value}
        if not strategy and rng.random() < 0.2:
            field = rng.choice(["userId", "tenant", "appName"])
            variant["overrides"] = [{"contextName": field, "values": rng.sample(FIELD_POOLS[field], 2)}]
        result.append(variant)
    return result


def strategy(rng, name, segment_ids):
    kind = rng.choice(["default", "userWithId", "gradualRolloutUserId", "gradualRolloutSessionId", "gradualRolloutRandom",
                       "flexibleRollout", "flexibleRollout", "flexibleRollout", "remoteAddress", "applicationHostname", "customThing"])
    parameters = {}
    if kind == "userWithId":
        parameters["userIds"] = ", ".join(rng.sample(USERS[:15], rng.randint(1, 5)))
    elif kind in ("gradualRolloutUserId", "gradualRolloutSessionId"):
        parameters.update(percentage=str(rng.randint(0, 100)), groupId=rng.choice([name, "shared-group"]))
    elif kind == "gradualRolloutRandom":
        parameters["percentage"] = rng.choice(["0", "100"])
    elif kind == "flexibleRollout":
        stickiness = rng.choice(["default", "userId", "sessionId", "tenant", "random"])
        rollout = rng.choice(["0", "100"]) if stickiness == "random" else str(rng.choice([0, 5, 25, 50, 75, 99, 100, rng.randint(0, 100)]))
        parameters.update(rollout=rollout, stickiness=stickiness)
        if rng.random() < 0.8:
            parameters["groupId"] = rng.choice([name, "shared-group"])
    elif kind == "remoteAddress":
        parameters["IPs"] = ", ".join(rng.sample(CIDRS[:4] + ADDRESSES[:4], rng.randint(1, 3)))
    elif kind == "applicationHostname":
        parameters["hostNames"] = ",".join(rng.sample(HOSTNAMES, 2))
    result = {"name": kind, "parameters": parameters, "constraints": [constraint(rng) for _ in range(rng.choice([0, 0, 1, 1, 2, 3]))]}
    if segment_ids and rng.random() < 0.3:
        result["segments"] = rng.sample(segment_ids, 1) + ([99] if rng.random() < 0.05 else [])
    if rng.random() < 0.3 and parameters.get("stickiness") != "random":
        # (a strategy's variants share its stickiness; "random" would pick at random)
        result["variants"] = variants(rng, rng.randint(1, 3), strategy=True)
    return result


def feature(rng, index, parents, segment_ids):
    name = f"feature-{index}"
    result = {"name": name, "enabled": rng.random() < 0.85, "type": "release", "project": "default", "impressionData": rng.random() < 0.2,
              "strategies": [strategy(rng, name, segment_ids) for _ in range(rng.choice([0, 1, 1, 2, 3]))]}
    if rng.random() < 0.6:
        result["variants"] = variants(rng, rng.randint(1, 4))
    if parents and rng.random() < 0.3:
        parent = rng.choice(parents)
        dependency = {"feature": parent}
        if rng.random() < 0.3:
            dependency["enabled"] = False
        elif rng.random() < 0.4:
            dependency["variants"] = rng.sample(["v0", "v1", "v2", "disabled"], rng.randint(1, 2))
        result["dependencies"] = [dependency]
    return result


def payload(rng):
    segments = [{"id": n, "name": f"segment-{n}", "constraints": [constraint(rng) for _ in range(rng.randint(1, 2))]} for n in range(1, rng.randint(1, 4))]
    segment_ids = [s["id"] for s in segments]
    features, parents = [], []
    for index in range(rng.randint(5, 9)):
        item = feature(rng, index, parents, segment_ids)
        if "dependencies" not in item:
            parents.append(item["name"])
        features.append(item)
    if rng.random() < 0.25:
        # The delta API: a hydration, then updates and removals.
        events = [{"eventId": 1, "type": "hydration", "features": features, "segments": segments}]
        changed = feature(rng, 1, parents[:1], segment_ids)
        events.append({"eventId": 2, "type": "feature-updated", "feature": changed})
        gone = rng.choice(features)["name"]
        events.append({"eventId": 3, "type": "feature-removed", "featureName": gone, "project": "default"})
        if segments:
            events.append({"eventId": 4, "type": "segment-updated", "segment": {"id": segments[0]["id"], "constraints": [constraint(rng)]}})
        return {"events": events}, [f["name"] for f in features]
    return {"version": 2, "features": features, "segments": segments}, [f["name"] for f in features]


def context(rng):
    result = {"sessionId": rng.choice(SESSIONS), "appName": rng.choice(APPS), "environment": rng.choice(ENVIRONMENTS),
              "currentTime": rng.choice(TIMES)}
    if rng.random() < 0.8:
        result["userId"] = rng.choice(USERS)
    if rng.random() < 0.7:
        result["remoteAddress"] = rng.choice(ADDRESSES)
    properties = {"tenant": rng.choice(TENANTS)}
    if rng.random() < 0.1:
        # A context field that is empty, or a property that is missing.
        result[rng.choice(["userId", "sessionId", "appName"])] = ""
    for key, pool in (("plan", PLANS), ("country", COUNTRIES), ("version", VERSIONS), ("age", AGES), ("email", EMAILS), ("signup", TIMES)):
        if rng.random() < 0.75:
            properties[key] = rng.choice(pool)
    result["properties"] = properties
    return result


def sdk_decisions(document, toggles, contexts, directory, index):
    cache = FileCache(f"differential-{index}", directory=directory)
    cache.bootstrap_from_dict(document)
    client = UnleashClient(url="http://127.0.0.1:9", app_name="differential", environment="default",
                           disable_metrics=True, disable_registration=True, cache=cache)
    client.initialize_client(fetch_toggles=False)
    try:
        return {toggle: [{"enabled": client.is_enabled(toggle, dict(c)), "variant": client.get_variant(toggle, dict(c))} for c in contexts]
                for toggle in toggles}
    finally:
        client.destroy()


def tweak_decisions(tweak, payload_path, toggles, contexts_path):
    results = {}
    for toggle in toggles:
        run = subprocess.run([tweak, "eval", "--unleash-features", payload_path, toggle, "--contexts", contexts_path],
                             capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise SystemExit(f"tweak eval failed for {toggle}: {run.stderr}")
        results[toggle] = [json.loads(line) for line in run.stdout.splitlines()]
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tweak", required=True, help="the built tweak executable")
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--cases", type=int, default=1200, help="at least this many decisions")
    args = parser.parse_args()
    # The SDK warns about offline use and repeated instances; decisions are all that matter here.
    logging.disable(logging.CRITICAL)
    warnings.filterwarnings("ignore")
    rng = random.Random(args.seed)
    started = time.monotonic()
    cases = mismatches = 0
    with tempfile.TemporaryDirectory() as directory:
        index = 0
        while cases < args.cases:
            document, names = payload(rng)
            contexts = [context(rng) for _ in range(12)]
            toggles = names + ["missing-toggle"]
            payload_path = os.path.join(directory, f"payload-{index}.json")
            contexts_path = os.path.join(directory, f"contexts-{index}.jsonl")
            with open(payload_path, "w") as handle:
                json.dump(document, handle)
            with open(contexts_path, "w") as handle:
                handle.writelines(json.dumps(c) + "\n" for c in contexts)
            expected = sdk_decisions(document, toggles, contexts, directory, index)
            actual = tweak_decisions(args.tweak, payload_path, toggles, contexts_path)
            for toggle in toggles:
                for number, (want, got) in enumerate(zip(expected[toggle], actual[toggle])):
                    cases += 1
                    if want != got:
                        mismatches += 1
                        if mismatches <= 10:
                            print(f"MISMATCH seed {args.seed} payload {index} toggle {toggle} context {json.dumps(contexts[number])}\n"
                                  f"  sdk:      {json.dumps(want, sort_keys=True)}\n  tweakkit: {json.dumps(got, sort_keys=True)}\n"
                                  f"  payload:  {payload_path}", file=sys.stderr)
                if len(expected[toggle]) != len(actual[toggle]):
                    mismatches += 1
            if mismatches and mismatches > 10:
                break
            index += 1
    elapsed = time.monotonic() - started
    print(f"unleash differential: seed {args.seed}: {cases - mismatches}/{cases} decisions agree "
          f"({index + 1} payloads, {elapsed:.1f}s)")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
