import Foundation
import Testing
import TweakKit
import TweakKitGrowthBook

/// Payloads and users built to make an evaluation stall or crash: each is answered, or refused with
/// a clear error, quickly. Sizes are chosen so that the old behaviour (recursion without a limit,
/// work per path, unbounded backtracking, pairwise comparison, a quadratic load) would take far
/// longer than the time limit or crash the process.
@Suite("GrowthBook against hostile input", .timeLimit(.minutes(1)))
struct GrowthBookHostileInputTests {
    /// A chain `k` → `f1` → … → `f<length - 1>`: each feature's only rule forces 1 when its parent exists.
    private func chain(_ length: Int) -> String {
        let names = ["k"] + (1..<length).map { "f\($0)" }
        let features = names.indices.map { index in
            guard index + 1 < names.count else { return #""\#(names[index])": {"defaultValue": 1}"# }
            return #""\#(names[index])": {"defaultValue": 0, "rules": [{"parentConditions": [{"id": "\#(names[index + 1])", "condition": {"value": {"$exists": true}}}], "force": 1}]}"#
        }
        return #"{"features": {\#(features.joined(separator: ", "))}}"#
    }

    private func payload(_ text: String) throws -> GrowthBookPayload {
        try GrowthBookPayload(data: Data(text.utf8), source: "features.json")
    }

    private func evaluate(_ payload: GrowthBookPayload, _ key: String, attributes: GrowthBookValue = ["id": "u1"]) -> GrowthBookFeatureResult {
        var evaluator = GrowthBookEvaluator(payload: payload, user: GrowthBookUserContext(attributes: attributes))
        return evaluator.evaluateFeature(key)
    }

    @Test("a prerequisite chain of 1,700 features is refused at load, naming where it starts")
    func longChainRefused() throws {
        #expect { _ = try payload(chain(1_700)) } throws: { error in
            let text = String(describing: error)
            return text.contains("features.json: features.k.rules[0].parentConditions: prerequisites nest 1700 features deep")
                && text.contains("at most 64")
        }
    }

    @Test("a chain at the limit loads and is decided; a cycle as deep as the limit is refused")
    func chainAtLimit() throws {
        let loaded = try payload(chain(GrowthBookEvaluator.maximumPrerequisiteDepth))
        let result = evaluate(loaded, "k")
        #expect(result.value == 1)
        #expect(result.source == .force)
        // A cycle of 65 features: every evaluation from one of them walks all 65 before seeing it.
        let names = (0...64).map { "c\($0)" }
        let features = names.indices.map { index in
            #""\#(names[index])": {"defaultValue": 0, "rules": [{"parentConditions": [{"id": "\#(names[(index + 1) % names.count])", "condition": {"value": 0}}], "force": 1}]}"#
        }
        #expect { _ = try payload(#"{"features": {\#(features.joined(separator: ", "))}}"#) } throws: { error in
            String(describing: error).contains("through a cycle of 65 features")
        }
        // A short cycle still loads and is decided as GrowthBook decides it.
        let short = try payload(#"{"features": {"a": {"defaultValue": 0, "rules": [{"parentConditions": [{"id": "b", "condition": {"value": 0}}], "force": 1}]}, "b": {"defaultValue": 0, "rules": [{"parentConditions": [{"id": "a", "condition": {"value": 0}}], "force": 1}]}}}"#)
        #expect(evaluate(short, "a").source == .cyclicPrerequisite)
    }

    @Test("a payload built in code with a deeper chain is decided as too deep, without recursing further")
    func deepChainBuiltInCode() throws {
        // Each feature read alone (its parent unknown to its own payload), then all of them put
        // together in code, where no load check runs.
        let count = 5_000
        var features: [GrowthBookFeature] = []
        for index in 0..<count {
            let text = index + 1 < count
                ? #"{"features": {"f\#(index)": {"defaultValue": 1, "rules": [{"parentConditions": [{"id": "f\#(index + 1)", "condition": {"value": {"$exists": true}}}], "force": 2}]}}}"#
                : #"{"features": {"f\#(index)": {"defaultValue": 1}}}"#
            features.append(try #require(try payload(text).features["f\(index)"]))
        }
        let result = evaluate(GrowthBookPayload(features: features), "f0")
        #expect(result.source == .prerequisiteTooDeep)
        #expect(result.value == .null)
    }

    @Test("a feature named as a parent along many paths is decided once: 30 levels, each naming the next twice")
    func sharedPrerequisites() throws {
        let levels = 30
        let features = (0..<levels).map { level in
            guard level + 1 < levels else { return #""l\#(level)": {"defaultValue": true}"# }
            let parent = #"{"id": "l\#(level + 1)", "condition": {"value": true}}"#
            return #""l\#(level)": {"defaultValue": false, "rules": [{"parentConditions": [\#(parent), \#(parent)], "force": true}]}"#
        }
        let loaded = try payload(#"{"features": {\#(features.joined(separator: ", "))}}"#)
        let result = evaluate(loaded, "l0")
        #expect(result.value == true)
        #expect(result.source == .force)
    }

    @Test("a catastrophic $regex is answered within its budget", arguments: ["$regex", "$notRegex", "$regexi"])
    func catastrophicRegex(_ op: String) throws {
        let loaded = try payload(#"{"features": {"r": {"defaultValue": "off", "rules": [{"condition": {"name": {"\#(op)": "(a+)+$"}}, "force": "on"}]}}}"#)
        let hostile = GrowthBookValue.string(String(repeating: "a", count: 40) + "!")
        let start = ContinuousClock.now
        let result = evaluate(loaded, "r", attributes: ["id": "u1", "name": hostile])
        let elapsed = ContinuousClock.now - start
        // Over budget is answered as an invalid pattern is: $regex fails, $notRegex holds.
        #expect(result.value == (op == "$notRegex" ? "on" : "off"))
        #expect(elapsed < .seconds(5))
        // The same pattern on ordinary input still matches exactly.
        #expect(evaluate(loaded, "r", attributes: ["id": "u1", "name": "aaa"]).value == (op == "$notRegex" ? "off" : "on"))
    }

    @Test("one evaluation's searches share a budget: $elemMatch of a catastrophic $regex over 2,000 elements")
    func regexOverManyElements() throws {
        let loaded = try payload(#"{"features": {"r": {"defaultValue": "off", "rules": [{"condition": {"names": {"$elemMatch": {"$regex": "(a+)+$"}}}, "force": "on"}]}}}"#)
        let hostile = GrowthBookValue.array(Array(repeating: .string(String(repeating: "a", count: 40) + "!"), count: 2_000))
        let start = ContinuousClock.now
        #expect(evaluate(loaded, "r", attributes: ["id": "u1", "names": hostile]).value == "off")
        #expect(ContinuousClock.now - start < .seconds(5))
        // The same condition on ordinary elements still matches.
        #expect(evaluate(loaded, "r", attributes: ["id": "u1", "names": ["b", "aaa"]]).value == "on")
    }

    @Test("$in, $nin and $all between 30,000-element lists are hashed, with JavaScript's === kept")
    func largeSetOperations() throws {
        let list = (0..<30_000).map { "\($0 * 2)" }.joined(separator: ", ")
        let loaded = try payload(#"""
            {"features": {
              "in": {"defaultValue": false, "rules": [{"condition": {"tags": {"$in": [\#(list)]}}, "force": true}]},
              "nin": {"defaultValue": false, "rules": [{"condition": {"tags": {"$nin": [\#(list)]}}, "force": true}]},
              "all": {"defaultValue": false, "rules": [{"condition": {"tags": {"$all": [\#(list)]}}, "force": true}]},
              "ini": {"defaultValue": false, "rules": [{"condition": {"tags": {"$ini": ["A", "b", 1.0, null, true]}}, "force": true}]}
            }}
            """#)
        let odd = GrowthBookValue.array((0..<30_000).map { .int($0 * 2 + 1) })
        #expect(evaluate(loaded, "in", attributes: ["tags": odd]).value == false)
        #expect(evaluate(loaded, "nin", attributes: ["tags": odd]).value == true)
        #expect(evaluate(loaded, "all", attributes: ["tags": odd]).value == false)
        var even = (0..<30_000).map { GrowthBookValue.double(Double($0 * 2)) }
        #expect(evaluate(loaded, "in", attributes: ["tags": .array(even)]).value == true)
        #expect(evaluate(loaded, "all", attributes: ["tags": .array(even)]).value == true)
        even[17] = "34"   // a text is not the number 34
        #expect(evaluate(loaded, "all", attributes: ["tags": .array(even)]).value == false)
        // === between the types: 1 is 1.0; "a" is "A" only case-insensitively; null is null; NaN nothing.
        let mixed = GrowthBookValue.array([.double(.nan), "x", "y", "z", .bool(false), .int(7), "q", "r", "a"] + (0..<10).map { .int(100 + $0) })
        #expect(evaluate(loaded, "ini", attributes: ["tags": mixed]).value == true)
        let none = GrowthBookValue.array([.double(.nan), "c", .bool(false), .int(2), .object([]), .array([])] + (0..<10).map { .int(100 + $0) })
        #expect(evaluate(loaded, "ini", attributes: ["tags": none]).value == false)
        #expect(evaluate(loaded, "ini", attributes: ["tags": .array([.null] + (0..<20).map { .int(100 + $0) })]).value == true)
        #expect(evaluate(loaded, "ini", attributes: ["tags": .array([.int(1)] + (0..<20).map { .int(100 + $0) })]).value == true)
    }

    @Test("a payload of 40,000 features loads, its features in order")
    func largePayload() throws {
        let features = (0..<40_000).map { #""f\#($0)": {"defaultValue": \#($0)}"# }.joined(separator: ", ")
        let loaded = try payload(#"{"features": {\#(features)}}"#)
        #expect(loaded.featureKeys.count == 40_000)
        #expect(loaded.featureKeys.last == "f39999")
        #expect(evaluate(loaded, "f39999").value == 39_999)
        #expect(evaluate(loaded, "f7").value == 7)
    }
}
