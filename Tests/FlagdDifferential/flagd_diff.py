#!/usr/bin/env python3
"""Differential test: TweakKit's flagd evaluator against OpenFeature's Python flagd provider.

Generates flagd flag definitions (targeting with if/and/or/!/in/==/!=/===/</<=/>/>=, starts_with,
ends_with, sem_ver, fractional, var, cat, $ref, and edge values: wrong argument counts, unknown
sem_ver operators, bad weights, no default variant, "" as default variant, JSON null inside object
variants) and evaluation contexts from a seed, evaluates every case with the official Python
provider (openfeature-provider-flagd, in-process FILE mode) and with `tweak eval-batch`, and
compares value, variant and reason.

TweakKit follows flagd's Go evaluator. Where the Python provider departs from it, the case is
put in a named class (CLASSES below) instead of counted as a disagreement; every other case must
agree.

    python3 Tests/FlagdDifferential/flagd_diff.py --tweak .build/debug/tweak --seed 1 --cases 1000
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter

# Where the Python provider (openfeature-flagd-core 1.0.0) departs from flagd's Go evaluator,
# which TweakKit follows. A case is put in a class when its flag or context holds the trigger.
CLASSES = {
    "py-semver-short-prerelease": "a short version with a pre-release or build (`1.2-beta`, `1+b`): "
    "Python pads it to 1.2.0-beta and compares; Go's semver (and TweakKit) reject it, so sem_ver is null",
    "py-semver-exponent-number": "a numeric version of a million or more: Go formats it 1e+06 (no version, "
    "sem_ver null); Python writes 1000000 and compares 1000000.0.0",
    "py-fractional-null-bucket": "fractional whose first argument is null while a targeting key is set: "
    "Go skips the null and buckets flag key + targeting key; Python gives null",
    "py-fractional-empty-bucket": "fractional whose bucketing value is the empty string: Go hashes \"\"; "
    "Python takes it for no bucketing value and gives null",
    "py-compare-null-string": "an ordering (<, <=, >, >=) of null against a string: Python compares the text "
    "\"null\"; Go (and JavaScript) compare numbers, 0 against NaN, which is false",
    "py-empty-string-number": "the empty string against a number (==, !=, <, <=, >, >=): Python reads \"\" as NaN; "
    "Go (and JavaScript) read it as 0",
    "py-null-equals-number": "null == a number: Python reads null as 0 (null == 0 holds); Go (and JavaScript) "
    "hold null equal to null only",
    "py-fractional-float-weight": "a whole weight written as a float (50.0) or a null weight: Go takes 50 "
    "(null: 1); Python refuses anything but an int and gives null",
    "py-fractional-long-bucket": "a distribution with more than two elements: Go ignores the extra ones; "
    "Python gives null",
    "py-fractional-structured-variant": "a distribution whose variant is an array or object: Go gives null "
    "(DEFAULT); Python returns it and fails with GENERAL",
}


# ---------------------------------------------------------------------------------------------
# Generation


class Gen:
    """Builds one flag definition file's flags and the cases to evaluate on them."""

    EMAILS = ["ballmer@macrosoft.com", "jobs@orange.com", "staff@tweakkit.dev", "user@example.org",
              "x@y.z", "", "abc@abc.abc", "admin@corp.example"]
    TIERS = ["premium", "basic", "free", "Premium", "", "gold"]
    COUNTRIES = ["NL", "US", "DE", "FR", "nl", "JP"]
    VERSIONS = ["1.0.0", "2.0.0", "2.1.0", "1.9.9", "2.0.0-alpha", "2.0.0-alpha.1", "2.0.0-beta.2",
                "2.0.0-beta.11", "2.0.0-rc.1", "1.0.0+build.5", "v1.2.3", "V1.2.3", "1.2", "1", "v2",
                "01.2.3", "1.2.3.4", "not-a-version", "", " 1.2.3", "1.2.3 ", "3.0.1", "3.1.0",
                "1.2.3-0", "1.2.3-01", "1.2.3-a..b", "1.2-beta", "1-rc.1", "1.2+build", "10.20.30",
                "1.0.0-alpha+001", "999999999999999999999.0.0"]
    NAMES = ["jack", "queen", "ten", "nine", "3", "seven", "eight", "two", "ace", ""]

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.evaluators: dict[str, object] = {}
        self.classes: dict[str, set[str]] = {}  # flag key -> classes its definition triggers

    def pick(self, items):
        return items[self.rng.randrange(len(items))]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    # Contexts ------------------------------------------------------------------------------

    def context(self) -> dict:
        r = self.rng
        ctx: dict = {}
        roll = r.random()
        if roll < 0.75:
            ctx["targetingKey"] = "user-%d" % r.randrange(10_000)
        elif roll < 0.85:
            ctx["targetingKey"] = self.pick(["", "jon@company.com", "jane@company.com", "ejOoVL", "ceQdGm"])
        for key, make, p in [
            ("email", lambda: self.pick(self.EMAILS), 0.8),
            ("tier", lambda: self.pick(self.TIERS), 0.7),
            ("country", lambda: self.pick(self.COUNTRIES), 0.6),
            ("age", lambda: r.randrange(0, 100), 0.7),
            ("score", lambda: round(r.uniform(-10, 10), 2), 0.5),
            ("beta", lambda: r.random() < 0.5, 0.5),
            ("version", lambda: self.version_value(), 0.8),
            ("user", lambda: {"name": self.pick(self.NAMES)}, 0.5),
            ("color", lambda: self.pick(["red", "blue", "green", "v0", "v1", ""]), 0.4),
        ]:
            if r.random() < p:
                ctx[key] = make()
        return ctx

    def version_value(self):
        roll = self.rng.random()
        if roll < 0.1:
            return self.pick([1, 2, 1.2, 1.5, 3, 0, 1_000_000, 2_000_000])
        return self.pick(self.VERSIONS)

    # Rules ---------------------------------------------------------------------------------

    def var(self, name: str):
        form = self.rng.random()
        if form < 0.7:
            return {"var": name}
        if form < 0.85:
            return {"var": [name]}
        return {"var": [name, self.pick(["fallback", "", 0])]}

    def condition(self, depth: int, variants: list[str]):
        r = self.rng
        kind = r.randrange(18 if depth > 0 else 15)
        if kind == 0:
            return {"==": [self.var("email"), self.pick(self.EMAILS)]}
        if kind == 1:
            return {self.pick(["!=", "===", "!=="]): [self.var("tier"), self.pick(self.TIERS)]}
        if kind == 2:
            op = self.pick(["<", "<=", ">", ">="])
            if r.random() < 0.2:
                return {op: [r.randrange(0, 50), self.var("age"), r.randrange(50, 100)]}
            return {op: [self.var(self.pick(["age", "score"])), r.randrange(-5, 80)]}
        if kind == 3:
            return {"in": [self.var("country"), self.rng.sample(self.COUNTRIES, r.randrange(0, 4))]}
        if kind == 4:
            return {"in": [self.pick(["@", "example", "corp", "x"]), self.var("email")]}
        if kind == 5:
            return self.string_op()
        if kind in (6, 7):
            return self.sem_ver()
        if kind == 8:
            return {self.pick(["!", "!!"]): [self.var(self.pick(["beta", "tier", "email", "missing"]))]}
        if kind == 9:
            return self.var("beta")
        if kind == 10:
            return {"==": [{"var": "$flagd.flagKey"}, self.pick(["f0", "x"])]}
        if kind == 11:
            return {"ref": True}  # replaced by a $ref below
        if kind == 12:
            return {"fractional": self.fractional_args([False, True], allow_bad=True)}
        if kind == 13:
            # Numbers against numbers and numeric strings (loose and strict equality).
            return {self.pick(["==", "!=", "===", "!=="]): [self.var("age"), self.pick([r.randrange(0, 100), str(r.randrange(0, 100)), 42, "42"])]}
        if kind == 14:
            # Strings ordered as strings.
            return {self.pick(["<", "<=", ">", ">="]): [self.var(self.pick(["tier", "country"])), self.pick(["m", "NL", "gold", ""])]}
        # Nested logic.
        op = self.pick(["and", "or"])
        return {op: [self.condition(depth - 1, variants) for _ in range(r.randrange(1, 4))]}

    def string_op(self):
        r = self.rng
        op = self.pick(["starts_with", "ends_with"])
        roll = r.random()
        if roll < 0.7:
            affix = self.pick(["staff@", "user", "@example.org", ".com", "", "x@", "dev"])
            return {op: [self.var("email"), affix]}
        if roll < 0.8:
            return {op: [self.var("age"), "1"]}  # a non-string: null
        if roll < 0.9:
            return {op: [self.var("email")]}  # wrong count: null
        return {op: [self.var("email"), "a", "b"]}

    def sem_ver(self):
        r = self.rng
        roll = r.random()
        op = self.pick(["=", "!=", "<", "<=", ">", ">=", "^", "~"])
        target = self.pick(["2.0.0", "1.0.0", "v1.2.3", "2.0.0-beta.3", "1.2", "3", "1.0.0+build", "2.0.0-rc.1"])
        if roll < 0.8:
            return {"sem_ver": [self.var("version"), op, target]}
        if roll < 0.87:
            return {"sem_ver": [self.var("version"), self.pick(["===", "=>", "", "eq"]), target]}
        if roll < 0.94:
            return {"sem_ver": [self.var("version"), op]}
        return {"sem_ver": [target, op, self.var("version"), "extra"]}

    def fractional_args(self, variants: list, allow_bad: bool) -> list:
        r = self.rng
        args: list = []
        roll = r.random()
        if roll < 0.3:
            args.append({"cat": [{"var": "$flagd.flagKey"}, self.var("email")]})
        elif roll < 0.45:
            args.append(self.var("email"))
        elif roll < 0.5:
            args.append(self.pick(["static-seed", ""]))
        elif roll < 0.55 and allow_bad:
            args.append({"var": "missing_key"})  # null: Go skips it
        count = r.randrange(0 if allow_bad and r.random() < 0.05 else 1, 5)
        for _ in range(count):
            variant = self.pick(variants) if variants else "v0"
            bucket: list = [variant]
            w = r.random()
            if w < 0.8:
                bucket.append(r.randrange(0, 101))
            elif w < 0.85:
                bucket.append(-r.randrange(1, 50))
            elif allow_bad and w < 0.88:
                bucket.append(self.pick([0.5, 50.0, None, "50"]))
            elif allow_bad and w < 0.9:
                bucket.append(r.randrange(0, 10))
                bucket.append("extra")
            args.append(bucket)
        if allow_bad and r.random() < 0.02:
            args.append([[1, 2], 10])
        return args

    def variant_expression(self, depth: int, variants: list[str]):
        r = self.rng
        roll = r.random()
        if roll < 0.6 or depth <= 0:
            if r.random() < 0.08:
                return None
            if r.random() < 0.05:
                return "not-a-variant"
            return self.pick(variants)
        if roll < 0.75:
            return self.rule(depth - 1, variants)
        if roll < 0.85:
            return {"fractional": self.fractional_args(variants, allow_bad=True)}
        if roll < 0.92:
            return {"var": "color"}
        return {"cat": ["v", self.pick(["0", "1", {"var": "age"}])]}

    def rule(self, depth: int, variants: list[str]):
        r = self.rng
        roll = r.random()
        if roll < 0.55:
            args = []
            for _ in range(r.randrange(1, 3)):
                args.append(self.condition(depth, variants))
                args.append(self.variant_expression(depth, variants))
            if r.random() < 0.8:
                args.append(self.variant_expression(depth, variants))
            return {"if": args}
        if roll < 0.75:
            return {"fractional": self.fractional_args(variants, allow_bad=True)}
        if roll < 0.85:
            return self.condition(depth, variants)  # a bare condition: true/false/null names a variant
        return self.variant_expression(depth, variants)

    # Flags ---------------------------------------------------------------------------------

    def variants(self, kind: str) -> dict:
        r = self.rng
        n = r.randrange(2, 5)
        if kind == "boolean":
            if r.random() < 0.5:
                return {"true": True, "false": False}
            return {"on": True, "off": False}
        if kind == "string":
            return {"v%d" % i: self.pick(["red", "blue", "green", "", "ünïcode", "v%d" % i]) for i in range(n)}
        if kind == "integer":
            return {"v%d" % i: r.randrange(-1000, 1000) for i in range(n)}
        if kind == "float":
            return {"v%d" % i: r.randrange(-1000, 1000) + self.pick([0.5, 0.25, 0.125]) for i in range(n)}
        values = [{"title": "Pics", "perPage": 100}, {}, {"coupon": None}, {"tiers": [1, None, 3], "nested": {"a": None}},
                  {"list": [], "flag": True, "ratio": 0.5}, {"s": "text", "n": None}]
        return {"v%d" % i: self.pick(values) for i in range(n)}

    def flag(self, key: str) -> dict:
        r = self.rng
        kind = self.pick(["boolean", "string", "integer", "float", "object"])
        variants = self.variants(kind)
        names = list(variants)
        flag: dict = {"state": "DISABLED" if r.random() < 0.05 else "ENABLED", "variants": variants}
        roll = r.random()
        if roll < 0.8:
            flag["defaultVariant"] = self.pick(names)
        elif roll < 0.88:
            flag["defaultVariant"] = None
        elif roll < 0.95:
            flag["defaultVariant"] = ""
        t = r.random()
        if t < 0.1:
            pass
        elif t < 0.15:
            flag["targeting"] = {}
        else:
            rule = self.rule(2, names)
            if not isinstance(rule, dict):
                rule = {"if": [True, rule]}
            flag["targeting"] = self.resolve_refs(rule)
        if r.random() < 0.2:
            flag["metadata"] = {"owner": "team-%d" % r.randrange(5), "version": r.randrange(10)}
        flag["_kind"] = kind
        return flag

    def resolve_refs(self, rule):
        """Turns the {"ref": True} placeholders into $ref to a shared evaluator."""
        if isinstance(rule, list):
            return [self.resolve_refs(item) for item in rule]
        if isinstance(rule, dict):
            if rule == {"ref": True}:
                name = "rule%d" % self.rng.randrange(6)
                if name not in self.evaluators:
                    self.evaluators[name] = self.condition(0, [])
                    self.evaluators[name] = self.resolve_refs(self.evaluators[name])
                    if self.evaluators[name] == {"ref": True}:
                        self.evaluators[name] = {"==": [{"var": "tier"}, "premium"]}
                return {"$ref": name}
            return {key: self.resolve_refs(value) for key, value in rule.items()}
        return rule


UNKNOWN = object()


def static_value(node, context: dict):
    """The value of a bucketing expression that is a literal or a `var` for `context`; UNKNOWN otherwise."""
    if node is None or isinstance(node, (str, int, float, bool)):
        return node
    if isinstance(node, dict) and list(node) == ["var"]:
        spec = node["var"]
        path, default = (spec[0], spec[1] if len(spec) > 1 else None) if isinstance(spec, list) else (spec, None)
        value = context
        for part in str(path).split("."):
            value = value.get(part) if isinstance(value, dict) else None
        return default if value is None else value
    return UNKNOWN


def triggers(flag: dict, evaluators: dict, context: dict) -> set[str]:
    """The classes (see CLASSES) a case falls in, from its flag's rule and its context."""
    found: set[str] = set()
    uses = json.dumps([flag.get("targeting"), evaluators])
    version = context.get("version")
    if '"sem_ver"' in uses:
        short_prerelease = False
        for text in [version] + [s for s in ["1.2-beta", "1-rc.1", "1.2+build"] if s in uses]:
            if isinstance(text, str):
                core = text[1:] if text[:1] in ("v", "V") else text
                numeric = core.split("-")[0].split("+")[0]
                if ("-" in core or "+" in core) and numeric.count(".") < 2:
                    short_prerelease = True
        if short_prerelease:
            found.add("py-semver-short-prerelease")
        if isinstance(version, (int, float)) and not isinstance(version, bool) and abs(version) >= 1_000_000:
            found.add("py-semver-exponent-number")

    def walk(node):
        if isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            if "fractional" in node and isinstance(node["fractional"], list):
                args = node["fractional"]
                if args and not isinstance(args[0], list):
                    bucket = static_value(args[0], context)
                    if bucket is None and context.get("targetingKey"):
                        found.add("py-fractional-null-bucket")
                    if bucket == "":
                        found.add("py-fractional-empty-bucket")
                for bucket in args:
                    if isinstance(bucket, list) and bucket:
                        if len(bucket) >= 2 and (isinstance(bucket[1], float) or bucket[1] is None):
                            found.add("py-fractional-float-weight")
                        if len(bucket) > 2:
                            found.add("py-fractional-long-bucket")
                        if isinstance(bucket[0], (list, dict)):
                            found.add("py-fractional-structured-variant")
            for op in ("<", "<=", ">", ">=", "==", "!="):
                if isinstance(node.get(op), list):
                    values = [static_value(arg, context) for arg in node[op]]
                    for a, b in zip(values, values[1:]):
                        if op not in ("==", "!=") and ((a is None and isinstance(b, str)) or (isinstance(a, str) and b is None)):
                            found.add("py-compare-null-string")
                        numbers = [v for v in (a, b) if isinstance(v, (int, float)) and not isinstance(v, bool)]
                        if op in ("==", "!=") and numbers and None in (a, b):
                            found.add("py-null-equals-number")
                        blanks = [v for v in (a, b) if isinstance(v, str) and not v.strip()]
                        if numbers and blanks:
                            found.add("py-empty-string-number")
            for value in node.values():
                walk(value)

    walk(flag.get("targeting"))
    for rule in evaluators.values():
        walk(rule)
    return found


def generate(seed: int, cases: int):
    """A flag definition document and `cases` (flag key, context) pairs."""
    rng = random.Random(seed)
    gen = Gen(rng)
    flag_count = max(1, cases // 5)
    flags = {}
    kinds = {}
    for index in range(flag_count):
        key = "f%d" % index
        flag = gen.flag(key)
        kinds[key] = flag.pop("_kind")
        flags[key] = flag
    document = {"flags": flags}
    if gen.evaluators:
        document["$evaluators"] = gen.evaluators
    work = []
    for index in range(cases):
        key = "f%d" % (index % flag_count)
        work.append((key, gen.context()))
    return document, kinds, work


# ---------------------------------------------------------------------------------------------
# Evaluation

DEFAULTS = {"boolean": False, "string": "code-default", "integer": -424242, "float": -4242.5, "object": {"code": "default"}}


def python_results(document: dict, kinds: dict, work: list) -> list[dict]:
    from openfeature import api
    from openfeature.contrib.provider.flagd import FlagdProvider
    from openfeature.contrib.provider.flagd.config import ResolverType
    from openfeature.evaluation_context import EvaluationContext
    import logging

    logging.getLogger("openfeature").setLevel(logging.CRITICAL)
    logging.getLogger("openfeature.contrib").setLevel(logging.CRITICAL)
    with tempfile.NamedTemporaryFile("w", suffix=".flagd.json", delete=False) as handle:
        json.dump(document, handle)
        path = handle.name
    provider = FlagdProvider(resolver_type=ResolverType.FILE, offline_flag_source_path=path)
    api.set_provider_and_wait(provider)
    client = api.get_client()
    methods = {"boolean": client.get_boolean_details, "string": client.get_string_details,
               "integer": client.get_integer_details, "float": client.get_float_details,
               "object": client.get_object_details}
    results = []
    for key, context in work:
        attributes = dict(context)
        targeting_key = attributes.pop("targetingKey", None)
        kind = kinds[key]
        details = methods[kind](key, DEFAULTS[kind], EvaluationContext(targeting_key=targeting_key, attributes=attributes))
        results.append({
            "value": details.value,
            "variant": details.variant,
            "reason": str(details.reason.value if hasattr(details.reason, "value") else details.reason),
            "errorCode": details.error_code.value if details.error_code else None,
        })
    api.shutdown()
    os.unlink(path)
    return results


def tweak_results(tweak: str, document: dict, work: list) -> list[dict]:
    with tempfile.NamedTemporaryFile("w", suffix=".flagd.json", delete=False) as handle:
        json.dump(document, handle)
        path = handle.name
    lines = "".join(json.dumps({"flagKey": key, "context": context}) + "\n" for key, context in work)
    completed = subprocess.run([tweak, "eval-batch", "--flags", path], input=lines, capture_output=True, text=True, check=False)
    os.unlink(path)
    if completed.returncode != 0:
        sys.exit("tweak eval-batch failed (%d): %s" % (completed.returncode, completed.stderr))
    outputs = [json.loads(line) for line in completed.stdout.splitlines() if line.strip()]
    if len(outputs) != len(work):
        sys.exit("tweak eval-batch gave %d results for %d cases" % (len(outputs), len(work)))
    return outputs


def same_value(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or (isinstance(a, bool) and isinstance(b, bool) and a == b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=0, abs_tol=0) or a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return a == b


def compare(kind: str, python: dict, tweak: dict) -> str | None:
    """None when they agree, else what differs."""
    # TweakKit gives no value where the caller's default applies; the Python client gives the default.
    tweak_value = tweak.get("value", DEFAULTS[kind])
    if kind == "float" and isinstance(tweak_value, int) and not isinstance(tweak_value, bool):
        tweak_value = float(tweak_value)
    reason = tweak["reason"]
    differences = []
    if python["reason"] != reason:
        differences.append("reason %s vs %s" % (python["reason"], reason))
    if reason != "ERROR" and python["reason"] != "ERROR":
        if not same_value(python["value"], tweak_value):
            differences.append("value %r vs %r" % (python["value"], tweak_value))
        if python["variant"] != tweak.get("variant"):
            differences.append("variant %r vs %r" % (python["variant"], tweak.get("variant")))
    elif python["reason"] == "ERROR" and reason == "ERROR" and python["errorCode"] != tweak.get("errorCode"):
        differences.append("errorCode %s vs %s" % (python["errorCode"], tweak.get("errorCode")))
    return "; ".join(differences) or None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tweak", default=".build/debug/tweak", help="the tweak executable")
    parser.add_argument("--seed", type=int, action="append", help="seeds (repeat for several); default 1")
    parser.add_argument("--cases", type=int, default=1000, help="cases per seed")
    parser.add_argument("--show", type=int, default=10, help="disagreements to print per seed")
    parser.add_argument("--show-classified", type=int, default=0, help="cases in documented classes to print")
    args = parser.parse_args()
    seeds = args.seed or [1]
    failed = False
    total_agree = total_classified = total_cases = 0
    per_class = Counter()
    for seed in seeds:
        started = time.monotonic()
        document, kinds, work = generate(seed, args.cases)
        python = python_results(document, kinds, work)
        tweak = tweak_results(args.tweak, document, work)
        evaluators = document.get("$evaluators", {})
        agree = 0
        classified = Counter()
        disagreements = []
        for (key, context), p, t in zip(work, python, tweak):
            difference = compare(kinds[key], p, t)
            if difference is None:
                agree += 1
                continue
            classes = triggers(document["flags"][key], evaluators, context)
            if classes:
                classified[",".join(sorted(classes))] += 1
                per_class.update(classes)
                if args.show_classified > 0:
                    args.show_classified -= 1
                    print("  CLASSIFIED %s %s context=%s: %s\n    flag=%s" % (
                        ",".join(sorted(classes)), key, json.dumps(context), difference, json.dumps(document["flags"][key])))
                continue
            disagreements.append((key, context, difference))
        total_cases += len(work)
        total_agree += agree
        total_classified += sum(classified.values())
        outside = len(work) - sum(classified.values())
        print("seed %d: %d cases, %d agree; outside the documented classes %d of %d agree (%.2f%%); %d differ in documented classes; %.1fs" % (
            seed, len(work), agree, outside - len(disagreements), outside,
            100.0 * (outside - len(disagreements)) / max(outside, 1), sum(classified.values()), time.monotonic() - started))
        for key, context, difference in disagreements[: args.show]:
            print("  DISAGREE %s context=%s: %s\n    flag=%s" % (key, json.dumps(context), difference, json.dumps(document["flags"][key])))
        if disagreements:
            failed = True
            print("  %d disagreements outside the documented classes" % len(disagreements))
    print("total: %d cases, %d agree, %d differ in documented classes, %d disagree" % (
        total_cases, total_agree, total_classified, total_cases - total_agree - total_classified))
    for name, count in sorted(per_class.items()):
        print("  %-34s %5d  %s" % (name, count, CLASSES[name]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
