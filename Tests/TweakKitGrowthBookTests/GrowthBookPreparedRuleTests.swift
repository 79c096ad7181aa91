import Foundation
import Testing
import TweakKitGrowthBook

/// What a rule prepares when the payload loads (its seed's hash, its experiment's labels and
/// buckets) decides as the SDKs read the rule at evaluation: an empty seed is the key, hash
/// version 0 is 1, and a feature found under another key hashes with the key looked up.
@Suite("GrowthBook rules prepared at load")
struct GrowthBookPreparedRuleTests {
    private static let users = (0..<300).map { GrowthBookUserContext(attributes: ["id": .string("user-\($0)")]) }

    private static func payload(_ rule: String, key: String = "f") throws -> GrowthBookPayload {
        try GrowthBookPayload(data: Data(#"{"features": {"\#(key)": {"defaultValue": "none", "rules": [\#(rule)]}}}"#.utf8), source: "test")
    }

    @Test("a rollout includes the users whose hash of the SDKs' seed and version is under its coverage", arguments: [
        (#""seed": "s1", "#, "s1"), (#""seed": "", "#, nil), ("", nil),
    ], [(#""hashVersion": 2, "#, 2), (#""hashVersion": 1, "#, 1), (#""hashVersion": 0, "#, 1), ("", 1)])
    func rollout(seed: (json: String, text: String?), version: (json: String, number: Int)) throws {
        let rule = #"{"force": "on", \#(seed.json)\#(version.json)"coverage": 0.5}"#
        let payload = try Self.payload(rule)
        // The same feature found under another key: a rule without a seed of its own hashes that key.
        var renamed = GrowthBookPayload(features: [])
        renamed.features["other"] = payload.features["f"]
        for (payload, key) in [(payload, "f"), (renamed, "other")] {
            var included = 0
            for user in Self.users {
                let id = user.attributes["id"]?.string ?? ""
                let n = try #require(GrowthBookBucketing.hash(seed: seed.text ?? key, value: id, version: version.number))
                var evaluator = GrowthBookEvaluator(payload: payload, user: user)
                let source = evaluator.evaluateFeature(key).source
                #expect(source == (n < 0.5 ? .force : .defaultValue), "\(rule) looked up as \(key), \(id): n \(n)")
                if source == .force { included += 1 }
            }
            #expect((100...200).contains(included), "\(rule): \(included) of 300 included")
        }
    }

    @Test("an experiment buckets users by the SDKs' seed and version, and reports its meta's labels", arguments: [
        #""seed": "s1", "hashVersion": 2"#, #""seed": "", "hashVersion": 2"#, #""hashVersion": 2"#, #""hashVersion": 0"#,
    ])
    func experiment(hashing: String) throws {
        let rule = #"{"key": "exp", \#(hashing), "variations": ["a", "b", "c"], "weights": [0.2, 0.3, 0.5], "coverage": 0.9, "#
            + #""meta": [{"key": "first", "name": "First"}, {"key": ""}, {"key": "third", "passthrough": false}]}"#
        let payload = try Self.payload(rule)
        let seed = hashing.contains(#""s1""#) ? "s1" : "exp"
        let version = hashing.contains("2") ? 2 : 1
        let ranges = GrowthBookBucketing.bucketRanges(variations: 3, coverage: 0.9, weights: [0.2, 0.3, 0.5])
        for user in Self.users {
            let id = user.attributes["id"]?.string ?? ""
            let n = try #require(GrowthBookBucketing.hash(seed: seed, value: id, version: version))
            let variation = GrowthBookBucketing.chooseVariation(n, ranges: ranges)
            var evaluator = GrowthBookEvaluator(payload: payload, user: user)
            let result = evaluator.evaluateFeature("f")
            guard variation >= 0 else {
                #expect(result.source == .defaultValue, "\(id)")
                continue
            }
            let experimentResult = try #require(result.experimentResult, "\(id)")
            #expect(experimentResult.variationID == variation && experimentResult.bucket == n, "\(id)")
            #expect(experimentResult.key == ["first", "1", "third"][variation], "\(id)")
            #expect(experimentResult.name == (variation == 0 ? "First" : nil), "\(id)")
            #expect(experimentResult.hashAttribute == "id" && experimentResult.hashAttributeValue == .string(id))
            #expect(evaluator.exposures.count == 1 && evaluator.exposures.first?.result == experimentResult)
        }
    }

    @Test("an experiment run directly reads an empty seed as its key and hash version 0 as 1, as the SDKs do")
    func experimentRunDirectly() throws {
        for (seed, version) in [(String?.some(""), Int?.some(0)), ("", 2), (nil, 0), ("s1", 0)] {
            var experiment = try GrowthBookExperiment(json: ["key": "exp", "variations": [0, 1, 2]])
            experiment.seed = seed
            experiment.hashVersion = version
            for user in Self.users.prefix(100) {
                let id = user.attributes["id"]?.string ?? ""
                let effectiveSeed = seed.flatMap { $0.isEmpty ? nil : $0 } ?? "exp"
                let n = try #require(GrowthBookBucketing.hash(seed: effectiveSeed, value: id, version: version == 0 ? 1 : version ?? 1))
                var evaluator = GrowthBookEvaluator(payload: .empty, user: user)
                let result = evaluator.run(experiment)
                #expect(result.inExperiment && result.bucket == n, "seed \(String(describing: seed)), version \(String(describing: version)), \(id)")
            }
        }
    }

    @Test("exposures are every experiment the user was put in, in order, the first and those after it alike")
    func exposuresInOrder() throws {
        let features = (0..<3).map { index in
            #""f\#(index)": {"rules": [{"key": "exp-\#(index)", "variations": [0, 1], "meta": [{"key": "x\#(index)"}, {"key": "y\#(index)"}]}]}"#
        }
        let payload = try GrowthBookPayload(data: Data(#"{"features": {\#(features.joined(separator: ", "))}}"#.utf8), source: "test")
        var evaluator = GrowthBookEvaluator(payload: payload, user: GrowthBookUserContext(attributes: ["id": "user-1"]))
        #expect(evaluator.exposures.isEmpty)
        let results = ["f2", "f0", "f1"].map { evaluator.evaluateFeature($0) }
        #expect(evaluator.exposures.map(\.experiment.key) == ["exp-2", "exp-0", "exp-1"])
        #expect(evaluator.exposures.map(\.result) == results.compactMap(\.experimentResult))
    }
}
