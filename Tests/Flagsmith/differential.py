#!/usr/bin/env python3
"""Differential test of TweakKit's Flagsmith engine against Flagsmith's own (flagsmith-flag-engine
and the flagsmith SDK's environment-document mapping), on hostile generated input.

    Tests/Flagsmith/differential.py [--tweak PATH] [--seed N] [--cases N]

Each case is an environment document (evaluated for a few identities and without one, as the
SDK's local evaluation does) or an evaluation context (evaluated as the engine does). Both sides
give every flag (enabled, value with its JSON type, reason, variant, metadata) and the matching
segments; they must agree. All cases run through one `tweak eval-batch --flagsmith` process.

Where Flagsmith's engine raises (a regex Python refuses, MODULO by zero, a percentage split of
null, a malformed rule), TweakKit answers by its documented rule (no match) and the case is
counted, not compared. Where the generator breaks the schema on purpose (an unknown operator,
a rule type that is not ALL/ANY/NONE, a condition value that is a number), TweakKit must refuse
the document with an error naming the path.
"""
import argparse
import copy
import json
import random
import subprocess
import sys
import time
import warnings

warnings.simplefilter("ignore")

from flag_engine.engine import get_evaluation_result  # noqa: E402
from flagsmith.mappers import (  # noqa: E402
    map_context_and_identity_data_to_context,
    map_environment_document_to_context,
)

OPERATORS = ["EQUAL", "NOT_EQUAL", "GREATER_THAN", "GREATER_THAN_INCLUSIVE", "LESS_THAN", "LESS_THAN_INCLUSIVE",
             "CONTAINS", "NOT_CONTAINS", "REGEX", "PERCENTAGE_SPLIT", "MODULO", "IS_SET", "IS_NOT_SET", "IN"]
TRAIT_NAMES = ["plan", "age", "score", "country", "version", "flag", "tags", "empty", "user_id", "$.weird", "ünï"]
STRINGS = ["", "pro", "free", "PRO", "NL", "nl", "a,b", "1.2.3", "1.2.3-beta.1", "2.0.0", "1.10.0", "10", "-3", "0",
           "3.5", "007", "True", "true", "False", "false", "None", "abc123", "ünï", "é", "x y", "  4 ", "1_000", "1e3",
           "inf", "nan", "[1, 2]", "a|b", "user-1", "Production"]
REGEXES = ["^p", "pro$", "[0-9]+", r"\d{2}", "a|b", "(ab)+", ".*", "^$", "P?R?O", r"\w+@\w+", "^[a-z]{2}$",
           "(?i)pro", "[", "(", "*a", "a{2,1}", r"(?P<x>a)(?P=x)"]
SEMVERS = ["1.2.3", "1.2.3-beta.1", "2.0.0", "1.10.0", "01.2.3", "1.2", "1.2.3+build.5", "1.2.3-alpha", "x.y.z", "1.2.3-0a", ""]


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.violation = False

    def scalar(self):
        r = self.r
        kind = r.random()
        if kind < 0.1:
            return None
        if kind < 0.2:
            return r.choice([True, False])
        if kind < 0.35:
            return r.choice([0, 1, -3, 7, 10, 42, 65, 100, 2**40])
        if kind < 0.45:
            return r.choice([0.0, 1.0, 1.5, -2.25, 3.5, 1e16, 1e-7, 100.0, 33.333333333333336])
        return r.choice(STRINGS)

    def any_value(self, depth=0):
        r = self.r
        kind = r.random()
        if depth < 3 and kind < 0.08:
            return [self.any_value(depth + 1) for _ in range(r.randint(0, 3))]
        if depth < 3 and kind < 0.15:
            return {r.choice(["a", "b", "it's", "k"]): self.any_value(depth + 1) for _ in range(r.randint(0, 3))}
        return self.scalar()

    def trait_value(self):
        r = self.r
        if r.random() < 0.15:
            return r.choice(SEMVERS)
        return self.any_value()

    def condition_value(self, op):
        r = self.r
        if r.random() < 0.05:
            return None
        if op == "IN":
            if r.random() < 0.4:
                items = [r.choice(STRINGS + ["1", "42", "7"]) for _ in range(r.randint(0, 4))]
                if r.random() < 0.1:
                    items += [str(i) for i in range(r.randint(20, 400))]   # huge IN lists
                if r.random() < 0.15:
                    items.append(r.choice([1, 1.5, True, None]))
                return items
            if r.random() < 0.3:
                return json.dumps([r.choice(STRINGS + ["42"]) for _ in range(r.randint(0, 3))] + r.choice([[], [7], [True]]))
            return ",".join(r.choice(STRINGS + ["42", "7"]) for _ in range(r.randint(1, 4)))
        if op == "REGEX":
            return r.choice(REGEXES)
        if op == "MODULO":
            return r.choice(["2|0", "2|1", "3|1", "2.5|0.5", "-3|-1", "0|0", "2", "a|b", "2|0|1", "", "1e1|0", " 2 | 0 "])
        if op == "PERCENTAGE_SPLIT":
            return r.choice(["0", "10", "50", "99.9", "100", "-1", "abc", "33.3", "1e2"])
        if r.random() < 0.25:
            return r.choice(SEMVERS) + ":semver"
        return r.choice(STRINGS + ["42", "64", "65", "1.5", "3.5", "7"])

    def condition(self, prop_key):
        r = self.r
        op = r.choice(OPERATORS)
        prop = r.choice(TRAIT_NAMES + ["$.identity.identifier", "$.identity.key", "$.environment.name",
                                        "$.identity.traits.plan", "$.identity.traits['age']", "$.identity", "$.nothing.here",
                                        "$. bad", "", "$.environment.key"])
        condition = {prop_key: prop, "operator": op, "value": self.condition_value(op)}
        if r.random() < 0.002:
            condition["operator"] = "SIMILAR"
            self.violation = True
        if r.random() < 0.002:
            condition["value"] = 42
            self.violation = True
        if prop_key == "property_" and r.random() < 0.05:
            del condition["property_"]
        return condition

    def rule(self, prop_key, depth):
        r = self.r
        rule = {"type": r.choice(["ALL", "ANY", "NONE"])}
        if r.random() < 0.002:
            rule["type"] = "SOME"
            self.violation = True
        if r.random() < 0.85:
            rule["conditions"] = [self.condition(prop_key) for _ in range(r.randint(0, 3))]
        if depth < 6 and r.random() < 0.35:
            rule["rules"] = [self.rule(prop_key, depth + 1) for _ in range(r.randint(0, 2))]
        return rule

    def deep_rule(self, prop_key):
        # Deeply nested rules, within the 32 levels TweakKit allows.
        rule = {"type": "ALL", "conditions": [self.condition(prop_key)]}
        for _ in range(self.r.randint(10, 25)):
            rule = {"type": self.r.choice(["ALL", "ANY", "NONE"]), "rules": [rule]}
        return rule

    def rules(self, prop_key):
        r = self.r
        rules = [self.rule(prop_key, 1) for _ in range(r.randint(0, 3))]
        if r.random() < 0.05:
            rules.append(self.deep_rule(prop_key))
        return rules

    def weight(self):
        return self.r.choice([0, 10, 25, 33.3, 50, 50.0, 100, 60, -10, 120, 0.5, 99.99])

    # Environment documents ---------------------------------------------------------------
    def feature_state(self, feature, django_id, segment_priority=False):
        r = self.r
        state = {"feature": {"id": feature[0], "name": feature[1], "type": "STANDARD"},
                 "enabled": r.random() < 0.6, "feature_state_value": self.any_value()}
        if r.random() < 0.9:
            state["django_id"] = django_id
        else:
            state["django_id"] = None
            state["featurestate_uuid"] = "%08x-0000-4000-8000-%012x" % (django_id, r.randint(0, 2**40))
        if r.random() < 0.35:
            values = []
            for index in range(r.randint(1, 4)):
                value = {"percentage_allocation": self.weight(),
                         "multivariate_feature_option": {"value": self.any_value()}}
                if r.random() < 0.7:
                    value["multivariate_feature_option"]["key"] = r.choice(["blue", "green", "v%d" % index, ""])
                if r.random() < 0.85:
                    value["id"] = r.choice([index + 1, 100 - index, 7, 7])
                else:
                    value["id"] = None
                    value["mv_fs_value_uuid"] = "%08x-1111-4111-8111-%012x" % (index, r.randint(0, 2**40))
                values.append(value)
            state["multivariate_feature_state_values"] = values
        elif r.random() < 0.1:
            state["multivariate_feature_state_values"] = r.choice([None, []])
        if segment_priority:
            if r.random() < 0.8:
                state["feature_segment"] = {"priority": r.choice([0, 1, 2, 2, 5, 1.5])}
        return state

    def document(self):
        r = self.r
        features = [(i + 1, name) for i, name in enumerate(r.sample(["checkout", "button", "limit", "banner", "theme", "ünï"], r.randint(1, 6)))]
        doc = {"api_key": r.choice(["env-key", "ser.abc", "k"]), "name": r.choice(["Production", "QA"]),
               "feature_states": [self.feature_state(f, 100 + f[0]) for f in features],
               "project": {"segments": []}}
        for index in range(r.randint(0, 5)):
            segment = {"id": index + 1, "name": r.choice(["pro", "beta", "seg-%d" % index]), "rules": self.rules("property_")}
            if r.random() < 0.8:
                segment["feature_states"] = [self.feature_state(f, 200 + 10 * index + f[0], True)
                                             for f in r.sample(features, r.randint(0, len(features)))]
            doc["project"]["segments"].append(segment)
        if r.random() < 0.5:
            overrides = []
            for identifier in r.sample(["user-1", "user-2", "vip", "42", "ünï"], r.randint(1, 3)):
                states = []
                for f in r.sample(features, r.randint(0, len(features))):
                    state = self.feature_state(f, 300 + f[0])
                    state["feature_state_value"] = self.scalar()
                    state.pop("multivariate_feature_state_values", None)
                    states.append(state)
                overrides.append({"identifier": identifier, "identity_features": states})
            doc["identity_overrides"] = overrides
        return doc

    def identity_traits(self, wrap):
        r = self.r
        traits = {}
        for name in r.sample(TRAIT_NAMES, r.randint(0, 6)):
            value = self.trait_value()
            if wrap and isinstance(value, (dict, list)):
                value = str(value)
            traits[name] = {"value": value} if wrap and r.random() < 0.3 else value
        return traits

    # Evaluation contexts ---------------------------------------------------------------------
    def feature_context(self, name, key):
        r = self.r
        feature = {"key": key, "name": name, "enabled": r.random() < 0.6, "value": self.any_value()}
        if r.random() < 0.35:
            feature["variants"] = [{"value": self.any_value(), "weight": self.weight(), "priority": r.choice([0, 1, 2, 2, 10])}
                                   for _ in range(r.randint(1, 4))]
            for variant in feature["variants"]:
                if r.random() < 0.7:
                    variant["key"] = r.choice(["a", "b", "c"])
        if r.random() < 0.3:
            feature["metadata"] = r.choice([{}, {"id": r.randint(1, 9)}, {"note": None}])
        return feature

    def context(self):
        r = self.r
        names = r.sample(["checkout", "button", "limit", "banner"], r.randint(1, 4))
        context = {"environment": {"key": r.choice(["env-key", "k"]), "name": r.choice(["Production", "QA"])},
                   "features": {name: self.feature_context(name, str(i + 1)) for i, name in enumerate(names)}}
        if r.random() < 0.8:
            identity = {"identifier": r.choice(["user-1", "42", "ünï", "x"]), "traits": self.identity_traits(False)}
            if r.random() < 0.3:
                identity["key"] = r.choice(["", "custom-key", "k_user"])
            if r.random() < 0.1:
                identity["traits"] = None
            context["identity"] = identity
        segments = {}
        for index in range(r.randint(0, 4)):
            key = str(index + 10)
            segment = {"key": key, "name": r.choice(["pro", "beta", "s%d" % index]), "rules": self.rules("property")}
            if r.random() < 0.8:
                segment["overrides"] = []
                for name in r.sample(names, r.randint(0, len(names))):
                    override = self.feature_context(name, str(50 + index))
                    if r.random() < 0.8:
                        override["priority"] = r.choice([0, 1, 1, 3, 2.5, -1])
                    segment["overrides"].append(override)
            if r.random() < 0.3:
                segment["metadata"] = {"id": index}
            segments[key] = segment
        if segments or r.random() < 0.5:
            context["segments"] = segments
        return context


def python_result(context):
    try:
        return get_evaluation_result(copy.deepcopy(context)), None
    except RecursionError:
        return None, "RecursionError"
    except Exception as error:  # the engine raised: a bad regex, MODULO by zero, …
        return None, type(error).__name__


def normalise(result):
    flags = {}
    for name, flag in result["flags"].items():
        entry = {k: flag.get(k) for k in ("name", "enabled", "value", "reason", "variant")}
        if flag.get("metadata"):
            entry["metadata"] = flag["metadata"]
        flags[name] = entry
    segments = []
    for segment in result["segments"]:
        entry = {"name": segment["name"]}
        if segment.get("metadata"):
            entry["metadata"] = segment["metadata"]
        segments.append(entry)
    return {"flags": flags, "segments": segments}


def same(a, b):
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if type(x) is not type(y):
            if isinstance(x, float) and isinstance(y, float):
                pass
            return False
        if isinstance(x, dict):
            if set(x) != set(y):
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif x != y and not (isinstance(x, float) and x != x and y != y):
            return False
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tweak", default=".build/debug/tweak")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=1000)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    started = time.time()
    requests = []   # (description, line, expected, python_error, violation)
    for case in range(args.cases):
        gen = Gen(rng)
        if rng.random() < 0.5:
            doc = gen.document()
            try:
                base = map_environment_document_to_context(copy.deepcopy(doc))
                mapped_error = None
            except Exception as error:
                base, mapped_error = None, type(error).__name__
            # The environment's flags (segments left out, as the SDK does), then identities.
            identities = [None] + [(rng.choice(["user-1", "user-2", "vip", "42", "ünï", "x"]), gen.identity_traits(True)) for _ in range(2)]
            for identity in identities:
                if base is None:
                    expected, error = None, mapped_error
                elif identity is None:
                    context = dict(base)
                    context.pop("segments", None)
                    expected, error = python_result(context)
                else:
                    try:
                        context = map_context_and_identity_data_to_context(base, identity[0], copy.deepcopy(identity[1]))
                        expected, error = python_result(context)
                    except Exception as exc:
                        expected, error = None, type(exc).__name__
                line = {"environment": doc}
                if identity is not None:
                    line["identifier"], line["traits"] = identity
                requests.append((f"case {case} (document, identity {identity and identity[0]})", line, expected, error, gen.violation))
        else:
            context = gen.context()
            expected, error = python_result(context)
            requests.append((f"case {case} (context)", {"context": context}, expected, error, gen.violation))
    text = "\n".join(json.dumps(line, ensure_ascii=False, allow_nan=False) for _, line, _, _, _ in requests) + "\n"
    run = subprocess.run([args.tweak, "eval-batch", "--flagsmith"], input=text, capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        print(run.stderr, file=sys.stderr)
        return 1
    outputs = run.stdout.splitlines()
    if len(outputs) != len(requests):
        print(f"expected {len(requests)} result lines, got {len(outputs)}", file=sys.stderr)
        return 1
    compared = raised = refused = failures = 0
    for (description, line, expected, error, violation), output in zip(requests, outputs):
        actual = json.loads(output)
        if violation:
            if "error" not in actual:
                failures += 1
                print(f"MISMATCH {description}: the document breaks the schema on purpose; TweakKit accepted it")
            else:
                refused += 1
            continue
        if error is not None:
            raised += 1
            continue
        if "error" in actual:
            failures += 1
            print(f"MISMATCH {description}: TweakKit refused: {actual['error']}")
            continue
        want = normalise(expected)
        if not same(want, actual):
            failures += 1
            if failures <= 10:
                print(f"MISMATCH {description}")
                for name in sorted(set(want["flags"]) | set(actual.get("flags", {}))):
                    w, a = want["flags"].get(name), actual.get("flags", {}).get(name)
                    if not same(w, a):
                        print(f"  flag {name}: expected {json.dumps(w, ensure_ascii=False)}\n  {' ' * len(name)}       got {json.dumps(a, ensure_ascii=False)}")
                if not same(want["segments"], actual.get("segments")):
                    print(f"  segments: expected {want['segments']}, got {actual.get('segments')}")
                print("  input: " + json.dumps(line, ensure_ascii=False)[:3000])
            continue
        compared += 1
    elapsed = time.time() - started
    print(f"Flagsmith differential (seed {args.seed}): {len(requests)} evaluations of {args.cases} documents/contexts; "
          f"{compared} agree, {raised} where Flagsmith's engine raised, {refused} refused as malformed by both rules, "
          f"{failures} mismatches ({elapsed:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
