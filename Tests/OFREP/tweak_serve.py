"""Starts `tweak serve` for the OFREP checks and finds the port it printed."""
import re
import subprocess
import time


def start(tweak, arguments):
    """Runs `tweak serve --port 0 ARGUMENTS`; returns the process and its base URL, once it listens."""
    process = subprocess.Popen([tweak, "serve", "--port", "0"] + arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line or "")
        if match:
            return process, f"http://127.0.0.1:{match.group(1)}"
        if process.poll() is not None:
            break
    process.kill()
    raise SystemExit(f"tweak serve did not start: {process.stderr.read()}")
