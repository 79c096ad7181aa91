"""Writes the hostile inputs of the engines' reliability round into a directory (see
Benchmarks/hostile-inputs.sh): GrowthBook prerequisite chains and diamonds, catastrophic regular
expressions for GrowthBook and Unleash, large $in lists, and large GrowthBook payloads."""
import json
import os
import sys

out = sys.argv[1]


def write(name, value):
    with open(os.path.join(out, name), "w") as f:
        json.dump(value, f)


names = ["k"] + ["f%d" % i for i in range(1, 1700)]
features = {}
for i, name in enumerate(names):
    if i + 1 < len(names):
        features[name] = {"defaultValue": 0, "rules": [{"parentConditions": [
            {"id": names[i + 1], "condition": {"value": {"$exists": True}}}], "force": 1}]}
    else:
        features[name] = {"defaultValue": 1}
write("chain.json", {"features": features})

features = {}
for level in range(20):
    if level == 19:
        features["l19"] = {"defaultValue": True}
        continue
    parent = {"id": "l%d" % (level + 1), "condition": {"value": True}}
    features["l%d" % level] = {"defaultValue": False, "rules": [{"parentConditions": [parent, parent], "force": True}]}
write("diamond.json", {"features": features})

write("regex.json", {"features": {"r": {"defaultValue": "off", "rules": [
    {"condition": {"name": {"$regex": "(a+)+$"}}, "force": "on"}]}}})
write("unleash-regex.json", {"version": 2, "features": [{"name": "r", "enabled": True, "strategies": [
    {"name": "default", "constraints": [{"contextName": "name", "operator": "REGEX", "value": "(a+)+$"}]}]}]})
write("regex-context.json", {"targetingKey": "u1", "name": "a" * 30 + "!"})

evens = list(range(0, 20000, 2))
write("in.json", {"features": {
    "in": {"defaultValue": False, "rules": [{"condition": {"tags": {"$in": evens}}, "force": True}]},
    "nin": {"defaultValue": False, "rules": [{"condition": {"tags": {"$nin": evens}}, "force": True}]}}})
write("in-context.json", {"targetingKey": "u1", "tags": list(range(1, 20000, 2))})

write("features-20000.json", {"features": {"f%d" % i: {"defaultValue": i, "rules": [
    {"condition": {"country": "NL"}, "force": -i}]} for i in range(20000)}})
count = 452_000   # 16.5 MB, just under the 16 MiB a file may have
write("features-16mb.json", {"features": {"f%d" % i: {"defaultValue": i} for i in range(count)}})
