#!/usr/bin/env python3
"""Runs Flagsmith's engine test data through `tweak eval-batch --flagsmith`, in one process.

    Tests/Flagsmith/engine_test_data.py DIR [--tweak PATH]

DIR is a checkout of Flagsmith's engine-test-data (its test_cases/ folder, or the folder
itself). Each case is {"context": EvaluationContext, "result": {"flags": …, "segments": …}};
every flag (enabled, value with its JSON type, reason, variant, metadata) and the segments
must agree. The data has no licence and is never copied into this repository: when DIR is
absent the script says so and exits 0 (CI has no copy).
"""
import argparse
import json
import os
import subprocess
import sys


def strip_comments(text):
    """JSON with // and /* */ comments (the .jsonc cases) as plain JSON."""
    out, i, n, in_string = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def same(a, b):
    """Equality that tells 1 from 1.0 and True from 1, at every depth."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if type(x) is not type(y):
            return False
        if isinstance(x, dict):
            if set(x) != set(y):
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif x != y:
            return False
    return True


def compare(expected, actual):
    problems = []
    want_flags, got_flags = expected.get("flags", {}), actual.get("flags", {})
    if set(want_flags) != set(got_flags):
        problems.append(f"flags: expected {sorted(want_flags)}, got {sorted(got_flags)}")
    for name, want in want_flags.items():
        got = got_flags.get(name)
        if got is None:
            continue
        for field in ("enabled", "value", "reason", "variant", "metadata"):
            if not same(want.get(field), got.get(field)):
                problems.append(f"flag {name}.{field}: expected {json.dumps(want.get(field))}, got {json.dumps(got.get(field))}")
    want_segments, got_segments = expected.get("segments", []), actual.get("segments", [])
    if not same(want_segments, got_segments):
        key = lambda s: json.dumps(s, sort_keys=True)
        if sorted(map(key, want_segments)) != sorted(map(key, got_segments)):
            problems.append(f"segments: expected {json.dumps(want_segments)}, got {json.dumps(got_segments)}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--tweak", default=os.environ.get("TWEAK", ".build/debug/tweak"))
    args = parser.parse_args()
    folder = args.dir
    if os.path.isdir(os.path.join(folder, "test_cases")):
        folder = os.path.join(folder, "test_cases")
    if not os.path.isdir(folder):
        print(f"skipped: no engine test data at {args.dir}")
        return 0
    names = sorted(f for f in os.listdir(folder) if f.endswith((".json", ".jsonc")))
    cases, lines = [], []
    for name in names:
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            case = json.loads(strip_comments(handle.read()))
        cases.append((name, case["result"]))
        # The data (schema v2.0.0) predates the engine's STATIC reason: untargeted flags say DEFAULT.
        lines.append(json.dumps({"context": case["context"], "fallbackReason": "DEFAULT"}, ensure_ascii=False))
    run = subprocess.run([args.tweak, "eval-batch", "--flagsmith"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        print(run.stderr, file=sys.stderr)
        return 1
    results = run.stdout.splitlines()
    if len(results) != len(cases):
        print(f"expected {len(cases)} result lines, got {len(results)}", file=sys.stderr)
        return 1
    failures = 0
    for (name, expected), line in zip(cases, results):
        actual = json.loads(line)
        problems = [actual["error"]] if "error" in actual else compare(expected, actual)
        if problems:
            failures += 1
            print(f"FAIL {name}")
            for problem in problems[:10]:
                print(f"  {problem}")
    print(f"{len(cases) - failures}/{len(cases)} engine test cases agree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
