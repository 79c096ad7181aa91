#!/usr/bin/env bash
# The examples, each a package of its own built against this checkout: the accessor example (the
# build plugin), the command plugin's committed accessor, Examples/CLIApp and Examples/ServerApp.
#
#   .ci/examples.sh          # build each, then check each
#   .ci/examples.sh build    # only the builds, each with its warning check (cold: most of the time)
#   .ci/examples.sh check    # only the checks, on what `build` left
#
# .ci/run runs `build` after `swift test` (on what that built, a few minutes) and `check` at the
# end, so the examples' timing-sensitive tests run on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-all}"
case "$mode" in all|build|check) ;; *) echo "usage: .ci/examples.sh [build|check]" >&2; exit 2 ;; esac
root=$PWD
# Every example builds into this checkout's own scratch path, .build: it compiles TweakKit and its
# dependencies with the same commands as `swift build` here, so after the checkout's build an
# example compiles only its own targets (four cold builds were a quarter of CI's time). The
# examples' check scripts read it.
export EXAMPLES_SCRATCH_PATH="$root/.build"
scratch=(--scratch-path "$EXAMPLES_SCRATCH_PATH")
# SwiftPM keeps one build plan in the scratch path, for the package built last: each example's build
# starts from a fresh plan (and the checkout's next build makes its own again).
fresh_plan() { rm -f "$EXAMPLES_SCRATCH_PATH/debug.yaml"; }

# The accessor example: the build plugin generates AppTweaks from Tweaks.json; the program checks
# reads and writes through it. The generated code must compile without warnings other than the
# deliberate deprecation of the expired tweak.
example=Examples/TweakAccessorExample
# The command plugin writes the same accessor into the target's sources, for teams that commit it.
committed=.build/committed-accessor-example

build_accessor_examples() {
    local log
    log=$(mktemp)
    fresh_plan
    swift build --package-path "$example" "${scratch[@]}" 2>&1 | tee "$log"
    if grep -E "^/[^ ]+:[0-9]+:[0-9]+: warning:" "$log" | grep -v "is deprecated: Tweak .* expired on"; then
        echo "error: the generated accessor builds with warnings" >&2
        exit 1
    fi
    grep -q "'legacyBanner' is deprecated: Tweak checkout.legacy_banner expired on 2024-01-31" "$log"
    rm -f "$log"

    rm -rf "$committed"
    mkdir -p "$committed/Sources"
    cp -R "$example/Sources/TweakAccessorExample" "$committed/Sources/"
    cat > "$committed/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "CommittedAccessorExample",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "TweakKit", path: "$root")],
    targets: [
        .executableTarget(
            name: "TweakAccessorExample",
            dependencies: [.product(name: "TweakKit", package: "TweakKit")],
            resources: [.copy("Tweaks.json"), .copy("config.json")]
        ),
    ]
)
MANIFEST
    fresh_plan
    swift package --package-path "$committed" "${scratch[@]}" --allow-writing-to-package-directory generate-tweak-accessors
    test -f "$committed/Sources/TweakAccessorExample/Generated/AppTweaks.swift"
    test -f "$committed/Sources/TweakAccessorExample/Generated/AppTweaks+Constants.swift"
    swift build --package-path "$committed" "${scratch[@]}"
}

check_accessor_examples() {
    # The two accessor packages build executables of the same name into the one scratch path:
    # each is built again (its own target only) just before it runs.
    fresh_plan
    swift run --package-path "$example" "${scratch[@]}" TweakAccessorExample
    if [ -d "$committed" ]; then
        fresh_plan
        swift run --package-path "$committed" "${scratch[@]}" TweakAccessorExample > /dev/null
    fi
    echo "accessor examples passed"
}

if [ "$mode" != check ]; then
    build_accessor_examples
    fresh_plan
    Examples/CLIApp/check.sh --build-only
    fresh_plan
    Examples/ServerApp/check.sh --build-only
fi
if [ "$mode" != build ]; then
    check_accessor_examples
    fresh_plan
    Examples/CLIApp/check.sh --skip-build     # a swift-argument-parser tool on typed keys the build plugin generates
    fresh_plan
    Examples/ServerApp/check.sh --skip-build  # a Hummingbird service over a shared store; its tests drive it over HTTP
    rm -rf "$committed"
fi
echo "examples: $mode passed"
