import Foundation
import Testing
import TweakKit
import TweakKitFlagd
import TweakKitTesting

@Suite("flagd passes the provider contract")
struct FlagdConformanceTests {
    static let flags = #"{"flags": {"new-checkout": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off", "targeting": {"if": [{"==": [{"var": "country"}, "NL"]}, "on", null]}}, "checkout.theme": {"state": "ENABLED", "variants": {"light": "light", "dark": "dark"}, "defaultVariant": "light"}}}"#

    @Test("the flagd format")
    func format() async throws {
        try await TweakDocumentFormatConformance(
            format: .flagd, sample: Data(Self.flags.utf8),
            changed: Data(Self.flags.replacingOccurrences(of: #""defaultVariant": "light""#, with: #""defaultVariant": "dark""#).utf8)
        ).run()
    }

    @Test("FlagdTweakProvider")
    func provider() async throws {
        let definitions = try FlagdDefinitions(data: Data(Self.flags.utf8), file: "flags.flagd.json")
        let provider = FlagdTweakProvider(definitions: definitions, name: "flagd")
        try await TweakProviderConformance(provider: provider, change: { provider.update(definitions) }).run()
    }
}
