// TweakKitGrowthBook's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import Foundation
@testable import TweakKitGrowthBook

let payload = try! GrowthBookPayload(data: Data(#"{"features": {}}"#.utf8), source: "features.json")
nonisolated(unsafe) var evaluator = GrowthBookEvaluator(payload: payload, user: GrowthBookUserContext(attributes: ["id": "user-1"]))
let features: [GrowthBookFeature] = []
let encryptedFeatures = "m5ylFM6ndyOJA2OPadubkw==.Uu7ViqgKEt/dWvCyhI46q088PkAEJbnXKf3KPZjf9IEQQ+A8fojNoxw4wIbPX3aj"
let rule = try! GrowthBookExperiment(json: ["key": "checkout", "variations": [0, 1]])
let featureKey = "checkout"
