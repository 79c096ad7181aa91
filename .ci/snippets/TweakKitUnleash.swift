// TweakKitUnleash's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import Foundation
import TweakKitUnleash

let payload = Data()
let features = try! UnleashFeatures(data: payload, source: "features.json")
let context = UnleashContext(userId: "user-1")
