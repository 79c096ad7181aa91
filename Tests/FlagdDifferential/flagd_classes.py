"""Where OpenFeature's Python flagd provider departs from flagd's Go evaluator (which TweakKit follows).

`triggers` names the classes a generated case falls in, from its flag's rules and its context; the
differential runner counts a disagreement in such a case under its class instead of as a failure.
"""

from __future__ import annotations

import json

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
