#!/usr/bin/env python3
"""Differential test: TweakKit's Optimizely decisions against the official Python SDK.

Generates datafiles (experiments of every type, exclusive groups, delivery rules, holdouts with
and without excludeTargetedDeliveries, whitelists, audiences with every match type, variables of
every type with awkward values), forced decisions (for a flag or a rule, `--forced-decision`) and
users from a seed, decides every case with
`optimizely-sdk` (PyPI) and with `tweak eval --optimizely-datafile … --contexts`, and compares
enabled, variationKey, ruleKey and the typed variables.

    python3 Tests/Differential/optimizely_diff.py --tweak .build/debug/tweak --seed 1 --cases 1000

Documented classes (the Python SDK departs from its Swift/JS peers, which TweakKit follows):
  python-lenient-number  int()/float() accept "1_000" and non-ASCII digits; the other SDKs do not.
  python-big-integer     an integer variable beyond 64 bits is a Python int; TweakKit leaves it out.
  non-finite-double      a double variable inf/nan (or 1e400): JSON cannot hold it, `tweak eval`
                         prints null (the decision itself agrees).
"""
import argparse
import json
import logging
import math
import random
import re
import sys

from diffsupport import Tally, tweak_batch

from optimizely import optimizely
from optimizely.decision.optimizely_decide_option import OptimizelyDecideOption
from optimizely.optimizely_user_context import OptimizelyUserContext
from optimizely.helpers.sdk_settings import OptimizelySdkSettings


logging.disable(logging.CRITICAL)


class NoDispatch:
    @staticmethod
    def dispatch_event(event):
        pass


ATTRIBUTE_VALUES = {
    "plan": ["pro", "free", "Pro", "pro ", "", "enterprise"],
    "age": [17, 18, 21, 30.5, 65, -1, 0, 1000, "21", True, 2 ** 60],
    "beta": [True, False, "true", 1],
    "app_version": ["1.0.0", "1.2", "2.0.0-beta", "1.2.3+build", "10.0", "1.2.3.4", "", "v1", "2.0.0", "1.2.0"],
    "country": ["NL", "US", "nl", "", "BE"],
}
CONDITION_VALUES = {
    "plan": ["pro", "free", "ro", "enterprise"],
    "age": [18, 21, 30.5, 65, 0, -1],
    "beta": [True, False],
    "app_version": ["1.2", "1.2.0", "2.0.0", "2.0.0-beta", "1", "10"],
    "country": ["NL", "US", "N"],
}
MATCHES = ["exact", "exists", "substring", "gt", "ge", "lt", "le",
           "semver_eq", "semver_lt", "semver_le", "semver_gt", "semver_ge", None, "regex"]
VARIABLE_VALUES = {
    "boolean": ["true", "false", "True", ""],
    "integer": ["7", " 7 ", "-3", "+5", "0", "7.0", "1e3", "", "1_000", "99999999999999999999"],
    "double": ["2.5", " 2.5 ", "5", ".5", "5.", "1e5", "-0.0", "1E-3", "0x1p3", "inf", "-Infinity", "nan",
               "1e400", "abc", "1_0.5"],
    "string": ["hello", "", "with \"quotes\"", "ünï"],
    "json": ['{"a": 1}', "[1, 2]", '{"b": {"c": [true, "x"]}}', "not json", '"text"', "3", "{}"],
}


class Generator:
    def __init__(self, rng):
        self.rng = rng
        self.next_id = 1000

    def id(self):
        self.next_id += 1
        return str(self.next_id)

    def value(self, kind):
        """Mostly ordinary values (the first four of each list), sometimes awkward ones."""
        values = VARIABLE_VALUES[kind]
        return self.rng.choice(values[:4] if self.rng.random() < 0.8 else values)

    def leaf(self):
        name = self.rng.choice(list(ATTRIBUTE_VALUES))
        match = self.rng.choice(MATCHES)
        condition = {"type": "custom_attribute", "name": name}
        if match is not None:
            condition["match"] = match
        if match != "exists":
            condition["value"] = self.rng.choice(CONDITION_VALUES[name])
        return condition

    def condition_tree(self, depth=0):
        if depth >= 2 or self.rng.random() < 0.4:
            return self.leaf()
        operator = self.rng.choice(["and", "or", "not"])
        count = 1 if operator == "not" else self.rng.randint(1, 3)
        return [operator] + [self.condition_tree(depth + 1) for _ in range(count)]

    def audiences(self):
        typed, plain = [], []
        for index in range(self.rng.randint(1, 4)):
            audience_id = self.id()
            tree = self.condition_tree()
            if not isinstance(tree, list):
                tree = ["and", tree]
            if self.rng.random() < 0.7:
                typed.append({"id": audience_id, "name": f"aud{index}", "conditions": tree})
            else:
                plain.append({"id": audience_id, "name": f"aud{index}", "conditions": json.dumps(tree)})
        return typed, plain

    def audience_rule(self, audience_ids):
        choice = self.rng.random()
        if choice < 0.35 or not audience_ids:
            return {"audienceIds": [], "audienceConditions": []}
        if choice < 0.6:
            ids = self.rng.sample(audience_ids, self.rng.randint(1, len(audience_ids)))
            return {"audienceIds": ids}
        operator = self.rng.choice(["and", "or", "not"])
        ids = self.rng.sample(audience_ids, 1 if operator == "not" else self.rng.randint(1, len(audience_ids)))
        return {"audienceIds": ids, "audienceConditions": [operator] + ids}

    def variation(self, variables, enabled=None):
        variation_id = self.id()
        usages = [{"id": variable["id"], "value": self.value(variable["kind"])}
                  for variable in variables if self.rng.random() < 0.6]
        return {"id": variation_id, "key": f"v{variation_id}",
                "featureEnabled": self.rng.random() < 0.7 if enabled is None else enabled, "variables": usages}

    def traffic(self, variation_ids):
        ranges, end = [], 0
        for variation_id in variation_ids:
            end = min(10000, end + self.rng.choice([0, 1500, 2500, 5000, 10000]))
            ranges.append({"entityId": variation_id if self.rng.random() < 0.95 else "", "endOfRange": end})
        return ranges

    def experiment(self, variables, audience_ids, kind):
        variations = [self.variation(variables) for _ in range(self.rng.randint(1, 3))]
        experiment_id = self.id()
        experiment = {
            "id": experiment_id, "key": f"exp{experiment_id}", "layerId": self.id(),
            "status": "Running" if self.rng.random() < 0.9 else "Paused",
            "variations": variations, "trafficAllocation": self.traffic([v["id"] for v in variations]),
            "forcedVariations": {"forced-user": variations[-1]["key"]} if self.rng.random() < 0.3 else {},
            **self.audience_rule(audience_ids),
        }
        if kind is not None:
            experiment["type"] = kind
        return experiment

    def rollout(self, variables, audience_ids):
        rules = []
        for index in range(self.rng.randint(0, 3)):
            variation = self.variation(variables, enabled=self.rng.random() < 0.8)
            rule_id = self.id()
            rules.append({"id": rule_id, "key": f"rule{rule_id}", "layerId": self.id(), "status": "Running",
                          "variations": [variation],
                          "trafficAllocation": [{"entityId": variation["id"], "endOfRange": self.rng.choice([0, 3000, 7000, 10000])}],
                          "forcedVariations": {}, **self.audience_rule(audience_ids)})
        everyone = self.variation(variables, enabled=self.rng.random() < 0.5)
        rule_id = self.id()
        rules.append({"id": rule_id, "key": f"everyone{rule_id}", "layerId": self.id(), "status": "Running",
                      "variations": [everyone],
                      "trafficAllocation": [{"entityId": everyone["id"], "endOfRange": self.rng.choice([5000, 10000])}],
                      "forcedVariations": {}, "audienceIds": [], "audienceConditions": []})
        return {"id": self.id(), "experiments": rules}

    def holdout(self, audience_ids, flag_ids):
        variation_id = self.id()
        holdout = {
            "id": self.id(), "key": f"holdout{variation_id}",
            "status": "Running" if self.rng.random() < 0.85 else "Draft",
            "variations": [{"id": variation_id, "key": "off", "featureEnabled": False, "variables": []}],
            "trafficAllocation": [{"entityId": variation_id, "endOfRange": self.rng.choice([500, 2000, 5000])}],
            **self.audience_rule(audience_ids),
        }
        if self.rng.random() < 0.5:
            holdout["excludeTargetedDeliveries"] = True
        if self.rng.random() < 0.3 and flag_ids:  # fields of older datafiles, ignored by current SDKs
            holdout["includedFlags"] = [self.rng.choice(flag_ids)]
        if self.rng.random() < 0.2 and flag_ids:
            holdout["excludedFlags"] = [self.rng.choice(flag_ids)]
        return holdout

    def datafile(self):
        typed, plain = self.audiences()
        audience_ids = [a["id"] for a in typed + plain]
        experiments, rollouts, flags, groups = [], [], [], []
        for flag_index in range(2):
            variables = []
            for kind in self.rng.sample(list(VARIABLE_VALUES), self.rng.randint(1, 5)):
                variable = {"id": self.id(), "key": f"var_{kind}", "kind": kind,
                            "type": "string" if kind == "json" else kind,
                            "defaultValue": self.value(kind)}
                if kind == "json":
                    variable["subType"] = "json"
                variables.append(variable)
            flag_experiments = [self.experiment(variables, audience_ids, self.rng.choice([None, "ab", "td", "fr", "mab"]))
                                for _ in range(self.rng.randint(0, 3))]
            if len(flag_experiments) >= 2 and self.rng.random() < 0.3:
                members = flag_experiments[:2]
                group_id = self.id()
                groups.append({"id": group_id, "policy": "random", "experiments": members,
                               "trafficAllocation": [{"entityId": members[0]["id"], "endOfRange": 5000},
                                                     {"entityId": members[1]["id"], "endOfRange": 10000}]})
                experiments.extend(flag_experiments[2:])
            else:
                experiments.extend(flag_experiments)
            rollout = self.rollout(variables, audience_ids) if self.rng.random() < 0.9 else None
            if rollout:
                rollouts.append(rollout)
            flags.append({"id": self.id(), "key": f"flag{flag_index}", "experimentIds": [e["id"] for e in flag_experiments],
                          "rolloutId": rollout["id"] if rollout else "",
                          "variables": [{k: v for k, v in variable.items() if k != "kind"} for variable in variables]})
        holdouts = [self.holdout(audience_ids, [f["id"] for f in flags]) for _ in range(self.rng.choice([0, 0, 1, 2]))]
        return {"version": "4", "projectId": "1", "accountId": "2", "revision": "3", "sendFlagDecisions": True,
                "anonymizeIP": True, "botFiltering": False, "attributes": [{"id": self.id(), "key": key} for key in ATTRIBUTE_VALUES],
                "audiences": plain, "typedAudiences": typed, "experiments": experiments, "groups": groups,
                "rollouts": rollouts, "featureFlags": flags, "events": [], "holdouts": holdouts,
                "integrations": []}

    def forced_decisions(self, datafile, flag):
        """Forced decisions set in code, as `setForcedDecision` takes them: for the flag or one of its rules."""
        if self.rng.random() > 0.25:
            return []
        every = datafile["experiments"] + [e for g in datafile["groups"] for e in g["experiments"]]
        rules = [e for e in every if e["id"] in flag["experimentIds"]]
        rules += [r for rollout in datafile["rollouts"] if rollout["id"] == flag["rolloutId"] for r in rollout["experiments"]]
        variations = [v["key"] for rule in rules for v in rule["variations"]] + ["no_such_variation"]
        forced = []
        for _ in range(self.rng.randint(1, 2)):
            rule = self.rng.choice(rules)["key"] if rules and self.rng.random() < 0.6 else None
            forced.append((rule, self.rng.choice(variations)))
        return forced

    def user(self):
        attributes = {}
        for name, values in ATTRIBUTE_VALUES.items():
            if self.rng.random() < 0.75:
                attributes[name] = self.rng.choice(values)
        if self.rng.random() < 0.1:
            attributes["$opt_bucketing_id"] = f"bucket-{self.rng.randint(0, 50)}"
        user_id = "forced-user" if self.rng.random() < 0.05 else f"user-{self.rng.randint(0, 100000)}"
        return {"targetingKey": user_id, **attributes}


def lenient_number(text):
    body = text.strip()
    return "_" in body or any(not ch.isascii() for ch in body)


def raw_text(datafile, flag, variation_key, enabled, variable):
    """The variable's text as the decision used it: the enabled variation's, else the default."""
    if enabled and variation_key is not None:
        every = [e for e in datafile["experiments"]] + [e for g in datafile["groups"] for e in g["experiments"]]
        every += [r for rollout in datafile["rollouts"] for r in rollout["experiments"]]
        for experiment in every:
            for variation in experiment["variations"]:
                if variation["key"] == variation_key:
                    for usage in variation["variables"]:
                        if usage["id"] == variable["id"]:
                            return usage["value"]
    return variable["defaultValue"]


def classify(datafile, flag_key, decision, sdk_variables, tweak_variables):
    """The documented class of a variables-only difference, or None."""
    flag = next(f for f in datafile["featureFlags"] if f["key"] == flag_key)
    by_key = {v["key"]: v for v in flag["variables"]}
    types = {v["key"]: ("json" if v.get("subType") == "json" else v["type"]) for v in flag["variables"]}
    classes = set()
    for key in set(sdk_variables) | set(tweak_variables):
        expected, actual = sdk_variables.get(key), tweak_variables.get(key)
        if same_value(expected, actual):
            continue
        if isinstance(expected, float) and not math.isfinite(expected) and actual is None:
            classes.add("non-finite-double")
        elif types.get(key) == "integer" and isinstance(expected, int) and abs(expected) >= 2 ** 63 and actual is None:
            classes.add("python-big-integer")
        elif (types.get(key) in ("integer", "double") and expected is not None and actual is None
              and lenient_number(raw_text(datafile, flag, decision.variation_key, decision.enabled, by_key[key]))):
            classes.add("python-lenient-number")
        else:
            return None
    return ",".join(sorted(classes)) if classes else None


def same_value(expected, actual):
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual or (expected == actual and type(expected) is type(actual))
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return expected == actual or (isinstance(expected, float) and math.isnan(expected) and actual is None)
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(same_value(expected[k], actual[k]) for k in expected)
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(same_value(a, b) for a, b in zip(expected, actual))
    return expected == actual


def run(tweak, seed, cases):
    rng = random.Random(seed)
    generator = Generator(rng)
    tally = Tally("optimizely")
    options = [OptimizelyDecideOption.INCLUDE_REASONS]
    while tally.cases < cases:
        datafile = generator.datafile()
        client = optimizely.Optimizely(datafile=json.dumps(datafile), skip_json_validation=True,
                                       event_dispatcher=NoDispatch(), settings=OptimizelySdkSettings(odp_disabled=True))
        users = [generator.user() for _ in range(10)]
        for flag in datafile["featureFlags"]:
            forced = generator.forced_decisions(datafile, flag)
            extra = [argument for rule, variation in forced for argument in ("--forced-decision", f"{rule}={variation}" if rule else variation)]
            results, errors = tweak_batch(tweak, "--optimizely-datafile", datafile, flag["key"], users, extra)
            if results is None:
                for user in users:
                    tally.record(False, None, {"flag": flag["key"], "user": user, "tweak error": errors, "datafile": datafile})
                continue
            for user, mine in zip(users, results):
                attributes = {k: v for k, v in user.items() if k != "targetingKey"}
                context = client.create_user_context(user["targetingKey"], attributes)
                for rule, variation in forced:
                    context.set_forced_decision(OptimizelyUserContext.OptimizelyDecisionContext(flag["key"], rule),
                                                OptimizelyUserContext.OptimizelyForcedDecision(variation))
                decision = context.decide(flag["key"], options)
                # A value the SDK cannot convert is None; TweakKit leaves it out.
                sdk_variables = {k: v for k, v in (decision.variables or {}).items() if v is not None}
                same_decision = (decision.enabled == mine["enabled"] and decision.variation_key == mine["variationKey"]
                                 and decision.rule_key == mine["ruleKey"])
                detail = {"flag": flag["key"], "user": user, "forced": forced,
                          "sdk": [decision.enabled, decision.variation_key, decision.rule_key, sdk_variables],
                          "tweak": [mine["enabled"], mine["variationKey"], mine["ruleKey"], mine["variables"]],
                          "sdk reasons": decision.reasons, "tweak reasons": mine["reasons"], "datafile": datafile}
                if not same_decision:
                    tally.record(False, None, detail)
                elif same_value(sdk_variables, mine["variables"]):
                    tally.record(True)
                else:
                    tally.record(False, classify(datafile, flag["key"], decision, sdk_variables, mine["variables"]), detail)
        client.close()
    return tally.report(seed)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tweak", default=".build/debug/tweak")
    parser.add_argument("--seed", type=int, action="append")
    parser.add_argument("--cases", type=int, default=1000)
    arguments = parser.parse_args()
    ok = all([run(arguments.tweak, seed, arguments.cases) for seed in arguments.seed or [1]])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
