#!/usr/bin/env python3
"""Writes fuzz seeds for TweakKit's Unleash or GrowthBook harness from the published suites.

    python3 Fuzz/spec_seeds.py unleash|growthbook SPECS_DIR CORPUS_DIR

Each seed is a payload, then a NUL byte and an evaluation context as a JSON object (see
Fuzz/Sources/FuzzSupport/FuzzInput.swift). The suites are read where they are (SPECS_DIR, e.g.
../shared/specs) and nothing of them is kept in the repository; without them no seed is written.
Seeds are a head start, not a requirement: a suite or case of an unexpected shape is skipped with a
message, and the script always exits 0.
"""
import json
import pathlib
import sys


def write(corpus, name, payload, context):
    context = dict(context) if isinstance(context, dict) else {}
    context.setdefault("targetingKey", str(context.get("userId") or context.get("id") or "user-1"))
    data = json.dumps(payload).encode() + b"\0" + json.dumps(context).encode()
    (corpus / f"spec-{name}.seed").write_bytes(data)


def unleash(specs, corpus):
    folder = specs / "unleash-client-specification"
    count = 0
    for path in sorted(folder.glob("[0-9]*.json")):
        try:
            suite = json.loads(path.read_text(encoding="utf-8"))
            state = suite.get("state") if isinstance(suite, dict) else None
            if not isinstance(state, dict):
                continue
            tests = [test for key in ("tests", "variantTests") if isinstance(suite.get(key), list)
                     for test in suite[key] if isinstance(test, dict)]
            contexts = [test["context"] for test in tests if isinstance(test.get("context"), dict)][:4] or [{}]
            for index, context in enumerate(contexts):
                # Unleash's context fields are flat attributes to TweakKit; properties are too.
                flat = {key: value for key, value in context.items() if key != "properties"}
                if isinstance(context.get("properties"), dict):
                    flat.update(context["properties"])
                write(corpus, f"{path.stem}-{index}", state, flat)
                count += 1
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as problem:
            print(f"skipped {path.name}: {problem!r}")
    return count


def feature_seed(case):
    context = case[1]
    payload = {"features": context.get("features", {}), "savedGroups": context.get("savedGroups", {})}
    return payload, context.get("attributes")


def condition_seed(case):
    condition, attributes = case[1], case[2]
    saved = case[4] if len(case) > 4 else {}
    return {"features": {"f": {"defaultValue": False, "rules": [{"condition": condition, "force": True}]}}, "savedGroups": saved}, attributes


def run_seed(case):
    context, experiment = case[1], case[2]
    rule = {key: value for key, value in experiment.items() if key != "active"}
    return {"features": {str(experiment.get("key", "e")): {"defaultValue": None, "rules": [rule]}}}, context.get("attributes")


def growthbook(specs, corpus):
    path = specs / "growthbook" / "cases.json"
    try:
        cases = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(cases, dict):
            raise ValueError("the cases are not an object")
    except (OSError, ValueError) as problem:
        print(f"skipped {path}: {problem!r}")
        return 0
    count = 0
    for kind, seed in (("feature", feature_seed), ("evalCondition", condition_seed), ("run", run_seed)):
        for index, case in enumerate(cases.get(kind) or []):
            try:
                payload, attributes = seed(case)
                write(corpus, f"{kind}-{index}", payload, attributes)
                count += 1
            except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError) as problem:
                print(f"skipped {kind} case {index}: {problem!r}")
    return count


def main():
    kind, specs, corpus = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    corpus.mkdir(parents=True, exist_ok=True)
    count = {"unleash": unleash, "growthbook": growthbook}[kind](specs, corpus)
    if count == 0:
        print(f"no {kind} seeds from {specs}: the harness starts from its own seeds")
    else:
        print(f"{count} {kind} seeds from {specs}")


if __name__ == "__main__":
    main()
