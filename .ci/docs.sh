#!/usr/bin/env bash
# The DocC catalogs, built with swift-docc-plugin. Any warning fails: a broken ``Symbol`` link, a
# Topics entry that resolves to nothing, a malformed article, or a compiler warning in the target.
#   .ci/docs.sh                                  # the TweakKit and TweakKitFlagd catalogs
#   DOCS_TARGETS=TweakKit .ci/docs.sh             # one of them
set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT
for target in ${DOCS_TARGETS:-TweakKit TweakKitFlagd}; do
    swift package generate-documentation --target "$target" --warnings-as-errors 2>&1 | tee "$log"
    # SwiftPM's notes about files in dependencies' checkouts are not the catalog's warnings.
    if grep -E "(^|: )warning:" "$log" | grep -v "which are unhandled; explicitly declare them"; then
        echo "error: the documentation of $target builds with warnings" >&2
        exit 1
    fi
    test -d ".build/plugins/Swift-DocC/outputs/$target.doccarchive"
done
echo "docs built without warnings"
