// JustTweak's doc examples (.ci/snippets.py): a JustTweak app's objects.
import Foundation
import JustTweak
import TweakKit

let url = URL(filePath: "LocalTweaks_example.json")
let localTweakProvider = JustTweak.LocalTweakProvider(jsonURL: url)
let userDefaultsTweakProvider = JustTweak.UserDefaultsTweakProvider(userDefaults: .standard)
let tweakManager = JustTweak.TweakManager(tweakProviders: [userDefaultsTweakProvider, localTweakProvider])
let userDefaultsConfiguration = userDefaultsTweakProvider
let localConfiguration = localTweakProvider
let tweakKitTweak = TweakKit.Tweak(feature: "general", variable: "answer", content: .int(42))
