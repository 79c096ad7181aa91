#!/usr/bin/env python3
"""Differential test: TweakKit's GrowthBook engine (`tweak eval --growthbook-features`) against
GrowthBook's official Python SDK (PyPI `growthbook`) on SDK payloads and contexts generated from a
seed. Every case must agree on value, on, source, ruleId, and the experiment result's variation,
value, hash attribute and hash value.

The generator is hostile where the SDKs agree: values of every JSON type with null at every depth
(feature values, variations, attributes), hash and fallback attributes of every type, conditions
comparing object and array attributes with object and array values, missing optional fields.
Ordering operators ($lt, $gt, $v…) compare like types only: there the JavaScript SDK (and the
published suite TweakKit follows) and the Python SDK answer differently ("8" > 7).

    python3 differential.py --tweak .build/debug/tweak --seed 1 --cases 1000

Exits 1 on any disagreement, printing the payload, context and both results of each.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import logging

import growthbook
from growthbook import GrowthBook, InMemoryStickyBucketService
from growthbook.core import _hash_string, _is_hashable

COUNTRIES = ["NL", "BE", "US", "DE", "FR"]
PLANS = ["free", "pro", "enterprise"]
TAGS = ["beta", "mobile", "vip", "new", "eu"]
VERSIONS = ["1.0.0", "1.2.0", "1.10.0", "2.0.0-beta.1", "2.0.0", "v2.1.3"]
# Every JSON type, null at every depth, objects whose keys differ only in order (JavaScript's
# property order puts array-index keys first): for attributes, values and condition operands.
SCALARS = [None, True, False, 0, 1, -1, 7, 2.5, 0.0, 1e21, 0.1, "", "a", "1", "0", "NL", "beta", "user-1"]
OBJECTS = [{"a": 1, "b": None}, {"b": None, "a": 1}, {"0": 1, "1": 2}, {"1": 2, "0": 1}, {"a": [1, None]},
           {"a": {"b": None}}, {}, {"a": 1.0, "b": None}]
ARRAYS = [[1, None], [None], [], [True, None], ["beta", "vip"], [[1, None], {"a": None}], [1.0, None], ["beta", None, 1]]
HASHABLE_NAMES = ["id", "deviceId", "company", "age", "beta", "profile", "tags", "score", "missing"]


class Generator:
    def __init__(self, rng):
        self.r = rng
        self.bandits = {}

    # --- values -----------------------------------------------------------------------------
    def value(self, kind):
        r = self.r
        if kind == "bool":
            return r.choice([True, False])
        if kind == "int":
            return r.choice([0, 1, 5, 10, 42, 100])
        if kind == "string":
            return r.choice(["", "a", "blue", "green", "control", "treatment"])
        if kind == "json":
            return r.choice([{"color": "blue"}, {"color": "red", "size": 2}, [1, 2], {}, None, [True, None],
                             {"a": None, "b": 1}, self.any_value()])
        return self.any_value()

    def any_value(self, depth=0):
        """Any JSON value, with null at every depth."""
        r = self.r
        choice = r.randrange(6)
        if depth < 3 and choice == 0:
            return [self.any_value(depth + 1) for _ in range(r.randint(0, 3))]
        if depth < 3 and choice == 1:
            keys = r.sample(["a", "b", "0", "1", "x"], r.randint(0, 3))
            return {k: self.any_value(depth + 1) for k in keys}
        if choice == 2:
            return r.choice(OBJECTS + ARRAYS)
        return r.choice(SCALARS)

    # --- conditions -------------------------------------------------------------------------
    def hostile_leaf(self):
        """Conditions over attributes of every type: objects and arrays compared, every operand type."""
        r = self.r
        attribute = r.choice(["profile", "tags", "score", "id", "missing", "profile.a", "tags.0", "tags.length", "country", "deviceId"])
        operand = r.choice([self.any_value(), r.choice(OBJECTS), r.choice(ARRAYS), r.choice(SCALARS)])
        choice = r.randrange(12)
        if choice == 0:
            return {attribute: operand if not isinstance(operand, dict) else r.choice(OBJECTS)}
        if choice == 1:
            return {attribute: {r.choice(["$eq", "$ne"]): operand}}
        if choice == 2:
            return {attribute: {r.choice(["$in", "$nin", "$ini", "$nini"]): r.sample(OBJECTS + ARRAYS + SCALARS, r.randint(0, 4))}}
        if choice == 3:
            # Ordering of like types only: the SDKs disagree on others (JavaScript's "8" > 7, Python's false).
            return r.choice([{"age": {r.choice(["$lt", "$lte", "$gt", "$gte"]): r.choice([18, 30.5, 65, -1, 1e21])}},
                             {"email": {r.choice(["$lt", "$gte"]): r.choice(["a", "b@", "\u00e9"])}}])
        if choice == 4:
            return {"version": {r.choice(["$veq", "$vne", "$vlt", "$vgte"]): r.choice(VERSIONS + ["", "2", "v1"])}}
        if choice == 5:
            return {attribute: {"$exists": operand}}
        if choice == 6:
            return {attribute: {"$type": r.choice(["number", "string", "array", "boolean", "null", "object", 5, None])}}
        if choice == 7:
            return {attribute: {"$size": r.choice([0, 1, 2, {"$gt": 0}, None, "2"])}}
        if choice == 8:
            return {attribute: {r.choice(["$all", "$alli"]): r.sample(OBJECTS + ARRAYS + SCALARS, r.randint(0, 3))}}
        if choice == 9:
            inner = r.choice([{"$eq": r.choice(SCALARS)}, {"$in": r.sample(SCALARS, 3)}, {"a": r.choice(SCALARS)},
                              {"$exists": True}, {"$type": "number"}, {"a": {"$exists": False}}])
            return {attribute: {"$elemMatch": inner}}
        if choice == 10:
            return {attribute: {"$not": operand if not isinstance(operand, dict) else {"$eq": 1}}}
        return {attribute: {r.choice(["$regex", "$notRegex", "$regexi"]): r.choice(["^a", "1", "null", "^$"])}}

    def leaf(self):
        r = self.r
        if r.random() < 0.4:
            return self.hostile_leaf()
        choice = r.randrange(16)
        if choice == 0:
            return {"country": r.choice(COUNTRIES)}
        if choice == 1:
            return {"country": {"$in": r.sample(COUNTRIES, r.randint(1, 3))}}
        if choice == 2:
            return {"plan": {"$nin": r.sample(PLANS, r.randint(1, 2))}}
        if choice == 3:
            return {"age": {r.choice(["$gt", "$gte", "$lt", "$lte"]): r.choice([18, 21, 30, 65])}}
        if choice == 4:
            return {"age": {"$eq": r.choice([18, 30, 42])}} if r.random() < 0.5 else {"age": {"$ne": 30}}
        if choice == 5:
            return {"version": {r.choice(["$veq", "$vne", "$vgt", "$vgte", "$vlt", "$vlte"]): r.choice(VERSIONS)}}
        if choice == 6:
            return {"tags": {"$elemMatch": {"$eq": r.choice(TAGS)}}}
        if choice == 7:
            return {"tags": {"$all": r.sample(TAGS, r.randint(1, 2))}}
        if choice == 8:
            return {"tags": {"$size": {"$gte": r.randint(0, 3)}}}
        if choice == 9:
            return {r.choice(["country", "email", "beta"]): {"$exists": r.choice([True, False])}}
        if choice == 10:
            return {"email": {r.choice(["$regex", "$regexi"]): r.choice(["@example\\.com$", "^a", "EXAMPLE", "[0-9]+"])}}
        if choice == 11:
            return {"id": {r.choice(["$inGroup", "$notInGroup"]): r.choice(["group_a", "group_b", "missing_group"])}}
        if choice == 12:
            return {"plan": {r.choice(["$ini", "$nini"]): r.sample(["PRO", "Free", "enterprise"], 2)}}
        if choice == 13:
            return {"beta": r.choice([True, False])}
        if choice == 14:
            return {r.choice(["age", "country", "tags", "beta"]): {"$type": r.choice(["number", "string", "array", "boolean", "null"])}}
        return {"plan": {"$not": {"$eq": r.choice(PLANS)}}}

    def condition(self, depth=0):
        r = self.r
        choice = r.randrange(10)
        if depth < 2 and choice == 0:
            return {"$or": [self.condition(depth + 1) for _ in range(r.randint(1, 3))]}
        if depth < 2 and choice == 1:
            return {"$and": [self.condition(depth + 1) for _ in range(r.randint(1, 2))]}
        if depth < 2 and choice == 2:
            return {"$nor": [self.condition(depth + 1)]}
        if depth < 2 and choice == 3:
            return {"$not": self.condition(depth + 1)}
        condition = self.leaf()
        if r.random() < 0.25:
            condition.update(self.leaf())
        return condition

    # --- rules and features -----------------------------------------------------------------
    def hashing(self, rule):
        r = self.r
        if r.random() < 0.7:
            # 0 reads as 1 (`hashVersion or 1`).
            rule["hashVersion"] = r.choice([1, 2, 1, 2, 0])
        if r.random() < 0.3:
            # Any attribute: its value may be a Boolean, a number, null, an array or an object.
            rule["hashAttribute"] = r.choice(HASHABLE_NAMES)
        if r.random() < 0.4:
            # An empty seed reads as the feature or experiment key (`seed or key`).
            rule["seed"] = r.choice(["s1", "checkout", "abc-123", ""])

    def experiment_rule(self, kind, index):
        r = self.r
        count = r.randint(2, 4)
        rule = {"key": f"exp-{index}-{r.randrange(5)}", "variations": [self.value(kind) for _ in range(count)]}
        if r.random() < 0.05:
            del rule["key"]  # the feature's key stands in
        if r.random() < 0.15:
            rule["variations"][r.randrange(count)] = None  # a result whose value is null
        if r.random() < 0.6:
            raw = [r.random() + 0.05 for _ in range(count)]
            total = sum(raw)
            rule["weights"] = [round(w / total, 4) for w in raw]
            rule["weights"][-1] = round(1 - sum(rule["weights"][:-1]), 4)
        if r.random() < 0.4:
            rule["coverage"] = r.choice([0, 0.25, 0.5, 0.9, 1])
        self.hashing(rule)
        if r.random() < 0.7:
            rule["meta"] = [{"key": f"v{i}"} for i in range(count)]
            if r.random() < 0.15:
                rule["meta"][r.randrange(count)]["passthrough"] = True
        if r.random() < 0.2:
            rule["namespace"] = [r.choice(["ns1", "ns2"]), 0, r.choice([0.3, 0.5, 1])]
        if r.random() < 0.15:
            rule["filters"] = [{"seed": "f1", "ranges": [[0, r.choice([0.3, 0.6, 1])]], "hashVersion": 2}]
        if r.random() < 0.2:
            rule["fallbackAttribute"] = r.choice(["deviceId", "deviceId", "company", "age", "beta", "score"])
        if r.random() < 0.1:
            rule["disableStickyBucketing"] = True
        if r.random() < 0.2:
            rule["bucketVersion"] = r.randint(0, 2)
            if r.random() < 0.5:
                rule["minBucketVersion"] = r.randint(0, rule["bucketVersion"])
        if r.random() < 0.15:
            rule["ranges"] = [[0, 0.3], [0.3, 0.6]] + [[0.6, 1]] * (count - 2)
        if r.random() < 0.12:
            # A contextual bandit: variations under contextualVariations, weights from the first leaf that matches.
            rule["contextualVariations"] = rule.pop("variations")
            rule.pop("ranges", None)
            reference = f"cb-{index}-{len(self.bandits)}"
            rule["contextualBanditRef"] = reference if r.random() < 0.9 else "missing-bandit"
            leaves = []
            for leaf_id in range(r.randint(0, 3)):
                raw = [r.choice([0, 0.2, 0.5, 1]) for _ in range(count)]
                total = sum(raw) or 1
                weights = [round(w / total, 4) for w in raw] if r.random() < 0.9 else [1] * count
                leaves.append({"leafId": leaf_id + 1, "condition": self.leaf() if r.random() < 0.7 else {}, "weights": weights})
            self.bandits[reference] = {"banditVersion": r.randint(1, 9), "contexts": leaves}
        return rule

    def force_rule(self, kind):
        r = self.r
        rule = {"force": self.value(kind)}
        if r.random() < 0.4:
            rule["coverage"] = r.choice([0, 0.2, 0.5, 0.8, 1])
            self.hashing(rule)
        elif r.random() < 0.2:
            rule["range"] = [0, r.choice([0.25, 0.5, 0.75])]
            self.hashing(rule)
        if r.random() < 0.15:
            rule["filters"] = [{"seed": "f2", "ranges": [[0, 0.5]], "attribute": "id"}]
        return rule

    def features(self):
        r = self.r
        keys = [f"feature-{i}" for i in range(r.randint(1, 4))]
        features = {}
        for index, key in enumerate(keys):
            kind = r.choice(["bool", "int", "string", "json", "any"])
            feature = {}
            if r.random() < 0.9:
                feature["defaultValue"] = self.value(kind)
            rules = []
            for _ in range(r.randint(0, 3)):
                rule = self.experiment_rule(kind, index) if r.random() < 0.5 else self.force_rule(kind)
                if r.random() < 0.5:
                    rule["condition"] = self.condition()
                if r.random() < 0.3:
                    rule["id"] = f"fr_{r.randrange(1000)}"
                if index > 0 and r.random() < 0.2:
                    rule["parentConditions"] = [{
                        "id": r.choice(keys[:index]),
                        "condition": r.choice([{"value": {"$exists": True}}, {"value": True}, {"value": {"$ne": None}}]),
                        "gate": r.random() < 0.5,
                    }]
                rules.append(rule)
            if rules:
                feature["rules"] = rules
            features[key] = feature
        return features

    def context(self, features):
        r = self.r
        attributes = {"id": f"user-{r.randrange(200)}", "age": r.randint(10, 80), "version": r.choice(VERSIONS)}
        if r.random() < 0.25:
            # An id of any type: only a non-empty text or a finite non-zero number identifies a user.
            attributes["id"] = r.choice(["", r.randrange(1, 50), 0, 2.5, 1e21, -3, True, False, None, [1], {"a": 1}, "0",
                                         9007199254740993])  # above 2^53: hashed as the double it rounds to
        if r.random() < 0.8:
            attributes["country"] = r.choice(COUNTRIES)
        if r.random() < 0.8:
            attributes["plan"] = r.choice(PLANS)
        if r.random() < 0.7:
            attributes["tags"] = r.sample(TAGS, r.randint(0, 3))
        if r.random() < 0.5:
            attributes["email"] = r.choice(["a@example.com", "bob@EXAMPLE.com", "x1@test.org"])
        if r.random() < 0.5:
            attributes["deviceId"] = f"d-{r.randrange(100)}"
        if r.random() < 0.3:
            attributes["company"] = r.choice(["acme", "globex"])
        if r.random() < 0.3:
            attributes["beta"] = r.choice([True, False])
        if r.random() < 0.4:
            attributes["profile"] = r.choice(OBJECTS + ARRAYS + [self.any_value()])
        if r.random() < 0.3:
            attributes["score"] = r.choice(SCALARS + [self.any_value()])
        if r.random() < 0.15:
            attributes["tags"] = r.choice(ARRAYS + [self.any_value()])
        if r.random() < 0.1:
            attributes["deviceId"] = r.choice(SCALARS)
        if r.random() < 0.1:
            attributes["company"] = r.choice(SCALARS)
        context = {"attributes": attributes}
        experiment_keys = [rule["key"] for f in features.values() for rule in f.get("rules", []) if "key" in rule]
        if experiment_keys and r.random() < 0.15:
            context["forcedVariations"] = {r.choice(experiment_keys): r.randint(-1, 3)}
        if r.random() < 0.07:
            context["qaMode"] = True
        if r.random() < 0.05:
            context["enabled"] = False
        if r.random() < 0.4:
            docs = {}
            if experiment_keys and r.random() < 0.7:
                for attribute in ["id", "deviceId", "company", "score"]:
                    value = attributes.get(attribute)
                    if _is_hashable(value):
                        # Stored under the value as the SDKs hash it ("7" for 7, "1e+21" for 1e21).
                        text = _hash_string(value)
                        docs[f"{attribute}||{text}"] = {
                            "attributeName": attribute, "attributeValue": text,
                            "assignments": {f"{r.choice(experiment_keys)}__{r.choice([0, 0, 0, 1, 2])}": f"v{r.randint(0, 3)}"
                                            for _ in range(2)},
                        }
            context["stickyBucketAssignmentDocs"] = docs
        return context


def python_result(payload, context, key):
    # The SDK keeps (and on destroy clears) the dictionaries it is given: hand it copies.
    payload, context = json.loads(json.dumps(payload)), json.loads(json.dumps(context))
    options = dict(
        attributes=context["attributes"], features=payload["features"], saved_groups=payload.get("savedGroups", {}),
        forced_variations=context.get("forcedVariations", {}), qa_mode=context.get("qaMode", False),
        enabled=context.get("enabled", True), contextual_bandits=payload.get("contextualBandits", {}),
    )
    if "stickyBucketAssignmentDocs" in context:
        service = InMemoryStickyBucketService()
        for doc in context["stickyBucketAssignmentDocs"].values():
            service.save_assignments(json.loads(json.dumps(doc)))
        options["sticky_bucket_service"] = service
    gb = GrowthBook(**options)
    try:
        return gb.eval_feature(key).to_dict()
    finally:
        gb.destroy()


def summary(result):
    """What must agree: value, on, source, ruleId and the experiment's variation."""
    experiment = result.get("experimentResult") or {}
    missing = "<missing>"
    return {
        "experimentValue": experiment.get("value", missing) if experiment else None,
        "hashAttribute": experiment.get("hashAttribute"),
        "hashValue": experiment.get("hashValue"),
        "value": result.get("value"),
        "on": result.get("on"),
        "source": result.get("source"),
        "ruleId": result.get("ruleId") or "",
        "variationId": experiment.get("variationId"),
        "variationKey": experiment.get("key"),
        "inExperiment": experiment.get("inExperiment"),
        "leafId": experiment.get("leafId"),
        "banditVersion": experiment.get("banditVersion"),
    }


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b if isinstance(a, bool) and isinstance(b, bool) else False
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) < 1e-9
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tweak", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()

    logging.disable(logging.CRITICAL)  # the SDK logs every unknown feature and skipped rule
    rng = random.Random(args.seed)
    generator = Generator(rng)
    cases = []
    with tempfile.TemporaryDirectory() as directory:
        for index in range(args.cases):
            generator.bandits = {}
            features = generator.features()
            payload = {"status": 200, "features": features,
                       "savedGroups": {"group_a": [f"user-{i}" for i in range(0, 200, 3)], "group_b": ["user-1", "user-2", 7]}}
            if generator.bandits:
                payload["contextualBandits"] = generator.bandits
            context = generator.context(features)
            key = rng.choice(list(features) + (["missing-feature"] if rng.random() < 0.03 else []))
            path = os.path.join(directory, f"payload-{index}.json")
            with open(path, "w") as file:
                json.dump(payload, file)
            cases.append((index, path, payload, context, key))

        def run(case):
            index, path, payload, context, key = case
            expected = python_result(payload, context, key)
            process = subprocess.run([args.tweak, "eval", "--growthbook-features", path, key, "--context", json.dumps(context)],
                                     capture_output=True, text=True)
            if process.returncode != 0:
                return index, payload, context, key, expected, {"error": process.stderr.strip()}
            return index, payload, context, key, expected, json.loads(process.stdout)

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            outcomes = list(pool.map(run, cases))

    disagreements = 0
    sources = {}
    for index, payload, context, key, expected, actual in outcomes:
        sources[expected.get("source")] = sources.get(expected.get("source"), 0) + 1
        if "error" in actual or not same(summary(expected), summary(actual)):
            disagreements += 1
            if disagreements <= 5:
                print(f"case {index} disagrees on {key}:\n  payload {json.dumps(payload)}\n  context {json.dumps(context)}"
                      f"\n  python  {json.dumps(summary(expected))}\n  tweak   {json.dumps(summary(actual) if 'error' not in actual else actual)}")
    agreed = len(outcomes) - disagreements
    bandit = sum(1 for outcome in outcomes if (outcome[4].get("experimentResult") or {}).get("leafId") is not None)
    sticky = sum(1 for outcome in outcomes if (outcome[4].get("experimentResult") or {}).get("stickyBucketUsed"))
    print(f"growthbook differential: seed {args.seed}, {agreed}/{len(outcomes)} cases agree with growthbook "
          f"{getattr(growthbook, '__version__', '?')} (sources: {json.dumps(sources, sort_keys=True)}; "
          f"{bandit} decided by a contextual bandit, {sticky} from a sticky bucket)")
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
