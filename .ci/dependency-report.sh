#!/usr/bin/env bash
# What a package that depends on TweakKit pays: for five typical uses, a throwaway consumer package
# in a temporary folder depends on this checkout, and the report prints the packages
# `swift package resolve` checks out for it and (unless --resolve-only) its clean `swift build` time.
#
#   .ci/dependency-report.sh                 # resolve and build each use
#   .ci/dependency-report.sh --resolve-only  # resolve only: the fast mode, for CI
#   .ci/dependency-report.sh --keep          # keep the consumer packages and print where they are
#
# Fails when the app on the core, the app with the flagd engine or the app with the remote/OFREP
# client (on URLSession) resolves any package besides TweakKit. --resolve-only compiles nothing and
# takes about a minute; the full mode builds the five consumers from clean, most of it the server's
# (Hummingbird, PostgresNIO, swift-crypto's C code).
#
# The consumers depend on this checkout by path, with the same traits as the lines in the README
# (which name the repository by URL): SwiftPM computes a dependency's required packages the same way
# for a path and a URL dependency (both are non-root packages), and a path picks up uncommitted
# changes without a tag.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

resolve_only=0
keep=0
for argument in "$@"; do
    case "$argument" in
        --resolve-only) resolve_only=1 ;;
        --keep) keep=1 ;;
        -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "error: unknown option '$argument' (--resolve-only, --keep)" >&2; exit 2 ;;
    esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/tweakkit-dependency-report.XXXXXX")
if [ "$keep" = 1 ]; then
    echo "consumer packages: $work"
else
    trap 'rm -rf "$work"' EXIT
fi

# consumer NAME TRAITS PRODUCTS SOURCE
# TRAITS is the `traits:` list of the dependency line, PRODUCTS the products the consumer's target
# uses (space-separated), SOURCE the consumer's main.swift.
consumer() {
    local name=$1 traits=$2 products=$3 source=$4
    local dir="$work/$name"
    mkdir -p "$dir/Sources/$name"
    local dependencies=""
    for product in $products; do
        dependencies+=".product(name: \"$product\", package: \"TweakKit\"), "
    done
    cat >"$dir/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "$name",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "TweakKit", path: "$root", traits: [$traits]),
    ],
    targets: [
        .executableTarget(name: "$name", dependencies: [${dependencies%, }]),
    ]
)
EOF
    printf '%s\n' "$source" >"$dir/Sources/$name/main.swift"
}

consumer App '' 'TweakKit' '
import TweakKit

let manager = TweakManager(tweakProviders: [EnvironmentTweakProvider()])
print(manager.isFeatureEnabled("checkout"))'

consumer FlagdApp '' 'TweakKit TweakKitFlagd' '
import TweakKit
import TweakKitFlagd

print(FlagdTweakProvider.self)'

# The remote and OFREP clients with the trait `Remote` off: on URLSession, no NIO.
consumer RemoteApp '' 'TweakKit TweakKitRemote' '
import Foundation
import TweakKit
import TweakKitRemote

guard let base = URL(string: "http://127.0.0.1:8080") else { fatalError("not a URL") }
let remote = RemoteTweakProvider(configuration: RemoteConfiguration(url: base.appending(path: "tweaks.json")))
let flags = OFREPTweakProvider(configuration: OFREPConfiguration(baseURL: base), transport: URLSessionTransport())
print(TweakManager(tweakProviders: [remote, flags]).isFeatureEnabled("checkout"))'

consumer GrowthBookApp '"GrowthBook"' 'TweakKit TweakKitGrowthBook' '
import TweakKit
import TweakKitGrowthBook

print(GrowthBookEvaluator.self)'

consumer Server '"Server", "StorePostgres"' 'TweakKit TweakKitStore TweakKitServer TweakKitStorePostgres' '
import TweakKit
import TweakKitServer
import TweakKitStore
import TweakKitStorePostgres

print(TweakEditor.self, StoreTweakProvider.self, PostgresTweakStore.self)'

# The packages resolution checked out: the consumer's pins (a path dependency is not pinned).
pins() {
    [ -f "$1/Package.resolved" ] || return 0
    sed -n 's/^ *"identity" *: *"\(.*\)".*/\1/p' "$1/Package.resolved"
}

# What each consumer is, for the report.
declare -A use=(
    [App]="app on the core"
    [FlagdApp]="app with the flagd engine"
    [RemoteApp]="app with the remote/OFREP client on URLSession"
    [GrowthBookApp]="app with the GrowthBook engine"
    [Server]="server with the editor and the store on PostgreSQL"
)

status=0
summary=()
for name in App FlagdApp RemoteApp GrowthBookApp Server; do
    dir="$work/$name"
    echo "== $name: ${use[$name]}"
    sed -n 's/^ *\(\.package(.*\)$/   \1/p' "$dir/Package.swift" | sed "s|$root|<this checkout>|"
    start=$(date +%s)
    if ! (cd "$dir" && swift package resolve >"$dir/resolve.log" 2>&1); then
        cat "$dir/resolve.log" >&2
        echo "error: $name: swift package resolve failed" >&2
        exit 1
    fi
    resolve_seconds=$(($(date +%s) - start))
    packages=$(pins "$dir")
    count=$(printf '%s' "$packages" | grep -c . || true)
    echo "   resolves $count package(s) besides TweakKit (${resolve_seconds}s)${packages:+:}"
    [ -n "$packages" ] && printf '%s\n' "$packages" | sed 's/^/     /'
    noun=packages
    [ "$count" = 1 ] && noun=package
    line="${use[$name]} → $count $noun besides TweakKit"
    if [ "$resolve_only" = 0 ]; then
        start=$(date +%s)
        if ! (cd "$dir" && swift build >"$dir/build.log" 2>&1); then
            tail -40 "$dir/build.log" >&2
            echo "error: $name: swift build failed" >&2
            exit 1
        fi
        build_seconds=$(($(date +%s) - start))
        echo "   clean swift build: ${build_seconds}s"
        line+=", clean build ${build_seconds}s"
    fi
    summary+=("$line")
    case "$name" in
        App | FlagdApp | RemoteApp)
            if [ "$count" -gt 0 ]; then
                echo "error: $name resolves $count package(s) besides TweakKit; its goal is none" >&2
                status=1
            fi
            ;;
    esac
done

echo "== summary"
printf '   %s\n' "${summary[@]}"
exit $status
