// TweakKitLaunchDarkly's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import Foundation
import TweakKitLaunchDarkly

// `body` (the downloaded data) is Common.swift's.
let flags = try! LaunchDarklyFlags(data: Data(#"{"flags": {}, "segments": {}}"#.utf8))
let context = LaunchDarklyContext(key: "user-1")
let dataURL = URL(filePath: "all.json")
