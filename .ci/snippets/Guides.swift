// The README's and the TweakKit catalog's examples (.ci/snippets.py): what they take from their
// surroundings beyond Common.swift.
import Foundation
import CoreMetrics
import JustTweak
import Prometheus
import TweakKit

/// The Acme flags document of "Adding a source": a format that reads nothing.
struct AcmeFlags: TweakDocument {
    init(data: Data, source: String) throws {}
    func tweaks(source: String) -> [TweakKit.Tweak] { [] }
}
/// The provider a team tests with the conformance suite ("Testing with tweaks").
let myProvider = try! DocumentTweakProvider(contentsOf: URL(filePath: "Tweaks.json"), format: .tweaks)

/// A JustTweak app's manager ("Migrating from JustTweak").
let tweakManager = JustTweak.TweakManager(tweakProviders: [])

let url = URL(filePath: "Tweaks.json")
let context = EvaluationContext(targetingKey: "user-42")

// Examples/CLIApp's own pieces, around its excerpt in "Typed keys and the code generator".
struct TweakOptions {
    func manager() throws -> TweakKit.TweakManager { TweakKit.TweakManager(tweakProviders: []) }
}
let tweakOptions = TweakOptions()
struct CheckoutError: Error {
    init(_ message: String) {}
}
let subtotal = 120.0
