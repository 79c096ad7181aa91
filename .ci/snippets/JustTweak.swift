// JustTweak's doc examples (.ci/snippets.py): a JustTweak app's objects.
import Foundation
// JustTweak's providers are not Sendable, as JustTweak's were: the globals are nonisolated(unsafe).
import JustTweak
import TweakKit

let url = URL(filePath: "LocalTweaks_example.json")
nonisolated(unsafe) let localTweakProvider = JustTweak.LocalTweakProvider(jsonURL: url)
nonisolated(unsafe) let userDefaultsTweakProvider = JustTweak.UserDefaultsTweakProvider(userDefaults: .standard)
let tweakManager = JustTweak.TweakManager(tweakProviders: [userDefaultsTweakProvider, localTweakProvider])
nonisolated(unsafe) let userDefaultsConfiguration = userDefaultsTweakProvider
nonisolated(unsafe) let localConfiguration = localTweakProvider
let tweakKitTweak = TweakKit.Tweak(feature: "general", variable: "answer", content: .int(42))
