import Testing
import TweakKit
import TweakKitTestSupport
import Foundation
@testable import TweakKitUnleash

/// The byte-level readers a decision uses (plain versions, IPv4 addresses, lowercased text)
/// answer as the general ones.
@Suite("Unleash fast paths")
struct FastPathTests {
    /// Version-like texts from a seed: digits (with leading zeros, past 64 bits), dots in every
    /// position, pre-release and build parts, stray characters.
    static func versionTexts(seed: UInt64, count: Int) -> [String] {
        var random = SplitMix(seed: seed)
        let pieces = ["0", "1", "2", "01", "00", "10", "255", "18446744073709551615", "18446744073709551616",
                      ".", ".", ".", "", "-", "+", "rc", "-beta.1", "+build.5", "v", " ", "x", "é"]
        let numbers = pieces[0..<9]
        return (0..<count).map { _ in
            if random.below(2) == 0 {  // three numbers, now and then with something more
                var text = (0..<3).map { _ in numbers[random.below(numbers.count)] }.joined(separator: ".")
                if random.below(3) == 0 { text += pieces[random.below(pieces.count)] }
                return text
            }
            return (0..<(1 + random.below(7))).map { _ in pieces[random.below(pieces.count)] }.joined()
        }
    }

    @Test("a plain version read from its bytes equals the full parser's reading; anything else is left to it")
    func plainVersions() {
        let fixed = ["1.2.3", "0.0.0", "01.2.3", "1.02.3", "1.2.03", "1.2", "1.2.3.4", "1..3", ".1.2", "1.2.3.", "",
                     "18446744073709551615.0.0", "18446744073709551616.0.0", "1.2.3-rc.1", "1.2.3+b", "v1.2.3", " 1.2.3"]
        var plainSeen = 0
        for text in fixed + Self.versionTexts(seed: 7, count: 20_000) {
            let full = UnleashSemanticVersion(parsingFully: text)
            if let plain = UnleashSemanticVersion.plain(text) {
                plainSeen += 1
                #expect(plain == full, "\(text): plain \(plain), full \(String(describing: full))")
            }
            #expect(UnleashSemanticVersion(text) == full, "\(text)")
        }
        #expect(plainSeen > 1_000)
        #expect(UnleashSemanticVersion.plain("1.2.3") == UnleashSemanticVersion(major: 1, minor: 2, patch: 3))
        #expect(UnleashSemanticVersion.plain("01.2.3") == nil && UnleashSemanticVersion("01.2.3") == nil)
    }

    /// SemVer 2.0.0's published grammar as a regular expression (ASCII digits), numbers within 64 bits.
    static func referenceVersion(_ text: String) -> UnleashSemanticVersion? {
        let numeric = "0|[1-9][0-9]*", identifier = "0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*"
        let pattern = "^(\(numeric))\\.(\(numeric))\\.(\(numeric))(?:-((?:\(identifier))(?:\\.(?:\(identifier)))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$"
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        func group(_ index: Int) -> String? {
            Range(match.range(at: index), in: text).map { String(text[$0]) }
        }
        guard let major = group(1).flatMap({ UInt64($0) }), let minor = group(2).flatMap({ UInt64($0) }),
              let patch = group(3).flatMap({ UInt64($0) }) else { return nil }
        var version = UnleashSemanticVersion(major: major, minor: minor, patch: patch)
        for part in group(4)?.split(separator: ".", omittingEmptySubsequences: false) ?? [] {
            if part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) {
                guard let value = UInt64(part) else { return nil }
                version.prerelease.append(.numeric(value))
            } else {
                version.prerelease.append(.alphanumeric(String(part)))
            }
        }
        return version
    }

    @Test("versions read as SemVer 2.0.0's grammar (a regular expression) reads them, pre-release and build included")
    func versionsMatchTheGrammar() {
        var random = SplitMix(seed: 11)
        let tails = ["", "-rc.1", "-beta.1", "-0", "-00", "-0a", "-a-b.c", "-1.2.3", "-", "-.", "-a..b", "-é", "+b", "+b.5", "+",
                     "-rc+b", "-rc.01", "-18446744073709551616", "+0.00", "-x.7.z.92"]
        var accepted = 0
        for core in Self.versionTexts(seed: 13, count: 10_000) {
            let text = core + tails[random.below(tails.count)]
            let reference = Self.referenceVersion(text)
            if reference != nil { accepted += 1 }
            #expect(UnleashSemanticVersion(text) == reference, "\(text)")
        }
        #expect(accepted > 500)
    }

    @Test("a constraint's version grammar: digits.digits.digits (leading zeros allowed), then -pre and +build parts")
    func constraintGrammar() {
        // The grammar written with splits, as the rule compiler first had it.
        func reference(_ text: String) -> Bool {
            let build = text.firstIndex(of: "+").map { text[text.index(after: $0)...] }
            let beforeBuild = text.firstIndex(of: "+").map { text[..<$0] } ?? Substring(text)
            let pre = beforeBuild.firstIndex(of: "-").map { beforeBuild[beforeBuild.index(after: $0)...] }
            let core = (beforeBuild.firstIndex(of: "-").map { beforeBuild[..<$0] } ?? beforeBuild).split(separator: ".", omittingEmptySubsequences: false)
            let identifier: (Substring) -> Bool = { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }
            guard core.count == 3, core.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return false }
            return [pre, build].compactMap { $0 }.allSatisfy { $0.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(identifier) }
        }
        var random = SplitMix(seed: 17)
        let tails = ["", "-rc.1", "-", "-a..b", "+", "+b.5", "-x+y", "-é", "+0.00", ".", "-rc.", "+a+b"]
        var accepted = 0
        for core in Self.versionTexts(seed: 19, count: 10_000) {
            let text = core + tails[random.below(tails.count)]
            if reference(text) { accepted += 1 }
            #expect(UnleashSemanticVersion.matchesConstraintGrammar(text) == reference(text), "\(text)")
        }
        #expect(accepted > 500)
        #expect(UnleashSemanticVersion.matchesConstraintGrammar("01.2.3-rc.1+b"))
        #expect(!UnleashSemanticVersion.matchesConstraintGrammar("1.2"))
    }

    @Test("IPv4 addresses: four parts of 1–3 digits, each at most 255, no leading zero")
    func ipv4() {
        let valid: [(String, [UInt8])] = [("10.1.2.3", [10, 1, 2, 3]), ("0.0.0.0", [0, 0, 0, 0]), ("255.255.255.255", [255, 255, 255, 255]),
                                           ("192.168.1.20", [192, 168, 1, 20])]
        for (text, bytes) in valid {
            #expect(IPAddress.ipv4(Substring(text), lenient: false) == bytes, "\(text)")
        }
        for text in ["256.1.1.1", "1.2.3", "1.2.3.4.", ".1.2.3", "1..2.3", "01.2.3.4", "1.2.3.04", "1.2.3.4 ", " 1.2.3.4",
                     "1.2.3.1000", "0001.2.3.4", "a.b.c.d", "+1.2.3.4", "1.2.3.-4", "", "1.2.3.4/8", "١.2.3.4"] {
            #expect(IPAddress.ipv4(Substring(text), lenient: false) == nil, "\(text)")
        }
        // Embedded in IPv6 the same rule applies.
        #expect(IPAddress("::ffff:10.0.0.1") != nil)
        #expect(IPAddress("::ffff:10.0.0.01") == nil)
    }

    @Test("a network holds an address as a byte-by-byte prefix comparison says, for seeded IPv4 and IPv6 addresses")
    func networkContains() throws {
        // The reference: the first `prefix` bits compared byte by byte, as bytes.
        func reference(_ network: [UInt8], _ prefix: Int, _ address: [UInt8]) -> Bool {
            var remaining = prefix
            for index in network.indices {
                guard remaining > 0 else { return true }
                let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
                if network[index] & mask != address[index] & mask { return false }
                remaining -= 8
            }
            return true
        }
        var random = SplitMix(seed: 21)
        var held = 0
        for _ in 0..<4_000 {
            let isIPv4 = random.below(2) == 0
            let count = isIPv4 ? 4 : 16
            let base = (0..<count).map { _ in UInt8(random.below(4) == 0 ? 255 : random.below(3)) }
            // An address near the network's: a few bits changed, so that some prefixes hold.
            var bytes = base
            for _ in 0..<random.below(3) { bytes[random.below(count)] ^= UInt8(1) << UInt8(random.below(8)) }
            let prefix = random.below(count * 8 + 1)
            let text = isIPv4 ? bytes.map(String.init).joined(separator: ".")
                : stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
            let networkText = (isIPv4 ? base.map(String.init).joined(separator: ".")
                : stride(from: 0, to: 16, by: 2).map { String(UInt16(base[$0]) << 8 | UInt16(base[$0 + 1]), radix: 16) }.joined(separator: ":")) + "/\(prefix)"
            let network = try #require(IPNetwork(networkText), "\(networkText)")
            let address = try #require(IPAddress(text), "\(text)")
            #expect(address.bytes.prefix(count).elementsEqual(bytes), "\(text)")
            let expected = reference(base, prefix, bytes)
            #expect(network.contains(address) == expected, "\(networkText) holds \(text)")
            if expected { held += 1 }
        }
        #expect(held > 1_000 && held < 3_500, "the seeded addresses must fall on both sides: \(held) held")
        // An IPv4 address is never in an IPv6 network, nor the other way round.
        #expect(try #require(IPNetwork("::/0")).contains(try #require(IPAddress("10.0.0.1"))) == false)
        #expect(try #require(IPNetwork("0.0.0.0/0")).contains(try #require(IPAddress("::1"))) == false)
    }

    @Test("IN lists match byte for byte, with few values and with many")
    func byteLists() {
        let composed = "\u{E9}", decomposed = "e\u{301}"  // é, canonically equivalent, other bytes
        let many = (0..<40).map { "user-\($0)" }
        for values in [["a", composed], ["a", composed] + many] {
            let list = ByteList(values)
            #expect(list.contains(composed))
            #expect(!list.contains(decomposed), "canonically equivalent text is another value to Unleash")
            #expect(list.contains("a") && !list.contains("A") && !list.contains(""))
        }
        // Both forms listed: each finds itself, with few values and with many.
        for values in [[composed, decomposed], [composed, decomposed] + many] {
            let both = ByteList(values)
            #expect(both.contains(composed) && both.contains(decomposed), "\(values.count) values")
        }
        #expect(ByteList(many).contains("user-39") && !ByteList(many).contains("user-40"))
    }

    @Test("case-insensitive text operators lower ASCII in place and other text by Unicode's mapping")
    func caseInsensitiveText() throws {
        func enabled(_ op: String, _ values: [String], _ email: String) throws -> Bool {
            let values = values.map { "\"\($0)\"" }.joined(separator: ", ")
            let payload = """
            {"version": 2, "features": [{"name": "f", "enabled": true, "strategies": [{"name": "default",
              "constraints": [{"contextName": "email", "operator": "\(op)", "values": [\(values)], "caseInsensitive": true}]}]}]}
            """
            let features = try UnleashFeatures(data: Data(payload.utf8), source: "test", hostname: nil)
            return features.isEnabled("f", context: UnleashContext(properties: ["email": email]))
        }
        #expect(try enabled("STR_STARTS_WITH", ["qa-"], "QA-7@Example.com"))
        #expect(try enabled("STR_ENDS_WITH", ["example.COM"], "qa@EXAMPLE.com"))
        #expect(try enabled("STR_CONTAINS", ["@EX"], "qa@example.com"))
        #expect(try !enabled("STR_CONTAINS", ["@ex"], "qa-example.com"))
        #expect(try enabled("STR_STARTS_WITH", ["élan"], "ÉLAN@example.com"))
        #expect(try enabled("STR_ENDS_WITH", ["ß"], "STRASSE-ß"))
        #expect(try enabled("STR_CONTAINS", [""], ""))
    }
}
