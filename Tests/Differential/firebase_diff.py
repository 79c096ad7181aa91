#!/usr/bin/env python3
"""Differential test: TweakKit's Firebase Remote Config server-template evaluation against the
official Python Admin SDK (`firebase-admin`, offline from template JSON).

Generates templates (percent conditions, custom signals with every operator, nesting up to and
beyond Firebase's depth limit, true/false, unknown operators; parameters with every kind of
default and conditional value) and contexts from a seed, evaluates every case with
`firebase_admin.remote_config` and with `tweak eval --firebase-template … --contexts`, and
compares the value and its source.

    python3 Tests/Differential/firebase_diff.py --tweak .build/debug/tweak --seed 1 --cases 1000

With `--regex-patterns N` it also matches N generated patterns (10 inputs each) with TweakKit and
with node's own RegExp (what firebase-admin-node calls), which must agree everywhere.

TweakKit follows firebase-admin-node, Firebase's reference server SDK. Where the Python SDK
departs from it, the difference is put in a documented class — only when re-evaluating the case
with that one Python behaviour replaced by Node's makes the two agree:
  python-falsy-signal     Python reads a signal with `or {}`: 0 and "" are missing; Node only
                          treats a missing (undefined/null) signal so.
  python-number           Python's float() (accepts "inf", "1_0"; refuses "0x10", "", "1e2 "…)
                          where Node uses Number().
  python-version          Python's int() per version segment, any number of segments, negative
                          refused; Node: Number() per segment, at most 5 segments.
  python-regex            Python's `re.search` where Node uses JavaScript's RegExp (answers from
                          node, when it is installed, else the class is not checked).
  python-valueless-value  A chosen conditional value without "value": Python takes {} as no value
                          (falls to the default) and others as remote "None"; Node ≥ 13.7 keeps
                          the in-app default.
  python-empty-default    A default value {}: Python keeps the in-app default; Node gives remote "".
"""
import argparse
import itertools
import json
import logging
import math
import os
import random
import re
import shutil
import subprocess
import sys
import warnings

from diffsupport import Tally, tweak_batch

import firebase_admin
import google.auth.credentials
from firebase_admin import credentials, remote_config

warnings.simplefilter("ignore")
logging.disable(logging.CRITICAL)

SIGNALS = {
    "tier": ["gold", "silver", "Gold", " gold ", "", 0, "platinum"],
    "count": [5, 0, -3, 10, "5", " 7 ", "0x10", "", "1e2", "abc", "Infinity", "1_0", 2.5, "inf"],
    "version": ["1.2.3", "1.2", "1.10.0", "2", "1.2.3.4.5.6", "1.-1", "1.a", "", "01.2", "1.2.3.4.5", 3, "1..2", " 1.2"],
    "name": ["alice", "bob", "Alice", "al", "", "a.b", "日本", "😀x", "line\nbreak", "tab\there"],
}
STRING_TARGETS = ["gold", "old", "al", "", "Alice", " gold", "日", "x", "b"]
NUMBER_TARGETS = ["5", "0", "-3", "10", " 7 ", "0x10", "", "abc", "1e2", "Infinity", "2.5", "inf", "1_0"]
VERSION_TARGETS = ["1.2.3", "1.2", "2", "1.10", "1.2.3.4.5.6", "1.a", "0", "1.2.3.4.5", "1.-1", "01.2"]
REGEX_TARGETS = ["^gold$", "^[a-z]+$", "\\d+", "^\\w+$", "^.$", "^.x$", "[[:alpha:]]", "a{,2}", "^al", "\\bal",
                 "(?<=a)l", "^(a|al)ice$", "\\s", "^\\S+$", "[^a]", "^[😀]x$", "\\p{L}", "\\Aal", "ce\\Z", "^.{2}$",
                 "^[\\w.]+$", "\\u65e5", "e$", "^(?:gold|silver)$", "[a-z&&[^b]]", "\\h", "(a)\\1", "^\\d{1,2}$"]
OPERATORS = {
    "STRING_CONTAINS": STRING_TARGETS, "STRING_DOES_NOT_CONTAIN": STRING_TARGETS,
    "STRING_EXACTLY_MATCHES": STRING_TARGETS, "STRING_CONTAINS_REGEX": REGEX_TARGETS,
    **{f"NUMERIC_{name}": NUMBER_TARGETS for name in ["LESS_THAN", "LESS_EQUAL", "EQUAL", "NOT_EQUAL", "GREATER_THAN", "GREATER_EQUAL"]},
    **{f"SEMANTIC_VERSION_{name}": VERSION_TARGETS for name in ["LESS_THAN", "LESS_EQUAL", "EQUAL", "NOT_EQUAL", "GREATER_THAN", "GREATER_EQUAL"]},
    "UNKNOWN_OPERATOR": STRING_TARGETS,
}
CLASSES = ["python-falsy-signal", "python-number", "python-version", "python-regex",
           "python-valueless-value", "python-empty-default"]


class Generator:
    def __init__(self, rng):
        self.rng = rng

    def leaf(self):
        choice = self.rng.random()
        if choice < 0.05:
            return {self.rng.choice(["true", "false"]): {}}
        if choice < 0.3:
            operator = self.rng.choice(["LESS_OR_EQUAL", "GREATER_THAN", "BETWEEN", "UNKNOWN"])
            lower = self.rng.randint(0, 100_000_000)
            return {"percent": {"percentOperator": operator, "seed": self.rng.choice(["", "seed", "s2"]),
                                "microPercent": self.rng.randint(0, 100_000_000),
                                "microPercentRange": {"microPercentLowerBound": lower,
                                                      "microPercentUpperBound": self.rng.randint(lower, 100_000_000)}}}
        operator = self.rng.choice(list(OPERATORS))
        targets = self.rng.sample(OPERATORS[operator], self.rng.randint(1, 3))
        return {"customSignal": {"customSignalOperator": operator, "customSignalKey": self.rng.choice(list(SIGNALS)),
                                 "targetCustomSignalValues": targets}}

    def condition(self, depth=0):
        limit = 6 if self.rng.random() < 0.1 else 2
        if depth >= limit or self.rng.random() < 0.5:
            return self.leaf()
        kind = self.rng.choice(["orCondition", "andCondition"])
        return {kind: {"conditions": [self.condition(depth + 1) for _ in range(self.rng.randint(1, 3))]}}

    def value(self, conditional):
        choice = self.rng.random()
        if choice < 0.75:
            return {"value": self.rng.choice(["on", "off", "42", "", "yes", "3.5"])}
        if choice < 0.85:
            return {"useInAppDefault": True}
        if choice < 0.9:
            return {}
        if choice < 0.95:
            return {"useInAppDefault": False}
        return {"rolloutValue": {"rolloutId": "rollout_1", "value": "rolled", "percent": 50}}

    def template(self):
        conditions = [{"name": f"c{index}", "condition": self.condition()} for index in range(self.rng.randint(1, 4))]
        parameters = {}
        for index in range(3):
            parameter = {}
            if self.rng.random() < 0.85:
                parameter["defaultValue"] = self.value(False)
            chosen = [c["name"] for c in conditions if self.rng.random() < 0.6]
            if chosen:
                parameter["conditionalValues"] = {name: self.value(True) for name in chosen}
            parameters[f"p{index}"] = parameter
        return {"conditions": conditions, "parameters": parameters, "parameterGroups": {}, "version": {}, "etag": "e"}

    def context(self):
        context = {}
        if self.rng.random() < 0.9:
            context["targetingKey"] = f"user-{self.rng.randint(0, 100000)}"
        for name, values in SIGNALS.items():
            if self.rng.random() < 0.7:
                context[name] = self.rng.choice(values)
        return context


# Node's semantics for the pieces where the Python SDK departs, switched on one class at a time.

JS_SPACE = " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
JS_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")


def js_number(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    text = str(value).strip(JS_SPACE)
    if text == "":
        return 0.0
    if text in ("Infinity", "+Infinity"):
        return math.inf
    if text == "-Infinity":
        return -math.inf
    for prefix, base in (("0x", 16), ("0X", 16), ("0o", 8), ("0O", 8), ("0b", 2), ("0B", 2)):
        if text.startswith(prefix):
            try:
                return float(int(text[2:], base)) if text[2:] and "_" not in text and text[2:].isalnum() else math.nan
            except ValueError:
                return math.nan
    return float(text) if JS_DECIMAL.match(text) else math.nan


def js_string(value):
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class NodeRegExp:
    """JavaScript's RegExp through node, when installed."""

    def __init__(self):
        node = shutil.which("node")
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "js_regexp.js")
        self.process = subprocess.Popen([node, script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) if node else None
        self.cache = {}

    def test(self, pattern, text):
        key = (pattern, text)
        if key not in self.cache:
            self.process.stdin.write(json.dumps({"p": pattern, "s": text}) + "\n")
            self.process.stdin.flush()
            self.cache[key] = json.loads(self.process.stdout.readline())
        return self.cache[key]


class ToggledEvaluator(remote_config._ConditionEvaluator):  # pylint: disable=protected-access
    """The Python SDK's evaluator with the named classes switched to Node's behaviour."""

    def __init__(self, conditions, parameters, context, config_values, node, regexp):
        super().__init__(conditions, parameters, context, config_values)
        self.node = node
        self.regexp = regexp

    def evaluate(self):
        if "python-valueless-value" not in self.node and "python-empty-default" not in self.node:
            return super().evaluate()
        evaluated = self.evaluate_conditions(self._conditions, self._context)
        for key, parameter in (self._parameters or {}).items():
            conditional_values = parameter.get("conditionalValues", {})
            default_value = parameter.get("defaultValue")
            chosen = None
            for name, result in evaluated.items():
                if name in conditional_values and result:
                    chosen = conditional_values[name]
                    break
            if "python-valueless-value" in self.node:
                if chosen is not None:
                    if chosen.get("useInAppDefault") or "value" not in chosen:
                        continue
                    self._config_values[key] = remote_config._Value("remote", chosen["value"])  # pylint: disable=protected-access
                    continue
            else:
                if chosen and chosen.get("useInAppDefault"):
                    continue
                if chosen:
                    self._config_values[key] = remote_config._Value("remote", chosen.get("value"))  # pylint: disable=protected-access
                    continue
            if default_value is None or (not default_value and "python-empty-default" not in self.node):
                continue
            if default_value.get("useInAppDefault"):
                continue
            self._config_values[key] = remote_config._Value("remote", default_value.get("value", ""))  # pylint: disable=protected-access
        return self._config_values

    def evaluate_custom_signal_condition(self, custom_signal_condition, context):
        operator = custom_signal_condition.get("customSignalOperator")
        key = custom_signal_condition.get("customSignalKey")
        targets = custom_signal_condition.get("targetCustomSignalValues")
        if not operator or not key or not targets:
            return False
        if "python-falsy-signal" in self.node:
            actual = context.get(key)
            if actual is None:
                return False
        else:
            actual = context.get(key) or {}
            if not actual:
                return False
        text = str(actual)
        if operator == "STRING_CONTAINS":
            return any(target in text for target in targets)
        if operator == "STRING_DOES_NOT_CONTAIN":
            return not any(target in text for target in targets)
        if operator == "STRING_EXACTLY_MATCHES":
            return any(target.strip() == text.strip() for target in targets)
        if operator == "STRING_CONTAINS_REGEX":
            if "python-regex" in self.node:
                return any(self.regexp.test(target, text) is True for target in targets)
            return any(re.search(target, text) for target in targets)
        if operator.startswith("NUMERIC_"):
            comparison = operator[len("NUMERIC_"):]
            if "python-number" in self.node:
                target, number = js_number(targets[0]), js_number(actual)
                if math.isnan(target) or math.isnan(number):
                    return False
            else:
                try:
                    target, number = float(targets[0]), float(actual)
                except ValueError:
                    return False
            return holds(comparison, -1 if number < target else 1 if number > target else 0)
        if operator.startswith("SEMANTIC_VERSION_"):
            comparison = operator[len("SEMANTIC_VERSION_"):]
            order = node_versions(js_string(actual), targets[0]) if "python-version" in self.node else python_versions(str(actual), str(targets[0]))
            return order is not None and holds(comparison, order)
        return False


def holds(comparison, order):
    return {"LESS_THAN": order < 0, "LESS_EQUAL": order <= 0, "EQUAL": order == 0, "NOT_EQUAL": order != 0,
            "GREATER_THAN": order > 0, "GREATER_EQUAL": order >= 0}.get(comparison, False)


def python_versions(left, right):
    try:
        a = [int(part) for part in left.split(".")]
        b = [int(part) for part in right.split(".")]
    except ValueError:
        return None
    length = max(len(a), len(b))
    a += [0] * (length - len(a))
    b += [0] * (length - len(b))
    for x, y in zip(a, b):
        if x < 0 or y < 0:
            return None
        if x != y:
            return -1 if x < y else 1
    return 0


def node_versions(left, right):
    a = [js_number(part) for part in left.split(".")]
    b = [js_number(part) for part in right.split(".")]
    if len(a) > 5 or len(b) > 5:
        return None
    for index in range(5):
        x = a[index] if index < len(a) else 0.0
        y = b[index] if index < len(b) else 0.0
        if math.isnan(x) or math.isnan(y):
            return None
        if x != y:
            return -1 if x < y else 1
    return 0


def sdk_answer(app, template, key, context, in_app_default, evaluator_class=None):
    server = remote_config.init_server_template(app=app, default_config={key: in_app_default} if in_app_default is not None else None,
                                                template_data_json=json.dumps(template))
    python_context = {k: v for k, v in context.items() if k != "targetingKey"}
    if "targetingKey" in context:
        python_context["randomization_id"] = context["targetingKey"]
    try:
        if evaluator_class is None:
            config = server.evaluate(python_context)
        else:
            values = {key: remote_config._Value("default", in_app_default)} if in_app_default is not None else {}  # pylint: disable=protected-access
            config = remote_config.ServerConfig(evaluator_class(server._cache.conditions, server._cache.parameters,  # pylint: disable=protected-access
                                                                python_context, values).evaluate())
    except re.error:
        return ("raises", "re.error")
    return (config.get_string(key), config.get_value_source(key))


def run(tweak, seed, cases, app, regexp):
    rng = random.Random(seed)
    generator = Generator(rng)
    tally = Tally("firebase")
    while tally.cases < cases:
        template = generator.template()
        contexts = [generator.context() for _ in range(8)]
        for key in template["parameters"]:
            in_app_default = "app-default" if rng.random() < 0.5 else None
            extra = ["--in-app-default", in_app_default] if in_app_default is not None else []
            results, errors = tweak_batch(tweak, "--firebase-template", template, key, contexts, extra)
            if results is None:
                for context in contexts:
                    tally.record(False, None, {"key": key, "context": context, "tweak error": errors, "template": template})
                continue
            for context, mine in zip(contexts, results):
                expected = sdk_answer(app, template, key, context, in_app_default)
                actual = (mine["value"], mine["source"])
                if expected == actual:
                    tally.record(True)
                    continue
                detail = {"key": key, "context": context, "sdk": expected, "tweak": actual, "in-app default": in_app_default, "template": template}
                tally.record(False, explain(app, template, key, context, in_app_default, actual, expected, regexp), detail)
    return tally.report(seed)


def explain(app, template, key, context, in_app_default, actual, expected, regexp):
    """The one class (or the smallest set, up to three) whose Node behaviour makes the Python SDK agree with TweakKit."""
    def with_node(classes):
        class Evaluator(ToggledEvaluator):
            def __init__(self, conditions, parameters, context, config_values):
                super().__init__(conditions, parameters, context, config_values, set(classes), regexp)
        return sdk_answer(app, template, key, context, in_app_default, Evaluator)

    available = [name for name in CLASSES if name != "python-regex" or regexp.process]
    if with_node([]) != expected:
        return None  # the toggled evaluator must first reproduce the SDK itself
    for size in (1, 2, 3):
        for classes in itertools.combinations(available, size):
            if with_node(classes) == actual:
                return "+".join(classes)
    return None


# STRING_CONTAINS_REGEX against node's RegExp itself: generated patterns (groups, lookarounds,
# backreferences, quantifiers, classes, escapes, surrogates) and inputs, one template per pattern.
REGEX_ATOMS = ["a", "b", "c", ".", "\\d", "\\w", "\\W", "\\s", "\\S", "\\b", "\\B", "^", "$", "[abc]", "[^a]", "[a-c]",
               "[\\w-]", "[\\s\\d]", "\\1", "\\2", "\\10", "\\x61", "\\u0062", "[\\x61-\\x63]", "\\cJ", "\\0", "\\07",
               "\\k<n>", "(?<n>a|b)", "\\uD83D", "[\\uD83D\\uDE00]", "(?<=(a))\\1", "(a*)\\1", "(a|ab)(c|bcd)", "x",
               "[[:alpha:]]", "\\p{L}", "\\A", "\\Z", "\\h", "\\Q", "a{,2}", "[a-z&&[^b]]", "\\8", "\\c", "{", "}", "]",
               "\u00e9", "\u2028", "\ufeff", "(?i:a)", "[z-a]", "*", "("]
REGEX_UNITS = ["a", "b", "c", "d", "ab", "abc", "aab", "1", "_", " ", "\n", "x", "😀", "é", "-", "bcd", "\t", "\u2028", "\ufeff", "{", "]"]


def regex_pattern(rng, depth=0):
    def atom():
        if depth < 3 and rng.random() < 0.25:
            text = rng.choice(["(", "(?:", "(?=", "(?!", "(?<=", "(?<!"]) + regex_pattern(rng, depth + 1) + ")"
        else:
            text = rng.choice(REGEX_ATOMS)
        if rng.random() < 0.35 and not text.startswith("(?<") and text not in ("^", "$", "\\b", "\\B"):
            text += rng.choice(["*", "+", "?", "{2}", "{0,1}", "*?", "+?", "{1,2}?", "{0}", "{2,}", "??"])
        return text
    text = "".join(atom() for _ in range(rng.randint(1, 4)))
    if depth < 2 and rng.random() < 0.25:
        text += "|" + regex_pattern(rng, depth + 1)
    return text


def run_regex(tweak, seed, patterns, regexp):
    rng = random.Random(seed)
    tally = Tally("firebase regex vs node RegExp")
    for _ in range(patterns):
        pattern = regex_pattern(rng)
        inputs = ["".join(rng.choice(REGEX_UNITS) for _ in range(rng.randint(0, 7))) for _ in range(10)]
        template = {"conditions": [{"name": "c", "condition": {"customSignal": {
            "customSignalOperator": "STRING_CONTAINS_REGEX", "customSignalKey": "s", "targetCustomSignalValues": [pattern]}}}],
            "parameters": {"p": {"defaultValue": {"value": "no"}, "conditionalValues": {"c": {"value": "yes"}}}}}
        results, errors = tweak_batch(tweak, "--firebase-template", template, "p", [{"s": text} for text in inputs])
        for text, index in zip(inputs, range(len(inputs))):
            expected = regexp.test(pattern, text)
            if results is None:
                tally.record(expected == "syntax" and "is not a regular expression JavaScript accepts" in errors, None,
                             {"pattern": pattern, "input": text, "node": expected, "tweak": errors})
            else:
                actual = results[index]["value"] == "yes"
                tally.record(expected == actual, None, {"pattern": pattern, "input": text, "node": expected, "tweak": actual})
    return tally.report(seed)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tweak", default=".build/debug/tweak")
    parser.add_argument("--seed", type=int, action="append")
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--regex-patterns", type=int, default=0,
                        help="also match this many generated patterns (10 inputs each) against node's RegExp")
    arguments = parser.parse_args()

    class Offline(credentials.Base):
        def get_credential(self):
            return google.auth.credentials.AnonymousCredentials()

    app = firebase_admin.initialize_app(Offline(), options={"projectId": "tweakkit-differential"})
    regexp = NodeRegExp()
    ok = all([run(arguments.tweak, seed, arguments.cases, app, regexp) for seed in arguments.seed or [1]])
    if arguments.regex_patterns:
        if regexp.process is None:
            sys.exit("--regex-patterns needs node")
        ok = all([run_regex(arguments.tweak, seed, arguments.regex_patterns, regexp) for seed in arguments.seed or [1]]) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
