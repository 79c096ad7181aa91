#!/usr/bin/env python3
"""A small OFREP server written from OpenFeature's OpenAPI document (open-feature/protocol,
service/openapi.yaml) with the standard library only, and nothing of TweakKit's, so that
TweakKit's OFREP client is tested against a server that is not its own.

Usage: ofrep_server.py FLAGS.json PORT_FILE
Listens on 127.0.0.1 on a free port, writes the port to PORT_FILE once it accepts connections,
and serves until killed.

What it answers, as the document says:
- POST /ofrep/v1/evaluate/flags/{key}: 200 with key, value, reason, variant, metadata; 400 with
  key, errorCode (PARSE_ERROR, TARGETING_KEY_MISSING, INVALID_CONTEXT, GENERAL) and errorDetails;
  404 with errorCode FLAG_NOT_FOUND.
- POST /ofrep/v1/evaluate/flags (bulk): 200 with {"flags": [...]} (successes and failures) and an
  ETag; If-None-Match naming the current ETag (or "*") answers 304.
- 401 without credentials, 403 with the wrong ones (X-API-Key or Authorization: Bearer);
  429 with Retry-After; 500 with errorDetails.

FLAGS.json: {"apiKey": "…"?, "flags": {"<key>": RESULT | {"byTargetingKey": {"<id>": RESULT},
"otherwise": RESULT}}} where RESULT is {"value": …, "variant": "…"?, "reason": "…"?, "metadata": {…}?}
or {"errorCode": "…", "errorDetails": "…"?}. A flag whose RESULT has "requiresTargetingKey": true
answers TARGETING_KEY_MISSING for a context without one.

Every path may be prefixed with /t/<tenant>: each tenant has its own flags, failures and request
log (starting from FLAGS.json), so tests running at once do not see each other's requests.
Control, not part of OFREP, under the same prefix:
- POST /control {"flags": …} replaces the tenant's flags; {"rateLimit": "<Retry-After value>"}
  answers the next evaluation 429 with that header; {"fail": n} answers the next n evaluations
  500; {"garbage": n} answers the next n evaluations 200 with a body that is not JSON.
- GET /control/requests: the tenant's evaluation requests so far, each {"path", "body",
  "ifNoneMatch"?, "apiKey"?, "authorization"?, "status"}.
"""
import copy
import hashlib
import json
import os
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PREFIX = "/ofrep/v1/evaluate/flags"
TENANT = re.compile(r"^/t/([A-Za-z0-9_-]+)(/.*)$")
lock = threading.Lock()
initial = {}
tenants = {}


def tenant_state(name):
    """The tenant's state, created from FLAGS.json on first use (call with the lock held)."""
    if name not in tenants:
        tenants[name] = {"flags": copy.deepcopy(initial.get("flags", {})), "apiKey": initial.get("apiKey"),
                         "rateLimit": None, "fail": 0, "garbage": 0, "requests": []}
    return tenants[name]


def resolve(definition, context):
    if "byTargetingKey" in definition:
        chosen = definition["byTargetingKey"].get(context.get("targetingKey"))
        return chosen if chosen is not None else definition["otherwise"]
    return definition


def evaluation(key, definition, context):
    """One flag's answer: evaluationSuccess or evaluationFailure of the document."""
    found = resolve(definition, context)
    if found.get("requiresTargetingKey") and not isinstance(context.get("targetingKey"), str):
        return {"key": key, "errorCode": "TARGETING_KEY_MISSING", "errorDetails": f"{key} needs a targetingKey"}
    if "errorCode" in found:
        return {"key": key, "errorCode": found["errorCode"], "errorDetails": found.get("errorDetails", "")}
    answer = {"key": key, "reason": found.get("reason", "STATIC"), "variant": found.get("variant", ""),
              "metadata": found.get("metadata", {})}
    if "value" in found:
        answer["value"] = found["value"]
    return answer


def etag_matches(header, etag):
    """If-None-Match: "*" or a comma-separated list of (possibly weak) tags."""
    if header is None:
        return False
    tags = [tag.strip() for tag in header.split(",")]
    return "*" in tags or any(tag.removeprefix("W/") == etag for tag in tags)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=None, headers=None, raw=None):
        data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if data:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def route(self):
        """(tenant, path without the tenant prefix)."""
        match = TENANT.match(self.path)
        return (match.group(1), match.group(2)) if match else ("", self.path)

    def do_GET(self):
        tenant, path = self.route()
        if path == "/control/requests":
            with lock:
                self.send(200, tenant_state(tenant)["requests"])
        else:
            self.send(404, {"errorDetails": "no such route"})

    def do_POST(self):
        tenant, path = self.route()
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        parse_error = None
        try:
            body = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError as error:
            body = None
            parse_error = str(error)
        if path == "/control":
            with lock:
                state = tenant_state(tenant)
                for name in ("flags", "rateLimit", "fail", "garbage"):
                    if isinstance(body, dict) and name in body:
                        state[name] = body[name]
            self.send(200, {})
            return
        if not path.startswith(PREFIX):
            self.send(404, {"errorDetails": "no such route"})
            return
        with lock:
            state = tenant_state(tenant)
            received = {"path": path, "body": body}
            for name, header in (("ifNoneMatch", "If-None-Match"), ("apiKey", "X-API-Key"), ("authorization", "Authorization")):
                if self.headers.get(header) is not None:
                    received[name] = self.headers.get(header)
            state["requests"].append(received)
            status, answer, headers, raw_answer = self.answer(state, path, body, parse_error)
            received["status"] = status
        self.send(status, answer, headers, raw_answer)

    def answer(self, state, path, body, parse_error):
        """(status, JSON body, headers, raw body) for an evaluation request (lock held)."""
        if state["apiKey"]:
            key = self.headers.get("X-API-Key")
            bearer = self.headers.get("Authorization")
            if key is None and bearer is None:
                return 401, None, None, None
            if key != state["apiKey"] and bearer != f"Bearer {state['apiKey']}":
                return 403, None, None, None
        if state["rateLimit"] is not None:
            retry_after, state["rateLimit"] = state["rateLimit"], None
            return 429, None, {"Retry-After": str(retry_after)}, None
        if state["fail"] > 0:
            state["fail"] -= 1
            return 500, {"errorDetails": "failing on purpose"}, None, None
        if state["garbage"] > 0:
            state["garbage"] -= 1
            return 200, None, None, b"<html>not json"
        if body is None:
            return 400, {"errorCode": "PARSE_ERROR", "errorDetails": parse_error}, None, None
        context = body.get("context", {}) if isinstance(body, dict) else None
        if not isinstance(context, dict):
            return 400, {"errorCode": "INVALID_CONTEXT", "errorDetails": "context must be an object"}, None, None
        flags = state["flags"]
        if path == PREFIX:
            answer = {"flags": [evaluation(key, definition, context) for key, definition in sorted(flags.items())]}
            etag = '"' + hashlib.sha256(json.dumps(answer, sort_keys=True).encode()).hexdigest()[:32] + '"'
            if etag_matches(self.headers.get("If-None-Match"), etag):
                return 304, None, {"ETag": etag}, None
            return 200, answer, {"ETag": etag}, None
        key = path[len(PREFIX) + 1:]
        if key not in flags:
            return 404, {"key": key, "errorCode": "FLAG_NOT_FOUND", "errorDetails": f"flag {key} not found"}, None, None
        answer = evaluation(key, flags[key], context)
        return (400 if "errorCode" in answer else 200), answer, None, None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as file:
        initial.update(json.load(file))
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    # Written whole, then renamed: a reader never sees half a port.
    with open(sys.argv[2] + ".tmp", "w") as file:
        file.write(str(server.server_address[1]))
    os.replace(sys.argv[2] + ".tmp", sys.argv[2])
    server.serve_forever()


if __name__ == "__main__":
    main()
