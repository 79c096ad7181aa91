#!/usr/bin/env python3
"""LaunchDarkly's SDK test-harness evaluation data, run through TweakKit's LaunchDarkly engine.

Reads the harness's server-side-eval YAML files (not kept in this repository; by default from
../shared/specs/launchdarkly/server-side-eval next to the checkout, or --specs DIR), expands each file's `constants`
and `parameters` as the harness's data_files.md describes (a list of substitution sets, or a list
of lists whose permutations are taken; a string that is exactly "<NAME>" becomes the value, a
string containing <NAME> gets the value as text), and runs every evaluation through ONE
`tweak eval-batch --launchdarkly` process. Value, variationIndex and reason must match exactly.

Strongly-typed files (requireCapability: strongly-typed) give each evaluation's `valueType` as
the line's "type": the engine's typed call answers WRONG_TYPE as a typed SDK method would.

Usage: Tests/LaunchDarkly/spec_suite.py [--tweak .build/debug/tweak] [--specs DIR] [-v]
"""
import argparse
import copy
import itertools
import json
import os
import re
import subprocess
import sys
import time

import yaml

PLACEHOLDER = re.compile(r"<([A-Za-z0-9_]+)>")


class Yaml12Loader(yaml.SafeLoader):
    """PyYAML's safe loader with YAML 1.2's Booleans (as the harness's Go YAML reads the files):
    only true and false, so that a flag's `on:` key stays the string "on"."""


Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def substitute(node, values):
    """The node with every <NAME> of `values` replaced (walked with a stack, keys too)."""
    def text(value):
        return value if isinstance(value, str) else json.dumps(value)

    def replace_string(s):
        whole = PLACEHOLDER.fullmatch(s)
        if whole and whole.group(1) in values:
            return copy.deepcopy(values[whole.group(1)])
        return PLACEHOLDER.sub(lambda m: text(values[m.group(1)]) if m.group(1) in values else m.group(0), s)

    root = [node]
    stack = [(root, 0)]
    while stack:
        container, key = stack.pop()
        value = container[key]
        if isinstance(value, str):
            container[key] = replace_string(value)
        elif isinstance(value, list):
            value = list(value)
            container[key] = value
            stack.extend((value, i) for i in range(len(value)))
        elif isinstance(value, dict):
            fresh = {}
            for k, v in value.items():
                new_key = replace_string(k) if isinstance(k, str) else k
                fresh[new_key if isinstance(new_key, str) else text(new_key)] = v
            container[key] = fresh
            stack.extend((fresh, k) for k in fresh)
    return root[0]


def expansions(document):
    """Each parameter set of the file (one empty set when there are none), constants included."""
    constants = document.pop("constants", None) or {}
    parameters = document.pop("parameters", None)
    if not parameters:
        sets = [{}]
    elif isinstance(parameters[0], list):
        sets = []
        for combination in itertools.product(*parameters):
            merged = {}
            for part in combination:
                merged.update(part)
            sets.append(merged)
    else:
        sets = parameters
    for parameter_set in sets:
        values = dict(constants)
        values.update(parameter_set)
        body = copy.deepcopy(document)
        # A value may itself hold placeholders: substitute until nothing changes.
        for _ in range(5):
            before = json.dumps(body, sort_keys=True, default=str)
            body = substitute(body, values)
            if json.dumps(body, sort_keys=True, default=str) == before:
                break
        yield parameter_set, body


def same(a, b):
    """JSON equality with JSON's types: a Boolean is never a number; 1 equals 1.0."""
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
    parser.add_argument("--specs", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "specs", "launchdarkly", "server-side-eval"))
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    started = time.time()

    lines, cases = [], []
    typed = []
    files = sorted(f for f in os.listdir(args.specs) if f.endswith((".yml", ".yaml", ".json")))
    for name in files:
        with open(os.path.join(args.specs, name)) as handle:
            document = yaml.load(handle, Loader=Yaml12Loader)
        strongly_typed = document.get("requireCapability") == "strongly-typed"
        for parameter_set, body in expansions(document):
            data = body.get("sdkData") or {}
            # The harness's data leaves out what every flag and segment has in LaunchDarkly's
            # data (and the SDKs require): its key and version.
            for kind in ("flags", "segments"):
                for key, item in (data.get(kind) or {}).items():
                    if isinstance(item, dict):
                        item.setdefault("key", key)
                        item.setdefault("version", 1)
            lines.append(json.dumps({"data": data}))
            cases.append(None)
            for evaluation in body.get("evaluations") or []:
                default = evaluation.get("default")
                if "default" not in evaluation:
                    # No default: the harness calls the typed method of the expected value's type,
                    # with that type's zero value as the default (false, 0, "").
                    expected = evaluation["expect"].get("value")
                    default = False if isinstance(expected, bool) else 0 if isinstance(expected, (int, float)) else "" if isinstance(expected, str) else None
                request = {"flagKey": evaluation["flagKey"], "context": evaluation.get("context"), "default": default}
                if evaluation.get("valueType") and strongly_typed:
                    request["type"] = {"bool": "bool", "int": "int", "double": "double", "string": "string", "any": "any"}[evaluation["valueType"]]
                    typed.append(f"{name}: {evaluation.get('name')} (as {request['type']})")
                lines.append(json.dumps(request))
                cases.append((name, evaluation.get("name"), parameter_set, evaluation["expect"]))

    result = subprocess.run([args.tweak, "eval-batch", "--launchdarkly"], input="\n".join(lines) + "\n",
                            capture_output=True, text=True, check=False)
    outputs = result.stdout.splitlines()
    if result.returncode != 0 or len(outputs) != len(lines):
        print(f"tweak eval-batch failed (exit {result.returncode}, {len(outputs)} of {len(lines)} lines): {result.stderr[-2000:]}")
        return 1

    passed, failures = 0, []
    for case, output in zip(cases, outputs):
        answer = json.loads(output)
        if case is None:
            if "error" in answer:
                failures.append(f"flag data refused: {answer['error']}")
            continue
        name, title, parameter_set, expect = case
        wanted = {"value": expect.get("value"), "variationIndex": expect.get("variationIndex"), "reason": expect.get("reason")}
        got = {key: answer.get(key) for key in wanted}
        if all(same(got[key], wanted[key]) for key in wanted):
            passed += 1
        else:
            failures.append(f"{name}: {title} {parameter_set}\n    expected {json.dumps(wanted)}\n    got      {json.dumps(got)}")

    evaluations = sum(1 for case in cases if case is not None)
    for failure in failures[: None if args.verbose else 30]:
        print("FAIL", failure)
    print(f"LaunchDarkly spec suite: {passed}/{evaluations} evaluations pass, {len(files)} files, "
          f"{len(typed)} strongly-typed (typed calls), {len(failures)} failures, {time.time() - started:.1f} s")
    if args.verbose:
        for line in typed:
            print("  typed:", line)
    return 0 if not failures and evaluations > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
