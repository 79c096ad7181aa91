#!/usr/bin/env bash
# Peak memory and time of loading large tweaks files with the command-line tool (issue #34).
#
# Builds `tweak` in release (unless TWEAK_BINARY names one), writes tweaks files of 1, 4 and 16 MB
# with Benchmarks/Scripts/make_tweaks_file.py into a temporary directory, and runs
# `/usr/bin/time -v tweak list --defaults FILE` and `tweak get TWEAK --defaults FILE` on each.
# Prints, per file and command: wall-clock seconds, seconds per MB and that relative to the 1 MB
# file (loading is linear when it stays near 1.0x), peak RSS, peak RSS / file size and peak RSS per
# tweak. The target is a peak RSS of at most 20x the file on the 16 MB file.
#
#   Benchmarks/tweaks-file-memory.sh                 # dense (about 20 bytes a tweak) and full (about 220)
#   STYLES=dense SIZES="1 4 16" Benchmarks/tweaks-file-memory.sh
#   TWEAK_BINARY=.build/release/tweak Benchmarks/tweaks-file-memory.sh   # no build
#
# Exits non-zero if a build or a command fails, or a 16 MB file peaks above 20x its size.
set -euo pipefail

benchmarks="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$benchmarks")"
sizes="${SIZES:-1 4 16}"
styles="${STYLES:-dense full}"
limit_ratio=20

if [[ -z "${TWEAK_BINARY:-}" ]]; then
    echo "building tweak (release)..." >&2
    swift build -c release --package-path "$root" --product tweak >&2
    TWEAK_BINARY="$root/.build/release/tweak"
fi
[[ -x "$TWEAK_BINARY" ]] || { echo "no tweak binary at $TWEAK_BINARY" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Runs the command after `--` under /usr/bin/time -v; prints "seconds peak_kbytes".
measure() {
    local log="$work/time.log"
    if ! /usr/bin/time -v "$@" >/dev/null 2>"$log"; then
        echo "failed: $*" >&2
        tail -n 30 "$log" >&2
        return 1
    fi
    awk '
        /Elapsed \(wall clock\)/ { n = split($NF, part, ":"); seconds = 0; for (i = 1; i <= n; i++) seconds = seconds * 60 + part[i] }
        /Maximum resident set size/ { kbytes = $NF }
        END { printf("%.2f %d\n", seconds, kbytes) }' "$log"
}

echo "machine: $(nproc) cores, $(uptime)"
echo "binary: $TWEAK_BINARY"
# What the process costs with a one-tweak file: the floor under every figure below.
echo '{"f": {"v": {"Value": 1}}}' >"$work/tiny.json"
read -r _ floor_kb < <(measure "$TWEAK_BINARY" list --defaults "$work/tiny.json")
printf 'peak RSS of `tweak list` with a one-tweak file: %.1f MB\n\n' "$(echo "$floor_kb / 1024" | bc -l)"

printf '%-6s %6s %9s %-5s %8s %8s %8s %9s %9s %11s\n' \
    style MB tweaks cmd seconds "s/MB" "vs 1MB" "peak MB" "RSS/file" "bytes/tweak"
status=0
for style in $styles; do
    declare -A base_rate=()
    for size in $sizes; do
        file="$work/$style-$size.json"
        sample="$(python3 "$benchmarks/Scripts/make_tweaks_file.py" --mb "$size" --style "$style" --out "$file" --sample 1 2>"$work/gen.log")"
        tweaks="$(awk '{ print $1; exit }' "$work/gen.log")"
        bytes="$(stat -c %s "$file")"
        id="$(cut -f1 <<<"$sample")"
        for cmd in list get; do
            if [[ $cmd == list ]]; then
                read -r seconds kb < <(measure "$TWEAK_BINARY" list --defaults "$file") || { status=1; continue; }
            else
                read -r seconds kb < <(measure "$TWEAK_BINARY" get "$id" --defaults "$file") || { status=1; continue; }
            fi
            rate="$(echo "$seconds / ($bytes / 1000000)" | bc -l)"
            [[ -n "${base_rate[$cmd]:-}" ]] || base_rate[$cmd]="$rate"
            relative="$(echo "if (${base_rate[$cmd]} > 0) $rate / ${base_rate[$cmd]} else 0" | bc -l)"
            ratio="$(echo "$kb * 1024 / $bytes" | bc -l)"
            per_tweak="$(echo "$kb * 1024 / $tweaks" | bc -l)"
            printf '%-6s %6.1f %9d %-5s %8.2f %8.3f %7.2fx %9.1f %8.1fx %11.0f\n' \
                "$style" "$(echo "$bytes / 1000000" | bc -l)" "$tweaks" "$cmd" "$seconds" "$rate" "$relative" \
                "$(echo "$kb / 1024" | bc -l)" "$ratio" "$per_tweak"
            if [[ $size == 16 ]] && (($(echo "$ratio > $limit_ratio" | bc -l))); then
                echo "  above the target: peak RSS more than ${limit_ratio}x the file" >&2
                status=1
            fi
        done
    done
    unset base_rate
done
exit "$status"
