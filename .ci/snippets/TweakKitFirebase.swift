// TweakKitFirebase's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import Foundation
import TweakKit
import TweakKitFirebase

let template = try! FirebaseTemplate(data: Data("{}".utf8), source: "template.json")
let context = EvaluationContext(targetingKey: "user-42")
