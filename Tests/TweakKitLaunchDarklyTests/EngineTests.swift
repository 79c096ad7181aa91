import Testing
import TweakKitEngineSupport
import TweakKitLaunchDarkly

struct EngineTests {
    static let data = #"""
    {"flags": {
      "f1": {"key": "f1", "version": 3, "on": true, "salt": "s", "variations": [true, false], "offVariation": 1,
             "fallthrough": {"variation": 1},
             "targets": [{"values": ["vip"], "variation": 0}],
             "rules": [{"id": "r0", "variation": 0, "clauses": [{"attribute": "plan", "op": "in", "values": ["pro"]}]},
                       {"id": "r1", "variation": 0, "clauses": [{"attribute": "beta", "op": "segmentMatch", "values": ["testers"]}]}]},
      "off": {"key": "off", "version": 1, "on": false, "variations": ["a", "b"], "offVariation": 1},
      "needs-f1": {"key": "needs-f1", "version": 1, "on": true, "variations": ["x", "y"], "offVariation": 1, "fallthrough": {"variation": 0},
                   "prerequisites": [{"key": "f1", "variation": 0}]},
      "loop-a": {"key": "loop-a", "version": 1, "on": true, "variations": [1, 2], "fallthrough": {"variation": 0}, "prerequisites": [{"key": "loop-b", "variation": 0}]},
      "loop-b": {"key": "loop-b", "version": 1, "on": true, "variations": [1, 2], "fallthrough": {"variation": 0}, "prerequisites": [{"key": "loop-a", "variation": 0}]},
      "split": {"key": "split", "version": 1, "on": true, "variations": ["a", "b"], "salt": "x",
                "fallthrough": {"rollout": {"kind": "experiment", "seed": 61, "variations": [{"variation": 0, "weight": 50000}, {"variation": 1, "weight": 50000}]}}}
    },
    "segments": {"testers": {"key": "testers", "included": ["t1"], "version": 1}}}
    """#

    let flags: LaunchDarklyFlags

    init() throws {
        flags = try LaunchDarklyFlags(jsonText: Self.data)
    }

    @Test func targetsRulesSegmentsAndFallthrough() {
        #expect(flags.evaluate("f1", context: LaunchDarklyContext(key: "vip")).reason.kind == .targetMatch)
        let pro = flags.evaluate("f1", context: LaunchDarklyContext(key: "u", attributes: ["plan": "pro"]))
        #expect(pro.value == .bool(true) && pro.reason.ruleIndex == 0 && pro.reason.ruleID == "r0")
        #expect(flags.evaluate("f1", context: LaunchDarklyContext(key: "t1")).reason.ruleIndex == 1)
        let other = flags.evaluate("f1", context: LaunchDarklyContext(key: "u"))
        #expect(other.value == .bool(false) && other.variationIndex == 1 && other.reason.kind == .fallthrough)
    }

    @Test func offPrerequisitesAndCycles() {
        #expect(flags.evaluate("off", context: LaunchDarklyContext(key: "u")).value == "b")
        let failed = flags.evaluate("needs-f1", context: LaunchDarklyContext(key: "u"))
        #expect(failed.reason.kind == .prerequisiteFailed && failed.reason.prerequisiteKey == "f1" && failed.value == "y")
        #expect(flags.evaluate("needs-f1", context: LaunchDarklyContext(key: "vip")).value == "x")
        let loop = flags.evaluate("loop-a", context: LaunchDarklyContext(key: "u"), default: 9)
        #expect(loop == LaunchDarklyDetail(value: 9, variationIndex: nil, reason: .error(.malformedFlag)))
    }

    @Test func errors() {
        #expect(flags.evaluate("nope", context: LaunchDarklyContext(key: "u")).reason.errorKind == .flagNotFound)
        #expect(flags.evaluate("f1", context: LaunchDarklyContext(json: ["kind": "user"])).reason.errorKind == .userNotSpecified)
        #expect(flags.evaluate("off", context: LaunchDarklyContext(key: "u"), default: 1, as: .int).reason.errorKind == .wrongType)
    }

    @Test func experimentsAreDeterministic() {
        let first = flags.evaluate("split", context: LaunchDarklyContext(key: "user-a"))
        #expect(first == flags.evaluate("split", context: LaunchDarklyContext(key: "user-a")))
        #expect(first.reason.inExperiment)
    }

    @Test func badDataNamesThePath() {
        #expect(throws: LaunchDarklyDataError(path: "flags.f1.rules[0].clauses[0].op", message: "must be a string, found a number")) {
            try LaunchDarklyFlags(jsonText: #"{"flags": {"f1": {"key": "f1", "version": 1, "rules": [{"clauses": [{"attribute": "a", "op": 1, "values": []}]}]}}}"#)
        }
        #expect(throws: LaunchDarklyDataError.self) { try LaunchDarklyFlags(jsonText: #"{"flags": {"f1": {"key": "f1", "version": 1, "on": "yes"}}}"#) }
    }

    @Test func eventsForPrerequisitesThenTheFlag() {
        var seen: [String] = []
        _ = flags.evaluate("needs-f1", context: LaunchDarklyContext(key: "vip")) { seen.append($0.flagKey) }
        #expect(seen == ["f1", "needs-f1"])
    }
}
