import Foundation
import TweakKit
import TweakKitFirebase

let template = try! FirebaseTemplate(data: Data("{}".utf8), source: "template.json")
let context = EvaluationContext(targetingKey: "user-42")
