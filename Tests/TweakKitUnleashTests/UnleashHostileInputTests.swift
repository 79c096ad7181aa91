import Foundation
import Testing
import TweakKit
import TweakKitUnleash

@Suite("Unleash against hostile input", .timeLimit(.minutes(1)))
struct UnleashHostileInputTests {
    private func features(_ constraint: String) throws -> UnleashFeatures {
        try UnleashFeatures(data: Data(#"{"features": [{"name": "f", "enabled": true, "strategies": [{"name": "default", "constraints": [\#(constraint)]}]}]}"#.utf8), source: "t", hostname: nil)
    }

    @Test("a catastrophic REGEX is answered within its budget: over budget it does not match, as an invalid pattern")
    func catastrophicRegex() throws {
        let hostile = String(repeating: "a", count: 40) + "!"
        let plain = try features(#"{"contextName": "userId", "operator": "REGEX", "value": "(a+)+$"}"#)
        let inverted = try features(#"{"contextName": "userId", "operator": "REGEX", "value": "(a+)+$", "inverted": true}"#)
        let start = ContinuousClock.now
        #expect(!plain.isEnabled("f", context: UnleashContext(userId: hostile)))
        #expect(inverted.isEnabled("f", context: UnleashContext(userId: hostile)))
        #expect(ContinuousClock.now - start < .seconds(5))
        // Ordinary input is still matched exactly.
        #expect(plain.isEnabled("f", context: UnleashContext(userId: "aaaa")))
        #expect(!inverted.isEnabled("f", context: UnleashContext(userId: "aaaa")))
    }

    @Test("a simple REGEX over a long value is not cut short by the budget")
    func longInput() throws {
        let plain = try features(#"{"contextName": "userId", "operator": "REGEX", "value": "b$"}"#)
        let long = UnleashContext(userId: String(repeating: "a", count: 2_000_000) + "b")
        let enabled = plain.isEnabled("f", context: long)   // not inside #expect: a failure would print the value
        #expect(enabled)
    }

    @Test("a dependency chain is one level deep: a parent with parents of its own is never satisfied")
    func dependencyChain() throws {
        let count = 2_000
        let entries = (0..<count).map { index in
            index + 1 < count
                ? #"{"name": "f\#(index)", "enabled": true, "dependencies": [{"feature": "f\#(index + 1)"}], "strategies": [{"name": "default"}]}"#
                : #"{"name": "f\#(index)", "enabled": true, "strategies": [{"name": "default"}]}"#
        }
        let loaded = try UnleashFeatures(data: Data(#"{"features": [\#(entries.joined(separator: ", "))]}"#.utf8), source: "t", hostname: nil)
        #expect(loaded.isEnabled("f\(count - 2)", context: UnleashContext()))
        #expect(!loaded.isEnabled("f0", context: UnleashContext()))
    }
}
