#!/usr/bin/env bash
# Builds TweakKit's libFuzzer harnesses (the Fuzz/ package) and runs each for a bounded time.
# Fails on the first crash, trap, timeout or out-of-memory; the input is left in
# Fuzz/.build/artifacts/ (reproduce with `Fuzz/.build/<configuration>/<Harness> <file>`).
#
#   .ci/fuzz.sh                                       # every harness for 30 s, one a core (2 min on 2 cores, plus the build)
#   FUZZ_SECONDS=3600 .ci/fuzz.sh                      # each harness for an hour
#   FUZZ_SECONDS=14400 FUZZ_HARNESSES=FuzzFlagd .ci/fuzz.sh   # one harness for four hours
#   FUZZ_JOBS=1 .ci/fuzz.sh                            # one harness at a time
#   FUZZ_CONFIGURATION=debug .ci/fuzz.sh               # a debug build (faster to build; CI)
#   .ci/fuzz.sh build                                 # only the harnesses' build
#
# Corpora grow in Fuzz/.build/corpus/<Harness> (kept between runs), seeded from the repository's
# fixtures, the crash inputs of Tests/CrashInputs and Fuzz/Seeds.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-30}"
jobs="${FUZZ_JOBS:-$(nproc)}"
read -r -a harnesses <<< "${FUZZ_HARNESSES:-FuzzTweaksFile FuzzFlagd FuzzOptimizely FuzzFirebase FuzzUnleash FuzzGrowthBook FuzzRemotePayload FuzzFlagsmith FuzzLaunchDarkly}"
# FUZZ_CONFIGURATION=debug builds in about 60 % of release's CPU time and runs about half as many
# inputs a second (CI's choice: a short run's coverage is close; long runs want release).
configuration="${FUZZ_CONFIGURATION:-release}"
flags=(--package-path Fuzz -c "$configuration" -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)

swift build "${flags[@]}"
# `.ci/fuzz.sh build`: only the build (.ci/run starts it in the background, beside steps that use one core).
if [ "${1:-}" = build ]; then exit 0; fi
bin=$(swift build "${flags[@]}" --show-bin-path)

work=Fuzz/.build
context='{"targetingKey": "user-1", "appVersion": "5.2.0", "email": "staff@example.com", "country": "NL", "n": 1e20, "list": [1, "a"]}'

# seed <harness> <file or directory>...: copies JSON seeds into the harness's corpus, each also with
# an evaluation context after a NUL byte.
seed() {
    local corpus="$work/corpus/$1"
    shift
    mkdir -p "$corpus"
    find "$@" -maxdepth 1 -type f \( -name '*.json' -o -name '*.seed' \) 2>/dev/null | while read -r file; do
        local name
        name=$(basename "$file")
        cp "$file" "$corpus/seed-$name"
        { cat "$file"; printf '\0%s' "$context"; } > "$corpus/seed-context-$name"
    done
}

# spec_seeds <harness> <unleash|growthbook>: seeds from the published suites in ../shared/specs
# (read there, never copied into the repository): each payload, with a context of its own cases
# after a NUL byte. Without the suites, the harness starts from its own seeds alone.
spec_seeds() {
    python3 Fuzz/spec_seeds.py "$2" ../shared/specs "$work/corpus/$1" || echo "warning: no seeds from the $2 suite"
}

for harness in "${harnesses[@]}"; do
    case "$harness" in
        FuzzTweaksFile) seed "$harness" Tests/TweakKitTests/Fixtures Examples Fuzz/Seeds/tweaks ;;
        FuzzFlagd) seed "$harness" Examples Tests/CrashInputs Fuzz/Seeds/flagd ;;
        FuzzOptimizely) seed "$harness" Tests/TweakKitOptimizelyTests/Datafiles ;;
        FuzzFirebase) seed "$harness" Tests/TweakKitFirebaseTests/Templates ;;
        FuzzUnleash) seed "$harness" Fuzz/Seeds/unleash; spec_seeds "$harness" unleash ;;
        FuzzGrowthBook) seed "$harness" Fuzz/Seeds/growthbook; spec_seeds "$harness" growthbook ;;
        FuzzFlagsmith) seed "$harness" Fuzz/Seeds/flagsmith ;;
        FuzzLaunchDarkly) seed "$harness" Fuzz/Seeds/launchdarkly ;;
        FuzzRemotePayload) seed "$harness" Examples Tests/CrashInputs Fuzz/Seeds/flagd Fuzz/Seeds/tweaks ;;
        *) echo "error: unknown harness $harness" >&2; exit 2 ;;
    esac
done

mkdir -p "$work/artifacts"

# run <harness>: one harness for its time; its log is $work/<harness>.log.
run() {
    local harness=$1
    # -timeout: one input may take at most 10 s (a hang is a failure); -rss_limit_mb: 2 GB.
    # Fuzz/lsan.supp: leaks inside the toolchain's Foundation, which TweakKit cannot free.
    LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0 ${LSAN_OPTIONS:-}" \
    "$bin/$harness" "$work/corpus/$harness" \
        -dict=Fuzz/json.dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$work/artifacts/$harness-" > "$work/$harness.log" 2>&1
}

# The harnesses run $jobs at a time (each is one thread); every one runs to its end, and then each
# failure is reported.
declare -A pids=()
for harness in "${harnesses[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    echo "== $harness for ${seconds}s"
    run "$harness" &
    pids[$harness]=$!
done
failed=0
for harness in "${harnesses[@]}"; do
    status=0
    wait "${pids[$harness]}" || status=$?
    echo "== $harness"
    grep -E 'stat::number_of_executed_units|stat::peak_rss_mb|^#[0-9]+ +DONE' "$work/$harness.log" || true
    if [ "$status" -ne 0 ]; then
        echo "error: $harness failed (exit $status); see $work/$harness.log and $work/artifacts/" >&2
        tail -40 "$work/$harness.log" >&2
        failed=1
    fi
done
[ "$failed" -eq 0 ] || exit 1
echo "fuzzing passed"
