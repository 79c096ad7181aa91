import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TweakKit
import TweakKitFlagd
@testable import TweakKitServer

@Suite("The editor shows structured values with null")
struct StructuredNullEditorTests {
    @Test("GET /api/tweaks/… returns an object value with its null members and elements")
    func structuredNull() async throws {
        let flags = try FlagdDefinitions(data: Data(#"""
        {"flags": {"checkout.config": {"state": "ENABLED", "variants": {"on": {"coupon": null, "tiers": [1, null]}}, "defaultVariant": "on"}}}
        """#.utf8), file: "flags.flagd.json")
        let manager = TweakManager(tweakProviders: [FlagdTweakProvider(definitions: flags, name: "flags.flagd.json")])
        let editor = TweakEditor(manager: manager, token: "secret-token", readsRequireToken: false, maximumBodySize: 1_024)
        try await editor.application(port: 0).test(.router) { client in
            try await client.execute(uri: "/api/tweaks/checkout/config", method: .get) { (response: TestResponse) async throws in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#""value":{"coupon":null,"tiers":[1,null]}"#))
                let tweak = try object(response.body)
                #expect(tweak["value"] == ["coupon": .null, "tiers": [1, .null]])
                #expect(tweak["type"] == "Object")
            }
        }
    }
}
