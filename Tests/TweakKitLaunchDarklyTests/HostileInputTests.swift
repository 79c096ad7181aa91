import Testing
import TweakKitEngineSupport
import TweakKitLaunchDarkly

/// Deep and cyclic references, bad attribute references and patterns: answers, never a crash or a stall.
struct HostileInputTests {
    /// `count` flags, each the prerequisite of the one before; the last points back at `cycleTo` if given.
    static func chain(_ count: Int, cycleTo: Int?) -> String {
        var flags: [String] = []
        for index in 0..<count {
            let next = index + 1 < count ? index + 1 : cycleTo
            let prerequisites = next.map { #"[{"key": "c\#($0)", "variation": 0}]"# } ?? "[]"
            flags.append(#""c\#(index)": {"key": "c\#(index)", "version": 1, "on": true, "variations": [true, false], "offVariation": 1, "fallthrough": {"variation": 0}, "prerequisites": \#(prerequisites)}"#)
        }
        return #"{"flags": {\#(flags.joined(separator: ","))}}"#
    }

    @Test(arguments: [(20, nil as Int?, LaunchDarklyReason.Kind.fallthrough), (20, 5, .error), (20, 0, .error), (150, nil, .error), (2000, 1999, .error)])
    func prerequisiteChains(length: Int, cycleTo: Int?, kind: LaunchDarklyReason.Kind) throws {
        let flags = try LaunchDarklyFlags(jsonText: Self.chain(length, cycleTo: cycleTo))
        let detail = flags.evaluate("c0", context: LaunchDarklyContext(key: "u"))
        #expect(detail.reason.kind == kind)
        if kind == .error { #expect(detail.reason.errorKind == .malformedFlag) }
    }

    /// 60 levels of two flags (or segments) each naming both of the next level: 2^60 paths, each
    /// flag and segment decided once.
    @Test(.timeLimit(.minutes(1))) func diamondsAreDecidedOnce() throws {
        let levels = 60
        var flags: [String] = []
        var segments: [String] = []
        for level in 0..<levels {
            let next = level + 1 < levels ? #"[{"key": "a\#(level + 1)", "variation": 0}, {"key": "b\#(level + 1)", "variation": 0}]"# : "[]"
            let nextSegments = level + 1 < levels
                ? #"[{"clauses": [{"attribute": "key", "op": "segmentMatch", "values": ["sa\#(level + 1)", "sb\#(level + 1)"]}, {"attribute": "key", "op": "segmentMatch", "values": ["sb\#(level + 1)"]}]}]"#
                : #"[{"clauses": [{"attribute": "key", "op": "in", "values": ["u"]}]}]"#
            for name in ["a", "b"] {
                flags.append(#""\#(name)\#(level)": {"key": "\#(name)\#(level)", "version": 1, "on": true, "variations": [true, false], "offVariation": 1, "fallthrough": {"variation": 0}, "prerequisites": \#(next)}"#)
                segments.append(#""s\#(name)\#(level)": {"key": "s\#(name)\#(level)", "version": 1, "rules": \#(nextSegments)}"#)
            }
        }
        flags.append(#""seg": {"key": "seg", "version": 1, "on": true, "variations": [true, false], "fallthrough": {"variation": 1}, "rules": [{"variation": 0, "clauses": [{"attribute": "key", "op": "segmentMatch", "values": ["sa0"]}]}]}"#)
        let data = try LaunchDarklyFlags(jsonText: #"{"flags": {\#(flags.joined(separator: ","))}, "segments": {\#(segments.joined(separator: ","))}}"#)
        let chain = data.evaluate("a0", context: LaunchDarklyContext(key: "u"))
        #expect(chain.reason.kind == .fallthrough)
        #expect(chain.value == true)
        let segment = data.evaluate("seg", context: LaunchDarklyContext(key: "u"))
        #expect(segment.reason.kind == .ruleMatch)
        #expect(segment.value == true)
    }

    @Test func segmentCyclesAreMalformed() throws {
        let flags = try LaunchDarklyFlags(jsonText: #"""
        {"flags": {"f": {"key": "f", "version": 1, "on": true, "variations": [1, 2], "fallthrough": {"variation": 1},
          "rules": [{"variation": 0, "clauses": [{"attribute": "key", "op": "segmentMatch", "values": ["a"]}]}]}},
         "segments": {"a": {"key": "a", "version": 1, "rules": [{"clauses": [{"attribute": "key", "op": "segmentMatch", "values": ["b"]}]}]},
                      "b": {"key": "b", "version": 1, "rules": [{"clauses": [{"attribute": "key", "op": "segmentMatch", "values": ["a"]}]}]}}}
        """#)
        #expect(flags.evaluate("f", context: LaunchDarklyContext(key: "u")).reason.errorKind == .malformedFlag)
    }

    @Test func badReferencesAndPatterns() throws {
        let flags = try LaunchDarklyFlags(jsonText: #"""
        {"flags": {
          "ref": {"key": "ref", "version": 1, "on": true, "variations": [1, 2], "fallthrough": {"variation": 1},
            "rules": [{"variation": 0, "clauses": [{"contextKind": "user", "attribute": "/a//b", "op": "in", "values": [1]}]}]},
          "slow": {"key": "slow", "version": 1, "on": true, "variations": [1, 2], "fallthrough": {"variation": 1},
            "rules": [{"variation": 0, "clauses": [{"attribute": "s", "op": "matches", "values": ["^(a+)+$", "("]}]}]}}}
        """#)
        #expect(flags.evaluate("ref", context: LaunchDarklyContext(key: "u")).reason.errorKind == .malformedFlag)
        // Another kind: the clause is not read, so the bad reference does not matter.
        #expect(flags.evaluate("ref", context: LaunchDarklyContext(kind: "org", key: "o")).reason.kind == .fallthrough)
        let text = String(repeating: "a", count: 40) + "!"
        let slow = flags.evaluate("slow", context: LaunchDarklyContext(key: "u", attributes: ["s": .string(text)]))
        #expect(slow.reason.kind == .fallthrough)
    }
}
