#!/usr/bin/env bash
# Runs a test command with a time budget, so that a stalled test fails CI in minutes, not at its
# 90-minute limit, and says where it stalled.
#
#   .ci/stall-guard.sh SECONDS [--retry] COMMAND...
#
# Past SECONDS the command is stopped, and the log shows:
#   - the tests that started and never ended (from Swift Testing's "◇ Test … started." lines);
#   - every thread's stack of each test process (gdb, when installed).
# With --retry, a stalled run (never a failed one) is run once more, and the stall stays in the log
# above the second run's output. The command's exit status is passed on.
set -uo pipefail

budget=$1
shift
retry=0
if [ "${1:-}" = "--retry" ]; then retry=1; shift; fi

log=$(mktemp /tmp/tweakkit-stall-guard.XXXXXX)
trap 'rm -f "$log"' EXIT

# unfinished LOG: the tests started in LOG that neither passed, failed nor were skipped.
unfinished() {
    python3 - "$1" <<'PY'
import re, sys
started, ended = [], set()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    # "recorded an issue" is not an end: a test goes on after an issue, and may stall after it.
    match = re.search(r'Test "(.*)" (started|passed|failed|skipped)', line)
    if not match or "Test case passing" in line:
        continue
    if match.group(2) == "started":
        started.append(match.group(1))
    else:
        ended.add(match.group(1))
for name in started:
    if name not in ended:
        print("  still running: " + name)
PY
}

# stacks: every thread's stack of each process in the session SID.
stacks() {
    local pid
    for pid in $(pgrep -s "$1"); do
        case "$(cat "/proc/$pid/comm" 2>/dev/null)" in
            TweakKit*|*xctest*|tweak) ;;   # comm is cut to 15 characters
            *) continue ;;
        esac
        echo "--- threads of $pid ($(tr '\0' ' ' < "/proc/$pid/cmdline" | cut -c1-160))"
        if command -v gdb >/dev/null; then
            timeout 120 gdb -p "$pid" -batch -ex "thread apply all bt" 2>/dev/null \
                | grep -E "^(Thread|#)" | cut -c1-220 | head -n 600
        else
            echo "(gdb is not installed: no stacks)"
        fi
    done
}

attempt=1
while true; do
    setsid "$@" > >(tee "$log") 2>&1 &
    pid=$!
    start=$SECONDS
    while kill -0 "$pid" 2>/dev/null && [ $((SECONDS - start)) -lt "$budget" ]; do sleep 2; done
    if ! kill -0 "$pid" 2>/dev/null; then
        wait "$pid"
        exit $?
    fi
    echo "error: '$*' stalled: still running after ${budget} s (attempt $attempt)" >&2
    unfinished "$log" >&2
    stacks "$pid" >&2
    pkill -KILL -s "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    if [ "$retry" -eq 1 ] && [ "$attempt" -eq 1 ]; then
        attempt=2
        echo "stall-guard: running '$*' once more; the stall above is a bug to fix" >&2
        continue
    fi
    exit 124
done
