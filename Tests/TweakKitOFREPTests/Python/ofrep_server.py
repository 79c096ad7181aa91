#!/usr/bin/env python3
"""A small OFREP server written from the OpenAPI document (open-feature/protocol, service/openapi.yaml),
independent of TweakKit, so the Swift OFREP client is tested against another implementation.

Usage: ofrep_server.py FLAGS.json   (prints the port it listens on, on 127.0.0.1, then serves)

FLAGS.json: {"flags": {"<key>": {"value": …, "variant": "…", "reason": "…", "metadata": {…}}
                                 | {"errorCode": "…", "errorDetails": "…"}
                                 | {"byTargetingKey": {"<targetingKey>": {…one of the above…}}, "otherwise": {…}}},
             "apiKey": "…"?}
Control (not part of OFREP): POST /control with {"flags": …} replaces the flags, {"rateLimit": seconds}
answers the next evaluation 429 with Retry-After, {"fail": n} answers the next n evaluations 500;
GET /control/requests returns the evaluation requests received so far (path, body, and the
If-None-Match and X-API-Key headers when sent).
"""
import hashlib
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
state = {"flags": {}, "apiKey": None, "rateLimit": None, "fail": 0, "requests": []}


def resolve(definition, context):
    if "byTargetingKey" in definition:
        chosen = definition["byTargetingKey"].get(context.get("targetingKey"))
        return chosen if chosen is not None else definition["otherwise"]
    return definition


def evaluation(key, definition, context):
    found = resolve(definition, context)
    if "errorCode" in found:
        return {"key": key, "errorCode": found["errorCode"], "errorDetails": found.get("errorDetails", "")}
    answer = {"key": key, "reason": found.get("reason", "STATIC"), "variant": found.get("variant", ""),
              "metadata": found.get("metadata", {})}
    if "value" in found:
        answer["value"] = found["value"]
    return answer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=None, headers=None):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def read_json(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        return json.loads(raw) if raw.strip() else {}

    def do_GET(self):
        if self.path == "/control/requests":
            with lock:
                self.send(200, state["requests"])
        else:
            self.send(404, {"errorDetails": "no such route"})

    def do_POST(self):
        try:
            body = self.read_json()
        except json.JSONDecodeError as error:
            self.send(400, {"errorCode": "PARSE_ERROR", "errorDetails": str(error)})
            return
        if self.path == "/control":
            with lock:
                for name in ("flags", "rateLimit", "fail"):
                    if name in body:
                        state[name] = body[name]
            self.send(200, {})
            return
        prefix = "/ofrep/v1/evaluate/flags"
        if not self.path.startswith(prefix):
            self.send(404, {"errorDetails": "no such route"})
            return
        with lock:
            received = {"path": self.path, "body": body}
            for name, header in (("ifNoneMatch", "If-None-Match"), ("apiKey", "X-API-Key")):
                if self.headers.get(header) is not None:
                    received[name] = self.headers.get(header)
            state["requests"].append(received)
            if state["apiKey"] and self.headers.get("X-API-Key") != state["apiKey"]:
                self.send(401)
                return
            if state["rateLimit"] is not None:
                seconds, state["rateLimit"] = state["rateLimit"], None
                self.send(429, headers={"Retry-After": str(seconds)})
                return
            if state["fail"] > 0:
                state["fail"] -= 1
                self.send(500, {"errorDetails": "failing on purpose"})
                return
            flags = dict(state["flags"])
        context = body.get("context", {})
        if not isinstance(context, dict):
            self.send(400, {"errorCode": "INVALID_CONTEXT", "errorDetails": "context must be an object"})
            return
        if self.path == prefix:
            answer = {"flags": [evaluation(key, definition, context) for key, definition in sorted(flags.items())]}
            text = json.dumps(answer, sort_keys=True)
            etag = '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'
            if self.headers.get("If-None-Match") == etag:
                self.send(304, headers={"ETag": etag})
            else:
                self.send(200, answer, {"ETag": etag})
            return
        key = self.path[len(prefix) + 1:]
        if key not in flags:
            self.send(404, {"key": key, "errorCode": "FLAG_NOT_FOUND", "errorDetails": f"flag {key} not found"})
            return
        answer = evaluation(key, flags[key], context)
        self.send(400 if "errorCode" in answer else 200, answer)


def main():
    with open(sys.argv[1]) as file:
        loaded = json.load(file)
    state["flags"] = loaded.get("flags", {})
    state["apiKey"] = loaded.get("apiKey")
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
