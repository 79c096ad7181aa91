// TweakKitLaunchDarkly's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import Foundation
import TweakKitLaunchDarkly

let body = Data(#"{"flags": {}, "segments": {}}"#.utf8)
let flags = try! LaunchDarklyFlags(data: body)
let context = LaunchDarklyContext(key: "user-1")
let dataURL = URL(filePath: "all.json")
