// TweakKitTesting's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import Foundation
import TweakKit
import TweakKitFlagd

/// A provider of the app's own, with a way to make it change.
final class MyTweakProvider: TweakProvider, Sendable {
    let name = "mine"
    func allTweaks() -> [Tweak] { [] }
    func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation { TweakObservation() }
    func reload() throws {}
}
let flags = try! DocumentTweakProvider(contentsOf: URL(filePath: "flags.flagd.json"), format: .flagd)
