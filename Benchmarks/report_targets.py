#!/usr/bin/env python3
"""Summarises a TweakKitBenchmarks run exported with `--format histogramSamples`.

Usage: report_targets.py RESULTS_DIR [BASELINE_RESULTS_DIR]

Prints each benchmark's median time per lookup (or per load), its ratio to the matching
baseline of the same run, its median heap allocations per lookup, and then one line per
performance target: `target NAME: MEASURED (goal GOAL) PASS|MISS`. The ratio targets use the
Paired.* benchmarks, which time a target's baseline and subject within each iteration (the
median of those per-iteration ratios); the ratio of the separately measured benchmarks follows
each such target in parentheses.
With BASELINE_RESULTS_DIR (the results of an earlier run, e.g. of the main branch), also prints
how this run's lookups without hooks compare with the baseline's, each taken relative to its own
run's dictionary lookups so that a busier or quieter machine cancels out.
Exits 1 when a result needed by a target is missing.
"""

import re
import statistics
import sys
from pathlib import Path

# Work per measured iteration; must match Benchmarks/TweakKitBenchmarks/*.swift.
LOOKUPS_PER_BATCH = 1_000  # Lookup.*: scalingFactor .kilo
LOOKUPS_PER_THREAD = 100_000  # Threads.*: LookupFixture.sequenceLength per thread
# Threads.* give each thread a fixed share (a full pass) and time the slower; Paired.Threads.*
# let the threads share the work in chunks (PairedThreadsBenchmarks.swift). The first is printed beside the second.
FIXED_SHARES = "a fixed share per thread, separate benchmarks"
SIZES = (1_000, 100_000)
STORE_SIZE = 10_000  # Store.* and Paired.Store.*: registerStoreBenchmarks(size:), registerPairedStoreBenchmark(size:)

FILE_NAME = re.compile(r"^[^.]+\.TweakKitBenchmarks\.(?P<name>.+)\.(?P<metric>wallClock|mallocCountTotal|memoryLeakedBytes|pairedRatio)\.histogram\.samples\.tsv$")
# Paired.*: the subject's time over the baseline's in each iteration, recorded ×10,000.
PAIRED_SCALE = 10_000
# The unit in the header line, e.g. "Time (wall clock) (ns)" or "Malloc (total) (K)".
UNIT_FACTORS = {"ns": 1, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9, "K": 1e3, "M": 1e6, "G": 1e9, "": 1}


def load(results_dir):
    """{benchmark name: {metric: median per measured iteration, in ns or counts}}"""
    medians = {}
    for path in sorted(Path(results_dir).glob("*.histogram.samples.tsv")):
        match = FILE_NAME.match(path.name)
        if not match:
            continue
        header, *lines = path.read_text().splitlines()
        unit = re.search(r"\(([^()]*)\)\s*$", header.replace("(wall clock)", "").replace("(total)", ""))
        factor = UNIT_FACTORS.get(unit.group(1) if unit else "", 1)
        samples = [float(line) * factor for line in lines if line.strip()]
        if match["metric"] == "pairedRatio":
            samples = [sample / PAIRED_SCALE for sample in samples]
        if samples:
            medians.setdefault(match["name"], {})[match["metric"]] = statistics.median(samples)
            if match["metric"] == "wallClock":
                # The fastest measured iteration: what the code costs when nothing else on the
                # (virtual) machine interferes. Information only; the targets use the median.
                medians[match["name"]]["wallClockFastest"] = min(samples)
    return medians


def ops_per_iteration(name):
    kind, *rest = name.split(".")
    if kind in ("Lookup", "Store", "Flagd", "Optimizely", "Unleash", "GrowthBook", "Firebase", "Flagsmith", "LaunchDarkly"):
        return LOOKUPS_PER_BATCH
    if kind == "Threads":
        return LOOKUPS_PER_THREAD * int(rest[-1])
    return 1  # ColdLoad: one load


def baseline_of(name):
    """(baseline benchmark, how the ratio is taken) for a benchmark, or None for a baseline."""
    kind, *rest = name.split(".")
    if kind == "Lookup" and rest[1] != "Dictionary":
        return f"Lookup.{rest[0]}.Dictionary", "time"
    if kind == "Threads" and rest[-1] != "1":
        return f"Threads.{rest[0]}.1", "throughput"
    if kind == "ColdLoad" and rest[0] != "JSONSerialization":
        return f"ColdLoad.JSONSerialization.{rest[-1]}", "time"
    if kind == "Store" and rest[1] != "Idle":
        return f"Store.{rest[0]}.Idle", "time"
    return None


def is_baseline(name):
    """Whether other benchmarks are measured against this one."""
    kind, *rest = name.split(".")
    return ((kind == "Lookup" and rest[1] == "Dictionary") or (kind == "Threads" and rest[-1] == "1")
            or (kind == "ColdLoad" and rest[0] == "JSONSerialization") or (kind == "Store" and rest[1] == "Idle"))


def format_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("μs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.2f} {unit}"
    return f"{ns:.1f} ns"


class Report:
    def __init__(self, medians, baseline=None):
        self.medians = medians
        self.baseline = baseline
        self.missing = False

    def time_per_op(self, name):
        value = self.medians.get(name, {}).get("wallClock")
        return None if value is None else value / ops_per_iteration(name)

    def fastest_per_op(self, name):
        value = self.medians.get(name, {}).get("wallClockFastest")
        return None if value is None else value / ops_per_iteration(name)

    def mallocs_per_op(self, name):
        value = self.medians.get(name, {}).get("mallocCountTotal")
        return None if value is None else value / ops_per_iteration(name)

    def ratio(self, name):
        """Time ratio to the baseline, or for threads the throughput ratio; None if not known."""
        baseline = baseline_of(name)
        if baseline is None:
            return 1.0 if is_baseline(name) else None
        base, how = baseline
        mine, theirs = self.time_per_op(name), self.time_per_op(base)
        if mine is None or theirs is None:
            return None
        return theirs / mine if how == "throughput" else mine / theirs

    def paired(self, name):
        """The median of a Paired.* benchmark's per-iteration ratios (subject / baseline); for
        Paired.Threads.*, two threads' lookups per second over one thread's (as recorded)."""
        return self.medians.get(name, {}).get("pairedRatio")

    def separately(self, ratio, how="separate benchmarks"):
        """The same ratio from the separately measured benchmarks, as a note after a target."""
        return "" if ratio is None else f" ({how}: {ratio:.2f}x)"

    def print_table(self):
        rows = [("benchmark", "median/op", "fastest/op", "ratio", "ratio of", "mallocs/op")]
        for name in sorted(self.medians, key=sort_key):
            if name.startswith("Paired."):
                continue  # printed below, as ratios
            time, ratio, mallocs = self.time_per_op(name), self.ratio(name), self.mallocs_per_op(name)
            fastest = self.fastest_per_op(name)
            baseline = baseline_of(name)
            rows.append((
                name,
                "-" if time is None else format_time(time),
                "-" if fastest is None else format_time(fastest),
                "-" if ratio is None else f"{ratio:.2f}x",
                f"{baseline[1]} vs {baseline[0]}" if baseline else "(baseline)" if is_baseline(name) else "-",
                "-" if mallocs is None else f"{mallocs:g}",
            ))
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for n, row in enumerate(rows):
            print("  ".join(cell.ljust(width) if i in (0, 4) else cell.rjust(width)
                            for i, (cell, width) in enumerate(zip(row, widths))).rstrip())
            if n == 0:
                print("  ".join("-" * width for width in widths))
        print("(fastest/op: the fastest measured iteration, for how much of the median is the machine; targets use the median)")
        paired = [(name, self.paired(name)) for name in sorted(self.medians) if name.startswith("Paired.")]
        if paired:
            print("paired: each iteration times the baseline and the subject back to back; the median of their ratios"
                  " (threads: throughput, two threads over one):")
            for name, value in paired:
                print(f"  {name}: {value:.3f}x")
        print("(Lookup.*, Threads.*: per lookup; Threads.*.2: wall time / lookups of both threads; ColdLoad.*: per load;"
              " Store.*: per lookup; Flagd.*: per evaluation; Optimizely.*, Unleash.*: per decision; GrowthBook.*: per feature evaluation; Firebase.*: per parameter evaluation)")
        flagd = self.time_per_op("Flagd.Evaluate")
        if flagd:
            print(f"flagd evaluation (3 conditions + fractional split), one core: {1e9 / flagd:,.0f} evaluations/s")
        for name, what in (("Optimizely.Decide", "Optimizely decision (1 experiment + 3-rule rollout, 6 variables, reasons)"),
                           ("Optimizely.ManagerFeatureEnabled", "Optimizely isFeatureEnabled through TweakManager"),
                           ("Unleash.IsEnabled", "Unleash isEnabled (3 strategies, 3 constraints + a segment)"),
                           ("Unleash.Variant", "Unleash getVariant (the same toggle, 3 weighted variants)"),
                           ("Unleash.ManagerFeatureEnabled", "Unleash isFeatureEnabled through TweakManager"),
                           ("Flagsmith.Flag", "Flagsmith flag (3 segment overrides, nested rules, IN, percentage split, 3-way split)"),
                           ("Flagsmith.ManagerFeatureEnabled", "Flagsmith isFeatureEnabled through TweakManager"),
                           ("LaunchDarkly.Evaluate", "LaunchDarkly variationDetail (targets, 3-clause rule, segment rule, seeded rollout)"),
                           ("LaunchDarkly.ManagerFeatureEnabled", "LaunchDarkly isFeatureEnabled through TweakManager")):
            decision = self.time_per_op(name)
            if decision:
                relative = f" (time per decision {decision / flagd:.2f}x a flagd evaluation's)" if flagd else ""
                print(f"{what}, one core: {1e9 / decision:,.0f} decisions/s{relative}")
        firebase = self.time_per_op("Firebase.Evaluate")
        if firebase:
            relative = f" (time per evaluation {firebase / flagd:.2f}x a flagd evaluation's)" if flagd else ""
            print(f"Firebase parameter evaluation (custom signal + percent condition), one core: {1e9 / firebase:,.0f} evaluations/s{relative}")
        for name, what in (("GrowthBook.Evaluate", "GrowthBook feature evaluation (force + rollout + 3-way experiment)"),
                           ("GrowthBook.ManagerFeatureEnabled", "GrowthBook isFeatureEnabled through TweakManager")):
            evaluation = self.time_per_op(name)
            if evaluation:
                relative = f" (time per evaluation {evaluation / flagd:.2f}x a flagd evaluation's)" if flagd else ""
                print(f"{what}, one core: {1e9 / evaluation:,.0f} evaluations/s{relative}")

    def target(self, name, measured, goal, passed, unit="x", needs=(), note=""):
        if measured is None and needs and not any(benchmark in self.medians for benchmark in needs):
            print(f"target {name}: not run (goal {goal}){note}")  # filtered out with --filter
            return
        if measured is None:
            self.missing = True
            print(f"target {name}: n/a (goal {goal}) MISS")
            return
        # Three decimals, so that a ratio just below a goal does not print as equal to it.
        shown = (f"{measured:.3f}{unit}" if unit == "x" else f"{measured:,.0f}{unit}" if unit == "/s"
                 else f"{measured:g}{unit}")
        print(f"target {name}: {shown} (goal {goal}) {'PASS' if passed(measured) else 'MISS'}{note}")

    def print_engine_targets(self):
        """Each engine through the manager, on one core. (Each engine's time against a flagd
        evaluation is printed with its rate above, as information: the per-second goals below are
        the targets.)"""
        for engine, label, goal in (("Optimizely", "Optimizely", 100_000), ("Unleash", "Unleash", 100_000),
                                    ("GrowthBook", "GrowthBook", 100_000)):
            time = self.time_per_op(f"{engine}.ManagerFeatureEnabled")
            rate = None if not time else 1e9 / time
            self.target(f"{label} isFeatureEnabled through TweakManager, decisions/s on one core", rate,
                        f">= {goal:,}", lambda r, goal=goal: r >= goal, unit="/s",
                        needs=(f"{engine}.ManagerFeatureEnabled",))

    def bytes_per_tweak(self, name):
        """Heap bytes still allocated after one load of the 100,000-tweak file, per tweak."""
        value = self.medians.get(name, {}).get("memoryLeakedBytes")
        return None if value is None else value / 100_000

    def rate(self, name):
        """Operations per second on one core, or None when not measured."""
        time = self.time_per_op(name)
        return None if not time else 1e9 / time

    def print_targets(self):
        # The ratio targets are the paired benchmarks' (PairedBenchmarks.swift): baseline and
        # subject timed in the same iteration, so that the machine's slow phases cancel out.
        for size in (SIZES[1], SIZES[0]):
            for kind, label, goal in (("StringKey", "tweakWith(feature:variable:)", 1.5), ("FeatureEnabled", "isFeatureEnabled", 1.2)):
                self.target(f"{label} through 4 providers vs [Key: SmallEnum] dictionary, {size} tweaks",
                            self.paired(f"Paired.{size}.{kind}"), f"<= {goal:.2f}x", lambda r, goal=goal: r <= goal,
                            needs=(f"Paired.{size}.{kind}",), note=self.separately(self.ratio(f"Lookup.{size}.{kind}")))
        self.target(f"typed-key lookup (Bool/Int/Double) vs [Key: SmallEnum] dictionary, {SIZES[1]} tweaks",
                    self.paired(f"Paired.{SIZES[1]}.TypedMixed"), "<= 0.35x", lambda r: r <= 0.35,
                    needs=(f"Paired.{SIZES[1]}.TypedMixed",), note=self.separately(self.ratio(f"Lookup.{SIZES[1]}.TypedMixed")))
        # The interposer must have counted the loads' allocations, or a 0 here means nothing.
        metric_works = (self.mallocs_per_op("ColdLoad.JSONSerialization.10000") or 0) > 0
        for kind, label in (("TypedBool", "typed Bool"), ("TypedInt", "typed Int"), ("TypedDouble", "typed Double"),
                            ("StringKey", "tweakWith"), ("FeatureEnabled", "isFeatureEnabled")):
            counts = [self.mallocs_per_op(f"Lookup.{size}.{kind}") for size in SIZES]
            worst = None if None in counts or not metric_works else max(counts)
            self.target(f"heap allocations per {label} lookup (median, worst of {SIZES[0]}/{SIZES[1]} tweaks)",
                        worst, "0", lambda n: n == 0, unit="",
                        needs=tuple(f"Lookup.{size}.{kind}" for size in SIZES))
        flagd_mallocs = self.mallocs_per_op("Flagd.Evaluate")
        self.target("heap allocations per flagd evaluation with a Bool result (median)",
                    None if flagd_mallocs is None or not metric_works else flagd_mallocs, "0", lambda n: n == 0,
                    unit="", needs=("Flagd.Evaluate",))
        for kind, label in (("TypedKey", "typed key"), ("StringKey", "string key")):
            self.target(f"2 reader threads vs 1, throughput, {label}",
                        self.paired(f"Paired.Threads.{kind}"), ">= 1.80x", lambda r: r >= 1.8,
                        needs=(f"Paired.Threads.{kind}",), note=self.separately(self.ratio(f"Threads.{kind}.2"), FIXED_SHARES))
        machine = self.paired("Paired.Threads.Dictionary")
        if machine is not None:
            # Information, not a target: how far the same pass over a plain dictionary scales.
            print(f"2 reader threads vs 1, throughput, [Key: SmallEnum] dictionary (the machine's own scaling): {machine:.2f}x"
                  f"{self.separately(self.ratio('Threads.Dictionary.2'), FIXED_SHARES)}")
        # Paired through two stores, both halves while the writes run (StoreBenchmarks.swift): what
        # following the writes costs a lookup. The separate benchmarks also carry the CPU the
        # writer and the follower take from a 2-core machine.
        self.target(f"string-key lookup from a shared store while another handle commits changes vs from an idle store, paired during the writes, {STORE_SIZE} tweaks",
                    self.paired(f"Paired.Store.{STORE_SIZE}.DuringWrites"), "<= 1.25x", lambda r: r <= 1.25,
                    needs=(f"Paired.Store.{STORE_SIZE}.DuringWrites",),
                    note=self.separately(self.ratio(f"Store.{STORE_SIZE}.DuringWrites")))
        hooked = f"Lookup.{SIZES[1]}.TypedMixedMetricsHook"
        plain = self.time_per_op(f"Lookup.{SIZES[1]}.TypedMixed")
        with_hook = self.time_per_op(hooked)
        # Each paired against the dictionary in its own process; their quotient compares the two.
        paired_hooked, paired_plain = self.paired(f"Paired.{SIZES[1]}.TypedMixedMetricsHook"), self.paired(f"Paired.{SIZES[1]}.TypedMixed")
        self.target(f"typed-key lookup with the metrics hook on the no-op metrics backend vs without hooks, {SIZES[1]} tweaks",
                    None if paired_hooked is None or not paired_plain else paired_hooked / paired_plain, "<= 1.10x", lambda r: r <= 1.1,
                    needs=(f"Paired.{SIZES[1]}.TypedMixedMetricsHook", f"Paired.{SIZES[1]}.TypedMixed"),
                    note=self.separately(None if plain is None or with_hook is None else with_hook / plain))
        active = f"Lookup.{SIZES[1]}.TypedMixedActiveHook"
        self.target(f"typed-key lookup with a hook that runs (every stage empty), {SIZES[1]} tweaks, per lookup",
                    self.time_per_op(active), "<= 2000 ns", lambda t: t <= 2000, unit=" ns", needs=(active,))
        if self.baseline is not None:
            before = Report(self.baseline)
            for kind, label in (("TypedMixed", "typed-key"), ("StringKey", "string-key"), ("FeatureEnabled", "isFeatureEnabled")):
                # Paired when both runs have the paired benchmark (steadier), else measured apart.
                name, paired = f"Lookup.{SIZES[1]}.{kind}", f"Paired.{SIZES[1]}.{kind}"
                mine, theirs = self.ratio(name), before.ratio(name)
                if self.paired(paired) is not None and before.paired(paired) is not None:
                    name, mine, theirs = paired, self.paired(paired), before.paired(paired)
                self.target(f"{label} lookup with no hooks vs the baseline run (each vs its dictionary), {SIZES[1]} tweaks",
                            None if mine is None or theirs is None else mine / theirs, "0.90x-1.10x",
                            lambda r: 0.9 <= r <= 1.1, needs=(name,))
        # The JustTweak module against JustTweak 10.1.1's lookup algorithm (JustTweakBenchmarks.swift),
        # cache on, 1,000 tweaks: the README's stack (NSMutableDictionary overrides above the file)
        # and UserDefaults above the file.
        for stack, stack_label in (("README", "NSMutableDictionary above the file"), ("UserDefaults", "UserDefaultsTweakProvider above the file")):
            for kind, label in (("TweakWith", "tweakWith(feature:variable:)"), ("FeatureEnabled", "isFeatureEnabled")):
                name = f"Paired.JustTweak.{stack}.{kind}"
                self.target(f"JustTweak module {label} vs JustTweak 10.1.1's algorithm, {stack_label}, 1000 tweaks, cache on",
                            self.paired(name), "<= 0.20x", lambda r: r <= 0.2, needs=(name,))
        self.target("cold load of 10000 tweaks, LocalTweakProvider(data:) vs JSONSerialization.jsonObject",
                    self.paired("Paired.ColdLoad.10000"), "<= 0.50x", lambda r: r <= 0.5,
                    needs=("Paired.ColdLoad.10000",), note=self.separately(self.ratio("ColdLoad.LocalTweakProvider-data.10000")))
        self.print_engine_targets()

        tweak_bytes = self.bytes_per_tweak("Memory.TweakManager.100000")
        json_bytes = self.bytes_per_tweak("Memory.JSONSerialization.100000")
        if tweak_bytes is not None and json_bytes:
            print(f"memory after loading 100000 tweaks: TweakManager {tweak_bytes:,.0f} bytes/tweak,"
                  f" JSONSerialization's object graph {json_bytes:,.0f} bytes/tweak")
        self.target("bytes per tweak after loading 100000 tweaks (TweakManager over a LocalTweakProvider of the file) vs JSONSerialization",
                    None if tweak_bytes is None or not json_bytes else tweak_bytes / json_bytes, "<= 1.00x",
                    lambda r: r <= 1.0, needs=("Memory.TweakManager.100000", "Memory.JSONSerialization.100000"))
        for name, label in (("Flagd.Evaluate", "flagd evaluations/s, one core (3 conditions + fractional split)"),
                            ("Optimizely.Decide", "Optimizely decisions/s, one core (1 experiment + 3-rule rollout)"),
                            ("Unleash.IsEnabled", "Unleash isEnabled/s, one core"),
                            ("Flagsmith.Flag", "Flagsmith flags/s, one core"),
                            ("GrowthBook.Evaluate", "GrowthBook feature evaluations/s, one core"),
                            ("LaunchDarkly.Evaluate", "LaunchDarkly decisions/s, one core")):
            goal = 2e6 if name.startswith("Flagd") else 1e6
            rate = self.rate(name)
            self.target(label, None if rate is None else round(rate), f">= {goal:,.0f}/s", lambda r, g=goal: r >= g,
                        unit="/s", needs=(name,))
        rate = self.rate("Firebase.Evaluate")
        self.target("Firebase parameter evaluations/s, one core (percent + custom-signal condition)",
                    None if rate is None else round(rate), ">= 1,000,000/s", lambda r: r >= 1e6,
                    unit="/s", needs=("Firebase.Evaluate",))


def sort_key(name):
    parts = name.split(".")
    group = {"Lookup": 0, "Threads": 1, "ColdLoad": 2}.get(parts[0], 3)
    if group != 0:
        return (group, 0, 0, name)
    lookup_order = ["Dictionary", "StringKey", "TypedMixed", "TypedBool", "TypedInt", "TypedDouble", "FeatureEnabled"]
    kind = lookup_order.index(parts[2]) if parts[2] in lookup_order else len(lookup_order)
    return (group, int(parts[1]), kind, name)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    medians = load(sys.argv[1])
    if not medians:
        sys.exit(f"no benchmark results in {sys.argv[1]}")
    baseline = load(sys.argv[2]) if len(sys.argv) == 3 else None
    if len(sys.argv) == 3 and not baseline:
        sys.exit(f"no benchmark results in {sys.argv[2]}")
    report = Report(medians, baseline)
    report.print_table()
    print()
    report.print_targets()
    sys.exit(1 if report.missing else 0)


if __name__ == "__main__":
    main()
