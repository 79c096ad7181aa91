import Foundation
import TweakKit

// Deterministic test data for the benchmarks: a synthetic tweak set, the files and provider stack
// serving it, the dictionary baseline, and fixed pseudo-random key sequences.

/// SplitMix64: a tiny fixed-seed PRNG, so every run looks up the same keys in the same order.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// The baseline dictionary's key: a plain struct of two Strings.
struct PlainKey: Hashable, Sendable {
    let feature: String
    let variable: String
}

/// The baseline dictionary's value: the smallest enum that holds a tweak's value (not a `Tweak`,
/// whose metadata a value-only store would not keep).
enum SmallValue: Hashable, Sendable {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)

    init(_ content: TweakContent) {
        switch content {
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .double(let value): self = .double(value)
        default: self = .string("\(content)")
        }
    }
}

/// A typed key of one of the benchmarked value types, for the mixed typed-lookup benchmark.
enum MixedKey: Sendable {
    case bool(TweakKey<Bool>)
    case int(TweakKey<Int>)
    case double(TweakKey<Double>)
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

/// One folder per benchmark process (the harness runs each benchmark in its own process).
let fixtureDirectory = FileManager.default.temporaryDirectory
    .appending(path: "TweakKitBenchmarks-\(ProcessInfo.processInfo.processIdentifier)")

/// The synthetic tweak set. Tweak `i` is variable `i % 10` of feature `i / 10`; variable 0 is
/// the Bool `enabled`, the others are Bool, Int or Double by `v % 3`.
///
/// Four providers serve it, level 0 (top) to 3 (bottom): the defaults file (level 3) has every
/// tweak, and each level above overrides the quarter of tweaks whose `level(i)` it is, so
/// uniformly drawn keys are answered ~25% by each level. Values differ per level, which lets
/// the setup check that the right provider answered.
enum TweakSet {
    static let variablesPerFeature = 10
    /// Variables of each kind within a feature (variable 0 is `enabled`).
    static let boolVariables = [0, 3, 6, 9]
    static let intVariables = [1, 4, 7]
    static let doubleVariables = [2, 5, 8]

    enum Kind { case bool, int, double }

    // Each call makes a new String; feature names are over 15 UTF-8 bytes, so they are heap
    // strings. Lookup keys thus never share storage with the keys the library or the baseline
    // dictionary stored, as in an app whose keys are literals and whose tweaks come from JSON.
    static func feature(_ f: Int) -> String { "checkout_feature_\(f)" }
    static func variable(_ v: Int) -> String { v == 0 ? Tweak.enabledVariable : "variable_\(v)" }
    static func key(_ i: Int) -> PlainKey {
        PlainKey(feature: feature(i / variablesPerFeature), variable: variable(i % variablesPerFeature))
    }

    /// The provider level (0 = top) that answers tweak `i`.
    static func level(_ i: Int) -> Int { (i / variablesPerFeature + i % variablesPerFeature) % 4 }

    static func kind(_ i: Int) -> Kind {
        switch i % variablesPerFeature % 3 {
        case 0: .bool
        case 1: .int
        default: .double
        }
    }

    /// Tweak `i`'s value in the provider at `level`.
    static func value(_ i: Int, level: Int) -> TweakContent {
        switch kind(i) {
        case .bool: .bool((i + level) % 2 == 0)
        case .int: .int(i * 4 + level)
        case .double: .double(Double(i * 4 + level) + 0.5)
        }
    }

    static func tweak(_ i: Int, level: Int, source: String) -> Tweak {
        let key = key(i)
        return Tweak(
            feature: key.feature, variable: key.variable, content: value(i, level: level),
            title: "Tweak \(i)", description: "Synthetic tweak \(i)", group: "Group \(i % 20)", source: source
        )
    }

    /// The tweak of the same feature as tweak `i` whose variable has `kind`.
    static func sameFeature(_ i: Int, kind: Kind) -> Int {
        let variables = switch kind {
        case .bool: boolVariables
        case .int: intVariables
        case .double: doubleVariables
        }
        let v = i % variablesPerFeature
        return i - v + variables[v % variables.count]
    }

    // MARK: JSON files

    /// A JustTweak tweaks file: `{"feature": {"variable": {"Title": …, "Description": …, "Group": …, "Value": …}}}`.
    static func tweaksFile(_ indices: [Int], level: Int) -> Data {
        json(indices) { i in
            #"{"Title": "Tweak \#(i)", "Description": "Synthetic tweak \#(i)", "Group": "Group \#(i % 20)", "Value": \#(valueJSON(i, level: level))}"#
        }
    }

    /// A PersistentTweakProvider overrides file: `{"feature": {"variable": value}}`.
    static func overridesFile(_ indices: [Int], level: Int) -> Data {
        json(indices) { valueJSON($0, level: level) }
    }

    private static func valueJSON(_ i: Int, level: Int) -> String {
        switch value(i, level: level) {
        case .bool(let b): "\(b)"
        case .int(let n): "\(n)"
        case .double(let d): "\(d)"
        default: fatalError("the tweak set has only Bool, Int and Double values")
        }
    }

    /// Two-level JSON object text; `indices` ascend, so the variables of a feature come together.
    private static func json(_ indices: [Int], entry: (Int) -> String) -> Data {
        var text = "{"
        var currentFeature = -1
        for i in indices {
            let f = i / variablesPerFeature
            if f != currentFeature {
                text += currentFeature < 0 ? "\n" : "\n},\n"
                text += "\"\(feature(f))\": {"
                currentFeature = f
            } else {
                text += ","
            }
            text += "\n  \"\(variable(i % variablesPerFeature))\": \(entry(i))"
        }
        text += currentFeature < 0 ? "}\n" : "\n}\n}\n"
        return Data(text.utf8)
    }

    static func write(_ data: Data, named name: String) throws -> URL {
        try FileManager.default.createDirectory(at: fixtureDirectory, withIntermediateDirectories: true)
        let url = fixtureDirectory.appending(path: name)
        try data.write(to: url)
        return url
    }
}

/// Everything the lookup benchmarks need for one size; built in a benchmark's setup.
/// A class, so handing it to each measured iteration is a single retain.
final class LookupFixture: Sendable {
    /// Length of the precomputed lookup sequence; an iteration reads the next 1,000 of it.
    static let sequenceLength = 100_000

    /// Ephemeral, overrides file, remote tweaks file, defaults tweaks file (priority order).
    let manager: TweakManager
    /// The baseline: the values the stack resolves to, in a plain dictionary.
    let dictionary: [PlainKey: SmallValue]

    // The lookup sequences, all derived from one pseudo-random sequence of tweak indices.
    /// Keys for the dictionary baseline and the string-keyed lookups (the same sequence).
    let keys: [PlainKey]
    /// The same sequence as typed keys (every tweak is a Bool, an Int or a Double).
    let mixedKeys: [MixedKey]
    /// The sequence moved, within each feature, to a variable of one type.
    let boolKeys: [TweakKey<Bool>]
    let intKeys: [TweakKey<Int>]
    let doubleKeys: [TweakKey<Double>]
    /// The features of the sequence, for `isFeatureEnabled`.
    let features: [String]

    init(size: Int) throws {
        precondition(size % TweakSet.variablesPerFeature == 0)
        let all = Array(0..<size)
        let levels = (0..<4).map { level in all.filter { TweakSet.level($0) == level } }

        let ephemeral = EphemeralTweakProvider(
            name: "ephemeral", tweaks: levels[0].map { TweakSet.tweak($0, level: 0, source: "ephemeral") }
        )
        let overridesURL = try TweakSet.write(TweakSet.overridesFile(levels[1], level: 1), named: "overrides-\(size).json")
        let remoteURL = try TweakSet.write(TweakSet.tweaksFile(levels[2], level: 2), named: "remote-\(size).json")
        let defaultsURL = try TweakSet.write(TweakSet.tweaksFile(all, level: 3), named: "defaults-\(size).json")
        manager = TweakManager(tweakProviders: [
            ephemeral,
            try PersistentTweakProvider(fileURL: overridesURL, pollInterval: nil),
            try LocalTweakProvider(fileURL: remoteURL),
            try LocalTweakProvider(fileURL: defaultsURL),
        ])

        dictionary = Dictionary(uniqueKeysWithValues: all.map { i in
            (TweakSet.key(i), SmallValue(TweakSet.value(i, level: TweakSet.level(i))))
        })

        // One key per tweak, made apart from the stored ones and shared by all its lookups, as
        // an app's keys are literals or `static let`s (a TweakKey caches where its value is).
        let lookupKeys = all.map(TweakSet.key)
        func typedKeys<Value>(_ kind: TweakSet.Kind, _ key: (String, String) -> TweakKey<Value>) -> [TweakKey<Value>?] {
            all.map { i in
                TweakSet.kind(i) == kind ? key(lookupKeys[i].feature, lookupKeys[i].variable) : nil
            }
        }
        let boolKey = typedKeys(.bool) { TweakKey(feature: $0, variable: $1, default: false) }
        let intKey = typedKeys(.int) { TweakKey(feature: $0, variable: $1, default: -1) }
        let doubleKey = typedKeys(.double) { TweakKey(feature: $0, variable: $1, default: -1.0) }

        var random = SplitMix64(seed: 0x7EA4_B17_5EED)
        let sequence = (0..<Self.sequenceLength).map { _ in random.next(below: size) }
        keys = sequence.map { lookupKeys[$0] }
        features = keys.map(\.feature)
        mixedKeys = sequence.map { i in
            switch TweakSet.kind(i) {
            case .bool: .bool(boolKey[i]!)
            case .int: .int(intKey[i]!)
            case .double: .double(doubleKey[i]!)
            }
        }
        boolKeys = sequence.map { boolKey[TweakSet.sameFeature($0, kind: .bool)]! }
        intKeys = sequence.map { intKey[TweakSet.sameFeature($0, kind: .int)]! }
        doubleKeys = sequence.map { doubleKey[TweakSet.sameFeature($0, kind: .double)]! }

        try verify(sequence)
    }

    /// Checks that the stack answers as designed (which also builds the manager's caches).
    private func verify(_ sequence: [Int]) throws {
        var answeredBy = [0, 0, 0, 0]
        for (n, i) in sequence.prefix(2_000).enumerated() {
            let level = TweakSet.level(i)
            let expected = TweakSet.value(i, level: level)
            let key = keys[n]
            let tweak = try manager.tweakWith(feature: key.feature, variable: key.variable)
            guard tweak.content == expected, dictionary[key] == SmallValue(expected) else {
                throw FixtureError(description: "\(key): stack gave \(tweak.content), expected \(expected)")
            }
            let typedValue: TweakContent = switch mixedKeys[n] {
            case .bool(let k): .bool(manager.value(for: k))
            case .int(let k): .int(manager.value(for: k))
            case .double(let k): .double(manager.value(for: k))
            }
            guard typedValue == expected else {
                throw FixtureError(description: "\(key): typed lookup gave \(typedValue), expected \(expected)")
            }
            let enabledTweak = i - i % TweakSet.variablesPerFeature // variable 0 of the feature
            let enabled = TweakSet.value(enabledTweak, level: TweakSet.level(enabledTweak)) == .bool(true)
            guard manager.isFeatureEnabled(key.feature) == enabled else {
                throw FixtureError(description: "isFeatureEnabled(\(key.feature)) is wrong")
            }
            answeredBy[level] += 1
        }
        guard answeredBy.allSatisfy({ $0 > 300 }) else {
            throw FixtureError(description: "lookups per level are uneven: \(answeredBy)")
        }
    }

    /// Where in the sequence iteration `iteration` starts its `batch` lookups (batches rotate).
    static func batchStart(_ iteration: Int, batch: Int) -> Int {
        iteration % (sequenceLength / batch) * batch
    }
}

/// A 10,000-tweak JustTweak tweaks file, written once and read into memory for the cold-load benchmarks.
final class ColdLoadFixture: Sendable {
    static let tweakCount = 10_000

    let url: URL
    let data: Data

    init() throws {
        data = TweakSet.tweaksFile(Array(0..<Self.tweakCount), level: 3)
        url = try TweakSet.write(data, named: "cold-load.json")
        // The loads below are measured without error checks; make sure they work.
        let count = try LocalTweakProvider(data: data, name: "cold-load").allTweaks().count
        guard count == Self.tweakCount, (try JSONSerialization.jsonObject(with: data)) is [String: Any] else {
            throw FixtureError(description: "cold-load file: LocalTweakProvider read \(count) tweaks")
        }
    }
}
