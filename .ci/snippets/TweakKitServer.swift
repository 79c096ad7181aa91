// TweakKitServer's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import Foundation
import TweakKitServer

nonisolated(unsafe) var editor = TweakEditor(manager: manager, token: "s3cret")
import TweakKitStore

var provider: StoreTweakProvider { fatalError("compiled, never run") }
let adasToken = "a long random secret"
