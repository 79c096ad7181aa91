#!/usr/bin/env python3
"""Differential test: OpenFeature's Python SDK with its OFREP provider (PyPI openfeature-sdk,
openfeature-provider-ofrep) reads flags from a real `tweak serve --flags FILE`; every result
(value, variant, reason, error code) must equal `tweak eval --flags FILE` for the same flag, type,
default and context. Then the bulk endpoint's ETag / If-None-Match / 304 exchange is checked with a
plain HTTP client, and that the ETag changes when a value changes.

Usage: ofrep_sdk_test.py PATH/TO/tweak FLAGS.json
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import tweak_serve
from openfeature import api
from openfeature.contrib.provider.ofrep import OFREPProvider
from openfeature.evaluation_context import EvaluationContext

TWEAK, FLAGS = sys.argv[1], sys.argv[2]
TOKEN = "differential-token"
API_KEY = "differential-key"

USERS = [f"user-{n}" for n in range(24)]
CASES = []  # (flag key, type, default, context)
for country in ("NL", "BE", "DE", None):
    context = {"targetingKey": "u1"} | ({"country": country} if country else {})
    CASES.append(("new-checkout", "boolean", False, context))
for plan in ("free", "pro"):
    CASES.append(("banner-text", "string", "fallback", {"targetingKey": "u2", "plan": plan}))
CASES.append(("banner-text", "string", "fallback", {}))  # no targeting key at all
for user in USERS:  # a 50/50 fractional split
    CASES.append(("checkout.max-items", "integer", -1, {"targetingKey": user}))
CASES.append(("checkout.max-items", "integer", -1, {"plan": "pro"}))  # a split without a targeting key
for orders in (3, 12):
    CASES.append(("checkout.discount", "float", -1.0, {"targetingKey": "u3", "orders": orders}))
for email in ("a@example.com", "b@example.org"):
    CASES.append(("layout", "object", {"columns": 0}, {"targetingKey": "u4", "email": email}))
CASES.append(("retired-banner", "boolean", True, {"targetingKey": "u5"}))  # disabled
CASES.append(("no-such-flag", "boolean", True, {"targetingKey": "u6"}))  # missing
CASES.append(("banner-text", "boolean", False, {"targetingKey": "u7"}))  # type mismatch
CASES.append(("checkout.max-items", "string", "x", {"targetingKey": "u8"}))  # type mismatch
CASES.append(("layout", "integer", 7, {"targetingKey": "u9"}))  # type mismatch


def start_server(overrides):
    return tweak_serve.start(TWEAK, ["--flags", FLAGS, "--overrides", overrides, "--token", TOKEN, "--api-key", API_KEY])


def sdk_result(client, key, kind, default, context):
    evaluation_context = EvaluationContext(context.get("targetingKey"), {k: v for k, v in context.items() if k != "targetingKey"})
    method = {"boolean": client.get_boolean_details, "string": client.get_string_details, "integer": client.get_integer_details,
              "float": client.get_float_details, "object": client.get_object_details}[kind]
    details = method(key, default, evaluation_context)
    name = lambda value: None if value is None else getattr(value, "value", value)
    # OFREP's variant is a string; a result without a variant is sent as "".
    return {"value": details.value, "variant": details.variant or None, "reason": name(details.reason), "errorCode": name(details.error_code)}


def eval_result(key, kind, default, context):
    command = [TWEAK, "eval", "--flags", FLAGS, key, "--type", kind, f"--default={json.dumps(default)}", "--context", json.dumps(context)]
    output = subprocess.run(command, capture_output=True, text=True, timeout=60)
    if output.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {output.stderr}")
    result = json.loads(output.stdout)
    # tweak eval prints a whole Double as 1 (its text output does not keep the type); asked for a float it is one.
    if kind == "float" and type(result.get("value")) is int:
        result["value"] = float(result["value"])
    return {"value": result.get("value"), "variant": result.get("variant"), "reason": result.get("reason"), "errorCode": result.get("errorCode")}


def same(a, b):
    """Equal, and of the same JSON types (1 is not 1.0, True is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def post(url, body, headers=None):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-API-Key": API_KEY} | (headers or {}))
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def check_bulk(base):
    url = f"{base}/ofrep/v1/evaluate/flags"
    context = {"context": {"targetingKey": "u1", "country": "NL"}}
    status, headers, body = post(url, context)
    assert status == 200, f"bulk answered {status}"
    etag = headers["ETag"]
    flags = {flag["key"]: flag for flag in json.loads(body)["flags"]}
    assert flags["new-checkout"]["value"] is True and flags["new-checkout"]["variant"] == "on", flags["new-checkout"]
    status, headers, body = post(url, context, {"If-None-Match": etag})
    assert status == 304 and body == b"" and headers["ETag"] == etag, f"If-None-Match answered {status}"
    status, _, _ = post(url, {"context": {"targetingKey": "u1", "country": "DE"}}, {"If-None-Match": etag})
    assert status == 200, f"another context answered {status}"
    status, _, _ = post(url, context, {"X-API-Key": "wrong"})
    assert status == 401, f"a wrong API key answered {status}"
    # A value changes (an override set through the editor's API): the same request is answered in full, with a new tag.
    override = urllib.request.Request(f"{base}/api/tweaks/banner-text/value", data=b'{"value": "Hey"}', method="PUT",
                                      headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(override, timeout=10) as response:
        assert response.status == 200
    status, headers, body = post(url, context, {"If-None-Match": etag})
    assert status == 200 and headers["ETag"] != etag, f"after a change: {status}, tag {headers['ETag']}"
    flags = {flag["key"]: flag for flag in json.loads(body)["flags"]}
    assert flags["banner-text"]["value"] == "Hey", flags["banner-text"]
    print("bulk: 200 with ETag, 304 on If-None-Match, 200 for another context, 401 without the key, new ETag after a change")


def main():
    started = time.time()
    with tempfile.TemporaryDirectory() as scratch:
        process, base = start_server(os.path.join(scratch, "overrides.json"))
        try:
            api.set_provider(OFREPProvider(base, headers_factory=lambda: {"X-API-Key": API_KEY}, timeout=10))
            client = api.get_client()
            failures = 0
            reasons = set()
            for key, kind, default, context in CASES:
                got, expected = sdk_result(client, key, kind, default, context), eval_result(key, kind, default, context)
                reasons.add(expected["reason"])
                if not all(same(got[field], expected[field]) for field in expected):
                    failures += 1
                    print(f"MISMATCH {key} as {kind} for {context}:\n  OFREP SDK  {got}\n  tweak eval {expected}")
            print(f"{len(CASES) - failures}/{len(CASES)} OFREP SDK results equal tweak eval (reasons seen: {', '.join(sorted(reasons))})")
            check_bulk(base)
        finally:
            process.terminate()
            process.wait(timeout=10)
    print(f"OFREP differential passed in {time.time() - started:.1f} s" if failures == 0 else "OFREP differential FAILED")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
