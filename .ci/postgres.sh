#!/usr/bin/env bash
# PostgreSQL for the shared tweak store's tests.
#
#   .ci/postgres.sh --install-only   installs Debian's postgresql package if it is missing (run
#                                    before `swift test`: the store tests then start a throwaway
#                                    cluster of their own, so plain `swift test` covers PostgreSQL)
#   .ci/postgres.sh                  also starts a throwaway cluster on a free port on 127.0.0.1
#                                    (initdb into a temp dir as the postgres user), runs the store
#                                    suite against it through TWEAKKIT_POSTGRES_URL (the path a
#                                    team's own server takes) and always stops it.
# Needs the tests built (`swift build --build-tests`, as `swift test` leaves them). About 1 minute.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi
echo "PostgreSQL: $("$bin/postgres" --version)"
[ "${1:-}" = "--install-only" ] && exit 0

# initdb refuses root: the cluster belongs to the postgres user.
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
dir=$(mktemp -d /tmp/tweakkit-ci-pg.XXXXXX)
[ "$(id -u)" = 0 ] && chown postgres: "$dir"
stop() {
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_postgres "$bin/initdb" -D "$dir/data" --auth=trust -U postgres -E UTF8 --no-sync >/dev/null
as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=400 -c fsync=off" >/dev/null
echo "throwaway PostgreSQL cluster on 127.0.0.1:$port"

export TWEAKKIT_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres"
swift build --build-tests
# A stalled test fails after 10 minutes with its stacks (.ci/stall-guard.sh), and is tried once more.
.ci/stall-guard.sh 600 --retry swift test --skip-build --filter TweakKitStoreTests
