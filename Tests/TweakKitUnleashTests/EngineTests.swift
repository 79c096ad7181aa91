import Foundation
import Testing
import TweakKit
@testable import TweakKitUnleash

/// One feature with one `default` strategy holding `constraint`, as JSON.
private func features(constraint: String) throws -> UnleashFeatures {
    try UnleashFeatures(data: Data(#"{"features": [{"name": "f", "enabled": true, "strategies": [{"name": "default", "constraints": [\#(constraint)]}]}]}"#.utf8), source: "t", hostname: nil)
}

@Suite("The Unleash engine's details")
struct EngineTests {
    @Test("normalised MurmurHash3: murmur3(\"group:id\") % modulus + 1, seed 0 for rollouts and 86028157 for variants",
          arguments: [("gr1", "123", 73, 796), ("groupX", "999", 25, 260), ("new-checkout", "user-1", 32, 756), ("ü-group", "ユーザー", 44, 114)])
    func hash(group: String, id: String, rollout: UInt32, variant: UInt32) {
        #expect(UnleashHash.normalized(group: group, identifier: id, modulus: 100) == rollout)
        #expect(UnleashHash.normalized(group: group, identifier: id, modulus: 1000, seed: UnleashHash.variantSeed) == variant)
    }

    @Test("semantic versions compare by precedence; invalid ones are refused",
          arguments: [("1.2.3", "1.2.4", true), ("1.2.3-alpha", "1.2.3", true), ("1.2.3-alpha.2", "1.2.3-alpha.10", true),
                      ("1.2.3-alpha.10", "1.2.3-beta", true), ("1.2.3-1", "1.2.3-a", true), ("1.2.3+build", "1.2.3", false),
                      ("10.0.0", "9.0.0", false)])
    func semver(lower: String, upper: String, less: Bool) throws {
        let a = try #require(UnleashSemanticVersion(lower))
        let b = try #require(UnleashSemanticVersion(upper))
        #expect((a < b) == less)
    }

    @Test("versions Unleash's engine refuses", arguments: ["01.2.3", "1.2", "v1.2.3", "1.2.3-", "1.2.3-01", " 1.2.3", "1.2.3.4"])
    func badVersions(text: String) {
        #expect(UnleashSemanticVersion(text) == nil)
    }

    @Test("addresses and ranges: IPv4, IPv6, CIDR, netmasks; strict addresses")
    func addresses() throws {
        let v4 = try #require(IPNetwork("10.0.0.0/8"))
        #expect(v4.contains(try #require(IPAddress("10.255.1.2"))))
        #expect(!v4.contains(try #require(IPAddress("11.0.0.1"))))
        #expect(try #require(IPNetwork("192.168.0.0/255.255.0.0")).contains(try #require(IPAddress("192.168.7.7"))))
        let v6 = try #require(IPNetwork("2001:db8::/32"))
        #expect(v6.contains(try #require(IPAddress("2001:db8:ffff::1"))))
        #expect(!v6.contains(try #require(IPAddress("10.0.0.1"))))
        #expect(try #require(IPNetwork("::ffff:10.0.0.1")).contains(try #require(IPAddress("::ffff:a00:1"))))
        for bad in ["10.0.0.01", "10.0.0", "1::2::3", "2001:db8::1%eth0", "300.1.1.1", ""] {
            #expect(IPAddress(bad) == nil, "\(bad)")
        }
        #expect(IPNetwork("10.0.0.0/33") == nil)
        #expect(IPNetwork("127.invalid") == nil)
    }

    @Test("RFC 3339 times to the nanosecond, with offsets")
    func times() throws {
        let utc = try #require(UnleashTime(rfc3339: "2024-03-01T12:00:00Z"))
        #expect(UnleashTime(rfc3339: "2024-03-01T14:00:00+02:00") == utc)
        #expect(try #require(UnleashTime(rfc3339: "2024-03-01T12:00:00.000000001Z")) > utc)
        #expect(utc.utcText == "2024-03-01T12:00:00Z")
        #expect(UnleashTime(rfc3339: "2024-02-30T12:00:00Z") == nil)
        #expect(UnleashTime(rfc3339: "2024-03-01") == nil)
        #expect(UnleashTime.matchesConstraintGrammar("2024-03-01T12:00:00.000Z"))
        #expect(!UnleashTime.matchesConstraintGrammar("2024-03-01T12:00:00.000000Z"))
    }

    @Test("an ordinal constraint follows its value: NUM_GT with a version compares versions, as Unleash's engine does")
    func ordinalFollowsValue() throws {
        let semver = try features(constraint: #"{"contextName": "v", "operator": "NUM_GT", "value": "1.2.3"}"#)
        #expect(semver.isEnabled("f", context: UnleashContext(properties: ["v": "1.2.10"])))
        #expect(!semver.isEnabled("f", context: UnleashContext(properties: ["v": "1.2.2"])))
        let number = try features(constraint: #"{"contextName": "v", "operator": "SEMVER_GT", "value": "5"}"#)
        #expect(number.isEnabled("f", context: UnleashContext(properties: ["v": "6.5"])))
    }

    @Test("what Unleash's engine cannot compile turns the whole feature off", arguments: [
        #"{"contextName": "x", "operator": "NUM_WHATEVER", "value": "1"}"#,
        #"{"contextName": "x", "operator": "STR_CONTAINS", "values": []}"#,
        #"{"contextName": "x", "operator": "NUM_GT", "value": "abc", "inverted": true}"#,
        #"{"contextName": "x", "operator": "DATE_AFTER", "value": "2024-13-01T00:00:00Z", "inverted": true}"#,
        #"{"contextName": "x", "operator": "NUM_EQ", "inverted": true}"#,
        #"{"contextName": "x", "operator": "IN", "values": ["ends in a backslash\\"], "inverted": true}"#,
    ])
    func uncompilable(constraint: String) throws {
        let features = try features(constraint: constraint)
        #expect(!features.isEnabled("f", context: UnleashContext(properties: ["x": "1"])))
        #expect(features.variant("f", context: UnleashContext()) == .disabled(featureEnabled: false))
    }

    @Test("a SEMVER value with a leading v is false, even inverted; an invalid regex never matches, so inverted it always does")
    func constants() throws {
        #expect(!(try features(constraint: #"{"contextName": "x", "operator": "SEMVER_EQ", "value": "v1.0.0", "inverted": true}"#)
            .isEnabled("f", context: UnleashContext(properties: ["x": "1.0.0"]))))
        #expect(try features(constraint: #"{"contextName": "x", "operator": "REGEX", "value": "(?=a)", "inverted": true}"#)
            .isEnabled("f", context: UnleashContext(properties: ["x": "a"])))
    }

    @Test("a REGEX constraint without a pattern (no value, null or empty; case-insensitive or not) matches any value the context has",
          arguments: ["", #", "value": null"#, #", "value": """#, #", "values": []"#, #", "caseInsensitive": true"#])
    func regexWithoutPattern(extra: String) throws {
        let matching = try features(constraint: #"{"contextName": "x", "operator": "REGEX"\#(extra)}"#)
        #expect(try matching.isEnabled("f", context: UnleashContext(properties: ["x": "anything"])))
        #expect(!(try matching.isEnabled("f", context: UnleashContext())))
        let inverted = try features(constraint: #"{"contextName": "x", "operator": "REGEX", "inverted": true\#(extra)}"#)
        #expect(!(try inverted.isEnabled("f", context: UnleashContext(properties: ["x": "anything"]))))
        #expect(try inverted.isEnabled("f", context: UnleashContext()))
    }

    @Test("a missing segment or a rollout over 100 turns the feature off; an unparsable percentage only its strategy")
    func strategies() throws {
        func load(_ strategies: String) throws -> UnleashFeatures {
            try UnleashFeatures(data: Data(#"{"features": [{"name": "f", "enabled": true, "strategies": \#(strategies)}]}"#.utf8), source: "t", hostname: nil)
        }
        let context = UnleashContext(userId: "u1")
        #expect(!(try load(#"[{"name": "default", "segments": [7]}]"#)).isEnabled("f", context: context))
        #expect(!(try load(#"[{"name": "flexibleRollout", "parameters": {"rollout": "101"}}, {"name": "default"}]"#)).isEnabled("f", context: context))
        #expect(try load(#"[{"name": "flexibleRollout", "parameters": {"rollout": "50.5"}}, {"name": "default"}]"#).isEnabled("f", context: context))
        #expect(!(try load(#"[{"name": "myCustomStrategy"}]"#)).isEnabled("f", context: context))
    }

    @Test("applicationHostname compares the host name, ignoring case")
    func hostname() throws {
        let data = Data(#"{"features": [{"name": "f", "enabled": true, "strategies": [{"name": "applicationHostname", "parameters": {"hostNames": "web-1, Web-2"}}]}]}"#.utf8)
        #expect(try UnleashFeatures(data: data, source: "t", hostname: "WEB-2").isEnabled("f", context: UnleashContext()))
        #expect(!(try UnleashFeatures(data: data, source: "t", hostname: "web-3").isEnabled("f", context: UnleashContext())))
        #expect(!(try UnleashFeatures(data: data, source: "t", hostname: nil).isEnabled("f", context: UnleashContext())))
    }

    @Test("context fields from a TweakKit context: targeting key is userId, known attributes are fields, the rest properties as text")
    func contextMapping() {
        let context = UnleashContext(EvaluationContext(targetingKey: "u1", attributes: [
            "sessionId": "s1", "appName": "web", "age": 42, "beta": true, "properties": ["plan": "pro", "userId": "shadowed"],
        ]))
        // A known field in properties is shadowed by the field itself (and stays, unread, as Unleash's engine leaves it).
        #expect(context == UnleashContext(userId: "u1", sessionId: "s1", appName: "web", properties: ["age": "42", "beta": "true", "plan": "pro", "userId": "shadowed"]))
        #expect(UnleashContext(fields: ["properties": ["userId": "u9"]]).userId == "u9")
    }

    @Test("regular expressions as Rust's regex crate reads them", arguments: [
        ("^(?P<word>a+)$", "aaa", true), ("^[[:alpha:]]+$", "abc", true), ("^(a)\\1$", "aa", false), ("a(?!b)", "ac", false),
        ("(?i)^ABC$", "abc", true), ("a++", "aa", false),
    ])
    func regex(pattern: String, text: String, matches: Bool) throws {
        let escaped = pattern.replacingOccurrences(of: "\\", with: "\\\\")
        let features = try features(constraint: #"{"contextName": "userId", "operator": "REGEX", "value": "\#(escaped)"}"#)
        #expect(features.isEnabled("f", context: UnleashContext(userId: text)) == matches)
    }
}
