import Benchmark
import Foundation
import JustTweak

// Paired.JustTweak.<stack>.<lookup>: 1,000 random cached lookups through the `JustTweak` module
// against the same lookups through JustTweak 10.1.1's algorithm (JustTweakReference.swift), on the
// same stack of 1,000 tweaks, in each iteration; the report's target is the module's time over
// the reference's (at most 0.20: five times faster).

/// The tweaks file, both managers over it, and the lookups' order.
final class JustTweakFixture {
    static let count = 1_000
    let ids: [(feature: String, variable: String)]
    let features: [String]
    let order: [Int]
    let reference: JustTweakReference.Manager
    let module: JustTweak.TweakManager
    private let fileURL: URL
    private let suites: [String]

    init(stack: String) throws {
        var json: [String: [String: [String: Any]]] = [:]
        var ids: [(feature: String, variable: String)] = []
        for index in 0..<Self.count {
            let feature = "feature_\(index % 50)", variable = "variable_\(index)"
            let value: Any = index % 3 == 0 ? (index % 2 == 0) : (index % 3 == 1 ? index : "text \(index)")
            json[feature, default: [:]][variable] = ["Title": "Tweak \(index)", "Value": value, "Group": "Group \(index % 7)"]
            ids.append((feature, variable))
        }
        for feature in 0..<50 where feature % 2 == 0 {
            json["feature_\(feature)", default: [:]]["enabled"] = ["Title": "Enabled", "Value": true]
        }
        self.ids = ids
        var generator = SplitMix64(seed: 42)
        order = (0..<65_536).map { _ in generator.next(below: Self.count) }
        features = (0..<65_536).map { _ in "feature_\(generator.next(below: 60))" }
        fileURL = FileManager.default.temporaryDirectory.appendingPathComponent("justtweak-benchmark-\(getpid())-\(stack).json")
        try JSONSerialization.data(withJSONObject: json).write(to: fileURL)
        let local = JustTweak.LocalTweakProvider(jsonURL: fileURL)
        switch stack {
        case "README":
            let overrides = NSMutableDictionary(), referenceOverrides = NSMutableDictionary()
            overrides["variable_5"] = true
            referenceOverrides["variable_5"] = true
            module = JustTweak.TweakManager(tweakProviders: [overrides, local])
            reference = JustTweakReference.Manager(providers: [JustTweakReference.Ephemeral(referenceOverrides), JustTweakReference.Local(json: json)])
            suites = []
        default:
            let suites = ["justtweak-benchmark-\(getpid())-module", "justtweak-benchmark-\(getpid())-reference"]
            guard let moduleDefaults = UserDefaults(suiteName: suites[0]), let referenceDefaults = UserDefaults(suiteName: suites[1]) else {
                throw CocoaError(.fileNoSuchFile)
            }
            module = JustTweak.TweakManager(tweakProviders: [JustTweak.UserDefaultsTweakProvider(userDefaults: moduleDefaults), local])
            reference = JustTweakReference.Manager(providers: [JustTweakReference.Defaults(referenceDefaults), JustTweakReference.Local(json: json)])
            self.suites = suites
        }
        module.useCache = true
        // Warm both caches: every id and feature once.
        for id in ids {
            _ = try? module.tweakWith(feature: id.feature, variable: id.variable)
            _ = try? reference.tweakWith(feature: id.feature, variable: id.variable)
        }
        for feature in Set(features) {
            _ = module.isFeatureEnabled(feature)
            _ = reference.isFeatureEnabled(feature)
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: fileURL)
        for suite in suites { UserDefaults.standard.removePersistentDomain(forName: suite) }
    }

    func moduleTweaks(_ range: Range<Int>) {
        for index in range {
            let id = ids[order[index & 65_535]]
            blackHole(try? module.tweakWith(feature: id.feature, variable: id.variable))
        }
    }

    func referenceTweaks(_ range: Range<Int>) {
        for index in range {
            let id = ids[order[index & 65_535]]
            blackHole(try? reference.tweakWith(feature: id.feature, variable: id.variable))
        }
    }

    func moduleFeatures(_ range: Range<Int>) {
        for index in range { blackHole(module.isFeatureEnabled(features[index & 65_535])) }
    }

    func referenceFeatures(_ range: Range<Int>) {
        for index in range { blackHole(reference.isFeatureEnabled(features[index & 65_535])) }
    }
}

func registerJustTweakBenchmarks() {
    for stack in ["README", "UserDefaults"] {
        for (kind, subject, baseline) in [
            ("TweakWith", JustTweakFixture.moduleTweaks, JustTweakFixture.referenceTweaks),
            ("FeatureEnabled", JustTweakFixture.moduleFeatures, JustTweakFixture.referenceFeatures),
        ] {
            Benchmark("Paired.JustTweak.\(stack).\(kind)", configuration: pairedConfiguration()) { benchmark, fixture in
                let start = benchmark.currentIteration * 1_000
                let half = { (part: Int) in start + part * 500..<start + (part + 1) * 500 }
                recordPair(benchmark, baseline: { baseline(fixture)(half($0)) }, subject: { subject(fixture)(half($0)) })
            } setup: {
                try JustTweakFixture(stack: stack)
            }
        }
    }
}
