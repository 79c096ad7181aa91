#!/usr/bin/env python3
"""Writes a tweaks file (JustTweak format) of about N megabytes (10^6 bytes), for measuring how
TweakKit loads large files. The output depends only on the arguments (the random generator is
seeded), so two runs with the same arguments write the same bytes.

    Benchmarks/Scripts/make_tweaks_file.py --mb 16 --out /tmp/tweaks-16.json
    Benchmarks/Scripts/make_tweaks_file.py --mb 4 --style full --seed 7 --out /tmp/full-4.json

Styles:
  dense  compact JSON, only "Value" (Bool, Int, Double or String), one- and two-letter variable
         names: about 20 bytes a tweak, near the density of the file in issue #34 (16.7 MB,
         984,000 tweaks: 17 bytes a tweak). The worst case for memory per byte of file.
  full   pretty-printed like Examples/LocalTweaks_example.json: "Title", "Description", "Group"
         and "Value" on every tweak, about 220 bytes a tweak.

The file never exceeds the requested size; it is a valid tweaks file (the last feature is closed
before the limit). Prints the number of tweaks and bytes written on stderr, and, with --sample K,
K "feature.variable<TAB>type<TAB>json value" lines on stdout for tests to check.
"""
import argparse
import json
import random
import sys

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def base36(number):
    text = ""
    while True:
        number, digit = divmod(number, 36)
        text = DIGITS[digit] + text
        if number == 0:
            return text


def value(rng):
    """A scalar Value and its TweakKit type name."""
    kind = rng.randrange(4)
    if kind == 0:
        return rng.random() < 0.5, "Bool"
    if kind == 1:
        return rng.randrange(-100, 1000), "Int"
    if kind == 2:
        # Always written with a fraction, so TweakKit reads a Double.
        return rng.randrange(-100, 1000) + 0.5, "Double"
    return "".join(rng.choice(DIGITS) for _ in range(rng.randrange(1, 6))), "String"


def encode(v):
    if isinstance(v, float):
        text = repr(v)
        return text if ("." in text or "e" in text) else text + ".0"
    return json.dumps(v, ensure_ascii=True)


def tweak_text(rng, style, feature, variable, number):
    v, kind = value(rng)
    if style == "dense":
        return '"%s":{"Value":%s}' % (variable, encode(v)), v, kind
    words = ["checkout", "banner", "onboarding", "search", "profile", "payments", "cache", "feed"]
    title = "%s %s %d" % (rng.choice(words).title(), rng.choice(words), number)
    description = "controls the %s of the %s screen (tweak %d)" % (rng.choice(words), rng.choice(words), number)
    group = "Group %d" % (number % 97)
    body = ('        "%s": {\n'
            '            "Title": %s,\n'
            '            "Description": %s,\n'
            '            "Group": %s,\n'
            '            "Value": %s\n'
            '        }') % (variable, json.dumps(title), json.dumps(description), json.dumps(group), encode(v))
    return body, v, kind


def generate(limit, style, seed, variables_per_feature):
    rng = random.Random(seed)
    dense = style == "dense"
    open_file, close_file = ("{", "}") if dense else ("{\n", "\n}\n")
    parts = [open_file]
    size = len(open_file)
    tweaks = []
    feature_number = 0
    done = False
    while not done:
        feature = ("f%s" if dense else "feature_%s") % base36(feature_number)
        head = ('"%s":{' % feature) if dense else ('    "%s": {\n' % feature)
        tail = "}" if dense else "\n    }"
        separator = "," if dense else ",\n"
        lead = separator if feature_number > 0 else ""
        # The feature needs at least one tweak and its closing brace and the file's.
        entries = []
        used = len(lead) + len(head) + len(tail) + len(close_file)
        for index in range(variables_per_feature):
            variable = ("%s" if dense else "variable_%s") % base36(index)
            text, v, kind = tweak_text(rng, style, feature, variable, len(tweaks) + len(entries))
            extra = len(text) + (len(separator) if entries else 0)
            if size + used + extra > limit:
                done = True
                break
            entries.append((text, feature, variable, v, kind))
            used += extra
        if not entries:
            break
        parts.append(lead + head + separator.join(e[0] for e in entries) + tail)
        size += used - len(close_file)
        tweaks.extend((f, var, v, kind) for _, f, var, v, kind in entries)
        feature_number += 1
    parts.append(close_file)
    return "".join(parts), tweaks


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, required=True, help="size in megabytes (10^6 bytes); the file is at most this")
    parser.add_argument("--out", required=True, help="where to write the file")
    parser.add_argument("--style", choices=["dense", "full"], default="dense")
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--variables-per-feature", type=int, default=1296, help="36 * 36: two-letter names")
    parser.add_argument("--sample", type=int, default=0, help="print this many tweaks (spread over the file) on stdout")
    args = parser.parse_args()
    text, tweaks = generate(int(args.mb * 1_000_000), args.style, args.seed, args.variables_per_feature)
    data = text.encode("ascii")
    with open(args.out, "wb") as out:
        out.write(data)
    print("%d tweaks, %d bytes (%.1f bytes a tweak) in %s" % (len(tweaks), len(data), len(data) / max(len(tweaks), 1), args.out), file=sys.stderr)
    if args.sample > 0 and tweaks:
        step = max(len(tweaks) // args.sample, 1)
        for feature, variable, v, kind in tweaks[::step][: args.sample]:
            print("%s.%s\t%s\t%s" % (feature, variable, kind, encode(v)))


if __name__ == "__main__":
    main()
