#!/usr/bin/env python3
"""Differential test of TweakKit's LaunchDarkly engine against LaunchDarkly's Python server-side
SDK (PyPI launchdarkly-server-sdk), offline: the SDK's own data model and Evaluator, driven the
way LDClient.variation_detail drives them (invalid context -> USER_NOT_SPECIFIED, unknown flag
-> FLAG_NOT_FOUND, no variation -> the default), with no big segment store, as TweakKit has none.

Cases are generated from a seed by hostile generators: null at every depth, every JSON type in
value fields, missing optional fields, random mutations of any field (a field of the wrong type
must be refused by both: the SDK's model raises, TweakKit's loader throws), deep prerequisite
chains, cyclic prerequisites and segment references, odd rollout weights, bad attribute
references, bad regular expressions, semantic versions and dates.

All cases go through ONE `tweak eval-batch --launchdarkly` process. Every decision must agree:
value, variationIndex and reason (the SDK's None members left out), or both refuse the data.

Known differences kept out of the generators (each documented in TweakKitLaunchDarkly):
- true/false where the data needs an integer: Python's bool is an int, so the SDK takes it;
  TweakKit refuses it, as LaunchDarkly's typed SDKs (Go, Java) do.
- a flag or segment whose "key" differs from its key in the map.
- time zones written without a colon (+0700), which Python's fromisoformat also reads.

Usage: differential.py [--tweak PATH] [--seed N] [--cases N] [-v]
"""
import argparse
import collections
import copy
import json
import logging
import os
import random
import subprocess
import sys
import time

from ldclient.context import Context
from ldclient.impl.evaluator import Evaluator
from ldclient.impl.events.types import EventFactory
from ldclient.impl.model import FeatureFlag, Segment

KINDS = ["user", "org", "device"]
KEYS = ["k0", "k1", "k2", "é", "k:1"]
GOOD_ATTRS = ["a", "b", "name", "key", "kind", "email", "/a/b", "/a/a~1b", "anonymous"]
BAD_ATTRS = ["/c/0", "~0", "/", "", "a//b", "/a/", "/~2", "//", "/kind"]
ATTRS = GOOD_ATTRS * 4 + BAD_ATTRS
STRINGS = ["k0", "k1", "abc", "ABC", "a", "", "1.2.3", "1.2", "2", "1.2.3-beta.1", "1.2.3-beta.11", "1.2.3-rc.1+b", "01.2.3", "1.2.3.4",
           "v1.2.3", "1.0.0-alpha", "1.0.0-alpha.beta", "1.2-beta",
           "2017-12-06T07:00:00Z", "2017-12-06T00:00:00.000-07:00", "2017-12-06T07:00:00.5Z", "2017-12-06", "2017-12-06T07:00:00",
           "2017-13-06T07:00:00Z", "not a date", "^a", "b$", "a.c", "[0-9]+", "^k[0-3]$", "(", "[", "a{2}", "\\d", "^$", "(a|aa)+$", "é"]
NUMBERS = [0, 1, 2, -3, 1.5, 1.0, 100000, 1512543600000, 1512543600000.5]


def json_value(rng, depth=0):
    roll = rng.random()
    if depth > 3 or roll < 0.45:
        return rng.choice([None, True, False] + NUMBERS + STRINGS)
    if roll < 0.75:
        return [json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(["a", "b", "c", "0"]): json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def maybe(rng, data, key, value, p=0.7):
    """Sets `key` with probability p, else leaves it out or (sometimes) sets it to null."""
    r = rng.random()
    if r < p:
        data[key] = value
    elif r < p + (1 - p) / 2:
        data[key] = None


def gen_clause(rng, segment_keys):
    op = rng.choice(["in", "endsWith", "startsWith", "matches", "contains", "lessThan", "lessThanOrEqual", "greaterThan",
                     "greaterThanOrEqual", "before", "after", "semVerEqual", "semVerLessThan", "semVerGreaterThan", "segmentMatch",
                     "segmentMatch", "in", "in", "unknownOp"])
    if op == "segmentMatch":
        values = [rng.choice(segment_keys + ["missing", 3, None]) for _ in range(rng.randint(1, 2))]
    else:
        values = [json_value(rng, 2) if rng.random() < 0.3 else rng.choice(STRINGS + NUMBERS + KEYS + KINDS) for _ in range(rng.randint(0, 3))]
    clause = {"attribute": rng.choice(ATTRS), "op": op, "values": values}
    maybe(rng, clause, "contextKind", rng.choice(KINDS + [""]), 0.5)
    maybe(rng, clause, "negate", rng.random() < 0.3, 0.5)
    return clause


def gen_rollout(rng, n_variations):
    variations = []
    for _ in range(rng.randint(0, 3) if rng.random() < 0.2 else rng.randint(1, 3)):
        weight = rng.choice([0, 25000, 50000, 100000, 33333, -5, 150000, 1]) if rng.random() < 0.3 else rng.randint(0, 100000)
        v = {"variation": rng.randint(-1, n_variations) if rng.random() < 0.1 else rng.randint(0, max(n_variations - 1, 0)), "weight": weight}
        maybe(rng, v, "untracked", rng.random() < 0.3, 0.4)
        variations.append(v)
    rollout = {"variations": variations}
    maybe(rng, rollout, "kind", rng.choice(["experiment", "experiment", "rollout", "other"]), 0.7)
    maybe(rng, rollout, "seed", rng.choice([0, 61, -7, 123456789]), 0.4)
    maybe(rng, rollout, "contextKind", rng.choice(KINDS + ["", "user"]), 0.4)
    maybe(rng, rollout, "bucketBy", rng.choice(ATTRS), 0.4)
    return rollout


def gen_vr(rng, n_variations):
    vr = {}
    r = rng.random()
    if r < 0.5:
        vr["variation"] = rng.randint(-1, n_variations) if rng.random() < 0.1 else rng.randint(0, max(n_variations - 1, 0))
    elif r < 0.97:
        vr["rollout"] = gen_rollout(rng, n_variations)
    return vr


def gen_flag(rng, key, flag_keys, segment_keys):
    n = rng.randint(0, 4) if rng.random() < 0.1 else rng.randint(2, 4)
    flag = {"key": key, "version": rng.randint(1, 9), "variations": [json_value(rng, 1) for _ in range(n)]}
    maybe(rng, flag, "on", rng.random() < 0.8, 0.9)
    maybe(rng, flag, "offVariation", rng.randint(-1, n), 0.6)
    maybe(rng, flag, "salt", rng.choice(["", "salt", "é"]), 0.6)
    maybe(rng, flag, "fallthrough", gen_vr(rng, n), 0.9)
    maybe(rng, flag, "prerequisites", [{"key": rng.choice(flag_keys + ["nope"]), "variation": rng.randint(0, max(n, 1))}
                                       for _ in range(rng.randint(0, 2))], 0.3)
    maybe(rng, flag, "targets", [{"values": rng.sample(KEYS, rng.randint(0, 3)), "variation": rng.randint(0, n)}
                                 for _ in range(rng.randint(0, 2))], 0.4)
    targets = []
    for _ in range(rng.randint(0, 2)):
        t = {"values": rng.sample(KEYS, rng.randint(0, 2)), "variation": rng.randint(0, n)}
        maybe(rng, t, "contextKind", rng.choice(KINDS + [""]), 0.7)
        targets.append(t)
    maybe(rng, flag, "contextTargets", targets, 0.3)
    rules = []
    for _ in range(rng.randint(0, 3)):
        rule = dict(gen_vr(rng, n))
        rule["clauses"] = [gen_clause(rng, segment_keys) for _ in range(rng.randint(0, 2))]
        maybe(rng, rule, "id", rng.choice(["r1", "r2", ""]), 0.8)
        maybe(rng, rule, "trackEvents", rng.random() < 0.5, 0.3)
        rules.append(rule)
    maybe(rng, flag, "rules", rules, 0.9)
    maybe(rng, flag, "trackEvents", rng.random() < 0.5, 0.3)
    maybe(rng, flag, "trackEventsFallthrough", rng.random() < 0.5, 0.3)
    return flag


def gen_segment(rng, key, segment_keys):
    segment = {"key": key, "version": 1}
    maybe(rng, segment, "included", rng.sample(KEYS, rng.randint(0, 2)), 0.5)
    maybe(rng, segment, "excluded", rng.sample(KEYS, rng.randint(0, 2)), 0.5)
    for field in ("includedContexts", "excludedContexts"):
        targets = []
        for _ in range(rng.randint(0, 2)):
            t = {"values": rng.sample(KEYS, rng.randint(0, 2))}
            maybe(rng, t, "contextKind", rng.choice(KINDS + [""]), 0.7)
            targets.append(t)
        maybe(rng, segment, field, targets, 0.4)
    rules = []
    for _ in range(rng.randint(0, 2)):
        rule = {"clauses": [gen_clause(rng, segment_keys) for _ in range(rng.randint(0, 2))]}
        maybe(rng, rule, "weight", rng.choice([0, 50000, 100000, -1, 200000, rng.randint(0, 100000)]), 0.4)
        maybe(rng, rule, "bucketBy", rng.choice(ATTRS), 0.3)
        maybe(rng, rule, "rolloutContextKind", rng.choice(KINDS + [""]), 0.3)
        rules.append(rule)
    maybe(rng, segment, "rules", rules, 0.8)
    maybe(rng, segment, "salt", rng.choice(["", "s"]), 0.5)
    if rng.random() < 0.3:
        segment["unbounded"] = True
        maybe(rng, segment, "generation", rng.randint(1, 5), 0.6)
        maybe(rng, segment, "unboundedContextKind", rng.choice(KINDS), 0.5)
    return segment


def gen_context(rng):
    def single(kind_field):
        c = {}
        if kind_field:
            c["kind"] = rng.choice(KINDS) if rng.random() < 0.97 else rng.choice(["multi", "kind", "", "bad kind", 3])
        if rng.random() < 0.97:
            c["key"] = rng.choice(KEYS)
        else:
            maybe(rng, c, "key", rng.choice(["", 5]), 0.5)
        hostile = rng.random() < 0.05
        for attr in rng.sample(["a", "b", "c", "email", "name", "anonymous"] + ([""] if hostile else []), rng.randint(0, 4)):
            if attr == "name":
                c[attr] = rng.choice(STRINGS + [None] + ([3] if hostile else []))
            elif attr == "anonymous":
                c[attr] = rng.choice([True, False] + ([None, "yes"] if hostile else []))
            else:
                c[attr] = json_value(rng) if rng.random() < 0.4 else rng.choice(STRINGS + NUMBERS + KEYS)
        if rng.random() < 0.3:
            c["a"] = {"b": json_value(rng), "a/b": json_value(rng)}
        return c
    if rng.random() < 0.3:
        multi = {"kind": "multi"}
        for kind in rng.sample(KINDS, rng.randint(0, 3) if rng.random() < 0.1 else rng.randint(1, 3)):
            inner = single(False)
            multi[kind] = inner
        return multi
    return single(True)


def all_paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from all_paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from all_paths(v, path + (i,))


def mutate(rng, data):
    """Replaces one field anywhere with a value of any JSON type, or deletes it."""
    paths = [p for p in all_paths(data) if len(p) >= 3]
    if not paths:
        return
    path = rng.choice(paths)
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    old = parent[last]
    if last == "key" and len(path) == 3:
        value = rng.choice([None, 3, [], {}])  # never another string (see the module's notes)
    else:
        value = json_value(rng, 2)
    if isinstance(old, int) and not isinstance(old, bool) and isinstance(value, bool):
        value = None  # see the module's notes: Python's bool is an int
    if isinstance(parent, dict) and rng.random() < 0.2:
        del parent[last]
    else:
        parent[last] = value


def gen_dataset(rng):
    flag_keys = ["f%d" % i for i in range(rng.randint(1, 5))]
    segment_keys = ["s%d" % i for i in range(rng.randint(0, 3) if rng.random() < 0.3 else rng.randint(1, 3))]
    flags = {k: gen_flag(rng, k, flag_keys, segment_keys) for k in flag_keys}
    segments = {k: gen_segment(rng, k, segment_keys) for k in segment_keys}
    if rng.random() < 0.2:
        # A deep prerequisite chain, sometimes closed into a cycle.
        length = rng.randint(5, 30)
        for i in range(length):
            key = "c%d" % i
            prereqs = [{"key": "c%d" % (i + 1), "variation": 0}] if i + 1 < length else []
            if i + 1 == length and rng.random() < 0.5:
                prereqs = [{"key": "c%d" % rng.randint(0, i), "variation": 0}]
            flags[key] = {"key": key, "version": 1, "on": True, "variations": [True, False], "offVariation": 1,
                          "fallthrough": {"variation": rng.choice([0, 0, 1])}, "prerequisites": prereqs}
        flag_keys.append("c0")
    if rng.random() < 0.2 and segment_keys:
        # Segments that refer to segments, sometimes in a cycle.
        n = rng.randint(2, 6)
        for i in range(n):
            key = "q%d" % i
            target = "q%d" % (i + 1) if i + 1 < n else ("q0" if rng.random() < 0.5 else segment_keys[0])
            segments[key] = {"key": key, "version": 1, "included": rng.sample(KEYS, 1),
                             "rules": [{"clauses": [{"attribute": "key", "op": "segmentMatch", "values": [target]}]}]}
        flags["qf"] = {"key": "qf", "version": 1, "on": True, "variations": ["in", "out"], "fallthrough": {"variation": 1},
                       "rules": [{"id": "q", "variation": 0, "clauses": [{"attribute": "key", "op": "segmentMatch", "values": ["q0"]}]}]}
        flag_keys.append("qf")
    data = {"flags": flags, "segments": segments}
    if rng.random() < 0.12:
        mutate(rng, data)
    if rng.random() < 0.03:
        # null at the top level or for a whole flag
        target = rng.choice(["flags", "segments"])
        if data[target] and rng.random() < 0.5:
            data[target][rng.choice(list(data[target]))] = None
        else:
            data[target] = rng.choice([None, [], 3])
    return data, flag_keys


def zero_filled(data):
    """The data with what LaunchDarkly's data and its Go SDK read as empty when missing or null —
    clause lists, clause attribute/op/values, target values, rollout variations — set so, for the
    Python SDK, which requires them (TweakKit reads them as the Go SDK does)."""
    data = copy.deepcopy(data)

    def fill(obj, key, value):
        if isinstance(obj, dict) and obj.get(key) is None:
            obj[key] = value

    def clauses(rule):
        fill(rule, "clauses", [])
        for clause in rule.get("clauses") if isinstance(rule.get("clauses"), list) else []:
            for key, value in (("attribute", ""), ("op", ""), ("values", [])):
                fill(clause, key, value)

    def items(obj, key):
        value = obj.get(key) if isinstance(obj, dict) else None
        return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []

    for flag in (data.get("flags") or {}).values() if isinstance(data.get("flags"), dict) else []:
        if not isinstance(flag, dict):
            continue
        for field in ("targets", "contextTargets"):
            for target in items(flag, field):
                fill(target, "values", [])
        for vr in [flag.get("fallthrough")] + items(flag, "rules"):
            if isinstance(vr, dict) and isinstance(vr.get("rollout"), dict):
                fill(vr["rollout"], "variations", [])
        for rule in items(flag, "rules"):
            clauses(rule)
    for segment in (data.get("segments") or {}).values() if isinstance(data.get("segments"), dict) else []:
        if not isinstance(segment, dict):
            continue
        for field in ("includedContexts", "excludedContexts"):
            for target in items(segment, field):
                fill(target, "values", [])
        for rule in items(segment, "rules"):
            clauses(rule)
    return data


class SdkSide:
    """The SDK's model and evaluator over one data set, as LDClient would run them."""

    def __init__(self, data):
        self.flags, self.segments = {}, {}
        flags = data.get("flags") if isinstance(data, dict) else None
        segments = data.get("segments") if isinstance(data, dict) else None
        if flags is not None and not isinstance(flags, dict) or segments is not None and not isinstance(segments, dict):
            raise ValueError("flags and segments must be objects")
        for key, item in (flags or {}).items():
            flag = FeatureFlag(item)
            if not flag.deleted:
                self.flags[key] = flag
        for key, item in (segments or {}).items():
            segment = Segment(item)
            if not segment.deleted:
                self.segments[key] = segment
        self.evaluator = Evaluator(self.flags.get, self.segments.get, lambda key: (None, "NOT_CONFIGURED"))

    def decide(self, flag_key, context_json, default):
        context = Context.from_dict(context_json) if isinstance(context_json, dict) else Context.from_dict(None)
        if not context.valid:
            return {"value": default, "variationIndex": None, "reason": {"kind": "ERROR", "errorKind": "USER_NOT_SPECIFIED"}}
        flag = self.flags.get(flag_key)
        if flag is None:
            return {"value": default, "variationIndex": None, "reason": {"kind": "ERROR", "errorKind": "FLAG_NOT_FOUND"}}
        try:
            detail = self.evaluator.evaluate(flag, context, EventFactory(False)).detail
        except Exception:  # LDClient's own catch
            return {"value": default, "variationIndex": None, "reason": {"kind": "ERROR", "errorKind": "EXCEPTION"}}
        value = default if detail.variation_index is None else detail.value
        reason = {k: v for k, v in detail.reason.items() if v is not None}
        return {"value": value, "variationIndex": detail.variation_index, "reason": reason}


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) == type(b) and a == b


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser()
    parser.add_argument("--tweak", default=os.path.join(here, "..", "..", ".build", "debug", "tweak"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    started = time.time()
    rng = random.Random(args.seed)
    sys.setrecursionlimit(10000)
    logging.disable(logging.CRITICAL)  # the SDK's warnings ("Missing prereq flag") are expected here

    lines, expected = [], []
    refused_sets = zero_filled_sets = 0
    while sum(1 for e in expected if isinstance(e, tuple)) < args.cases:
        data, flag_keys = gen_dataset(rng)
        try:
            sdk = SdkSide(copy.deepcopy(data))
        except Exception as error:
            sdk = None
            if "is missing" in str(error):
                try:
                    sdk = SdkSide(zero_filled(data))
                    zero_filled_sets += 1
                except Exception:
                    pass
            if sdk is None:
                refused_sets += 1
        lines.append(json.dumps({"data": data}))
        expected.append(None if sdk is not None else "refused")
        for _ in range(rng.randint(5, 12)):
            flag_key = rng.choice(flag_keys) if rng.random() < 0.95 else "missing-flag"
            context = gen_context(rng)
            default = rng.choice([None, "default", 0, False, {"d": 1}])
            lines.append(json.dumps({"flagKey": flag_key, "context": context, "default": default}))
            expected.append(("refused", data, flag_key, context) if sdk is None else (sdk.decide(flag_key, context, default), data, flag_key, context))

    result = subprocess.run([args.tweak, "eval-batch", "--launchdarkly"], input="\n".join(lines) + "\n",
                            capture_output=True, text=True, check=False)
    outputs = result.stdout.splitlines()
    if result.returncode != 0 or len(outputs) != len(lines):
        print(f"tweak eval-batch failed (exit {result.returncode}, {len(outputs)} of {len(lines)} lines): {result.stderr[-2000:]}")
        return 1

    decisions, agreed, failures = 0, 0, []
    kinds = collections.Counter()
    for index, (expect, output) in enumerate(zip(expected, outputs)):
        answer = json.loads(output)
        if expect is None or expect == "refused":
            if (expect == "refused") != ("error" in answer):
                failures.append(f"data: SDK {'refused' if expect else 'accepted'}, TweakKit {answer}\n    data {lines[index][:1500]}")
            continue
        decisions += 1
        wanted, data, flag_key, context = expect
        if wanted == "refused":
            ok = "error" in answer
            wanted_text = "refused"
        else:
            got = {k: answer.get(k) for k in ("value", "variationIndex", "reason")}
            ok = "error" not in answer and all(same(got[k], wanted[k]) for k in got)
            wanted_text = json.dumps(wanted)
            kinds[wanted["reason"].get("errorKind") or wanted["reason"]["kind"]] += 1
            kinds["inExperiment"] += bool(wanted["reason"].get("inExperiment"))
            kinds["bigSegmentsStatus"] += "bigSegmentsStatus" in wanted["reason"]
        if ok:
            agreed += 1
        else:
            failures.append(f"{flag_key} for {json.dumps(context)}\n    SDK      {wanted_text}\n    TweakKit {output}\n    data {json.dumps(data)[:1500]}")

    for failure in failures[: None if args.verbose else 10]:
        print("DIFF", failure)
    print(f"LaunchDarkly differential (seed {args.seed}): {agreed}/{decisions} decisions agree, {refused_sets} data sets refused by both "
          f"sides' loaders, {zero_filled_sets} read with missing lists as empty, {len(failures)} differences, {time.time() - started:.1f} s")
    print("  reasons:", ", ".join(f"{kind} {count}" for kind, count in kinds.most_common()))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
