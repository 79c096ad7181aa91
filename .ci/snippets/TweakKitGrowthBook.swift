import Foundation
@testable import TweakKitGrowthBook

let payload = try! GrowthBookPayload(data: Data(#"{"features": {}}"#.utf8), source: "features.json")
nonisolated(unsafe) var evaluator = GrowthBookEvaluator(payload: payload, user: GrowthBookUserContext(attributes: ["id": "user-1"]))
let features: [GrowthBookFeature] = []
