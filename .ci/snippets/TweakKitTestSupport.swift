// TweakKitTestSupport's doc examples (.ci/snippets.py): what they take from their surroundings beyond Common.swift.
import Foundation
@testable import TweakKitTestSupport

var server: TestHTTPServer { fatalError("compiled, never run") }
let options = ["a", "b"]
let connection = 0
func serve(_ connection: Int) async {}
