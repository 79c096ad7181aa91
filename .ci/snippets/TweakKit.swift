// The TweakKit module's doc examples (.ci/snippets.py): what they take from their surroundings
// beyond Common.swift.
import Foundation
import TweakKit

let url = URL(filePath: "Tweaks.json")
let context = EvaluationContext(targetingKey: "user-42")
let provider = defaults
let document: any TweakDocument = TweakFileDocument(tweaks: [])
let tweak = Tweak(feature: "general", variable: "answer", content: .int(42))

/// A provider of the app's own, as "Implementing a provider" writes one.
final class MyProvider: TweakProvider, Sendable {
    let name = "mine"
    let changeNotifier = TweakChangeNotifier()
    func allTweaks() -> [Tweak] { [] }
    func observeChanges(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        changeNotifier.observe(handler)
    }
}

/// A decision engine's rule, as the engines share them through `Shared`.
struct Experiment: Sendable { var key = "checkout-test" }
let experiment = Experiment()
