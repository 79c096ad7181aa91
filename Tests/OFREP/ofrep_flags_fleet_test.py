#!/usr/bin/env python3
"""Two `tweak serve` on one PostgreSQL: a flag changed through one server's /api/flags is answered
by the other server's OFREP, read through OpenFeature's Python SDK with its OFREP provider, within
a second; then a 30/70 split answers within 2 points of 30 % over 10,000 targeting keys. Prints
each measured delay and the split's share.

Starts a throwaway PostgreSQL cluster (Debian's postgresql package; as root, run as the postgres
user) unless TWEAKKIT_POSTGRES_URL names a database to use.

Usage: ofrep_flags_fleet_test.py PATH/TO/tweak
"""
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import tweak_serve
from openfeature import api
from openfeature.contrib.provider.ofrep import OFREPProvider
from openfeature.evaluation_context import EvaluationContext

TWEAK = sys.argv[1]
TOKEN = "fleet-admin-token"
LIMIT = 1.0  # seconds


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_postgres():
    if os.environ.get("TWEAKKIT_POSTGRES_URL"):
        return os.environ["TWEAKKIT_POSTGRES_URL"], None
    versions = sorted((v for v in os.listdir("/usr/lib/postgresql") if v.isdigit()), key=int, reverse=True)
    bin_dir = f"/usr/lib/postgresql/{versions[0]}/bin"
    directory = tempfile.mkdtemp(prefix="tweakkit-fleet-pg-")
    prefix = []
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres", "postgres")
        prefix = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    subprocess.run(prefix + [f"{bin_dir}/initdb", "-D", f"{directory}/data", "--auth=trust", "-U", "postgres", "--no-sync", "-E", "UTF8"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(prefix + [f"{bin_dir}/pg_ctl", "-D", f"{directory}/data", "-l", f"{directory}/server.log", "-w", "-t", "60", "start",
                             "-o", f"-p {port} -k {directory} -c listen_addresses=127.0.0.1 -c fsync=off"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    stop = prefix + [f"{bin_dir}/pg_ctl", "-D", f"{directory}/data", "-w", "-m", "fast", "stop"]
    return f"postgres://postgres@127.0.0.1:{port}/postgres", (stop, directory)


def start_server(store):
    return tweak_serve.start(TWEAK, ["--store", store, "--token", TOKEN])


def put_flag(base, key, definition):
    request = urllib.request.Request(f"{base}/api/flags/{key}", data=json.dumps(definition).encode(), method="PUT",
                                     headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status in (200, 201), response.status


def flag(default_variant, state="ENABLED"):
    return {"state": state, "variants": {"on": True, "off": False}, "defaultVariant": default_variant}


def main():
    store, cluster = start_postgres()
    servers = []
    failures = 0
    try:
        writer, writer_url = start_server(store)
        servers.append(writer)
        reader, reader_url = start_server(store)
        servers.append(reader)
        api.set_provider(OFREPProvider(reader_url))
        client = api.get_client()
        context = EvaluationContext("user-1")
        put_flag(writer_url, "fleet-flag", flag("off"))
        time.sleep(0.5)
        delays = []
        # (definition, what the reader should answer): on, off, on, the kill switch (the caller's default).
        for step, (definition, wanted, default) in enumerate([
            (flag("on"), True, False), (flag("off"), False, True), (flag("on"), True, False), (flag("on", "DISABLED"), False, False),
        ]):
            start = time.monotonic()
            put_flag(writer_url, "fleet-flag", definition)
            seen = None
            while time.monotonic() - start < 2 * LIMIT:
                details = client.get_boolean_details("fleet-flag", default, context)
                seen = (details.value, details.reason)
                if details.value == wanted and (definition["state"] == "ENABLED" or str(details.reason).endswith("DISABLED")):
                    break
                time.sleep(0.005)
            delay = time.monotonic() - start
            delays.append(delay)
            ok = delay < LIMIT
            failures += not ok
            print(f"step {step}: {'ok' if ok else 'FAIL'}: the other server's OFREP answered {seen} after {delay * 1000:.0f} ms (limit {LIMIT * 1000:.0f} ms)")
        print(f"delays: max {max(delays) * 1000:.0f} ms, mean {sum(delays) / len(delays) * 1000:.0f} ms")

        # A 30/70 split set through the writer, answered by the reader for 10,000 targeting keys.
        split = dict(flag("off"), targeting={"fractional": [["on", 30], ["off", 70]]})
        put_flag(writer_url, "fleet-split", split)
        deadline = time.monotonic() + LIMIT
        while client.get_boolean_details("fleet-split", False, EvaluationContext("probe")).reason != "TARGETING_MATCH":
            if time.monotonic() > deadline:
                raise SystemExit("the split was not answered by the other server within 1 s")
            time.sleep(0.005)
        start = time.monotonic()
        keys = 10_000
        # Over one kept-alive connection (the SDK opens one per request: ten times slower).
        host, port = reader_url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        on = 0
        for index in range(keys):
            connection.request("POST", "/ofrep/v1/evaluate/flags/fleet-split", body=json.dumps({"context": {"targetingKey": f"user-{index}"}}),
                               headers={"Content-Type": "application/json"})
            answer = json.loads(connection.getresponse().read())
            on += answer["value"] is True
        connection.close()
        share = on / keys * 100
        ok = abs(share - 30) <= 2
        failures += not ok
        print(f"split: {'ok' if ok else 'FAIL'}: {share:.2f} % of {keys:,} targeting keys on (goal 30 +/- 2), "
              f"{time.monotonic() - start:.1f} s through the other server's OFREP")
    finally:
        for process in servers:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        if cluster:
            subprocess.run(cluster[0], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            shutil.rmtree(cluster[1], ignore_errors=True)
    if failures:
        raise SystemExit(f"{failures} change(s) not answered within {LIMIT} s")
    print("fleet OFREP check passed")


main()
