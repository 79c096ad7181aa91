#!/usr/bin/env python3
"""Writes fuzz seeds for TweakKit's Unleash or GrowthBook harness from the published suites.

    python3 Fuzz/spec_seeds.py unleash|growthbook SPECS_DIR CORPUS_DIR

Each seed is a payload, then a NUL byte and an evaluation context as a JSON object (see
Fuzz/Sources/FuzzSupport/FuzzInput.swift). The suites are read where they are (SPECS_DIR, e.g.
../shared/specs) and nothing of them is kept in the repository; without them no seed is written.
"""
import json
import pathlib
import sys


def write(corpus, name, payload, context):
    context = dict(context or {})
    context.setdefault("targetingKey", str(context.get("userId") or context.get("id") or "user-1"))
    data = json.dumps(payload).encode() + b"\0" + json.dumps(context).encode()
    (corpus / f"spec-{name}.seed").write_bytes(data)


def unleash(specs, corpus):
    folder = specs / "unleash-client-specification"
    count = 0
    for path in sorted(folder.glob("[0-9]*.json")):
        suite = json.loads(path.read_text())
        state = suite.get("state")
        if not isinstance(state, dict):
            continue
        tests = (suite.get("tests") or []) + (suite.get("variantTests") or [])
        contexts = [test.get("context") for test in tests if isinstance(test.get("context"), dict)][:4] or [{}]
        for index, context in enumerate(contexts):
            # Unleash's context fields are flat attributes to TweakKit; properties are too.
            flat = {key: value for key, value in context.items() if key != "properties"}
            flat.update(context.get("properties") or {})
            write(corpus, f"{path.stem}-{index}", state, flat)
            count += 1
    return count


def growthbook(specs, corpus):
    cases = json.loads((specs / "growthbook" / "cases.json").read_text())
    count = 0
    for index, case in enumerate(cases.get("feature", [])):
        context = case[1]
        payload = {"features": context.get("features", {}), "savedGroups": context.get("savedGroups", {})}
        write(corpus, f"feature-{index}", payload, context.get("attributes"))
        count += 1
    for index, case in enumerate(cases.get("evalCondition", [])):
        condition, attributes = case[1], case[2]
        saved = case[4] if len(case) > 4 else {}
        payload = {"features": {"f": {"defaultValue": False, "rules": [{"condition": condition, "force": True}]}}, "savedGroups": saved}
        write(corpus, f"condition-{index}", payload, attributes if isinstance(attributes, dict) else {})
        count += 1
    for index, case in enumerate(cases.get("run", [])):
        context, experiment = case[1], dict(case[2])
        rule = {key: value for key, value in experiment.items() if key != "active"}
        payload = {"features": {experiment.get("key", "e"): {"defaultValue": None, "rules": [rule]}}}
        write(corpus, f"run-{index}", payload, context.get("attributes"))
        count += 1
    return count


def main():
    kind, specs, corpus = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    corpus.mkdir(parents=True, exist_ok=True)
    try:
        count = {"unleash": unleash, "growthbook": growthbook}[kind](specs, corpus)
    except FileNotFoundError as missing:
        print(f"no {kind} suite ({missing.filename}): its harness starts from its own seeds")
        return
    print(f"{count} {kind} seeds from {specs}")


if __name__ == "__main__":
    main()
