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
import subprocess
import sys
import tempfile
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flagd_cases import generate  # noqa: E402
from flagd_classes import CLASSES, triggers  # noqa: E402


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
